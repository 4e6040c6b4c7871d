#!/usr/bin/env bash
# scripts/wmma_variants.sh: every parameter set of the wmma-gemm recipe on
# bench/tasks/gemm_bf16, each timed by the project's own bench, on a machine
# with an NVIDIA GPU (issue 24: the roofline on the large configurations).
# The rewrites are the optimizer's own: `kcheck optimize --offline
# --compile-only` proposes each set of the recipe's grid as a candidate
# (OUTDIR/plan/candidates/step-N.cu); each is then judged by `kcheck bench
# --candidate` (every gate; correctness on the configurations CONFIGS names,
# the unseen sizes included by default; the visible ones timed), and so is
# the task's expert.cu.  One table row per variant: the candidate's median
# on each large configuration, the geomean speedup over the naive baseline,
# the roofline fraction on the large configurations, the correct unseen
# configurations.  Needs build/cli/kcheck (and build/bench/ka-bench beside
# it), nvcc and python3.
#
# usage: scripts/wmma_variants.sh [--compile-only] [OUTDIR]   (default: wmma-variants)
#        --compile-only: no GPU; every variant through the static and compile gates only
# environment: KCHECK   the kcheck binary (default build/cli/kcheck)
#              CONFIGS  --configs for the bench runs (default all)
#              SAMPLES  --samples for the bench runs (default: the bench's)
# Exit status: 0 when every variant was judged, 2 on an error.
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
mode=()
if [ "${1:-}" = --compile-only ]; then
	mode=(--compile-only)
	shift
fi
out=${1:-wmma-variants}
kc=${KCHECK:-build/cli/kcheck}
task=bench/tasks/gemm_bf16
samples=()
[ -n "${SAMPLES:-}" ] && samples=(--samples "$SAMPLES")
[ -x "$kc" ] || { echo "wmma_variants: no kcheck at $kc (KCHECK=...)" >&2; exit 2; }
mkdir -p "$out" || exit 2
# the candidates: every set of the grid, as the optimizer writes them
"$kc" optimize "$task" --offline --compile-only --no-db --budget 64 --force --out "$out/plan" \
	> "$out/plan.line" 2> "$out/plan.log" || { echo "wmma_variants: kcheck optimize failed: $(tail -1 "$out/plan.log")" >&2; exit 2; }
python3 - "$out/plan/trajectory.json" > "$out/variants.tsv" <<'EOF' || exit 2
import json, sys
for s in json.load(open(sys.argv[1]))["steps"]:
    if s["strategy"] == "wmma-gemm" and s["outcome"] not in ("declined", "known"):
        print("%s\t%d\t%s" % (s["params"], s["step"], s["outcome"]))
EOF
[ -s "$out/variants.tsv" ] || { echo "wmma_variants: the optimizer proposed no wmma-gemm set ($out/plan.log)" >&2; exit 2; }
status=0
judge() { # NAME FILE: the bench's JSON report into OUTDIR/NAME.json
	"$kc" bench "$task" --candidate "$2" --configs "${CONFIGS:-all}" --json "${mode[@]}" "${samples[@]}" \
		--output "$out/$1.json" 2> "$out/$1.log"
	local rc=$?
	[ "$rc" -le 1 ] || { echo "wmma_variants: $1: kcheck bench failed ($rc): $(tail -1 "$out/$1.log")" >&2; status=2; }
}
n=0
while IFS=$'\t' read -r params step outcome; do
	n=$((n + 1))
	echo "variant $n: wmma-gemm $params (step $step, $outcome)" >&2
	echo "$params" > "$out/v$n.params"
	judge "v$n" "$out/plan/candidates/step-$step.cu"
done < "$out/variants.tsv"
echo "expert: $task/expert.cu" >&2
echo "expert.cu" > "$out/expert.params"
judge expert "$task/expert.cu"
python3 - "$out" "$n" <<'EOF' || status=2
import json, os, sys
out, n = sys.argv[1], int(sys.argv[2])
def load(p):
    try:
        with open(p) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
names = ["v%d" % i for i in range(1, n + 1)] + ["expert"]
reps = {v: load(os.path.join(out, v + ".json")) for v in names}
# the large configurations (the bench marks them), in the first report that has timings
large = []
for r in reps.values():
    large = [c["name"] for c in (r or {}).get("configs", []) if c.get("large")]
    if large:
        break
f = lambda x, fmt="%.3f": "-" if x is None else fmt % x
cols = "".join(" %s ms |" % c for c in large)
print("| variant | verdict |%s speedup (geomean) | roofline, large | unseen correct |" % cols)
print("|---|---|" + "---:|" * len(large) + "---:|---:|---:|")
ms_cells = lambda ms: "".join(" %s |" % f(m and m / 1000.0) for m in ms)
base = None
for v in names:
    r = reps[v]
    label = open(os.path.join(out, v + ".params")).read().strip()
    if not r:
        print("| %s | no report (%s.log) |" % (label, v) + " |" * (len(large) + 3))
        continue
    by = {c["name"]: c for c in r.get("configs", [])}
    ms = [by.get(c, {}).get("candidate", {}).get("median_us") for c in large]
    if base is None and large:
        base = [by.get(c, {}).get("baseline", {}).get("median_us") for c in large]
    un = r.get("correct", {}).get("unseen", [0, 0])
    print("| %s | %s |%s %s | %s | %d/%d |" % (
        label, r.get("verdict"), ms_cells(ms),
        f(r.get("speedup", {}).get("geomean"), "%.2f"), f(r.get("roofline_fraction_large")), un[0], un[1]))
if base:
    print("| naive baseline | - |%s 1.00 | - | - |" % ms_cells(base))
EOF
exit $status
