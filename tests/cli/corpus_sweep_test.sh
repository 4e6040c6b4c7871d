#!/usr/bin/env bash
# tests/cli/corpus_sweep_test.sh: scripts/corpus_sweep.sh on a small tree
# with one file of each status (analyzed, partial, failed, no-include).
# Usage: corpus_sweep_test.sh KCHECK
set -u
kcheck=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ka-sweep-test-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "corpus_sweep_test: FAIL: $*" >&2; exit 1; }
command -v jq >/dev/null || { echo "SKIPPED: corpus_sweep_test: no jq (scripts/setup.sh installs it)"; exit 0; }

mkdir -p "$tmp/tree/sub"
cat >"$tmp/tree/clean.cu" <<'CU'
__global__ void copy(float *o, const float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = a[32 * i];
}
CU
cat >"$tmp/tree/sub/partial.cu" <<'CU'
__global__ void copy(float *o, const float *a) { o[threadIdx.x] = a[threadIdx.x]; }
void host() { not_declared_anywhere(); }
CU
printf '__global__ void k(float *a) { a[threadIdx.x] = 1 +; }\n' >"$tmp/tree/broken.cu"
printf '#include "not_installed/dep.h"\n' >"$tmp/tree/needs_dep.cuh"
printf 'not a kernel\n' >"$tmp/tree/notes.txt"

out=$("$root/scripts/corpus_sweep.sh" --kcheck "$kcheck" --no-clang "$tmp/tree" --tsv "$tmp/rows.tsv" -- -DUNUSED=1) ||
  fail "exit status $?"
echo "$out" | grep -q '^| 4 | 1 | 1 | 1 | 1 | 0 | 50.0% | 66.7% | - | - |$' ||
  fail "parse-rate row: $(echo "$out" | grep -A3 '## Parse rate')"
grep -q "^partial	.*sub/partial.cu$" "$tmp/rows.tsv" || fail "partial row: $(cat "$tmp/rows.tsv")"
grep -q "^analyzed	.*clean.cu$" "$tmp/rows.tsv" || fail "analyzed row"
grep -q "^failed	.*broken.cu$" "$tmp/rows.tsv" || fail "failed row"
grep -q "^no-include	.*needs_dep.cuh$" "$tmp/rows.tsv" || fail "no-include row"
# clang's errors are no findings: the partial file's strided read is, once
echo "$out" | grep -q 'clang-diagnostic-error' && fail "clang's error counted as a finding: $out"
grep -q "^partial	-	1	1	.*sub/partial.cu$" "$tmp/rows.tsv" || fail "partial row counts: $(cat "$tmp/rows.tsv")"
# bad usage: one line on stderr, exit 2
"$root/scripts/corpus_sweep.sh" --kcheck "$kcheck" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "no PATH given" "$tmp/err" || fail "usage error: rc=$rc"
"$root/scripts/corpus_sweep.sh" --kcheck "$kcheck" "$tmp/none" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "neither a file nor a folder" "$tmp/err" || fail "missing path: rc=$rc"
echo "corpus_sweep_test: ok"
