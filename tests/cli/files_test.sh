#!/usr/bin/env bash
# tests/cli/files_test.sh: what kcheck reads and writes, end to end, on
# hostile file systems: FIFOs (as input, in a walked folder, as --baseline),
# symbolic-link loops, missing paths, includes of devices, FIFOs and
# oversized files, file names that start with '-', -o
# and --export-fixes naming an input (and facts -o, knowledge export,
# optimize --out), -o through a symbolic link and into a
# FIFO or a character device, and the temporary files kcheck leaves alone.
# No GPU and no compiler needed.  Every check runs under `timeout`, so a
# hang is a failure, not a stuck test.
# Usage: files_test.sh KCHECK
set -u
K=${1:?usage: files_test.sh KCHECK}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/ka-files-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
k() { timeout 60 "$K" --fail-on note "$@"; }

cat > "$T/k.cu" <<'CU'
__global__ void sq(float *out, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = powf(x[i], 2.0f) * 0.5;
}
CU
cd "$T" || exit 2
export KCHECK_NVCC=/nonexistent/nvcc   # no compile gate here

# A FIFO named as input: one-line error, the other file is still checked, exit 2.
mkfifo in.cu
k in.cu k.cu > fifo.out 2> fifo.err; rc=$?
[ $rc = 2 ] && grep -q "^kcheck: error: cannot read in.cu: not a regular file" fifo.err \
  && grep -q 'math-pow-small-integer' fifo.out \
  && ok "FIFO as input refused, the run goes on" || fail "FIFO input: rc=$rc $(cat fifo.err)"
rm -f in.cu

# A FIFO found in a walked folder.
mkdir -p walk/sub && cp k.cu walk/sub/a.cu && mkfifo walk/sub/p.cu
k walk > walk.out 2> walk.err; rc=$?
[ $rc = 2 ] && grep -q "not a regular file" walk.err && grep -q 'walk/sub/a.cu' walk.out \
  && ok "FIFO in a walked folder refused, the run goes on" || fail "FIFO in walk: rc=$rc $(cat walk.err)"
rm -rf walk

# A FIFO as --baseline.
mkfifo base.json
k --baseline base.json k.cu > /dev/null 2> base.err; rc=$?
[ $rc = 2 ] && grep -q "base.json: not a regular file" base.err \
  && ok "FIFO as --baseline refused" || fail "FIFO baseline: rc=$rc $(cat base.err)"
[ -p base.json ] && ok "the FIFO baseline is still a FIFO" || fail "the FIFO baseline was replaced"
rm -f base.json

# A FIFO as .kcheck.yaml.
mkdir cfg && cp k.cu cfg/ && mkfifo cfg/.kcheck.yaml
(cd cfg && timeout 60 "$K" k.cu > /dev/null 2> ../cfg.err); rc=$?
[ $rc = 2 ] && grep -q "not a regular file" cfg.err && ok "FIFO as .kcheck.yaml refused" \
  || fail "FIFO config: rc=$rc $(cat cfg.err)"
rm -rf cfg

# Symbolic-link loops: each folder is walked once.
mkdir -p loop/a/b && cp k.cu loop/a/b/x.cu
ln -s .. loop/a/b/up1 && ln -s .. loop/a/b/up2 && ln -s ../.. loop/a/b/up3 && ln -s . loop/a/self
# (k's `timeout` ends an endless walk with status 124: no clock is read here)
k loop > loop.out 2> loop.err; rc=$?
[ $rc = 1 ] && [ "$(grep -c 'math-pow-small-integer' loop.out)" = 1 ] \
  && ok "symlink loops walked once" || fail "symlink loop: rc=$rc $(head -3 loop.err)"
rm -rf loop

# The same in a --rules-dir.
mkdir -p rl/a && ln -s . rl/s1 && ln -s . rl/s2 && ln -s .. rl/a/up
k --rules-dir rl k.cu > /dev/null 2> rl.err; rc=$?
[ $rc = 1 ] && ok "symlink loops in --rules-dir walked once" \
  || fail "rules-dir loop: rc=$rc $(head -3 rl.err)"
rm -rf rl

# A missing path is reported and the run goes on, exit 2.
k missing.cu k.cu > miss.out 2> miss.err; rc=$?
[ $rc = 2 ] && grep -q "^kcheck: error: cannot read missing.cu: No such file or directory" miss.err \
  && grep -q 'math-pow-small-integer' miss.out \
  && ok "missing path reported, the run goes on" || fail "missing path: rc=$rc $(cat miss.err)"

# File names that start with '-'.
mkdir dash && cp k.cu dash/-a.cu
(cd dash && timeout 60 "$K" --fail-on note ./-a.cu > ../dash1.out 2> ../dash1.err); rc=$?
[ $rc = 1 ] && grep -q 'math-pow-small-integer' dash1.out \
  && ok "./-a.cu is analysed as a file" || fail "./-a.cu: rc=$rc $(cat dash1.err)"
(cd dash && timeout 60 "$K" --fail-on note . > ../dash2.out 2> ../dash2.err); rc=$?
[ $rc = 1 ] && grep -q -- '-a.cu:5:18: note' dash2.out \
  && ok "-a.cu found by the walk is analysed as a file" || fail "walk -a.cu: rc=$rc $(cat dash2.err)"
rm -rf dash

# Outputs over inputs are refused, as gcc does, and the source is untouched.
cp k.cu orig.cu
k -o k.cu k.cu > /dev/null 2> over1.err; rc=$?
[ $rc = 2 ] && grep -q "^kcheck: error: -o k.cu is an input file" over1.err && cmp -s k.cu orig.cu \
  && ok "-o naming an input refused" || fail "-o over input: rc=$rc $(cat over1.err)"
cp orig.cu k.cu
ln -s k.cu alias.cu
k --export-fixes alias.cu k.cu > /dev/null 2> over2.err; rc=$?
[ $rc = 2 ] && grep -q "^kcheck: error: --export-fixes alias.cu is an input file" over2.err && cmp -s k.cu orig.cu \
  && ok "--export-fixes naming an input (through a link) refused" || fail "--export-fixes over input: rc=$rc $(cat over2.err)"
cp orig.cu k.cu
mkdir d2 && cp k.cu d2/y.cu
k -o d2/y.cu d2 > /dev/null 2> over3.err; rc=$?
[ $rc = 2 ] && grep -q "is an input file" over3.err && cmp -s d2/y.cu orig.cu \
  && ok "-o naming a file of a walked folder refused" || fail "-o over walked input: rc=$rc $(cat over3.err)"
rm -rf d2 alias.cu

# Every command that writes checks its outputs the same way: facts -o (also
# through a link), knowledge export (a file of the export that is the DB),
# optimize --out (a folder with results needs --force; with it, no output may
# be one of the task's files).
timeout 60 "$K" facts k.cu -o k.cu > /dev/null 2> over4.err; rc=$?
[ $rc = 2 ] && grep -q "^kcheck: error: -o k.cu is an input file" over4.err && cmp -s k.cu orig.cu \
  && ok "facts -o naming its input refused" || fail "facts -o over input: rc=$rc $(cat over4.err)"
ln -s k.cu alias.cu
timeout 60 "$K" facts k.cu -o alias.cu > /dev/null 2> over5.err; rc=$?
[ $rc = 2 ] && grep -q "is an input file" over5.err && cmp -s k.cu orig.cu && [ -L alias.cu ] \
  && ok "facts -o through a link to its input refused" || fail "facts -o via link: rc=$rc $(cat over5.err)"
rm -f alias.cu
mkdir ex && echo '{"format": "kcheck-knowledge", "version": 1, "evidence": []}' > ex/evidence.json
timeout 60 "$K" knowledge import ex --db kdb.db > /dev/null 2>&1 || fail "knowledge import for the export check"
cp kdb.db kdb.orig && mkdir ex2 && ln -s ../kdb.db ex2/evidence.json
timeout 60 "$K" knowledge export ex2 --db kdb.db > /dev/null 2> over6.err; rc=$?
[ $rc = 2 ] && grep -q "export ex2/evidence.json is an input file" over6.err && cmp -s kdb.db kdb.orig \
  && ok "knowledge export over its DB refused" || fail "knowledge export over DB: rc=$rc $(cat over6.err)"
rm -rf ex ex2 kdb.db kdb.orig
mkdir task && cp -r "$SRC/bench/tasks/gelu" task/t && cp task/t/baseline.cu orig-baseline.cu
mkdir res && echo old > res/report.md
timeout 60 "$K" optimize task/t --compile-only --no-db --out res > /dev/null 2> over7.err; rc=$?
[ $rc = 2 ] && grep -q "^kcheck: error: --out res is not empty (an earlier run's results?); --force replaces them" over7.err \
  && [ "$(cat res/report.md)" = old ] \
  && ok "optimize --out over earlier results refused" || fail "optimize --out non-empty: rc=$rc $(cat over7.err)"
ln -s ../task/t/baseline.cu res/best.cu
timeout 60 "$K" optimize task/t --compile-only --no-db --out res --force > /dev/null 2> over8.err; rc=$?
[ $rc = 2 ] && grep -q "^kcheck: error: --out res/best.cu is an input file" over8.err && cmp -s task/t/baseline.cu orig-baseline.cu \
  && ok "optimize --force never writes over the task's files" || fail "optimize --force over input: rc=$rc $(cat over8.err)"
rm -rf task res

# -o through a symbolic link writes the target and keeps the link.
echo old > target.txt && ln -s target.txt link.txt
k -o link.txt k.cu > /dev/null 2> link.err
[ -L link.txt ] && grep -q 'math-pow-small-integer' target.txt \
  && ok "-o through a link writes its target" || fail "-o link: link kept? $([ -L link.txt ] && echo yes || echo no) $(cat link.err)"

# -o into a character device through a link (the device itself is untouched).
ln -s /dev/null devlink
k -o devlink k.cu > /dev/null 2> dev.err; rc=$?
[ $rc = 1 ] && [ -L devlink ] && [ -c /dev/null ] \
  && ok "-o to a character device writes in place" || fail "-o device: rc=$rc $(cat dev.err)"
rm -f devlink

# -o into a FIFO: in place, not replaced; with no reader it is an error, not a hang.
mkfifo out.fifo
k -o out.fifo k.cu > /dev/null 2> fifo1.err; rc=$?
[ $rc = 2 ] && [ -p out.fifo ] && grep -q "no process is reading" fifo1.err \
  && ok "-o to a FIFO nobody reads: error, no hang" || fail "-o FIFO no reader: rc=$rc $(cat fifo1.err)"
(timeout 60 cat out.fifo > fifo.got) & reader=$!
sleep 0.5
k -o out.fifo k.cu > /dev/null 2> fifo2.err; rc=$?
wait $reader
[ $rc = 1 ] && [ -p out.fifo ] && grep -q 'math-pow-small-integer' fifo.got \
  && ok "-o to a FIFO with a reader writes in place" || fail "-o FIFO: rc=$rc $(cat fifo2.err)"
rm -f out.fifo

# Includes of a device, a FIFO or an oversized file, and -include FIFO from a
# compile database: that file fails at once with one clear line (never a
# read without end nor a wait for a writer); the other file is still checked.
mkdir inc && cp k.cu inc/ok.cu && mkfifo inc/pipe.h
printf '#include "/dev/zero"\n__global__ void z(float *o) { o[threadIdx.x] = 1; }\n' > inc/dev.cu
printf '#include "pipe.h"\n__global__ void z(float *o) { o[threadIdx.x] = 1; }\n' > inc/fifo.cu
head -c 67108865 /dev/zero > inc/huge.h
printf '#include "huge.h"\n__global__ void z(float *o) { o[threadIdx.x] = 1; }\n' > inc/big.cu
for f in dev:'a device' fifo:'a FIFO' big:'larger than 64 MiB'; do
  what=${f#*:} f=${f%%:*}
  k inc/$f.cu inc/ok.cu > inc.out 2> inc.err; rc=$?
  [ $rc = 2 ] && grep -q "inc/$f.cu: .*, which is $what" inc.err \
    && grep -q 'math-pow-small-integer' inc.out \
    && ok "#include of a $f file: an error for that file, the run goes on" \
    || fail "#include $f: rc=$rc $(cat inc.err)"
done
printf '[{"directory": "%s", "file": "ok.cu", "arguments": ["nvcc", "-include", "pipe.h", "-c", "ok.cu"]}]\n' \
  "$T/inc" > inc/compile_commands.json
(cd inc && timeout 60 "$K" --fail-on note -p . ok.cu > ../cdb.out 2> ../cdb.err); rc=$?
[ $rc = 2 ] && grep -q "ok.cu: .*pipe.h', which is a FIFO" cdb.err \
  && ok "-include FIFO from a compile database: an error, no hang" || fail "-include FIFO: rc=$rc $(cat cdb.err)"
rm -rf inc

# Temporary files of an interrupted run are not analysed.
mkdir tmpl && cp k.cu tmpl/a.cu && cp k.cu tmpl/a.cu.kaAb12Cd && cp k.cu tmpl/.a.cu.kcheck-Xy12Zw.cu
k tmpl > tmpl.out 2>&1
[ "$(grep -c 'math-pow-small-integer' tmpl.out)" = 1 ] && ok "old temporary files are ignored" \
  || fail "temporaries analysed: $(grep math-pow tmpl.out)"
rm -rf tmpl

[ $fails = 0 ] && echo "all file checks passed" || echo "$fails file check(s) failed"
exit $((fails > 0))
