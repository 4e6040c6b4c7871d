#!/usr/bin/env bash
# tests/rewriter/fix_cli_test.sh: `kcheck --fix/--diff/--export-fixes` end to
# end on a small project: the patch applies with `patch -p1` and equals what
# --fix writes, --fix reaches a fixed point (a second run changes nothing)
# and the fixed findings are gone, YAML and SARIF carry the fixes, and the bad
# inputs: a read-only file, no compiler with --require-compile-gate, a
# compiler that fails, a compiler that hangs (killed at --compile-timeout).
# Usage: fix_cli_test.sh KCHECK
set -u
K=${1:?usage: fix_cli_test.sh KCHECK}
T=$(mktemp -d /tmp/ka-fixcli-XXXXXX)
trap 'chmod -R u+w "$T"; rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

mkdir -p "$T/proj/src"
cat > "$T/proj/src/k.cu" <<'CU'
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
cp "$T/proj/src/k.cu" "$T/orig.cu"
cd "$T/proj" || exit 2
have_nvcc=0
if [ -x "${KCHECK_NVCC:-/usr/local/cuda/bin/nvcc}" ] || command -v nvcc >/dev/null; then have_nvcc=1; fi

# --diff prints a patch and changes nothing
"$K" --diff --unsafe-fixes src/k.cu > "$T/fix.patch" 2> "$T/diff.err"
cmp -s src/k.cu "$T/orig.cu" && ok "--diff leaves the file alone" || fail "--diff changed the file"
grep -q '^--- a/src/k.cu$' "$T/fix.patch" && grep -q '^+++ b/src/k.cu$' "$T/fix.patch" \
  && ok "patch headers name src/k.cu" || fail "patch headers: $(head -2 "$T/fix.patch")"
grep -q 'x\[i\] \* x\[i\]' "$T/fix.patch" && ok "the pow fix is in the patch" || fail "no pow fix in: $(cat "$T/fix.patch")"

# --fix writes what the patch describes (first round) and reaches a fixed point
mkdir -p "$T/viapatch/src" && cp "$T/orig.cu" "$T/viapatch/src/k.cu"
(cd "$T/viapatch" && patch -s -p1 < "$T/fix.patch") && ok "patch -p1 applies" || fail "patch -p1 failed"
"$K" --fix --unsafe-fixes src/k.cu > "$T/fix.out" 2> "$T/fix.err"
grep -q 'x\[i\] \* x\[i\]' src/k.cu && ok "--fix rewrote powf" || fail "--fix did not rewrite: $(cat src/k.cu)"
grep -q 'applied' "$T/fix.err" && ok "--fix reports what it applied" || fail "no summary: $(cat "$T/fix.err")"
grep -q 'math-pow-small-integer' "$T/fix.out" && fail "the fixed finding is still reported" || ok "fixed finding gone"
grep -q '__launch_bounds__(256)' src/k.cu && grep -q '__launch_bounds__(256)' "$T/viapatch/src/k.cu" \
  && ok "safe launch-bounds fix applied by both" || fail "launch bounds missing"
cp src/k.cu "$T/after1.cu"
"$K" --fix --unsafe-fixes src/k.cu > /dev/null 2>&1
cmp -s src/k.cu "$T/after1.cu" && ok "a second --fix changes nothing" || fail "second --fix changed: $(diff "$T/after1.cu" src/k.cu)"
"$K" --diff --unsafe-fixes src/k.cu > "$T/again.patch" 2>/dev/null
[ ! -s "$T/again.patch" ] && ok "no patch after fixing" || fail "patch after fixing: $(cat "$T/again.patch")"
if [ $have_nvcc = 1 ]; then
  nvcc -arch=sm_90 -c -o /dev/null src/k.cu 2>/dev/null || /usr/local/cuda/bin/nvcc -arch=sm_90 -c -o /dev/null src/k.cu \
    && ok "the fixed file compiles" || fail "the fixed file does not compile"
else
  echo "SKIP: nvcc not found: fixed file not compiled"
fi

# --export-fixes and SARIF fixes
cp "$T/orig.cu" src/k.cu
"$K" --export-fixes "$T/fixes.yaml" src/k.cu > /dev/null 2>&1
cmp -s src/k.cu "$T/orig.cu" && ok "--export-fixes alone changes nothing" || fail "--export-fixes changed the file"
grep -q 'DiagnosticName: math-pow-small-integer' "$T/fixes.yaml" && grep -q 'ReplacementText: "(x\[i\] \* x\[i\])"' "$T/fixes.yaml" \
  && grep -q "MainSourceFile: \"$T/proj/src/k.cu\"" "$T/fixes.yaml" \
  && ok "YAML export" || fail "YAML: $(cat "$T/fixes.yaml")"
"$K" --format sarif src/k.cu > "$T/out.sarif" 2>/dev/null
python3 - "$T/out.sarif" <<'PY' && ok "SARIF results carry fixes" || fail "SARIF fixes missing"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
fx = [r for r in runs[0]["results"] if r["ruleId"] == "math-pow-small-integer" and r.get("fixes")]
rep = fx[0]["fixes"][0]["artifactChanges"][0]["replacements"][0]
assert rep["insertedContent"]["text"] == "(x[i] * x[i])", rep
assert rep["deletedRegion"]["startLine"] == 5, rep
PY

# read-only file: exit 2, one clear line, nothing written
chmod 444 src/k.cu
"$K" --fix src/k.cu > /dev/null 2> "$T/ro.err"; rc=$?
[ $rc = 2 ] && grep -q '^kcheck: error: cannot write src/k.cu: permission denied' "$T/ro.err" \
  && ok "read-only file refused" || fail "read-only: rc=$rc $(cat "$T/ro.err")"
cmp -s src/k.cu "$T/orig.cu" && ok "read-only file untouched" || fail "read-only file changed"
chmod 644 src/k.cu

# no compiler
KCHECK_NVCC=/nonexistent/nvcc "$K" --fix --require-compile-gate src/k.cu > /dev/null 2> "$T/nocc.err"; rc=$?
[ $rc = 2 ] && grep -q 'compile gate: nvcc not found' "$T/nocc.err" && cmp -s src/k.cu "$T/orig.cu" \
  && ok "--require-compile-gate without nvcc: exit 2, nothing written" || fail "require gate: rc=$rc $(cat "$T/nocc.err")"
KCHECK_NVCC=/nonexistent/nvcc "$K" --fix src/k.cu > /dev/null 2> "$T/nocc2.err"
grep -q 'compile gate skipped: nvcc not found' "$T/nocc2.err" && ! cmp -s src/k.cu "$T/orig.cu" \
  && ok "no nvcc: gate skipped with a note, fixes applied" || fail "gate skip: $(cat "$T/nocc2.err")"
cp "$T/orig.cu" src/k.cu

# a compiler that fails: the file is left as it was, the error is shown
printf '#!/bin/sh\nfor a; do f=$a; done\necho "$f(5): error: identifier \\"x\\" is undefined"\nexit 2\n' > "$T/failcc"
chmod +x "$T/failcc"
KCHECK_NVCC="$T/failcc" "$K" --fix src/k.cu > /dev/null 2> "$T/fail.err"
cmp -s src/k.cu "$T/orig.cu" && grep -q 'fixes not applied: the edited file does not compile' "$T/fail.err" \
  && grep -q 'k.cu(5): error: identifier "x" is undefined' "$T/fail.err" \
  && ok "failing compiler: fixes dropped, first error shown" || fail "failing compiler: $(cat "$T/fail.err")"
ls -a src | grep -q kcheck- && fail "a temporary file was left in src/" || ok "no temporary left"

# a compiler that hangs: killed at the time limit
printf '#!/bin/sh\nsleep 60\n' > "$T/hangcc"
chmod +x "$T/hangcc"
# (the message is the evidence; `timeout` only guards against a hang)
KCHECK_NVCC="$T/hangcc" timeout 120 "$K" --fix --compile-timeout 1 src/k.cu > /dev/null 2> "$T/hang.err"
grep -q 'compiler killed after 1 s time limit' "$T/hang.err" && cmp -s src/k.cu "$T/orig.cu" \
  && ok "hanging compiler killed at the limit" || fail "hang: $(cat "$T/hang.err")"
"$K" --fix --compile-timeout 0 src/k.cu > /dev/null 2> "$T/bad.err"; rc=$?
[ $rc = 2 ] && grep -q '^kcheck: error: --compile-timeout' "$T/bad.err" && ok "bad --compile-timeout" || fail "bad timeout: rc=$rc"

[ $fails = 0 ] && echo "all fix CLI checks passed" || echo "$fails fix CLI check(s) failed"
exit $((fails > 0))
