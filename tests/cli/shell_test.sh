#!/usr/bin/env bash
# tests/cli/shell_test.sh: nothing kcheck hands nvcc runs a command.  nvcc
# runs its sub-tools through /bin/sh with each argument in double quotes,
# so `$(cmd)` or `cmd` in a file name or a flag value would run cmd.  Each
# case below plants such a payload (it would create a file PWNED*) where a
# repository controls the text: a file name under --diff and --ptxas, a
# folder name, .kcheck.yaml extra-args (-D, -U, --pre-include=), a compile
# database entry with -p . --ptxas, the flags after `--`, a bench suite's
# task folder and a --candidate name; then checks that no PWNED file exists
# and that kcheck said why, or did its work on a copy.
#
# Every case runs twice: with a stand-in nvcc that passes its arguments to
# /bin/sh exactly as nvcc does (so the cases run on any machine), and with
# the real nvcc when one is installed (SKIP line when not).
# Usage: shell_test.sh KCHECK
set -u
K=${1:?usage: shell_test.sh KCHECK}
K=$(cd "$(dirname "$K")" && pwd)/$(basename "$K")
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/ka-shell-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
k() { timeout 300 "$K" "$@"; }

# The stand-in: `sh -c` over the arguments in double quotes, as nvcc does
# for gcc, cudafe++ and ptxas; exit 0 without output (a clean compile).
mkdir -p "$T/bin"
cat > "$T/bin/nvcc" <<'SH'
#!/bin/sh
cmd=":"
for a; do cmd="$cmd \"$a\""; done
exec /bin/sh -c "$cmd"
SH
chmod +x "$T/bin/nvcc"

real=""
if command -v nvcc >/dev/null; then real=$(command -v nvcc);
elif [ -x /usr/local/cuda/bin/nvcc ]; then real=/usr/local/cuda/bin/nvcc; fi

KERNEL='__global__ void g(float*o,const float*i,int n){int k=blockIdx.x*blockDim.x+threadIdx.x;if(k<n)o[k]=i[32*k];}
void l(float*o,const float*i,int n){g<<<(n+255)/256,256>>>(o,i,n);}'

# pwned NAME: 0 when no PWNED* file appeared in the case's folder (then removed).
pwned() {
	local found
	found=$(find "$T" -name 'PWNED*' 2>/dev/null | head -3)
	find "$T" -name 'PWNED*' -exec rm -f {} + 2>/dev/null
	[ -n "$found" ] && { fail "$1: a command ran: $found"; return 1; }
	return 0
}

run_cases() {
	local tag=$1
	# 1. A file named k$(...).cu under --diff . and --ptxas .
	rm -rf "$T/c1" && mkdir "$T/c1" && cd "$T/c1" || exit 2
	printf '%s\n' "$KERNEL" > 'k$(touch PWNED1).cu'
	printf '%s\n' "$KERNEL" > 'b`touch PWNED1b`.cu'
	k --diff . > diff.out 2> diff.err
	pwned "$tag: --diff on k\$(...).cu" && grep -q '^+++ b/k\$(touch PWNED1).cu' diff.out \
		&& grep -q '__launch_bounds__(256)' diff.out \
		&& ok "$tag: --diff compiles a copy of k\$(...).cu, the patch names the file" \
		|| fail "$tag: --diff on k\$(...).cu: $(head -3 diff.err)"
	k --ptxas . > ptxas.out 2> ptxas.err; rc=$?
	pwned "$tag: --ptxas on k\$(...).cu" && [ $rc = 1 ] \
		&& ok "$tag: --ptxas compiles a copy of k\$(...).cu" \
		|| fail "$tag: --ptxas on k\$(...).cu: rc=$rc $(head -3 ptxas.err)"

	# 2. A folder named so, and a relative include that climbs out of it.
	rm -rf "$T/c2" && mkdir -p "$T/c2/p\$(touch PWNED2)/src" "$T/c2/p\$(touch PWNED2)/inc" || exit 2
	cd "$T/c2/p\$(touch PWNED2)" || exit 2
	printf '#define N1 1\n' > src/h.cuh
	printf '#define N2 2\n' > inc/u.cuh
	{ printf '#include "h.cuh"\n#include "../inc/u.cuh"\n'; printf '%s\n' "$KERNEL"; } > src/k.cu
	k --diff src/k.cu > diff.out 2> diff.err
	pwned "$tag: --diff in a folder p\$(...)" && grep -q '__launch_bounds__(256)' diff.out \
		&& ok "$tag: --diff in a folder p\$(...), includes beside and above resolve" \
		|| fail "$tag: --diff in a folder p\$(...): $(head -3 diff.err)"
	k --ptxas src/k.cu > /dev/null 2> ptxas.err; rc=$?
	pwned "$tag: --ptxas in a folder p\$(...)" && [ $rc = 1 ] \
		&& ok "$tag: --ptxas in a folder p\$(...)" || fail "$tag: --ptxas in p\$(...): rc=$rc $(head -3 ptxas.err)"

	# 3. .kcheck.yaml extra-args: -D, -U, --pre-include=, as one item or a flag and its value.
	rm -rf "$T/c3" && mkdir "$T/c3" && cd "$T/c3" || exit 2
	printf '%s\n' "$KERNEL" > k.cu
	local n=0
	for args in '"-DX=$(touch PWNED3)"' '"-UX`touch PWNED3`"' '"--pre-include=`touch PWNED3`"' \
		'"-D", "X=$(touch PWNED3)"' '"-Iinc", "-isystem=`touch PWNED3`"'; do
		n=$((n + 1))
		printf 'extra-args: [\n  "-Iok",\n  %s]\n' "$args" > .kcheck.yaml
		for mode in --diff --ptxas; do
			k $mode . > cfg.out 2> cfg.err; rc=$?
			pwned "$tag: extra-args $args with $mode" && [ $rc = 2 ] \
				&& grep -q "kcheck.yaml:3: extra-args: .* holds " cfg.err \
				&& [ "$(wc -l < cfg.err)" = 1 ] \
				&& ok "$tag: extra-args [$args] with $mode: refused at .kcheck.yaml:3" \
				|| fail "$tag: extra-args [$args] with $mode: rc=$rc $(head -3 cfg.err)"
		done
	done
	rm -f .kcheck.yaml

	# 4. The flags after `--`.
	k --diff k.cu -- '-DX=$(touch PWNED4)' > dd.out 2> dd.err; rc=$?
	pwned "$tag: -- -DX=\$(...)" && [ $rc = 2 ] && grep -q "^kcheck: error: -- -DX=\$(touch PWNED4): .*'\\$'" dd.err \
		&& ok "$tag: a flag after -- refused" || fail "$tag: -- flag: rc=$rc $(head -3 dd.err)"

	# 5. A compile database entry: -p . --ptxas.
	rm -rf "$T/c5" && mkdir "$T/c5" && cd "$T/c5" || exit 2
	printf '%s\n' "$KERNEL" > k.cu
	printf '[{"directory":"%s","file":"k.cu","arguments":["nvcc","-D$(touch PWNED5)","-c","k.cu"]}]\n' \
		"$T/c5" > compile_commands.json
	k -p . --ptxas k.cu > db.out 2> db.err; rc=$?
	pwned "$tag: compile database -D\$(...)" && [ $rc = 2 ] && grep -q "holds '\\$'" db.err \
		&& ok "$tag: a compile database flag with \$ stops --ptxas" \
		|| fail "$tag: compile database: rc=$rc $(head -3 db.err)"
	k -p . k.cu > db2.out 2> db2.err; rc=$?
	pwned "$tag: compile database -D\$(...) without --ptxas" && [ $rc = 2 ] && grep -q "macro parameter list" db2.err \
		&& ok "$tag: the same database still lints, and clang's error on the macro is exit 2 (libclang runs no shell)" \
		|| fail "$tag: compile database lint: rc=$rc $(head -3 db2.err)"

	# 6. bench --suite with a task folder t$(...), and --candidate 'c$(...).cu'.
	rm -rf "$T/c6" && mkdir -p "$T/c6/suite" && cd "$T/c6" || exit 2
	cp -r "$SRC/bench/tasks/saxpy" 'suite/t$(touch PWNED6)'
	k bench --suite suite --compile-only --build-dir "$T/c6/build" > suite.out 2> suite.err; rc=$?
	pwned "$tag: bench --suite with a task t\$(...)" && { [ $rc = 0 ] || { [ $tag = stand-in ] && [ $rc -lt 124 ]; }; } \
		&& ok "$tag: bench --suite with a task t\$(...) (exit $rc)" || fail "$tag: suite: rc=$rc $(head -3 suite.err)"
	cp "$SRC/bench/tasks/saxpy/expert.cu" 'c$(touch PWNED7).cu'
	k bench "$SRC/bench/tasks/saxpy" --candidate 'c$(touch PWNED7).cu' --compile-only \
		--build-dir "$T/c6/build" > cand.out 2> cand.err; rc=$?
	pwned "$tag: bench --candidate c\$(...).cu" && { [ $rc = 0 ] || { [ $tag = stand-in ] && [ $rc -lt 124 ]; }; } \
		&& ok "$tag: bench --candidate c\$(...).cu (exit $rc)" || fail "$tag: candidate: rc=$rc $(head -3 cand.err)"
	cd "$T" || exit 2
}

# nvcc's own temporaries and kcheck's private copies go here: none of
# kcheck's may be left at the end.
mkdir -p "$T/tmp"
export TMPDIR="$T/tmp"
# The stand-in compiles nothing: with it bench stops at objcopy (any exit
# status will do); the real nvcc must get through the whole build (exit 0).
KCHECK_NVCC="$T/bin/nvcc" run_cases stand-in
if [ -n "$real" ]; then
	KCHECK_NVCC="$real" run_cases nvcc
else
	echo "SKIP: no nvcc (install the CUDA toolkit): the cases ran with the stand-in only"
fi

# hipcc (the compile gate of .hip files) gets the same private copy.
if command -v hipcc >/dev/null; then
	mkdir -p "$T/hip/h\$(touch PWNED8)" && cd "$T/hip/h\$(touch PWNED8)" || exit 2
	printf '#define N1 1\n' > h.h
	{ printf '#include <hip/hip_runtime.h>\n#include "h.h"\n'; printf '%s\n' "$KERNEL"; } > 'k$(touch PWNED8).hip'
	k --diff . > hip.out 2> hip.err
	pwned "hipcc: --diff on k\$(...).hip" && grep -q '__launch_bounds__(256)' hip.out \
		&& ok "hipcc: --diff compiles a copy of k\$(...).hip, its include resolves" \
		|| fail "hipcc: --diff on k\$(...).hip: $(head -3 hip.err)"
	cd "$T" || exit 2
else
	echo "SKIP: no hipcc: the .hip case did not run"
fi

# No private copy is left behind (hipcc's clang leaves empty folders of its
# own there: only kcheck's are counted).
left=$(ls -A "$T/tmp" | grep '^kcheck-' | head -3)
[ -z "$left" ] && ok "no private copy left in \$TMPDIR" || fail "left in \$TMPDIR: $left"

[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
[ $fails = 0 ]
