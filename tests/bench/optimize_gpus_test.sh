#!/usr/bin/env bash
# tests/bench/optimize_gpus_test.sh: kcheck optimize --gpus without a GPU,
# through the scheduling code the bench suite uses (bench/scale.h's local
# pool).  usage: optimize_gpus_test.sh KCHECK SOURCE_DIR
# The pool's jobs run a stand-in for `kcheck bench` (--kcheck) that logs
# when each job starts and ends on which GPU and writes a verdict document
# (schema kernelarc.bench/1) whose speedup comes from the candidate's text,
# plus 0.3 on GPU 1, so the best candidate of a round is known beforehand.
# With two fake GPUs (--gpus 0,1):
#   - a round's two candidates run at the same time, one on each GPU;
#   - the first job on GPU 1 fails: its step is an error saying why, and
#     the other candidate of that round keeps its verdict and is accepted;
#   - in every round the accepted candidate is the best verified one (the
#     one on GPU 1, proposed second, where both were verified);
#   - --budget counts benched candidates;
# and with one (--gpus 0) a round is one candidate, as without --gpus.
# trajectory.json and the knowledge DB's rows (evidence, skills, steps)
# have the same form in both runs.
set -u
kcheck=$(realpath "$1") src=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $1"; }
bad() {
	echo "FAIL $1"
	fails=$((fails + 1))
}
command -v jq >/dev/null || { echo "SKIP: no jq"; exit 77; }

cat >"$tmp/stand-in" <<STAND
#!/bin/sh
# a stand-in for \`kcheck bench TASK --json --candidate C ... --output OUT\`
cand= out=
while [ \$# -gt 0 ]; do
	case "\$1" in
	--candidate) cand=\$2; shift ;;
	--output) out=\$2; shift ;;
	esac
	shift
done
gpu=\${CUDA_VISIBLE_DEVICES:-none}
name=\$(basename "\$cand")
echo "START \$name \$gpu" >>"$tmp/runs.log"
if [ -n "\${STAND_IN_PAIRS:-}" ]; then
	# two GPUs: wait (10 s at most) until the round's other job started too
	for _ in \$(seq 1 100); do
		awk '\$1=="START"{n++; live++} \$1=="END"{live--; if (!live) n=0} END{exit !(n>=2)}' "$tmp/runs.log" && break
		sleep 0.1
	done
fi
if [ "\$gpu" = 1 ] && mkdir "$tmp/failed.once" 2>/dev/null; then
	echo "END \$name \$gpu" >>"$tmp/runs.log"
	echo "stand-in: this job fails on purpose" >&2
	exit 3
fi
sum=\$(cksum <"\$cand" | cut -d' ' -f1)
sp=\$(awk -v s="\$sum" -v g="\$gpu" 'BEGIN{printf "%.3f", 1.05 + (s % 20) / 100 + (g == 1 ? 0.3 : 0)}')
lo=\$(awk -v s="\$sp" 'BEGIN{printf "%.3f", s - 0.01}')
hi=\$(awk -v s="\$sp" 'BEGIN{printf "%.3f", s + 0.01}')
printf '{"schema":"kernelarc.bench/1","verdict":"faster","device":"stand-in GPU %s","correct":{"visible":[2,2],"unseen":[3,3]},"speedup":{"geomean":%s,"ci95":[%s,%s],"visible":%s},"roofline_fraction_mean":0.1}\n' \
	"\$gpu" "\$sp" "\$lo" "\$hi" "\$sp" >"\$out"
echo "END \$name \$gpu" >>"$tmp/runs.log"
STAND
chmod +x "$tmp/stand-in"
cd "$tmp" || exit 1
task=$src/bench/tasks/gemv

# two fake GPUs, four benched candidates
STAND_IN_PAIRS=1 "$kcheck" optimize "$task" --offline --db db2 --out out2 --gpus 0,1 --kcheck "$tmp/stand-in" \
	--budget 4 >out 2>err
rc=$?
cp runs.log runs2.log
t=out2/trajectory.json
if [ "$rc" = 0 ] && [ -s "$t" ]; then
	ok "kcheck optimize --gpus 0,1: exit 0"
else
	bad "optimize --gpus 0,1 exit $rc:"; cat out err
fi
benched='[.steps[] | select(.gpu != null)]'
[ "$(jq -c "[$benched[] | .round] | group_by(.) | map(length)" "$t")" = "[2,2]" ] &&
	[ "$(jq -c "$benched | group_by(.round) | map(map(.gpu) | sort)" "$t")" = "[[0,1],[0,1]]" ] &&
	ok "two rounds of two candidates, one on each GPU" || { bad "rounds and GPUs:"; jq -c '.steps[]' "$t"; }
# the log of each round: both jobs started before either ended
together=1
for r in 1 2; do
	files=$(jq -r --argjson r "$r" ".steps[] | select(.round == \$r and .gpu != null) | \"step-\(.step).cu\"" "$t")
	first_end=$(grep -n "^END \($(echo "$files" | paste -sd'|' | sed 's/|/\\|/g')\) " runs2.log | head -1 | cut -d: -f1)
	for f in $files; do
		s=$(grep -n "^START $f " runs2.log | cut -d: -f1)
		[ -n "$s" ] && [ -n "$first_end" ] && [ "$s" -lt "$first_end" ] || together=0
	done
done
[ "$together" = 1 ] && ok "a round's candidates ran at the same time" || { bad "not side by side:"; cat runs2.log; }
jq -e '.steps[] | select(.round == 1 and .gpu == 1) | .outcome == "error" and
	(.first_error | test("the job on GPU 1 ended with status 3 and no result: stand-in: this job fails on purpose"))' "$t" >/dev/null &&
	jq -e '.steps[] | select(.round == 1 and .gpu == 0) | .outcome == "faster" and .accepted' "$t" >/dev/null &&
	ok "the failed job on GPU 1 is an error step; GPU 0's verdict in the same round is kept and accepted" ||
	{ bad "failed job:"; jq -c '.steps[]' "$t"; }
# each round: one accepted, the fastest verified; round 2 has two verified
best='[.steps[] | select(.outcome == "faster")] | group_by(.round) |
	map({acc: [.[] | select(.accepted) | .speedup], max: (map(.speedup) | max), n: length})'
[ "$(jq -c "$best | map(.acc == [.max])" "$t")" = "[true,true]" ] &&
	jq -e '[.steps[] | select(.round == 2)] | (map(.outcome) == ["faster", "faster"]) and .[1].accepted and (.[0].accepted | not)' "$t" >/dev/null &&
	ok "the accepted candidate is the best verified one of its round (proposed second in round 2)" ||
	{ bad "acceptance:"; jq -c "$best" "$t"; jq -c '.steps[]' "$t"; }
[ "$(jq '[.steps[] | select(.outcome != "declined" and .outcome != "known")] | length' "$t")" = 4 ] &&
	[ "$(jq -r .stop "$t")" = "step budget (4) used" ] && ok "--budget 4 counts the four benched candidates" ||
	{ bad "budget:"; jq -c '.stop, .steps[]' "$t"; }
grep -q "^step [0-9]* ([0-9]/4): .* on GPU 1 " err && ok "progress lines name the GPU" || { bad "progress:"; cat err; }

# one fake GPU: one candidate a round, on it
rm -f runs.log
"$kcheck" optimize "$task" --offline --db db1 --out out1 --gpus 0 --kcheck "$tmp/stand-in" --budget 2 >out 2>err
rc=$?
t1=out1/trajectory.json
[ "$rc" = 0 ] && [ "$(jq -c "[$benched[] | [.round, .gpu]]" "$t1")" = "[[1,0],[2,0]]" ] &&
	[ "$(grep -c '^START' runs.log)" = 2 ] && ok "--gpus 0: one candidate a round, on GPU 0" ||
	{ bad "--gpus 0 (exit $rc):"; cat err; jq -c '.steps[]' "$t1"; }
# the same form: trajectory.json's keys, and the DB's rows
# (builds_on: a step number for a sequence, null for any other step)
keys='[(keys), (.steps[] | select(.outcome == "faster") | to_entries |
	map([.key, (if .key == "builds_on" then "number or null" else (.value | type) end)]))] | unique'
[ "$(jq -c "$keys" "$t1")" = "$(jq -c "$keys" "$t")" ] && ok "trajectory.json: the same keys with one GPU and two" ||
	{ bad "trajectory keys:"; diff <(jq -c "$keys" "$t1") <(jq -c "$keys" "$t"); }
"$kcheck" knowledge export exp1 --db db1 >/dev/null && "$kcheck" knowledge export exp2 --db db2 >/dev/null
rows='[(.evidence // .skills)[] | del(.at) | to_entries | map([.key, (.value | type)])] | unique'
for n in 1 2; do
	tj=out$n/trajectory.json
	# a verified step with a rule is an evidence row (but a sequence:
	# optimize_speculate_test.sh), an accepted one a skill
	[ "$(jq '.evidence | length' exp$n/evidence.json)" = "$(jq '[.steps[] | select(.outcome == "faster" and .rule != "" and .builds_on == null)] | length' "$tj")" ] &&
		[ "$(jq '.skills | length' exp$n/skills.json)" = "$(jq '[.steps[] | select(.accepted)] | length' "$tj")" ] &&
		"$kcheck" knowledge stats --db db$n | grep -q "^runs: 1 ($(jq '[.steps[] | select(.outcome != "declined")] | length' "$tj") steps)" ||
		bad "run with ${n} GPU(s): the DB's rows do not match its trajectory"
done
if [ "$(jq '.evidence | length' exp2/evidence.json)" -gt 0 ] &&
	cmp -s <(jq -c "$rows" exp1/evidence.json) <(jq -c "$rows" exp2/evidence.json) &&
	cmp -s <(jq -c "$rows" exp1/skills.json) <(jq -c "$rows" exp2/skills.json); then
	ok "knowledge DB: one row per verified step and per accepted one, of the same form with one GPU and two"
else
	bad "DB rows differ:"; jq -c "$rows" exp1/evidence.json exp2/evidence.json exp1/skills.json exp2/skills.json
fi

# bad input: one line, exit 2
"$kcheck" optimize "$task" --gpus 1,1 --compile-only >out 2>err
[ $? = 2 ] && [ "$(cat err)" = "kcheck: error: --gpus names GPU 1 twice" ] && ok "--gpus 1,1 refused" || { bad "--gpus 1,1:"; cat err; }
"$kcheck" optimize "$task" --gpus 0,1 --runner slurm >out 2>err
[ $? = 2 ] && grep -q "with --runner slurm use --gpus-per-job" err && ok "--gpus with --runner slurm refused" || { bad "--gpus with slurm:"; cat err; }
[ "$fails" = 0 ] && exit 0 || exit 1
