#!/usr/bin/env bash
# KernelArc: install everything, build with warnings as errors, run every
# test; then build the unit and golden tests again under ASan+UBSan.
# GPU tests skip loudly when no CUDA device is present.
# --quick (for development): no setup, no sanitizer half.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = --quick ] && quick=1
[ $quick = 1 ] || bash scripts/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)
# ctest runs one test more than there are cores: some tests spend much of
# their time waiting, not computing (the Slurm cluster test waits more than
# a minute for the scheduler's time limit; the CLI and bench tests wait on
# the processes they start), and the extra test fills that time.
tjobs=$((jobs + 1))

echo "== format (clang-format 19, the paths in scripts/format_paths.txt) =="
bash scripts/check_format.sh

# A build folder configured for the first time uses Ninja when it is
# installed: CMake's Makefiles spend much of a build scanning dependencies
# and recursing into make, per target and per build (measured on a clean
# clone, docs/ci-time-2026-12-06.md).  A folder that exists keeps the
# generator it was made with (CMake refuses to change it).
gen() {
	if [ ! -e "$1/CMakeCache.txt" ] && command -v ninja >/dev/null; then
		echo -G Ninja
	fi
}

echo "== build (-Werror) =="
cmake -S . -B build $(gen build) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKA_WERROR=ON >/dev/null
cmake --build build -j"$jobs"
echo "== tests =="
if [ ! -e /dev/nvidia0 ] && [ ! -e /dev/nvidiactl ]; then
	echo "SKIP: no CUDA device: GPU tests (bench_gpu-smoke) are skipped, not faked;"
	echo "      the GPU half of the bench runs with scripts/bench_suite_gpu.sh on a GPU machine"
fi
# Both halves run even when the first fails; the summary at the end names
# each result and the script exits non-zero when either failed.
# What nvcc accepted in the recipe tests (tests/agents/recipe_nvcc.c): a
# rewrite two tests compile, or both halves, is compiled once.  Only passes
# are kept, each keyed by nvcc (path, size, time of change), its flags, the
# harness headers and the text.  By default the folder starts empty every
# run; a CI that keeps a folder between runs may name it in
# KA_TEST_NVCC_CACHE, and a later run then skips the compiles of the same
# texts with the same nvcc and headers.
if [ -z "${KA_TEST_NVCC_CACHE:-}" ]; then
	export KA_TEST_NVCC_CACHE=$PWD/build/test-nvcc-passed
	rm -rf "$KA_TEST_NVCC_CACHE"
fi
mkdir -p "$KA_TEST_NVCC_CACHE"
# The bench's object cache of the bench_compile-tasks-K shares (every task's harness,
# reference, baseline and expert, content-keyed and checked): agents-optimize
# links these objects into its own fresh cache instead of compiling the
# same harness, references and baselines again, in both halves.
export KA_TEST_BENCH_SEED=$PWD/build/tests/bench/bench-cache
# The sanitizer build runs beside the first half's tests, at a lower
# priority: ctest -j leaves a core idle at times (tests that wait on a
# scheduler or on the processes they start, the last tests of the run), and
# the build fills it.  Its output goes to a log, printed when it fails.
san_build_pid=
if [ $quick = 0 ]; then
	gen_asan=$(gen build-asan)
	mkdir -p build-asan
	( cmake -S . -B build-asan $gen_asan -DCMAKE_BUILD_TYPE=Debug -DKA_SANITIZE=ON -DKA_WERROR=ON >/dev/null &&
		nice -n 10 cmake --build build-asan -j"$jobs" ) > build-asan/build.log 2>&1 &
	san_build_pid=$!
fi
main_rc=0
(cd build && ctest -j"$tjobs" --output-on-failure --timeout 900) || main_rc=$?

echo "== sanitizer build (ASan+UBSan, built beside the tests above) =="
if [ $quick = 1 ]; then
	[ "$main_rc" = 0 ] && echo "tests: passed (quick: no sanitizer half)" || echo "tests: FAILED (status $main_rc)"
	exit "$main_rc"
fi
san_rc=0
wait "$san_build_pid" || san_rc=$?
if [ "$san_rc" != 0 ]; then
	tail -n 40 build-asan/build.log
	echo "sanitizer build: FAILED (status $san_rc; the whole log in build-asan/build.log)"
fi
# The nvcc-bound suites (task compiles, adversarial candidates, rewriter
# golden and example compiles, the shell-safety runs of nvcc) and the ones
# whose time is libclang's (the messages over the test corpora, the
# precompiled-header equivalence) already ran above; under the sanitizers
# we run the code that is ours: unit tests, analyzer golden tests, the CLI
# end to end, the rule examples, the LLM client, per-file isolation, the
# recipes (their rewrites' nvcc passes are remembered from the first half,
# $KA_TEST_NVCC_CACHE).  The Slurm cluster test (mostly waiting on the
# scheduler) runs once, and so do two checks of content rather than of
# code paths: cli-help (each --help page against the option tables in
# the source) and recall_pairs (the analyzer's recall on the naive and
# optimized pairs, a quality figure; the analyzer's code runs under the
# sanitizers in the golden, fuzz, limits and generated-kernel tests).
# Leak detection is on: a leak fails the test that shows it (LSan's exit
# status 23), also in kcheck processes the CLI tests start.  Freed memory
# waits in a 16 MB quarantine (ASan's default is 256 MB): a use after free
# is still caught while the block is among the last 16 MB freed, and each
# short-lived kcheck touches fewer fresh pages (docs/ci-time-2026-12-05.md:
# 7% less CPU on analyzer_golden and rules_examples, measured twice).
# The bench tests of this half (bench_scale_gpus, bench_bad-input) start
# from the objects and harness binaries the release half's task compiles
# made (content-keyed and checked, as agents-optimize takes them): the
# same nvcc on the same texts would make the same files.  The cache's own
# code (compile on a miss, the lock, the link, the checks) still runs under
# the sanitizers in bench_hardening, with a stand-in nvcc.
if [ "$san_rc" = 0 ] && [ -d "$KA_TEST_BENCH_SEED/obj" ]; then
	mkdir -p build-asan/tests/bench/bench-cache
	for d in obj bin; do
		if [ -d "$KA_TEST_BENCH_SEED/$d" ]; then
			# a file not linked is compiled again, nothing worse
			cp -R -l -n "$KA_TEST_BENCH_SEED/$d" build-asan/tests/bench/bench-cache/ ||
				echo "note: the sanitizer half's bench cache was seeded only in part"
		fi
	done
fi
if [ "$san_rc" = 0 ]; then
	(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:quarantine_size_mb=16 ctest -j"$tjobs" --output-on-failure --timeout 900 \
		-E 'bench_compile|bench_include-leak|adversarial|rewriter-golden|rewriter-examples|rewriter-fix-cli|rewriter-gate|headers-alone|cli-shell|rules_message_scan|analyzer_pch|corpus_sweep|bench_scale_slurm|cli-help|recall_pairs') || san_rc=$?
fi

echo "== summary =="
[ "$main_rc" = 0 ] && echo "tests: passed" || echo "tests: FAILED (status $main_rc)"
[ "$san_rc" = 0 ] && echo "sanitizer tests: passed" || echo "sanitizer tests: FAILED (status $san_rc)"
[ "$main_rc" = 0 ] && [ "$san_rc" = 0 ]
