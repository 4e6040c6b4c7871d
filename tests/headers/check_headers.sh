#!/usr/bin/env bash
# tests/headers/check_headers.sh: every header of the tree compiles alone.
#
#   check_headers.sh CC SRC_ROOT NVCC [CFLAGS...]
#
# For each C header under SRC_ROOT a one-line translation unit that includes
# it twice (so its include guard is tested too) is compiled with CC, the
# project's flags and -Werror, and must define no external symbol (a
# function or object defined in a header breaks the second file that
# includes it); static functions a header keeps for its one includer may
# go unused here (-Wno-unused-function).  CUDA headers (those that include <cuda_runtime.h>, the
# bench harness's interface) are compiled the same way with NVCC when one is
# given and present, and skipped with a note otherwise.
#
# Not checked, on purpose:
#   */shim/*           libclang's CUDA/HIP stand-ins, parsed only in CUDA or
#                      HIP mode by the front end; every analyzer test that
#                      parses a kernel includes them.
#   *.cuh              pieces of the one harness translation unit
#                      (bench/harness/harness.cu includes them in order and
#                      they share its definitions), not headers of their own.
#   */fixtures/*, tests/golden/hip_shim/*
#                      inputs for kcheck, not project headers.
#   tests/agents/emu/* C++ stand-ins for the toolkit's and the harness's
#                      headers, for running a rewrite on the host
#                      (test_recipe_unflatten.c), not project headers.
# Exit 0 when all compile, 1 listing those that do not.
set -euo pipefail
if [ $# -lt 3 ]; then
	echo "usage: $0 CC SRC_ROOT NVCC [CFLAGS...]" >&2
	exit 2
fi
cc=$1 root=$2 nvcc=$3
shift 3
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mapfile -t headers < <(find . \( -path './build*' -o -path './.*' -o -path '*/shim/*' \
	-o -path '*/fixtures/*' -o -path './tests/golden/hip_shim' -o -path './tests/agents/emu' \) -prune -o -name '*.h' -print |
	sed 's|^\./||' | LC_ALL=C sort)
if [ ${#headers[@]} -lt 10 ]; then
	echo "check_headers: only ${#headers[@]} headers found under $root: wrong folder?" >&2
	exit 2
fi

cflags=(-std=c11 -Wall -Wextra -Wno-unused-parameter -Wno-unused-function -Werror -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
	-DKCHECK='"kcheck"' -DFIXTURES='"fixtures"' -I "$root" "$@")
failed=() checked=0 cuda_skipped=()
for h in "${headers[@]}"; do
	printf '#include "%s"\n#include "%s"\n' "$h" "$h" >"$tmp/alone.c"
	if grep -q '^#include <cuda_runtime.h>' "$h"; then
		if [ -z "$nvcc" ] || ! [ -x "$nvcc" ]; then
			cuda_skipped+=("$h")
			continue
		fi
		cp "$tmp/alone.c" "$tmp/alone.cu"
		if ! "$nvcc" -x cu -I "$root" -c "$tmp/alone.cu" -o "$tmp/alone.o" >"$tmp/log" 2>&1; then
			failed+=("$h")
			sed 's/^/    /' "$tmp/log" | head -n 5
			continue
		fi
	elif ! "$cc" "${cflags[@]}" -c "$tmp/alone.c" -o "$tmp/alone.o" >"$tmp/log" 2>&1; then
		failed+=("$h")
		sed 's/^/    /' "$tmp/log" | head -n 5
		continue
	fi
	defs=$(nm -g --defined-only "$tmp/alone.o" | awk '{print $3}')
	if [ -n "$defs" ]; then
		failed+=("$h")
		echo "    $h defines external symbols: $(echo $defs)"
		continue
	fi
	checked=$((checked + 1))
done
if [ ${#cuda_skipped[@]} -gt 0 ]; then
	echo "check_headers: NOTE: no nvcc: CUDA headers not compiled: ${cuda_skipped[*]}"
fi
if [ ${#failed[@]} -gt 0 ]; then
	echo "check_headers: these headers do not compile alone (or define symbols):"
	printf '  %s\n' "${failed[@]}"
	exit 1
fi
echo "check_headers: $checked headers compile alone"
