#!/usr/bin/env bash
# tests/bench/slurm_test.sh: the bench's scale-out runners (bench/scale.h).
# usage: slurm_test.sh KA_BENCH SOURCE_DIR CACHE_DIR CHECK [KCHECK]
#   gpus   the local pool without a GPU: --gpus runs one job per GPU at a
#          time (CUDA_VISIBLE_DEVICES set per job, never two on one GPU),
#          every task once, the JSON identical to the in-process run; a job
#          that ends without a result gets an "error" entry saying why
#   slurm  a real one-node Slurm cluster (munged, slurmctld, slurmd from
#          Debian's slurm-wlm, started here as root, no systemd) with four
#          fake GPUs (mknod + gres.conf): the suite in --compile-only mode,
#          a job that fails, one past its time limit, one cancelled, the run
#          interrupted and resumed without redoing finished jobs, a folder
#          of another run refused, .kcheck.yaml's Slurm keys (a partition
#          sbatch refuses, a value of the wrong shape), and kcheck optimize
#          --runner slurm (when KCHECK is given)
# The jobs run a stand-in program that logs each start and then runs the
# real bench (or fails, sleeps, ...), so the test sees what ran where.
# Exit 77 (ctest: skipped) with a loud SKIP line when a tool is missing.
set -u
bench=$(realpath "$1") src=$(realpath "$2") cache=$(realpath -m "$3") check=$4 kcheck=${5:-}
tmp=$(mktemp -d)
fails=0
here=$(cd "$(dirname "$0")" && pwd)
cleanup() {
	[ -n "${cancel_pid:-}" ] && kill "$cancel_pid" 2>/dev/null
	if [ "$check" = slurm ]; then ka_slurm_stop; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
ok() { echo "ok   $1"; }
bad() {
	echo "FAIL $1"
	fails=$((fails + 1))
}
skip() {
	echo "SKIP: $*"
	exit 77
}
nvcc=${KCHECK_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || skip "no nvcc (the jobs run the suite in --compile-only mode)"
command -v jq >/dev/null || skip "no jq"
export KCHECK_NVCC=$nvcc
export XDG_CACHE_HOME=$cache  # the compiled objects, shared with the other bench tests
mkdir -p "$cache"

# the suite: two real tasks, and links that the stand-in turns into a job
# that fails, one that runs past its limit once, one that is cancelled
mkdir -p "$tmp/suite"
ln -s "$src/bench/tasks/gelu" "$tmp/suite/gelu"
ln -s "$src/bench/tasks/col_sum" "$tmp/suite/col_sum"

cat >"$tmp/stand-in" <<STAND
#!/bin/sh
# a stand-in for kcheck on the nodes: \$1 is "bench", \$2 the task
task=\$(basename "\$2")
echo "\$task \${CUDA_VISIBLE_DEVICES:-none}" >>"$tmp/runs.log"
case "\$task" in
fails) echo "stand-in: this job fails on purpose" >&2; exit 3 ;;
slow) if mkdir "$tmp/slow.once" 2>/dev/null; then sleep 600; fi ;;
cancelme) sleep 600 ;;
esac
if [ -n "\${STAND_IN_BUSY:-}" ]; then
	# the local pool: a GPU holds one job at a time
	mkdir "$tmp/busy.\$CUDA_VISIBLE_DEVICES" 2>/dev/null || echo "OVERLAP on \$CUDA_VISIBLE_DEVICES" >>"$tmp/runs.log"
	sleep 0.3
	rmdir "$tmp/busy.\$CUDA_VISIBLE_DEVICES"
fi
shift
exec "$bench" bench "\$@"
STAND
chmod +x "$tmp/stand-in"

if [ "$check" = gpus ]; then
	ln -s "$src/bench/tasks/gelu" "$tmp/suite/fails"
	"$bench" --suite "$tmp/suite" --compile-only --seed 11 --json >"$tmp/plain.json" 2>"$tmp/plain.err"
	STAND_IN_BUSY=1 "$bench" --suite "$tmp/suite" --compile-only --seed 11 --json --gpus 3,5 \
		--kcheck "$tmp/stand-in" >"$tmp/pool.json" 2>"$tmp/pool.err"
	rc=$?
	[ "$rc" = 2 ] && ok "a job without a result: exit 2" || bad "pool exit $rc (want 2)"
	if [ "$(grep -c . "$tmp/runs.log")" = 3 ] && [ "$(cut -d' ' -f2 "$tmp/runs.log" | sort -u | tr '\n' ' ')" = "3 5 " ]; then
		ok "three jobs, each once, on GPUs 3 and 5 only"
	else
		bad "jobs and GPUs:"; cat "$tmp/runs.log"
	fi
	grep -q OVERLAP "$tmp/runs.log" && bad "two jobs on one GPU at once" || ok "one job per GPU at a time"
	# every task but the failing one: the same document as the in-process run
	q='[.tasks[] | select(.verdict != "error") | select(.candidate | test("/fails/") | not)]'
	if cmp -s <(jq -c "$q" "$tmp/plain.json") <(jq -c "$q" "$tmp/pool.json") &&
		[ "$(jq '.tasks | length' "$tmp/pool.json")" = 3 ] && [ "$(jq -c "$q | length" "$tmp/pool.json")" = 2 ]; then
		ok "verdicts identical to the in-process run"
	else
		bad "verdicts differ:"; diff <(jq -c "$q" "$tmp/plain.json") <(jq -c "$q" "$tmp/pool.json")
	fi
	why=$(jq -r '.tasks[] | select(.verdict == "error") | .reason' "$tmp/pool.json")
	case "$why" in
	*"ended with status 3 and no result: stand-in: this job fails on purpose"*) ok "the failed job says why" ;;
	*) bad "failed job's reason: $why" ;;
	esac
	"$bench" --suite "$tmp/suite" --compile-only --gpus 1,1 >/dev/null 2>"$tmp/err"
	[ $? = 2 ] && grep -q "names GPU 1 twice" "$tmp/err" && ok "--gpus 1,1 refused" || bad "--gpus 1,1"
	[ "$fails" = 0 ] && exit 0 || exit 1
fi

[ "$check" = slurm ] || { echo "unknown check $check"; exit 2; }
[ "$(id -u)" = 0 ] || skip "not root (the test starts slurmctld, slurmd and munged, and makes device nodes)"
for t in /usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/munged sbatch squeue scontrol scancel sinfo; do
	command -v "$t" >/dev/null || skip "no $t (Debian: apt-get install slurm-wlm munge; scripts/setup.sh)"
done
# shellcheck source=tests/bench/slurm_cluster.sh
. "$here/slurm_cluster.sh"
ka_slurm_start "$tmp/cluster" || { echo "FAIL: the test cluster did not start"; exit 1; }
ok "one-node cluster up: $(sinfo -h -o '%P %t %G')"

ln -s "$src/bench/tasks/gelu" "$tmp/suite/fails"
ln -s "$src/bench/tasks/gelu" "$tmp/suite/slow"
ln -s "$src/bench/tasks/gelu" "$tmp/suite/cancelme"
cd "$tmp" || exit 1
run=("$bench" --suite suite --compile-only --json --runner slurm --slurm-dir jobs --kcheck "$tmp/stand-in"
	--time-limit 1 --gpus-per-job 1 --retries 1 --poll-interval 0)
# someone cancels every job of task cancelme as soon as it is queued
(while :; do scancel --name=kcheck-cancelme 2>/dev/null; sleep 1; done) &
cancel_pid=$!

# first run: interrupted once the real tasks' results are in and "slow" runs
"${run[@]}" >run1.json 2>run1.err &
pid=$!
for _ in $(seq 1 120); do
	[ -s jobs/gelu.json ] && [ -s jobs/col_sum.json ] && [ -d slow.once ] && break
	sleep 0.5
done
kill -TERM "$pid"
wait "$pid"
[ -s jobs/gelu.json ] && [ -s jobs/col_sum.json ] && [ -s jobs/slow.job ] &&
	ok "first run interrupted with two results in and the slow job submitted" ||
	{ bad "first run: state before the interruption:"; ls jobs; cat run1.err; }
# "slow" runs with the run's one-minute limit.  Slurm counts limits in whole
# minutes and checks them every half minute, so instead of waiting that
# minute out the test lowers the running job's limit to zero, as an
# administrator can: slurmctld ends it at its next check, in the same
# TIMEOUT state the runner must handle (about 30 s sooner on average).
slow_id=$(cut -d' ' -f1 jobs/slow.job 2>/dev/null)
if [ -n "$slow_id" ] && scontrol show job "$slow_id" | grep -q 'TimeLimit=00:01:00 '; then
	ok "--time-limit 1 reached sbatch (job $slow_id: one minute)"
	scontrol update JobId="$slow_id" TimeLimit=0 || bad "scontrol update TimeLimit=0 of job $slow_id"
else
	bad "the slow job's time limit:"; scontrol show job "$slow_id"
fi

# second run: the same command resumes
"${run[@]}" >run2.json 2>run2.err
rc=$?
[ "$rc" = 2 ] && ok "resumed run ends, exit 2 (two jobs without a result)" || { bad "resumed run exit $rc"; cat run2.err; }
grep -q "gelu: result already in the folder" run2.err && grep -q "slow: job [0-9]* (attempt 1) from an earlier run: polling it again" run2.err &&
	ok "resume: results kept, the running job polled again" || { bad "resume messages:"; cat run2.err; }
count() { grep -c "^$1 " runs.log; }
[ "$(count gelu)" = 1 ] && [ "$(count col_sum)" = 1 ] && ok "finished jobs not redone after the interruption" ||
	{ bad "runs:"; cat runs.log; }
if [ -s runs.log ] && ! grep -q " none$" runs.log && [ "$(cut -d' ' -f2 runs.log | sort -u | grep -cvx '[0-3]')" = 0 ]; then
	ok "--gres=gpu:1: every job got CUDA_VISIBLE_DEVICES of a fake GPU"
else
	bad "jobs without a GPU:"; cat runs.log
fi
v() { jq -r --arg n "$1" '.tasks[] | select((.candidate // "") | test("suite/" + $n + "/")) | .verdict' run2.json; }
[ "$(v gelu)" = compiled ] && [ "$(v col_sum)" = compiled ] && ok "suite --compile-only through Slurm: compiled" ||
	{ bad "verdicts:"; cat run2.json; }
[ "$(count slow)" = 2 ] && [ "$(v slow)" = compiled ] && grep -q "slow: slurm job [0-9]* ran past its time limit (TIMEOUT) without a result, attempt 1 of 2.*submitting it again" run1.err run2.err &&
	ok "past its time limit: TIMEOUT reported, retried once, the retry's result kept" ||
	{ bad "time limit:"; cat run1.err run2.err runs.log; }
jq -r '.tasks[] | select(.verdict == "error") | .reason' run2.json >reasons
grep -q "failed (FAILED) without a result, attempt 2 of 2: stand-in: this job fails on purpose" reasons && [ "$(count fails)" = 2 ] &&
	ok "a failing job: retried once, then an error entry that says why" || { bad "failing job:"; cat reasons runs.log; }
grep -q "was cancelled (CANCELLED) without a result, attempt 2 of 2" reasons &&
	ok "a cancelled job: retried once, then an error entry" || { bad "cancelled job:"; cat reasons; }
[ -s jobs/fails.failed ] && [ -s jobs/cancelme.failed ] && ok "final outcomes kept in the folder" || bad "no .failed files"
# the same entry as a plain local run of that task with the run's seed
seed=$(cat jobs/seed)
"$bench" suite/col_sum --compile-only --json --seed "$seed" >local.json 2>/dev/null
if [ -s local.json ] && cmp -s <(jq -c . local.json) <(jq -c '.tasks[] | select((.candidate // "") | test("suite/col_sum/"))' run2.json); then
	ok "a Slurm result is the document a local run prints"
else
	bad "Slurm and local documents differ:"; diff <(jq -c . local.json) <(jq -c '.tasks[] | select((.candidate // "") | test("suite/col_sum/"))' run2.json)
fi
# a third run does nothing new
before=$(grep -c . runs.log)
"${run[@]}" >run3.json 2>run3.err
[ "$(grep -c . runs.log)" = "$before" ] && [ -s run2.json ] && cmp -s run2.json run3.json && ok "a finished run again: nothing submitted, same report" ||
	{ bad "third run:"; cat run3.err; }
# another seed in the same folder: refused, nothing submitted
"${run[@]}" --seed 5 >/dev/null 2>err
[ $? = 2 ] && grep -q "was written by a run with other options or another seed" err && ok "a folder of another run refused" ||
	{ bad "other options:"; cat err; }
# .kcheck.yaml's partition reaches sbatch, which refuses it: the run stops quoting sbatch
printf 'slurm-partition: nosuch\nslurm-gpus-per-job: 1\n' >.kcheck.yaml
"$bench" suite/gelu --compile-only --runner slurm --slurm-dir jobs2 --poll-interval 0 >out 2>err
[ $? = 2 ] && grep -q "gelu: sbatch refused the job (status 1): sbatch: error: .*[Pp]artition" err && [ ! -e jobs2/gelu.failed ] &&
	ok ".kcheck.yaml slurm-partition reaches sbatch; its refusal stops the run, nothing marked final" ||
	{ bad "bad partition:"; cat out err; }
printf 'slurm-time-limit: "10; rm -rf /"\n' >.kcheck.yaml
"$bench" suite/gelu --compile-only --runner slurm --slurm-dir jobs3 >out 2>err
[ $? = 2 ] && grep -q "kcheck.yaml:1: bad slurm-time-limit" err && [ ! -e jobs3/gelu.sh ] && ok ".kcheck.yaml: a time limit of the wrong shape refused, nothing submitted" ||
	{ bad "bad time limit:"; cat out err; }
rm -f .kcheck.yaml
# kcheck optimize: each candidate's bench is a Slurm job, its result read back
if [ -n "$kcheck" ]; then
	"$kcheck" optimize "$src/bench/tasks/gelu" --offline --no-db --compile-only --budget 1 --out opt \
		--runner slurm --slurm-dir optjobs --poll-interval 0 --gpus-per-job 0 >out 2>err
	rc=$?
	if [ "$rc" = 0 ] && grep -q "submitted as job" err && grep -q "result collected" err && grep -q -- "-> unverified" err &&
		[ "$(ls optjobs/*.json | wc -l)" = 1 ]; then
		ok "kcheck optimize --runner slurm: the candidate benched as a job"
	else
		bad "optimize through Slurm (exit $rc):"; cat out err
	fi
fi
[ "$fails" = 0 ] && exit 0 || exit 1
