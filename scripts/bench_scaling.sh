#!/usr/bin/env bash
# How the analyzer's cost grows with the size of one file: writes a .cu
# file of N small kernels (each with a guard, a loop, a shared tile and a
# barrier) plus one host function that launches all of them, runs
# `kcheck facts` on it, and prints a table of kernels, seconds and peak RSS.
# Linear analysis means seconds/kernel stays flat as N grows.
#
# usage: scripts/bench_scaling.sh [N...]     (default: 500 2000 5000 20000)
# env:   KCHECK=path/to/kcheck (default build/cli/kcheck)
set -euo pipefail
cd "$(dirname "$0")/.."
kcheck=${KCHECK:-build/cli/kcheck}
if [ ! -x "$kcheck" ]; then
	echo "bench_scaling: error: $kcheck not built (cmake --build build)" >&2
	exit 2
fi
if [ ! -x /usr/bin/time ]; then
	echo "bench_scaling: error: /usr/bin/time (GNU time) is needed for peak RSS" >&2
	exit 2
fi
[ $# -gt 0 ] || set -- 500 2000 5000 20000
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ka-scaling-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

gen() {
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++) {
			printf "__global__ void k%d(const float *in, float *out, int n) {\n", i
			printf "  __shared__ float t[256];\n"
			printf "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			printf "  float acc = 0.0f;\n"
			printf "  if (i < n) t[threadIdx.x] = in[i];\n"
			printf "  __syncthreads();\n"
			printf "  for (int j = 0; j < 8; j++) acc += t[(threadIdx.x + j) %% 256];\n"
			printf "  if (i < n) out[i] = acc * %d.0f;\n", i % 7
			printf "}\n"
		}
		printf "void launch_all(const float *a, float *b, int n) {\n"
		for (i = 0; i < n; i++)
			printf "  k%d<<<(n + 255) / 256, 256>>>(a, b, n);\n", i
		printf "}\n"
	}'
}

printf '%8s %10s %12s %14s %8s\n' kernels bytes seconds "us/kernel" "RSS MB"
for n in "$@"; do
	src="$tmp/k$n.cu"
	gen "$n" >"$src"
	bytes=$(wc -c <"$src")
	rc=0
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$kcheck" facts "$src" --format json \
		-o "$tmp/facts.json" 2>"$tmp/err" || rc=$?
	read -r secs kb <"$tmp/time" || true
	if [ "$rc" -ne 0 ]; then
		echo "bench_scaling: kcheck exited $rc on $n kernels: $(head -c 300 "$tmp/err")" >&2
	fi
	awk -v n="$n" -v b="$bytes" -v s="$secs" -v kb="$kb" \
		'BEGIN { printf "%8d %10d %12.2f %14.1f %8.0f\n", n, b, s, s * 1e6 / n, kb / 1024 }'
done
