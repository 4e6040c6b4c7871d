#!/usr/bin/env bash
# scripts/check_rule_examples_compile.sh: compile every example block of the
# rule base (rules/**/*.md, fenced blocks tagged `cuda bad|good|fixed` and
# `hip bad|good|fixed`) and every file under examples/ with nvcc, so that the
# knowledge we ship is real code.  HIP code is compiled by nvcc through a small
# shim header that maps the few HIP names the examples use onto CUDA.
#
# Usage: scripts/check_rule_examples_compile.sh [RULE.md|DIR ...]
# Env:   NVCC (default /usr/local/cuda/bin/nvcc), ARCH (default sm_90).
# A block containing the comment `kcheck-example: no-compile` is skipped
# loudly (legacy code that current toolkits reject on purpose).
# Exit:  0 all compiled (or nvcc missing: SKIP), 1 some block failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
arch=${ARCH:-sm_90}
if ! [ -x "$nvcc" ] && ! command -v "$nvcc" >/dev/null 2>&1; then
	echo "SKIP: nvcc not found ($nvcc); rule examples were NOT compiled" >&2
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/inc/hip"
cat > "$tmp/inc/hip/hip_runtime.h" <<'SHIM'
/* Compile-check shim: the HIP names used by KernelArc's examples, on CUDA. */
#pragma once
#include <cuda_runtime.h>
#define hipLaunchKernelGGL(k, g, b, s, st, ...) k<<<(g), (b), (s), (st)>>>(__VA_ARGS__)
#define hipError_t cudaError_t
#define hipSuccess cudaSuccess
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemcpy cudaMemcpy
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipGetLastError cudaGetLastError
#define hipGetErrorString cudaGetErrorString
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipStream_t cudaStream_t
/* HIP keeps the pre-CUDA-9 warp functions; CUDA 13 removed them. */
#define __shfl_down(v, d) __shfl_down_sync(0xffffffffu, (v), (d))
#define __shfl_xor(v, d) __shfl_xor_sync(0xffffffffu, (v), (d))
#define __shfl(v, l) __shfl_sync(0xffffffffu, (v), (l))
#define __ballot(p) __ballot_sync(0xffffffffu, (p))
#define __any(p) __any_sync(0xffffffffu, (p))
#define __all(p) __all_sync(0xffffffffu, (p))
SHIM

fail=0; n=0
compile() { # file label
	local f=$1 label=$2 log="$tmp/log"
	if grep -q 'kcheck-example: no-compile' "$f"; then
		echo "SKIP: $label (marked no-compile: needs a pre-CUDA-13 toolkit)"
		return 0
	fi
	n=$((n + 1))
	if "$nvcc" -arch="$arch" -I"$tmp/inc" -x cu -c -o /dev/null "$f" >"$log" 2>&1; then
		return 0
	fi
	echo "FAIL: $label"; sed 's/^/    /' "$log" | head -20
	fail=$((fail + 1))
}

# Split one rule file into blocks: $tmp/blk/<n>.<lang>.<kind>.<startline>
extract() { # md
	rm -rf "$tmp/blk"; mkdir -p "$tmp/blk"
	awk -v dir="$tmp/blk" '
	/^```(cuda|hip) (bad|good|fixed)[ \t]*$/ {
		split(substr($0, 4), w, /[ \t]+/); k++
		out = sprintf("%s/%03d.%s.%s.%d", dir, k, w[1], w[2], NR + 1); next }
	/^```/ && out != "" { close(out); out = ""; next }
	out != "" { print > out }' "$1"
}

rules=()
if [ $# -eq 0 ]; then set -- "$root/rules" "$root/examples"; fi
for a in "$@"; do
	a=$(realpath "$a")
	if [ -d "$a" ]; then
		while IFS= read -r f; do rules+=("$f"); done < <(find "$a" -type f \( -name '*.md' -o -name '*.cu' -o -name '*.hip' \) | sort)
	else rules+=("$a"); fi
done
for f in "${rules[@]}"; do
	case $f in
	*.cu|*.hip) compile "$f" "${f#$root/}" ;;
	*.md)
		case $f in */rules/*) ;; *) continue ;; esac
		extract "$f"
		for b in "$tmp"/blk/*; do
			[ -e "$b" ] || continue
			base=${b##*/}; IFS=. read -r _ lang kind line <<<"$base"
			compile "$b" "${f#$root/}:$line ($lang $kind)"
		done ;;
	esac
done
echo "compiled $n units, $fail failed"
[ $fail -eq 0 ]
