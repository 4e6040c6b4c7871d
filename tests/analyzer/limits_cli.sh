#!/usr/bin/env bash
# kcheck on files past the analysis limits: a 20,000-term sum and
# overflowing launch constants.  kcheck must finish (no signal), print the
# "expression too deep" warning on stderr, and keep its findings; the
# overflowing launch must not be reported with a wrapped thread count.
# usage: limits_cli.sh KCHECK
set -u
kcheck=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ka-limits-cli-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

{
	printf '__global__ void k(int *p, int a) {\n  p[threadIdx.x] = a'
	for ((i = 0; i < 20000; i++)); do printf ' + a'; done
	printf ';\n}\nvoid h(int *p) { k<<<1, 64>>>(p, 1); }\n'
} >"$tmp/deep.cu"
"$kcheck" --format json "$tmp/deep.cu" >"$tmp/out.json" 2>"$tmp/err"
rc=$?
[ "$rc" -lt 128 ] || fail "kcheck died of signal $((rc - 128)) on a 20,000-term sum"
[ "$rc" -le 1 ] || fail "kcheck exited $rc on a 20,000-term sum: $(head -c 300 "$tmp/err")"
grep -q "deep.cu:2:[0-9]*: warning: expression too deep" "$tmp/err" ||
	fail "no 'expression too deep' warning: $(head -c 300 "$tmp/err")"

cat >"$tmp/fpe.cu" <<'SRC'
__global__ void k(float *p) {
  long long m = -9223372036854775807LL - 1;
  p[threadIdx.x + m / -1] = 0;
}
void h(float *p) { k<<<-16, -16>>>(p); k<<<1, 65536 * 65536>>>(p); }
SRC
"$kcheck" facts "$tmp/fpe.cu" --format json -o "$tmp/facts.json" 2>"$tmp/err2"
rc=$?
[ "$rc" -lt 128 ] || fail "kcheck facts died of signal $((rc - 128)) on INT64_MIN / -1"
grep -q '"block_threads": *-' "$tmp/facts.json" && fail "a negative block_threads was written"
grep -q '"block_threads": *4294967296' "$tmp/facts.json" && fail "an overflowing block size was written"
# 5,000 kernels in one file: the rules' per-kernel subqueries must use
# indexes (without them one rule ran past its 200,000,000-step SQL budget).
awk 'BEGIN { for (i = 0; i < 5000; i++) {
	printf "__global__ void k%d(const float *in, float *out, int n) {\n", i
	printf "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	printf "  if (i < n) out[i] = in[i] * 2.0f;\n}\n" }
	printf "void all(const float *a, float *b, int n) {\n"
	for (i = 0; i < 5000; i++) printf "  k%d<<<(n + 255) / 256, 256>>>(a, b, n);\n", i
	printf "}\n" }' >"$tmp/many.cu"
"$kcheck" --format json "$tmp/many.cu" >"$tmp/many.json" 2>"$tmp/err3"
rc=$?
[ "$rc" -le 1 ] || fail "kcheck exited $rc on 5,000 kernels: $(head -c 300 "$tmp/err3")"
grep -q "SQL steps" "$tmp/err3" && fail "a rule ran out of its SQL budget on 5,000 kernels"
echo "ok: limits reported, nothing wrapped, 5,000 kernels linted"
