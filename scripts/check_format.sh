#!/usr/bin/env bash
# scripts/check_format.sh: do the C files follow .clang-format?
#
#   scripts/check_format.sh            check the paths in scripts/format_paths.txt
#   scripts/check_format.sh PATH...    check these paths instead
#   scripts/check_format.sh --fix [PATH...]   reformat them in place
#
# Checks *.c and *.h under the paths, except inputs for kcheck that must
# stay as they are (*/fixtures/*, tests/golden/hip_shim/) and the front
# end's CUDA/HIP shims (*/shim/*); kernels (.cu, .cuh, .hip) are not C.  Exit 0 when every file is
# formatted, 1 listing those that are not, 2 when clang-format 19 is
# missing ($CLANG_FORMAT names another binary).
set -euo pipefail
cd "$(dirname "$0")/.."
cf=${CLANG_FORMAT:-clang-format-19}
fix=0
if [ "${1:-}" = "--fix" ]; then
	fix=1
	shift
fi
if ! command -v "$cf" >/dev/null 2>&1; then
	echo "check_format: $cf not found (apt-get install clang-format-19, or run scripts/setup.sh)" >&2
	exit 2
fi
version=$("$cf" --version)
case "$version" in
*"version 19."*) ;;
*)
	echo "check_format: $cf is not clang-format 19 ($version): formats differ between versions" >&2
	exit 2
	;;
esac

if [ $# -gt 0 ]; then
	paths=("$@")
else
	mapfile -t paths < <(grep -v -e '^#' -e '^[[:space:]]*$' scripts/format_paths.txt)
fi
for p in "${paths[@]}"; do
	if [ ! -e "$p" ]; then
		echo "check_format: $p: no such file or folder" >&2
		exit 2
	fi
done
mapfile -t files < <(find "${paths[@]}" \( -name fixtures -o -name shim -o -name hip_shim \
	-o -name 'build*' -o -name '.?*' \) -prune -o -type f \( -name '*.c' -o -name '*.h' \) -print | sed 's|^\./||' |
	LC_ALL=C sort -u)

# One clang-format process per 64 files, two at a time (the cores of a
# CI machine): a process per file spent 40 s of a CI run starting
# clang-format 362 times, most of it loading LLVM.  --dry-run --Werror
# reports every change clang-format would make, naming the file, and
# exits non-zero; a file it names is one whose formatted text differs.
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -gt 2 ] || jobs=2
bad=()
if [ $fix = 1 ]; then
	printf '%s\0' "${files[@]}" | xargs -0 -r -n 64 -P "$jobs" "$cf" -i --style=file
else
	rc=0
	out=$(printf '%s\0' "${files[@]}" |
		xargs -0 -r -n 64 -P "$jobs" "$cf" --style=file --dry-run --Werror 2>&1) || rc=$?
	mapfile -t bad < <(printf '%s\n' "$out" |
		sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: .*\[-Wclang-format-violations\]$/\1/p' | LC_ALL=C sort -u)
	if [ "$rc" != 0 ] && [ ${#bad[@]} = 0 ]; then
		# clang-format failed without naming a file that differs
		printf '%s\n' "$out" >&2
		echo "check_format: $cf failed (status $rc)" >&2
		exit 2
	fi
fi
if [ ${#bad[@]} -gt 0 ]; then
	echo "check_format: ${#bad[@]} of ${#files[@]} files differ from .clang-format" \
		"(scripts/check_format.sh --fix FILE... reformats them):"
	printf '  %s\n' "${bad[@]}"
	exit 1
fi
if [ $fix = 1 ]; then
	echo "check_format: ${#files[@]} files reformatted"
else
	echo "check_format: ${#files[@]} files formatted"
fi
