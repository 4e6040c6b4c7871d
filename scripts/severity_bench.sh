#!/usr/bin/env bash
# scripts/severity_bench.sh: builds scripts/severity_bench.cu with nvcc and
# runs it on the first visible GPU; prints the table of what each flagged
# math, host-loop or local-array pattern costs against its rewrite
# (docs/rules.md, "Impact"; the figures behind the math-*, host-*-in-loop
# and lmem-dynamic-local-array estimates).
# usage: scripts/severity_bench.sh [ARCH]     (default sm_90)
# environment: NVCC (default nvcc)
# Exit status: 0 when it ran, 2 when nvcc or a GPU is missing.
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:-sm_90}
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null || { echo "severity_bench: error: $nvcc not found (the CUDA toolkit is needed)" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$nvcc" -O3 -std=c++17 -arch="$arch" -o "$tmp/severity_bench" "$root/scripts/severity_bench.cu" || exit 2
"$tmp/severity_bench"
