#!/usr/bin/env bash
# tests/golden/check_compile.sh: compile every golden and corpus kernel file
# with nvcc (sm_90), so that the test inputs stay valid CUDA.  .hip files are
# compiled as CUDA through hip_shim/.  Usage: check_compile.sh [FILE...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
if [ ! -x "$nvcc" ]; then
  echo "SKIP: no nvcc at $nvcc"
  exit 0
fi
if [ $# -eq 0 ]; then
  set -- "$here"/analyzer/*.cu "$here"/analyzer/*.hip "$root"/tests/corpus/*.cu "$root"/tests/corpus/*.hip
fi
fail=0
for f in "$@"; do
  [ -e "$f" ] || continue
  case "$f" in
    *.hip) extra=(-x cu -I "$here/hip_shim") ;;
    *) extra=() ;;
  esac
  if ! out=$("$nvcc" -arch=sm_90 -c -o /dev/null "${extra[@]}" "$f" 2>&1); then
    echo "FAIL $f"; echo "$out" | head -n 20; fail=1
  elif [ -n "$out" ]; then
    echo "WARN $f"; echo "$out" | head -n 10
  else
    echo "ok   $f"
  fi
done
exit $fail
