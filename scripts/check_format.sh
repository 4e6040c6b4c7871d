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

bad=()
for f in "${files[@]}"; do
	if [ $fix = 1 ]; then
		"$cf" -i --style=file "$f"
	elif ! "$cf" --style=file "$f" | cmp -s - "$f"; then
		bad+=("$f")
	fi
done
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
