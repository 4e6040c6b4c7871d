#!/usr/bin/env bash
# tests/rewriter/gate_safety_test.sh: `kcheck --fix` against a hostile
# repository and a busy file system, with fake compilers (no GPU, no nvcc):
#  - --fix on a symbolic link writes the target and keeps the link;
#  - .kcheck.yaml extra-args never put -ccbin, -Xcompiler, --compiler-bindir
#    (any spelling) on the compile gate's command line, for --fix, --diff
#    and --export-fixes; -I and -D still reach it;
#  - a compiler that closes its output and hangs is still killed at the limit;
#  - SIGTERM during the gate kills the compiler and removes the private
#    copy it compiles, folders included;
#  - a save made while the gate runs is kept (the fix is not written over it);
#  - a second --fix run that changed the file after this run analysed it
#    makes this run's fixes stale (never applied twice);
#  - an I/O error in the gate is exit 2, not "does not compile".
# Usage: gate_safety_test.sh KCHECK
set -u
K=${1:?usage: gate_safety_test.sh KCHECK}
T=$(mktemp -d /tmp/ka-gatesafe-XXXXXX)
cleanup() { [ -s "$T/pid" ] && kill -9 "$(cat "$T/pid")" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
# running, and not a zombie waiting for a parent that is gone
alive() { [ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* (.*) Z' "/proc/$1/stat"; }

cat > "$T/orig.cu" <<'CU'
__global__ void sq(float *out, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = powf(x[i], 2.0f) * 0.5;
}

void run(float *out, const float *x, int n)
{
    sq<<<(n + 255) / 256, 256>>>(out, x, n);
}
CU
mkdir -p "$T/p" "$T/tmp" && cd "$T/p" || exit 2
export TMPDIR="$T/tmp" # where the gate's private copies go
cp ../orig.cu k.cu

# A compiler that accepts everything.
printf '#!/bin/sh\nexit 0\n' > ../okcc && chmod +x ../okcc
export KCHECK_NVCC="$T/okcc"

# --fix on a symbolic link.
mkdir -p ln && cp ../orig.cu ln/real.cu && ln -s real.cu ln/link.cu
timeout 120 "$K" --fix ln/link.cu > /dev/null 2> link.err
[ -L ln/link.cu ] && grep -q '__launch_bounds__(256)' ln/real.cu \
  && ok "--fix through a link fixes the target and keeps the link" \
  || fail "--fix link: link kept? $([ -L ln/link.cu ] && echo yes || echo no) $(cat link.err)"
rm -rf ln

# S4: the repository does not pick the host compiler.
cat > ../argcc <<EOF
#!/bin/sh
for a; do echo "\$a"; done >> "$T/argv.log"
exit 0
EOF
chmod +x ../argcc
mkdir -p evil && cat > evil/.kcheck.yaml <<'Y'
extra-args: ["-Iinc", "-DFOO=1", "-ccbin=./evil", "-ccbin", "./evil2", "--compiler-bindir=./evil3",
             "--compiler-bindir", "./evil4", "-Xcompiler", "-fplugin=./evil5.so", "-Xlinker", "-rpath=evil6",
             "-Xcompiler=-fplugin=./evil7.so", "--compiler-options", "-fplugin=./evil8.so",
             "-I", "-ccbin=./evil9", "--linker-options=-evil10", "-Xptxas=evil11", "-ccbinevil12"]
Y
cp ../orig.cu evil/k.cu
for mode in "--fix" "--diff" "--export-fixes $T/fx.yaml"; do
  rm -f "$T/argv.log"; cp ../orig.cu evil/k.cu
  (cd evil && KCHECK_NVCC="$T/argcc" timeout 120 "$K" $mode k.cu > /dev/null 2> ../s4.err)
  if [ ! -s "$T/argv.log" ]; then fail "S4 $mode: the gate did not run: $(cat s4.err)"; continue; fi
  # kcheck's own -Xcompiler: -iquote with its private link to the file's folder, nothing else
  own=$(awk '/^-Xcompiler$/ { getline n; if (n !~ /^-iquote\/.*\/kcheck-[A-Za-z0-9]+\/i$/) print n }' "$T/argv.log")
  if [ -n "$own" ] || grep -v -x -e '-Xcompiler' -e '-iquote/.*/kcheck-[A-Za-z0-9]*/i' "$T/argv.log" \
      | grep -q 'evil\|ccbin\|compiler-bindir\|Xcompiler\|Xlinker\|compiler-options\|linker-options\|Xptxas'; then
    fail "S4 $mode: a host-compiler flag reached the gate: $(grep 'evil\|ccbin\|bindir\|X\|options' "$T/argv.log" | tr '\n' ' ')"
  else
    grep -qx -- '-Iinc' "$T/argv.log" && grep -qx -- '-DFOO=1' "$T/argv.log" \
      && ok "S4 $mode: only include and macro flags reach the gate" || fail "S4 $mode: -I/-D lost: $(tr '\n' ' ' < "$T/argv.log")"
  fi
done
grep -q "ignored" s4.err && ok "S4: the dropped flags are named" || fail "S4: no note on dropped flags: $(cat s4.err)"
rm -rf evil

# A compiler that closes its output and then hangs is killed at the time limit.
cp ../orig.cu k.cu
printf '#!/bin/sh\nexec >/dev/null 2>&1\nsleep 60\n' > ../closecc && chmod +x ../closecc
# (the message is the evidence; `timeout` only guards against a hang)
KCHECK_NVCC="$T/closecc" timeout 120 "$K" --fix --compile-timeout 1 k.cu > /dev/null 2> close.err
grep -q 'compiler killed after 1 s time limit' close.err && cmp -s k.cu ../orig.cu \
  && ok "a compiler with its output closed is killed at the limit" || fail "closed output: $(cat close.err)"

# SIGTERM during the gate: the compiler and what it started die with
# kcheck, the temporary goes.
cat > ../slowcc <<EOF
#!/bin/sh
sleep 60 &
echo \$! > "$T/pid"
wait
EOF
chmod +x ../slowcc
rm -f "$T/pid"
cp ../orig.cu k.cu
KCHECK_NVCC="$T/slowcc" "$K" --fix k.cu > /dev/null 2>&1 & kpid=$!
for _ in $(seq 100); do [ -s "$T/pid" ] && break; sleep 0.1; done
sleep 0.2
kill -TERM $kpid; wait $kpid; rc=$?
sleep 0.3
if [ ! -s "$T/pid" ]; then fail "SIGTERM: the slow compiler never started"
else
  alive "$(cat "$T/pid")" && fail "SIGTERM: the compiler survived kcheck" \
    || ok "SIGTERM: the compiler was killed with kcheck (rc=$rc)"
  [ -z "$(ls -A "$T/tmp")" ] && ok "SIGTERM: no temporary left" || fail "SIGTERM: a temporary was left: $(ls -R "$T/tmp")"
fi
cmp -s k.cu ../orig.cu && ok "SIGTERM: the file is untouched" || fail "SIGTERM: the file changed"
rm -f "$T/pid"
cp ../orig.cu k.cu

# A save during the gate is not overwritten.
cat > ../savecc <<'EOF'
#!/bin/sh
# the copy is TMPDIR/kcheck-X/d/../k.cu; -iquoteTMPDIR/kcheck-X/i links to the file's folder
for a; do case $a in -iquote*) q=${a#-iquote};; esac; f=$a; done
echo '// saved during the gate' >> "$(readlink "$q")/$(basename "$f")"
exit 0
EOF
chmod +x ../savecc
KCHECK_NVCC="$T/savecc" timeout 120 "$K" --fix k.cu > /dev/null 2> save.err; rc=$?
grep -q '// saved during the gate' k.cu && ! grep -q '__launch_bounds__' k.cu \
  && grep -q 'changed on disk' save.err \
  && ok "a save during the gate is kept, the fixes are not applied" || fail "lost update: rc=$rc $(cat save.err) $(tail -2 k.cu)"
cp ../orig.cu k.cu

# Another --fix run that changes the file after this one analysed it:
# its fixes are stale (never applied twice).  The other run happens inside
# --ptxas's nvcc call, after the parse and before the fixes are computed.
cat > ../racecc <<EOF
#!/bin/sh
case " \$* " in
*" -Xptxas "*)
  for a; do case \$a in -iquote*) q=\${a#-iquote};; esac; f=\$a; done
  KCHECK_NVCC=/nonexistent "$K" --fix "\$(readlink "\$q")/\$(basename "\$f")" > /dev/null 2>&1
  exit 0;;
esac
exit 0
EOF
chmod +x ../racecc
cp ../orig.cu once.cu
KCHECK_NVCC=/nonexistent timeout 120 "$K" --fix once.cu > /dev/null 2>&1
KCHECK_NVCC="$T/racecc" timeout 120 "$K" --ptxas --fix k.cu > /dev/null 2> race.err
cmp -s k.cu once.cu && grep -q 'changed on disk' race.err \
  && ok "two --fix runs: the second sees its fixes are stale" || fail "double fix: $(cat race.err) $(diff once.cu k.cu)"
cp ../orig.cu k.cu

# An I/O error in the gate (the private copy cannot be made: no folder can
# be created in /proc, even by root) is exit 2.
TMPDIR=/proc timeout 120 "$K" --fix k.cu > /dev/null 2> io.err; rc=$?
[ $rc = 2 ] && grep -q 'cannot create a private folder in /proc' io.err && ! grep -q 'does not compile' io.err \
  && cmp -s k.cu ../orig.cu \
  && ok "gate I/O error: exit 2, said as such" || fail "gate I/O: rc=$rc $(cat io.err)"

# A name kcheck did not choose never reaches the compiler: a file named
# with $(...) is compiled as a copy named k__touch_PWNED_.cu.
cp ../orig.cu 'k$(touch PWNED).cu'
rm -f "$T/argv.log"
KCHECK_NVCC="$T/argcc" timeout 120 "$K" --fix 'k$(touch PWNED).cu' > /dev/null 2> name.err
[ ! -e PWNED ] && grep -q '/k__touch_PWNED_\.cu$' "$T/argv.log" && ! grep -q 'k\$(' "$T/argv.log" \
  && grep -q '__launch_bounds__(256)' 'k$(touch PWNED).cu' \
  && ok "a file named k\$(...).cu is fixed through a copy named by kcheck" \
  || fail "k\$(...).cu: $(cat name.err) $(tr '\n' ' ' < "$T/argv.log")"
rm -f 'k$(touch PWNED).cu' PWNED
[ -z "$(ls -A "$T/tmp")" ] && ok "no private copy left" || fail "left in TMPDIR: $(ls -R "$T/tmp")"

[ $fails = 0 ] && echo "all gate safety checks passed" || echo "$fails gate safety check(s) failed"
exit $((fails > 0))
