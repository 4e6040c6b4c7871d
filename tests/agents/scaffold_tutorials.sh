#!/usr/bin/env bash
# tests/agents/scaffold_tutorials.sh: `kcheck bench init` on three files
# written the way public CUDA tutorials are (tests/agents/tutorials/): a
# shared-memory reduction with main(), <bits/stdc++.h> and a gettimeofday
# timer; an n x n transpose launched over a dim3 grid; a 1-D kernel with no
# size parameter whose grid covers a macro N exactly.  For each: the
# scaffolded baseline passes the static gate as written, task.yaml has the
# shapes the indexing implies and marks its guesses "TODO check", the
# kernel keeps its line numbers (lint findings on baseline.cu name the
# same lines as on the file), and `kcheck bench TASK --compile-only`
# passes with no hand edit (SKIP line without nvcc).
# Usage: scaffold_tutorials.sh KCHECK
set -u
K=${1:?usage: scaffold_tutorials.sh KCHECK}
K=$(cd "$(dirname "$K")" && pwd)/$(basename "$K")
SRC=$(cd "$(dirname "$0")/../.." && pwd)
TUT=$SRC/tests/agents/tutorials
T=$(mktemp -d /tmp/ka-scaffold-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
has() { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }

cd "$T" || exit 1
for case in reduce_sum:reduceSum transpose:transposeNaive vector_add:vectorAdd saxpy_template:saxpyT; do
	f=${case%%:*} kern=${case##*:}
	out=$(timeout 120 "$K" bench init "$TUT/$f.cu" --kernel "$kern" --out "$f" 2>&1)
	rc=$?
	[ $rc = 0 ] || fail "$f: bench init exit $rc: $out"
	echo "$out" | grep -q "static gate: baseline.cu passes" || fail "$f: static gate: $out"
	echo "$out" | grep -q "reference.cu" || fail "$f: no word on reference.cu: $out"
	for x in task.yaml baseline.cu expert.cu reference.cu; do
		[ -s "$f/$x" ] || fail "$f: no $x"
	done
	# every tensor, the tolerance, bytes, flops and the configs are guesses
	n=$(grep -cE '^  - \{name:|^tolerance:|^bytes:|^flops:|^configs:' "$f/task.yaml")
	m=$(grep -E '^  - \{name:|^tolerance:|^bytes:|^flops:|^configs:' "$f/task.yaml" | grep -c 'TODO check')
	[ "$n" -gt 0 ] && [ "$n" = "$m" ] || fail "$f: $m of $n guessed lines say TODO check"
	# the kernel keeps its lines: each line of the file that is kept is on the same line
	first=$(grep -n '__global__' "$TUT/$f.cu" | head -1 | cut -d: -f1)
	[ "$(sed -n "${first}p" "$TUT/$f.cu")" = "$(sed -n "${first}p" "$f/baseline.cu")" ] ||
		fail "$f: line $first moved"
	ok "$f: init"
done

has reduce_sum/task.yaml "{name: input, role: in, dtype: f32, shape: [n],"
has reduce_sum/task.yaml "{name: output, role: out, dtype: f32, shape: [1]}"
has reduce_sum/baseline.cu "cudaMemsetAsync(output, 0,"
has reduce_sum/baseline.cu "dim3 ka_block_((unsigned)(THREADS)"
has reduce_sum/baseline.cu "/* dropped by kcheck bench init: main() (host code) */"
has reduce_sum/baseline.cu "/* dropped by kcheck bench init: #include <bits/stdc++.h>"
has transpose/task.yaml "{name: odata, role: out, dtype: f32, shape: [n, n]}"
has transpose/task.yaml "{name: idata, role: in, dtype: f32, shape: [n, n],"
has transpose/baseline.cu "dim3 ka_grid_((unsigned)((n + TILE - 1) / TILE), (unsigned)((n + TILE - 1) / TILE)"
has transpose/baseline.cu "dim3 ka_block_((unsigned)(TILE), (unsigned)(TILE), (unsigned)(1));"
has vector_add/task.yaml "params: [n]   # TODO check: n is the element count"
has vector_add/task.yaml "{name: c, role: out, dtype: f32, shape: [n]}"
has vector_add/task.yaml "    - {name: v_1, n: 1048576}"
has vector_add/baseline.cu "dim3 ka_grid_((unsigned)(n / BLOCK_SIZE)"
# a template kernel: its types and launch from main's saxpyT<float> and BLOCK's default
has saxpy_template/task.yaml "{name: x, role: in, dtype: f32, shape: [n],"
has saxpy_template/task.yaml "{name: y, role: out, dtype: f32, shape: [n]}"
has saxpy_template/baseline.cu "saxpyT<float, 256><<<ka_grid_, ka_block_, 0, ka_stream_>>>(n, a, x, y);"
has saxpy_template/baseline.cu "/* dropped by kcheck bench init: main() (host code) */"
# a template no launch instantiates: one line, exit 2, nothing written
out=$(timeout 120 "$K" bench init "$TUT/saxpy_template.cu" --kernel fillT --out fill 2>&1)
rc=$?
[ $rc = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q "fillT is a template" ||
	fail "fillT: want one line and exit 2, got $rc: $out"
[ ! -e fill ] || fail "fillT: the refused task left files"
# no bound check: every size is a multiple of the block
for v in $(grep -oE 'n: [0-9]+' vector_add/task.yaml | cut -d' ' -f2); do
	[ $((v % 256)) = 0 ] || fail "vector_add: size $v is no multiple of 256"
done

# findings in the kernel name the same lines in the file and in baseline.cu
lines() { timeout 300 "$K" --no-config --format concise -q --exit-zero "$@" 2>/dev/null |
	sed -nE 's/^[^:]+:([0-9]+):.*\[([a-z0-9-]+)\]$/\1 \2/p' | awk '$1 >= 9 && $1 <= 15' | sort -u; }
a=$(lines "$TUT/transpose.cu")
b=$(lines transpose/baseline.cu -- -I"$SRC/bench/harness")
[ -n "$a" ] && [ "$a" = "$b" ] || fail "transpose: findings in the kernel moved: file [$a] baseline [$b]"

if [ -x "${NVCC:-/usr/local/cuda/bin/nvcc}" ] || command -v nvcc >/dev/null; then
	# The harness object is the one the bench_compile-tasks-K shares made
	# ($KA_TEST_BENCH_SEED, scripts/test.sh; content-keyed and checked):
	# linked in, not compiled again.  The four tasks' own files are compiled.
	if [ -n "${KA_TEST_BENCH_SEED:-}" ] && [ -d "$KA_TEST_BENCH_SEED/obj" ]; then
		mkdir -p "$T/build"
		cp -R -l "$KA_TEST_BENCH_SEED/obj" "$T/build/" 2>/dev/null || cp -R "$KA_TEST_BENCH_SEED/obj" "$T/build/"
	fi
	for f in reduce_sum transpose vector_add saxpy_template; do
		out=$(timeout 600 "$K" bench "$f" --compile-only --build-dir "$T/build" 2>&1)
		rc=$?
		[ $rc = 0 ] && echo "$out" | grep -q ": compiled" || fail "$f: bench --compile-only exit $rc: $out"
	done
	ok "bench --compile-only on the four tasks"
	# Their objects go into the seed too (hard links of finished, content-keyed
	# files, as the tasks' own are there): scripts/test.sh hands the seed to the
	# sanitizer half, whose run of this test then compiles none of them again.
	if [ -n "${KA_TEST_BENCH_SEED:-}" ] && [ -d "$KA_TEST_BENCH_SEED/obj" ] && [ -d "$T/build/obj" ]; then
		find "$T/build/obj" -maxdepth 1 -type f \( -name '*.o' -o -name '*.o.sha256' \) \
			-exec cp -l -n {} "$KA_TEST_BENCH_SEED/obj/" \; 2>/dev/null
	fi
else
	echo "SKIP: no nvcc: the scaffolded tasks are not compiled"
fi

[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
[ $fails = 0 ]
