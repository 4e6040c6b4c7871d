#!/usr/bin/env bash
# tests/bench/cli_test.sh: end-to-end checks of ka-bench that need no GPU.
# usage: cli_test.sh KA_BENCH SOURCE_DIR BUILD_DIR CHECK [K/N]
#   K/N (compile-tasks, adversarial-static): only the K-th of N shares of the
#   tasks or candidates (0-based, by their order), so that ctest -j runs the
#   shares side by side; the shares together check all of them
#   no-device     without a GPU every run but --compile-only exits 2 with
#                 "kcheck: error: no CUDA device found"
#   bad-input     bad spec / bad options: one-line error, exit 2; a suite
#                 with a broken task still reports the others; a cache folder
#                 others can write to, or a symlink, is refused
#   compile-tasks --compile-only passes on every task (nvcc compiles each
#                 task's baseline, expert and reference, and links the
#                 harness); share 0 also compiles a HIP candidate
#   compile-suite --suite --compile-only over every task (after the
#                 compile-tasks shares: every object is in the cache);
#                 without a GPU, the harness's stdin/fd 3 channels
#   adversarial-static  each adversarial candidate meets its MANIFEST STATIC
#                 column; a candidate that does not compile is rejected
#   include-leak  a candidate that includes a file outside the task through
#                 a digraph, a line splice or a comment is rejected at the
#                 static gate; with that gate skipped, nvcc's quotes of the
#                 included file never reach the result (text or JSON)
#   gpu-smoke     with a CUDA device: a real timed run (gelu expert faster
#                 than its baseline) and a cheat rejected (zeros); without
#                 one it skips loudly (the full GPU half is
#                 scripts/bench_suite_gpu.sh)
# Exit 77 (ctest: skipped) with a loud SKIP line when a tool is missing.
set -u
bench=$1 src=$2 build=$3 check=$4 share=${5:-0/1}
k=${share%/*} n=${share#*/}
mine() {  # mine INDEX: whether item INDEX belongs to this share
	[ $(($1 % n)) = "$k" ]
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
expect() {  # expect NAME WANT_RC WANT_STDERR_SUBSTRING -- cmd...
	local name=$1 want=$2 msg=$3
	shift 4
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" != "$want" ] || ! grep -qF -- "$msg" "$tmp/err" "$tmp/out"; then
		echo "FAIL $name: exit $rc (want $want), output:"; cat "$tmp/out" "$tmp/err"
		fails=$((fails + 1))
	else
		echo "ok   $name"
	fi
}
need_nvcc() {
	if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
		echo "SKIP: nvcc not found (install the CUDA toolkit to run $check)"
		exit 77
	fi
}

case $check in
gpu-smoke)
	if [ ! -e /dev/nvidia0 ] && [ ! -e /dev/nvidiactl ]; then
		echo "SKIP: no CUDA device: the GPU bench smoke test needs one"
		exit 77
	fi
	need_nvcc
	expect gelu 0 '"verdict":"faster"' -- "$bench" "$src/bench/tasks/gelu" --configs visible \
		--json --build-dir "$build"
	expect zeros 1 "rejected" -- "$bench" "$src/bench/tasks/gelu" --configs visible \
		--candidate "$src/tests/bench/adversarial/zeros.cu" --build-dir "$build"
	;;
no-device)
	if [ -e /dev/nvidia0 ] || [ -e /dev/nvidiactl ]; then
		echo "SKIP: a CUDA device is present; the no-device path needs a machine without one"
		exit 77
	fi
	expect task 2 "kcheck: error: no CUDA device found" -- "$bench" "$src/bench/tasks/gelu"
	expect suite 2 "kcheck: error: no CUDA device found" -- "$bench" --suite "$src/bench/tasks"
	expect check-task 2 "kcheck: error: no CUDA device found" -- "$bench" "$src/bench/tasks/gelu" --check-task 3
	expect json 2 "kcheck: error: no CUDA device found" -- "$bench" "$src/bench/tasks/gelu" --json
	[ "$(wc -l <"$tmp/err")" = 1 ] || { echo "FAIL: more than one line"; fails=$((fails + 1)); }
	[ -s "$tmp/out" ] && { echo "FAIL: a result was printed without a device"; fails=$((fails + 1)); }
	;;
bad-input)
	mkdir -p "$tmp/t"
	cp "$src/bench/tasks/gelu/"*.cu "$tmp/t/"
	sed 's/dtype: f32, shape: n,/dtype: f8, shape: n,/' "$src/bench/tasks/gelu/task.yaml" >"$tmp/t/task.yaml"
	expect bad-dtype 2 "kcheck: error: $tmp/t/task.yaml: unknown dtype 'f8' (f32, f64, i32, u32, f16, bf16)" -- \
		"$bench" "$tmp/t" --compile-only
	[ "$(wc -l <"$tmp/err")" = 1 ] || { echo "FAIL: error is not one line"; fails=$((fails + 1)); }
	{ cat "$src/bench/tasks/gelu/task.yaml"; printf 'name: gelu2\n'; } >"$tmp/t/task.yaml"
	line=$(wc -l <"$tmp/t/task.yaml") # gelu names itself on line 2
	expect dup-key 2 "kcheck: error: $tmp/t/task.yaml: key 'name' given twice in the task (lines 2 and $line)" -- \
		"$bench" "$tmp/t" --compile-only
	printf 'name: [broken\n' >"$tmp/t/task.yaml"
	expect yaml 2 "kcheck: error: $tmp/t/task.yaml:2: YAML error" -- "$bench" "$tmp/t" --compile-only
	expect no-task 2 "kcheck: error: no task spec at /nonexistent/task.yaml" -- "$bench" /nonexistent --compile-only
	expect no-candidate 2 "kcheck: error: no such candidate file: /nonexistent.cu" -- \
		"$bench" "$src/bench/tasks/gelu" --candidate /nonexistent.cu --compile-only
	expect bad-option 2 "kcheck: error: unknown option: --fast" -- "$bench" "$src/bench/tasks/gelu" --fast
	expect near-option 2 "kcheck: error: unknown option: --canddate (did you mean '--candidate'?)" -- \
		"$bench" "$src/bench/tasks/gelu" --canddate x.cu
	expect near-runner-option 2 "kcheck: error: unknown option: --partiton (did you mean '--partition'?)" -- \
		"$bench" "$src/bench/tasks/gelu" --partiton gpu
	expect flag-value 2 "kcheck: error: --json takes no value" -- "$bench" "$src/bench/tasks/gelu" --json=yes
	expect bad-configs 2 "kcheck: error: --configs takes visible, unseen or all: some" -- \
		"$bench" "$src/bench/tasks/gelu" --configs some
	expect no-args 2 "kcheck: error: give one TASK or --suite DIR" -- "$bench"
	expect check-task-count 2 "kcheck: error: --check-task takes a number of seeds, 2..50: 1" -- \
		"$bench" "$src/bench/tasks/gelu" --check-task 1
	expect check-task-candidate 2 "kcheck: error: --check-task checks the task's own expert and baseline" -- \
		"$bench" "$src/bench/tasks/gelu" --check-task 3 --candidate "$src/bench/tasks/gelu/baseline.cu"
	# a suite reports every task even when one of them is broken
	mkdir -p "$tmp/suite/a_broken" "$tmp/suite/b_gelu"
	printf 'name: a_broken\nworkspce: 4\n' >"$tmp/suite/a_broken/task.yaml"
	cp "$src/bench/tasks/gelu/"* "$tmp/suite/b_gelu/"
	if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
		expect suite-goes-on 2 "gelu: compiled" -- "$bench" --suite "$tmp/suite" --compile-only --build-dir "$build"
		grep -qF "a_broken: error:" "$tmp/out" || { echo "FAIL: the broken task is not reported"; fails=$((fails + 1)); }
	fi
	# the object cache: never a folder others can write to, never through a symlink
	mkdir -p "$tmp/shared" && chmod 777 "$tmp/shared"
	expect cache-shared 2 "writable by group or others" -- "$bench" "$src/bench/tasks/gelu" --compile-only \
		--build-dir "$tmp/shared"
	ln -s "$build" "$tmp/cache-link"
	expect cache-symlink 2 "it is a symbolic link" -- "$bench" "$src/bench/tasks/gelu" --compile-only \
		--build-dir "$tmp/cache-link"
	printf 'name: "two words"\n' >"$tmp/t/task.yaml"
	expect name-space 2 "task name 'two words' may hold only letters, digits and _ . + -" -- \
		"$bench" "$tmp/t" --compile-only
	;;
compile-tasks)
	need_nvcc
	i=-1
	for t in "$src"/bench/tasks/*/; do
		i=$((i + 1))
		mine "$i" || continue
		name=$(basename "$t")
		expect "$name" 0 "$name: compiled" -- "$bench" "$t" --compile-only --build-dir "$build"
	done
	[ "$k" = 0 ] && expect hip-candidate 0 "gelu: compiled" -- "$bench" "$src/bench/tasks/gelu" \
		--candidate "$src/tests/bench/hip/gelu.hip" --compile-only --build-dir "$build"
	;;
compile-suite)
	need_nvcc
	expect suite 0 "transpose: compiled" -- "$bench" --suite "$src/bench/tasks" --compile-only --build-dir "$build"
	ntasks=$(ls -d "$src"/bench/tasks/*/ | wc -l)
	[ "$(grep -c ': compiled' "$tmp/out")" = "$ntasks" ] ||
		{ echo "FAIL suite: not all $ntasks tasks compiled"; fails=$((fails + 1)); }
	# the harness's channels: plan on stdin, "ready" on fd 3, then the seed;
	# without fd 3 it refuses to run (nothing goes to a file or stdout).
	# Only without a GPU: with one, the made-up plan would reach the device.
	[ -e /dev/nvidiactl ] || [ -e /dev/nvidia0 ] && { [ "$fails" = 0 ]; exit; }
	# the newest linked harness (not its .sha256, a .lock or a link in progress)
	h=$(ls -t "$build"/bin/h-* | grep -E '/h-[0-9a-f]{16}$' | head -n 1)
	plan='seed 1\nsamples 30\ndeterministic 1\ntol 1e-6 1e-5 1e-6\ntensor x in f32 normal 0 2 uniform -1 1\ntensor y out f32\nconfig v visible 0 1 5 2 5 5\nreduce v 1\nend\nvseed 9\n'
	printf "$plan" | "$h" correct 3>"$tmp/fd3" >"$tmp/stdout" 2>&1
	rc=$?
	if [ "$(head -n 1 "$tmp/fd3")" != ready ] || [ -s "$tmp/stdout" ]; then
		echo "FAIL harness-channels: fd 3 $(tr '\n' ' ' <"$tmp/fd3"), stdout $(cat "$tmp/stdout"), exit $rc"; fails=$((fails + 1))
	elif [ "$rc" != 3 ] || ! grep -qx nodevice "$tmp/fd3"; then
		echo "FAIL harness-channels: without a GPU want nodevice and exit 3, got exit $rc"; fails=$((fails + 1))
	else
		echo "ok   harness-channels"
	fi
	printf "$plan" | "$h" correct >/dev/null 2>&1 3>&-
	if [ $? != 2 ]; then echo "FAIL harness-no-fd3: want exit 2"; fails=$((fails + 1)); else echo "ok   harness-no-fd3"; fi
	;;
include-leak)
	need_nvcc
	printf 'aws_secret_access_key = SECRET-%s-KEY\n' "$$" >"$tmp/credentials"
	n=0
	for spelling in '%%:include "%s"' '#inc\\\nlude "%s"' '#/**/include "%s"' '#  /* a\n */ include "%s"'; do
		n=$((n + 1))
		{ printf '#include "ka_task.h"\n'; printf "$spelling\n" "$tmp/credentials"
		  printf 'extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s) { return 0; }\n'; } >"$tmp/c$n.cu"
		expect "static-$n" 1 "rejected at the static gate" -- "$bench" "$src/bench/tasks/gelu" \
			--candidate "$tmp/c$n.cu" --compile-only --build-dir "$build"
		grep -qF "$tmp/credentials" "$tmp/out" || { echo "FAIL static-$n: the include is not named"; fails=$((fails + 1)); }
		for form in "" --json; do
			"$bench" "$src/bench/tasks/gelu" --candidate "$tmp/c$n.cu" --compile-only --build-dir "$build" \
				--unsafe-skip-static-gate $form >"$tmp/out" 2>"$tmp/err"
			if grep -q "SECRET-" "$tmp/out" "$tmp/err"; then
				echo "FAIL leak-$n$form: the included file's text reached the result:"; cat "$tmp/out" "$tmp/err"
				fails=$((fails + 1))
			elif ! grep -qF "compile" "$tmp/out"; then
				echo "FAIL leak-$n$form: not rejected at the compile gate:"; cat "$tmp/out" "$tmp/err"
				fails=$((fails + 1))
			else
				echo "ok   leak-$n$form"
			fi
		done
	done
	;;
adversarial-static)
	need_nvcc
	i=-1
	while read -r file task static _gpu; do
		case $file in ''|'#'*) continue ;; esac
		i=$((i + 1))
		mine "$i" || continue
		if [ "$static" = rejected ]; then
			expect "$file" 1 "rejected at the static gate" -- "$bench" "$src/bench/tasks/$task" \
				--candidate "$src/tests/bench/adversarial/$file" --compile-only --build-dir "$build"
		else
			expect "$file" 0 "$task: compiled" -- "$bench" "$src/bench/tasks/$task" \
				--candidate "$src/tests/bench/adversarial/$file" --compile-only --build-dir "$build"
		fi
	done <"$src/tests/bench/adversarial/MANIFEST"
	[ "$k" = 0 ] || { [ "$fails" = 0 ]; exit; }
	# symbol localization: a candidate's own cudaEventElapsedTime stays local
	expect timer-patch-compiles 0 "gelu: compiled" -- "$bench" "$src/bench/tasks/gelu" --unsafe-skip-static-gate \
		--candidate "$src/tests/bench/adversarial/timer_patch.cu" --compile-only --build-dir "$tmp/cache"
	globals=$(nm -g --defined-only "$tmp"/cache/obj/b-*.o | awk '{print $3}' | sort -u | tr '\n' ' ')
	if [ "$globals" != "ka_impl_b " ]; then
		echo "FAIL localize: candidate object exports: $globals"; fails=$((fails + 1))
	else
		echo "ok   localize (only ka_impl_b is global)"
	fi
	printf '#include "ka_task.h"\nextern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s) { return undefined_name; }\n' >"$tmp/broken.cu"
	expect compile-error 1 "rejected at the compile gate: candidate does not compile" -- \
		"$bench" "$src/bench/tasks/gelu" --candidate "$tmp/broken.cu" --compile-only --build-dir "$build"
	;;
*)
	echo "unknown check $check"; exit 2 ;;
esac
[ "$fails" = 0 ]
