#!/usr/bin/env bash
# scripts/optimize_suite_gpu.sh: `kcheck optimize --offline` on bench tasks,
# on a machine with an NVIDIA GPU, nvcc and python3, and the table issue 12
# asks for (OUTDIR/OPTIMIZE.md):
#   - the best kernel's verified speedup over the baseline (`kcheck bench
#     TASK --candidate OUTDIR/TASK/best.cu`, every config checked, the
#     visible ones timed);
#   - the fraction of the expert's speed (`kcheck bench TASK --candidate
#     expert.cu --baseline best.cu` gives expert/best; its inverse);
#   - the roofline fraction of the best, the steps and the minutes used.
# Every task shares one knowledge DB (OUTDIR/knowledge.db); with RUNS=2 the
# whole suite runs twice on it, so the second run starts from the first
# run's evidence (compare its steps).
#
# usage: scripts/optimize_suite_gpu.sh [OUTDIR]         (default: optimize-results)
# environment: KCHECK   kcheck binary (default: built with cmake into build-gpu/)
#              TASKS    task names (default: the tasks a recipe applies to)
#              BUDGET   --budget for each task (default 6)
#              RUNS     1 or 2 (default 1)
#              MEASURE  0 skips the two bench runs per task (default 1)
# Exit status: 0 when every run ended, 2 on an error.
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
out=${1:-optimize-results}
mkdir -p "$out" || exit 2
kc=${KCHECK:-}
if [ -z "$kc" ]; then
	cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null &&
		cmake --build build-gpu -j --target kcheck >/dev/null || exit 2
	kc=build-gpu/cli/kcheck
fi
tasks=${TASKS:-saxpy gelu bias_gelu_scale softmax layernorm gemv histogram transpose scan}
budget=${BUDGET:-6}
runs=${RUNS:-1}
db=$out/knowledge.db
status=0
for run in $(seq 1 "$runs"); do
	mkdir -p "$out/run$run" || exit 2
	for t in $tasks; do
		d=$out/run$run/$t
		start=$(date +%s)
		if ! "$kc" optimize "bench/tasks/$t" --offline --budget "$budget" --db "$db" --out "$d" \
			2> "$d.log" > "$d.line"; then
			echo "$t: kcheck optimize failed: $(tail -1 "$d.log")" >&2
			status=2
			continue
		fi
		echo $(( $(date +%s) - start )) > "$d.seconds"
		if [ "${MEASURE:-1}" = 1 ]; then
			"$kc" bench "bench/tasks/$t" --candidate "$d/best.cu" --configs visible --json > "$d.best.json" 2>> "$d.log"
			"$kc" bench "bench/tasks/$t" --candidate "bench/tasks/$t/expert.cu" --baseline "$d/best.cu" \
				--configs visible --json > "$d.expert.json" 2>> "$d.log"
		fi
		tail -1 "$d.line"
	done
done
python3 - "$out" "$runs" $tasks <<'EOF' || status=2
import json, os, sys, time
out, runs, tasks = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def load(p):
    try:
        with open(p) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
rows = []
for run in range(1, runs + 1):
    for t in tasks:
        d = os.path.join(out, "run%d" % run, t)
        tr = load(os.path.join(d, "trajectory.json"))
        if not tr:
            rows.append("| %d | %s | failed | | | | | | |" % (run, t))
            continue
        best, exp = load(d + ".best.json"), load(d + ".expert.json")
        sp = best["speedup"]["geomean"] if best and best.get("speedup") else None
        ci = best["speedup"]["ci95"] if best and best.get("speedup") else None
        ok = None if not best else best["correct"]["unseen"][0] == best["correct"]["unseen"][1]
        roof = best.get("roofline_fraction_mean") if best else None
        e = exp["speedup"]["geomean"] if exp and exp.get("speedup") else None
        accepted = [s["strategy"] + (" " + s["params"] if s["params"] else "") for s in tr["steps"] if s["accepted"]]
        secs = open(d + ".seconds").read().strip() if os.path.exists(d + ".seconds") else "?"
        f = lambda x, n=3: "-" if x is None else ("%." + str(n) + "f") % x
        rows.append("| %d | %s | %s %s | %s | %s | %s | %d | %.1f | %s |" % (
            run, t, f(sp), "[%s, %s]" % (f(ci[0]), f(ci[1])) if ci else "", "-" if ok is None else "yes" if ok else "NO",
            f(1 / e if e else None, 2), f(roof, 2), len(tr["steps"]), int(secs) / 60 if secs != "?" else 0,
            "; ".join(accepted) or "-"))
with open(os.path.join(out, "OPTIMIZE.md"), "w") as f:
    f.write("# kcheck optimize --offline (%s)\n\n" % time.strftime("%Y-%m-%d %H:%MZ", time.gmtime()))
    f.write("| run | task | best/baseline [95% CI] | unseen correct | of expert | of roofline | steps | minutes | accepted |\n")
    f.write("|---|---|---|---|---|---|---|---|---|\n")
    f.write("\n".join(rows) + "\n")
print(open(os.path.join(out, "OPTIMIZE.md")).read())
EOF
exit $status
