#!/usr/bin/env bash
# tests/bench/optimize_speculate_test.sh: kcheck optimize --gpus fills a
# round's slots by speculating on the one-GPU loop, without a GPU (the
# bench's local pool with a stand-in for `kcheck bench`).
# usage: optimize_speculate_test.sh KCHECK SOURCE_DIR
# The stand-in's speedup grows with the step number (1.05 + N/100), so the
# one-GPU loop accepts every candidate and a round on several GPUs accepts
# its last verified slot: then, at the same --budget, one, two and three
# GPUs must bench the very same candidates and end with the same best.cu
# (budget 2: one and two GPUs; budget 4: one, two and three).
#   - bias_gelu_scale (an element-wise chain): one GPU benches
#     fuse-elementwise, then unflatten-rows on the fused kernel (its rows
#     of cols elements); two GPUs bench both in round 1, the second as a
#     sequence built on the first (strategy fuse-elementwise+unflatten-rows,
#     builds_on its step);
#   - stencil2d (stencil-column, several parameter sets): slot 2 is the
#     recipe's next set on the same kernel, not a sequence;
#   - the one-GPU trajectory is the loop's as it was (golden list);
#   - a sequence files no rule evidence; the others do; an accepted
#     sequence is a skill named by its joined strategies.
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
cat >"$tmp/stand-in" <<'STAND'
#!/bin/sh
# a stand-in for `kcheck bench TASK --json --candidate C ... --output OUT`
cand= out=
while [ $# -gt 0 ]; do
	case "$1" in --candidate) cand=$2; shift ;; --output) out=$2; shift ;; esac
	shift
done
n=$(basename "$cand" .cu | sed 's/^step-//; s/[^0-9].*//')
sp=$(awk -v n="$n" 'BEGIN{printf "%.3f", 1.05 + n / 100}')
printf '{"schema":"kernelarc.bench/1","verdict":"faster","device":"stand-in","correct":{"visible":[2,2],"unseen":[3,3]},"speedup":{"geomean":%s,"ci95":[%s,%s],"visible":%s},"roofline_fraction_mean":0.1}\n' \
	"$sp" "$sp" "$sp" "$sp" >"$out"
STAND
chmod +x "$tmp/stand-in"
cd "$tmp" || exit 1
run() { # TASK GPUS BUDGET
	"$kcheck" optimize "$src/bench/tasks/$1" --offline --db "db-$1-$2-$3" --out "o-$1-$2-$3" --gpus "$2" \
		--kcheck "$tmp/stand-in" --budget "$3" >/dev/null 2>"err-$1-$2-$3" ||
		{ bad "optimize $1 --gpus $2 --budget $3:"; cat "err-$1-$2-$3"; }
}
benched='[.steps[] | select(.outcome == "faster") | .candidate_hash] | sort'
steps='[.steps[] | select(.outcome != "declined") | "\(.round) \(.strategy) \(.params) \(.builds_on)"]'
for t in bias_gelu_scale stencil2d; do
	for g in 0 0,1; do run $t $g 2; done
	for g in 0 0,1 0,1,2; do run $t $g 4; done
done

# bias_gelu_scale, budget 2: round 1 on two GPUs is fuse-elementwise and
# unflatten-rows on its result, what one GPU benches in its first two rounds
t=o-bias_gelu_scale-0,1-2/trajectory.json
fuse=$(jq -r '.steps[] | select(.strategy == "fuse-elementwise") | .step' "$t")
if [ "$(jq -c "$steps" "$t")" = "[\"1 fuse-elementwise  null\",\"1 fuse-elementwise+unflatten-rows block=256 cap=2112 $fuse\"]" ] &&
	[ "$(jq -c "$steps" o-bias_gelu_scale-0-2/trajectory.json)" = '["1 fuse-elementwise  null","2 unflatten-rows block=256 cap=2112 null"]' ]; then
	ok "bias_gelu_scale: a two-slot round is fuse-elementwise and fuse-elementwise then unflatten-rows (one GPU: the same two, a round each)"
else
	bad "bias_gelu_scale rounds:"; jq -c "$steps" "$t" o-bias_gelu_scale-0-2/trajectory.json
fi
# stencil2d, budget 2: slot 2 builds on slot 1 (grid-stride takes the
# stencil-column kernel since it may read the ids along y: a sequence)
t=o-stencil2d-0,1-2/trajectory.json
col=$(jq -r '[.steps[] | select(.strategy == "stencil-column")][0].step' "$t")
if [ "$(jq -c "$steps" "$t")" = "[\"1 stencil-column bx=128 by=1 rows=16 null\",\"1 stencil-column+grid-stride block=256 cap=2112 $col\"]" ]; then
	ok "stencil2d: slot 2 is grid-stride on slot 1's stencil-column kernel (a sequence)"
else
	bad "stencil2d round 1:"; jq -c "$steps" o-stencil2d-0,1-2/trajectory.json
fi
# the same candidates and the same best kernel with one, two and three GPUs
for t in bias_gelu_scale stencil2d; do
	for b in 2 4; do
		same=1 gs=0,1
		[ "$b" = 4 ] && gs="0,1 0,1,2"
		for g in $gs; do
			cmp -s <(jq -c "$benched" "o-$t-0-$b/trajectory.json") <(jq -c "$benched" "o-$t-$g-$b/trajectory.json") &&
				cmp -s "o-$t-0-$b/best.cu" "o-$t-$g-$b/best.cu" || same=0
		done
		n=$(jq "$benched | length" "o-$t-0-$b/trajectory.json")
		[ "$same" = 1 ] && [ "$n" = "$b" ] &&
			ok "$t --budget $b: one GPU and $gs bench the same $n candidates and keep the same best.cu" ||
			{ bad "$t --budget $b differs by GPUs:"; for g in 0 $gs; do jq -c "$steps" "o-$t-$g-$b/trajectory.json"; done; }
	done
done
# two GPUs need fewer rounds
[ "$(jq '[.steps[].round] | max' o-bias_gelu_scale-0,1-4/trajectory.json)" = 2 ] &&
	[ "$(jq '[.steps[].round] | max' o-bias_gelu_scale-0-4/trajectory.json)" = 4 ] &&
	ok "bias_gelu_scale --budget 4: two rounds on two GPUs, four on one" || bad "rounds"
# one GPU: the loop's trajectory as it was before the slots speculated
golden='["1 fuse-elementwise  null","2 unflatten-rows block=256 cap=2112 null","3 unflatten-rows block=512 cap=1056 null","4 unflatten-rows block=128 cap=4224 null"]'
[ "$(jq -c "$steps" o-bias_gelu_scale-0-4/trajectory.json)" = "$golden" ] &&
	[ "$(jq -c '[.steps[] | .accepted]' o-bias_gelu_scale-0-4/trajectory.json)" = '[true,true,true,true]' ] &&
	ok "one GPU: the trajectory is the one-GPU loop's (fuse, then unflatten-rows' sets on the fused kernel)" ||
	{ bad "one GPU trajectory:"; jq -c "$steps" o-bias_gelu_scale-0-4/trajectory.json; }
# the knowledge DB: no evidence from a sequence; an accepted sequence's skill
d=bias_gelu_scale-0,1-2
"$kcheck" knowledge export "exp-$d" --db "db-$d" >/dev/null || bad "export"
t=o-$d/trajectory.json
if [ "$(jq '.evidence | length' "exp-$d/evidence.json")" = "$(jq '[.steps[] | select(.outcome == "faster" and .rule != "" and .builds_on == null)] | length' "$t")" ] &&
	[ "$(jq '[.steps[] | select(.builds_on != null and .outcome == "faster")] | length' "$t")" = 1 ] &&
	jq -e '.evidence | all(.fix != "fuse-elementwise+unflatten-rows" and .fix != "unflatten-rows")' "exp-$d/evidence.json" >/dev/null &&
	jq -e '.skills | length == 1 and (.[0].summary | startswith("fuse-elementwise+unflatten-rows "))' "exp-$d/skills.json" >/dev/null &&
	grep -q "a sequence: on step $fuse's candidate" "o-$d/report.md"; then
	ok "a sequence files no rule evidence, its skill and report.md name it a sequence"
else
	bad "sequence in the DB:"; jq -c . "exp-$d/evidence.json" "exp-$d/skills.json"; grep sequence "o-$d/report.md"
fi
[ "$fails" = 0 ] && exit 0 || exit 1
