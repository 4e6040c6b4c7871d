#!/usr/bin/env bash
# scripts/early_return_probe.sh: builds scripts/early_return_probe.cu with
# nvcc and runs it on the first visible GPU: whether kernels whose tail
# threads return before a __syncthreads() finish, and whether their results
# are right, with and without survivors reading the returned threads' shared
# slots (the evidence behind sync-early-return-before-barrier and
# sync-early-return-exit, docs/rules.md).
# usage: scripts/early_return_probe.sh [ARCH] [RUNS]   (default sm_90, 200)
# environment: NVCC (default nvcc)
# Exit status: 0 when it ran, 1 when a launch did not finish, 2 when nvcc or
# a GPU is missing.
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:-sm_90}
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null || { echo "early_return_probe: error: $nvcc not found (the CUDA toolkit is needed)" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$nvcc" -O3 -std=c++17 -arch="$arch" -o "$tmp/early_return_probe" "$root/scripts/early_return_probe.cu" || exit 2
"$tmp/early_return_probe" "${2:-200}"
