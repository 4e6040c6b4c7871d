#!/usr/bin/env bash
# scripts/probe.sh: builds one of the correctness probes, scripts/NAME_probe.cu,
# with nvcc and runs it on the first visible GPU; each prints a table of
# runs, launches that did not finish and wrong results:
#   early_return  tail threads returning before a __syncthreads(), with and
#                 without survivors reading their slots (sync-early-return-*)
#   skip_barrier  tail threads skipping an `if` that holds a __syncthreads()
#                 and exiting, with and without survivors reading their
#                 slots (sync-barrier-skip-exit, sync-barrier-in-divergent-branch)
#   warp_hazard   a volatile last-warp reduction without __syncwarp(), and
#                 full-mask shuffles under a bounds guard
#                 (sync-warp-synchronous-no-syncwarp,
#                 sync-full-mask-in-divergent-branch)
# usage: scripts/probe.sh NAME [ARCH] [RUNS]   (default sm_90, 200)
# environment: NVCC (default nvcc)
# Exit status: 0 when it ran, 1 when a launch did not finish, 2 when nvcc,
# the probe or a GPU is missing.
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
name=${1:?usage: scripts/probe.sh NAME [ARCH] [RUNS]}
src=$root/scripts/${name}_probe.cu
[ -f "$src" ] || { echo "probe: error: no probe named '$name' (scripts/${name}_probe.cu)" >&2; exit 2; }
arch=${2:-sm_90}
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null || { echo "probe: error: $nvcc not found (the CUDA toolkit is needed)" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$nvcc" -O3 -std=c++17 -arch="$arch" -o "$tmp/probe" "$src" || exit 2
"$tmp/probe" "${3:-200}"
