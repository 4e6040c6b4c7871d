#!/usr/bin/env bash
# tests/analyzer/pch_test.sh: the precompiled toolkit header changes no
# finding.  Two examples are linted side by side (-j 2) with a fresh cache:
# both want the header at once, one builds and stores it; then the
# examples and the golden files are linted with that cache (every file
# reads the stored header back) and with KCHECK_NO_PCH=1, and the reports
# with and without the header must be byte-identical, the two-file one
# included.  A user's -include goes without.
# The whole set is linted twice, not three times: in a run that builds the
# header every later file reads it back from the cache as the second run
# does (analyzer/frontend_pch.c), so a third lint of every file checked
# no other path (about 24 CPU-s, docs/ci-time-2026-12-06.md).
# The report with the header is also scanned for placeholders and empty
# names (tests/rules/message_scan.py --report): that scan's check of these
# files, done here instead of linting them once more.
# usage: pch_test.sh KCHECK REPO_ROOT
set -u
K=${1:?usage: pch_test.sh KCHECK REPO_ROOT}
ROOT=${2:?usage: pch_test.sh KCHECK REPO_ROOT}
if [ ! -e "${CUDA_PATH:-/usr/local/cuda}/include/cuda_runtime.h" ]; then
	echo "SKIP: no CUDA toolkit headers (${CUDA_PATH:-/usr/local/cuda}): only shim parses, which use no precompiled header"
	exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
ok() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
run() { "$K" --no-config --no-db --format json --exit-zero -j 2 "$@"; }
two=("$ROOT/examples/sgemm/naive.cu" "$ROOT/examples/reduction/naive.cu")
all=("$ROOT/examples" "$ROOT/tests/golden/analyzer")
XDG_CACHE_HOME=$T/cache run "${two[@]}" > "$T/first.json" 2> "$T/first.err"
n=$(ls "$T/cache/kernelarc/pch" 2>/dev/null | grep -c '\.pch$')
[ "$n" -ge 1 ] && ok "a precompiled header was stored ($n)" || fail "no header in $T/cache/kernelarc/pch"
XDG_CACHE_HOME=$T/cache KCHECK_NO_PCH=1 run "${two[@]}" > "$T/first-none.json" 2> "$T/first-none.err"
cmp -s "$T/first.json" "$T/first-none.json" && cmp -s "$T/first.err" "$T/first-none.err" \
	&& ok "identical reports while the header is built" || fail "the run that built the header differs: $(diff "$T/first.json" "$T/first-none.json" | head -5)"
XDG_CACHE_HOME=$T/cache run "${all[@]}" > "$T/second.json" 2> "$T/second.err"
XDG_CACHE_HOME=$T/cache KCHECK_NO_PCH=1 run "${all[@]}" > "$T/none.json" 2> "$T/none.err"
grep -q '"findings"' "$T/none.json" || fail "no report: $(head -3 "$T/none.err")"
grep -q 'sgemm/naive.cu' "$T/first.json" || fail "no finding in the two-file report: $(head -3 "$T/first.err")"
if scan=$(python3 "$ROOT/tests/rules/message_scan.py" --report "$T/second.json" 2>&1); then
	ok "messages: $(echo "$scan" | tail -n 1)"
else
	fail "messages: $scan"
fi
cmp -s "$T/second.json" "$T/none.json" \
	&& ok "identical reports with and without the header" || fail "reports differ: $(diff "$T/second.json" "$T/none.json" | head -5)"
cmp -s "$T/second.err" "$T/none.err" && ok "identical stderr" || fail "stderr differs: $(diff "$T/second.err" "$T/none.err" | head -5)"

# A user's -include: its text may change, so no header is built for it.
mkdir -p "$T/inc" && printf '#define SCALE 2\n' > "$T/inc/pre.h"
printf '__global__ void k(float *p) { p[threadIdx.x] = SCALE; }\n' > "$T/inc/k.cu"
XDG_CACHE_HOME=$T/cache2 "$K" --no-config --no-db -q "$T/inc/k.cu" -- -include "$T/inc/pre.h" > /dev/null 2> "$T/inc.err"
printf '#define SCALE 3\n' > "$T/inc/pre.h"
XDG_CACHE_HOME=$T/cache2 "$K" --no-config --no-db -q "$T/inc/k.cu" -- -include "$T/inc/pre.h" > /dev/null 2>> "$T/inc.err"
n=$(ls "$T/cache2/kernelarc/pch" 2>/dev/null | grep -c '\.pch$')
[ "$n" = 0 ] && ! grep -q 'error' "$T/inc.err" && ok "a user's -include goes without a header" \
	|| fail "-include: $n header(s), $(head -3 "$T/inc.err")"
# -std=c++20: the header builds but does not read back (clang 19 reports
# ODR differences between the toolkit's math functions and its CUDA wrapper,
# and libclang gives up on every file): it is refused once, marked, and the
# files are analyzed without it, as with KCHECK_NO_PCH=1.
printf '__global__ void k(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i * 32] = 1.0f; }\n' > "$T/inc/k20.cu"
XDG_CACHE_HOME=$T/cache3 "$K" --no-config --no-db --format json "$T/inc/k20.cu" -- -std=c++20 > "$T/k20.json" 2> "$T/k20.err"
XDG_CACHE_HOME=$T/cache3 KCHECK_NO_PCH=1 "$K" --no-config --no-db --format json "$T/inc/k20.cu" -- -std=c++20 > "$T/k20-none.json" 2> "$T/k20-none.err"
if grep -q '"status": "analyzed"' "$T/k20.json" && grep -q 'gmem-' "$T/k20.json" && cmp -s "$T/k20.json" "$T/k20-none.json"; then
	ok "-std=c++20: analyzed, as without the header"
else
	fail "-std=c++20: $(head -c 300 "$T/k20.err") $(diff "$T/k20.json" "$T/k20-none.json" | head -3)"
fi
ls "$T/cache3/kernelarc/pch" 2>/dev/null | grep -q '\.pch\.failed$' && ! ls "$T/cache3/kernelarc/pch" | grep -q '\.pch$' \
	&& ok "-std=c++20: the header that does not read back is marked, not stored" || fail "-std=c++20 cache: $(ls "$T/cache3/kernelarc/pch" 2>&1)"
[ $fails = 0 ] && echo "all precompiled-header checks passed" || echo "$fails precompiled-header check(s) failed"
[ $fails = 0 ]
