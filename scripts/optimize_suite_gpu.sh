#!/usr/bin/env bash
# scripts/optimize_suite_gpu.sh: `kcheck optimize --offline` on bench tasks,
# on a machine with an NVIDIA GPU, nvcc and python3, and the table issue 12
# asks for (OUTDIR/OPTIMIZE.md):
#   - the best kernel's verified speedup over the baseline: with one
#     accepted step, that step's own bench run (the baseline was the best it
#     was measured against); with more, a fresh `kcheck bench TASK
#     --candidate OUTDIR/runN/TASK/best.cu` (every config checked, the
#     visible ones timed);
#   - the fraction of the expert's speed: best/baseline over expert/baseline,
#     the latter from a suite run's JSON (SUITE_JSON, `kcheck bench --suite
#     bench/tasks --json`) or, without one, `kcheck bench TASK --candidate
#     expert.cu` run here;
#   - the roofline fraction of the best, the steps benched and the minutes.
# Every task shares one knowledge DB (OUTDIR/knowledge.db); with RUNS=2 the
# whole suite runs twice on it, so the second run starts from the first
# run's evidence and skills (compare its steps).  Before the GPU runs, every
# task's first candidates are compiled in parallel (`--compile-only`, one
# process per core) so that the sequential GPU runs find them in the
# bench's object cache.
#
# usage: scripts/optimize_suite_gpu.sh [OUTDIR]         (default: optimize-results)
# environment: KCHECK   kcheck binary (default: built with cmake into build-gpu/)
#              TASKS    task names (default: every task under bench/tasks)
#              BUDGET   --budget for each task (default 6)
#              RUNS     1 or 2 (default 1)
#              RUN_FROM the first run to make (default 1; 2 continues an OUTDIR whose run 1
#                       and knowledge.db are there)
#              SAMPLES  --samples for the loop's bench runs (default: the bench's)
#              SUITE_JSON  a suite run's JSON for the expert's speedups
#              MEASURE  0 skips every extra bench run (default 1)
#              TABLE_ONLY  1: only rebuild OPTIMIZE.md from the outputs in OUTDIR
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
tasks=${TASKS:-$(cd bench/tasks && ls -d */ | tr -d /)}
budget=${BUDGET:-6}
runs=${RUNS:-1}
db=$out/knowledge.db
status=0
if [ "${TABLE_ONLY:-0}" = 1 ]; then runs_todo=0; else runs_todo=$runs; fi
samples=()
[ -n "${SAMPLES:-}" ] && samples=(--samples "$SAMPLES")
# the first candidates of every task, compiled in parallel into the bench's cache
# (--force: a re-run of this script replaces the results it wrote before)
[ "$runs_todo" = 0 ] || mkdir -p "$out/precompile" || exit 2
t0=$(date +%s)
[ "$runs_todo" = 0 ] || for t in $tasks; do echo "$t"; done | xargs -P "$(nproc)" -I{} sh -c \
	'"$1" optimize "bench/tasks/$2" --compile-only --no-db --budget 64 --force --out "$3/precompile/$2" >/dev/null 2>&1' \
	_ "$kc" {} "$out"
echo "precompile: $(($(date +%s) - t0)) s"
for run in $(seq "${RUN_FROM:-1}" "$runs_todo"); do
	mkdir -p "$out/run$run" || exit 2
	for t in $tasks; do
		d=$out/run$run/$t
		start=$(date +%s)
		if ! "$kc" optimize "bench/tasks/$t" --offline --budget "$budget" --db "$db" --force --out "$d" \
			"${samples[@]}" 2> "$d.log" > "$d.line"; then
			echo "$t: kcheck optimize failed: $(tail -1 "$d.log")" >&2
			status=2
			continue
		fi
		echo $(( $(date +%s) - start )) > "$d.seconds"
		if [ "${MEASURE:-1}" = 1 ]; then
			accepted=$(python3 -c 'import json,sys; print(sum(1 for s in json.load(open(sys.argv[1]))["steps"] if s["accepted"]))' "$d/trajectory.json" 2>/dev/null || echo 0)
			if [ "$accepted" -gt 1 ]; then
				"$kc" bench "bench/tasks/$t" --candidate "$d/best.cu" --configs visible --json > "$d.best.json" 2>> "$d.log"
			fi
			if ! grep -q "\"task\": *\"$t\"" "${SUITE_JSON:-/dev/null}" 2>/dev/null && [ ! -s "$out/expert-$t.json" ]; then
				"$kc" bench "bench/tasks/$t" --candidate "bench/tasks/$t/expert.cu" --configs visible --json \
					> "$out/expert-$t.json" 2>> "$d.log"
			fi
		fi
		tail -1 "$d.line"
	done
done
python3 - "$out" "$runs" "${SUITE_JSON:-}" $tasks <<'EOF' || status=2
import json, math, os, sys, time
out, runs, suite, tasks = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
def load(p):
    try:
        with open(p) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
expert, eroof = {}, {}
s = load(suite) if suite else None
for t in tasks:
    e = load(os.path.join(out, "expert-%s.json" % t))
    if e:
        (s or {}).setdefault("tasks", []).append(e)
for r in (s or {}).get("tasks", []):
    if r.get("task") in tasks and r.get("speedup") and r["speedup"].get("geomean"):
        expert.setdefault(r["task"], r["speedup"]["geomean"])
        eroof.setdefault(r["task"], r.get("roofline_fraction_mean"))
f = lambda x, n=3: "-" if x is None else ("%." + str(n) + "f") % x
rows, logs, roofs, roofls = [], {}, {}, {}
for run in range(1, runs + 1):
    for t in tasks:
        d = os.path.join(out, "run%d" % run, t)
        tr = load(os.path.join(d, "trajectory.json"))
        if not tr:
            rows.append("| %d | %s | %s | | | | | | | | |" % (run, t, "not run" if not os.path.isdir(d) else "failed"))
            continue
        acc = [s for s in tr["steps"] if s["accepted"]]
        benched = sum(1 for s in tr["steps"] if s["outcome"] not in ("declined", "known"))
        best = load(d + ".best.json")
        how = "-"
        if len(acc) == 1 and acc[0].get("speedup"):
            sp, ci, how = acc[0]["speedup"], acc[0]["ci"], "step"
            ok, roof = True, acc[0].get("roofline")   # acceptance required every unseen config correct
            roofl = acc[0].get("roofline_large")
        elif best and best.get("speedup"):
            sp, ci, how = best["speedup"]["geomean"], best["speedup"]["ci95"], "bench"
            ok = best["correct"]["unseen"][0] == best["correct"]["unseen"][1]
            roof = best.get("roofline_fraction_mean")
            roofl = best.get("roofline_fraction_large")
        elif acc and all(s.get("speedup") for s in acc):
            # no fresh bench of best.cu (MEASURE=0): each accepted step was benched
            # against the best before it, on every config, so the product of their
            # speedups is best/baseline (no one interval for it: none shown)
            sp, ci, how = math.prod(s["speedup"] for s in acc), None, "steps"
            ok, roof = True, acc[-1].get("roofline")
            roofl = acc[-1].get("roofline_large")
        else:
            sp, ci, ok, roof = (1.0, None, None, None) if not acc else (None, None, None, None)
            roofl = None
        ex = expert.get(t)
        if roof is None and sp and ex and eroof.get(t):
            roof, rhow = eroof[t] * sp / ex, "~"   # the expert's, scaled by the time ratio
        else:
            rhow = ""
        secs = open(d + ".seconds").read().strip() if os.path.exists(d + ".seconds") else "0"
        names = "; ".join(s["strategy"] + (" " + s["params"] if s["params"] else "") for s in acc) or "-"
        logs.setdefault(run, []).append(sp if sp else 1.0)
        if roof is not None and rhow != "~":
            roofs.setdefault(run, []).append(roof)
        if roofl is not None:
            roofls.setdefault(run, []).append(roofl)
        rows.append("| %d | %s | %s %s (%s) | %s | %s | %s | %s%s | %s | %d | %d | %.1f | %s |" % (
            run, t, f(sp), "[%s, %s]" % (f(ci[0]), f(ci[1])) if ci else "", how,
            "-" if ok is None else "yes" if ok else "NO", f(ex, 2),
            f(sp / ex if sp and ex else None, 2), rhow, f(roof, 2), f(roofl, 2), benched, len(tr["steps"]),
            int(secs) / 60, names))
with open(os.path.join(out, "OPTIMIZE.md"), "w") as fo:
    fo.write("# kcheck optimize --offline (%s)\n\n" % time.strftime("%Y-%m-%d %H:%MZ", time.gmtime()))
    fo.write("| run | task | best/baseline [95% CI] (how) | unseen correct | expert/baseline | of expert | of roofline | of roofline, large configs | steps benched | steps | minutes | accepted |\n")
    fo.write("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    fo.write("\n".join(rows) + "\n")
    geo = lambda v: math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")
    clip = lambda x: min(8.0, max(1.0 / 8, x))
    fo.write("\n(how: `step` the accepted step's own bench run against the baseline, `bench` a fresh run of best.cu, "
             "`steps` the product of the accepted steps' speedups, each over the best before it, the roofline the last step's; "
             "of roofline: `~` the expert's roofline fraction scaled by the time ratio, else measured; "
             "steps benched: those that cost a bench run, not declined or known)\n")
    for run, v in sorted(logs.items()):
        fo.write("\nRun %d: geomean best/baseline over %d tasks: %.3f (clipped to [1/8, 8] as the suite score: %.3f)\n" % (
            run, len(v), geo(v), geo([clip(x) for x in v])))
        r = roofs.get(run, [])
        if r:
            fo.write("Run %d: mean roofline fraction of the best kernels over the %d tasks with a measured one: %.2f\n" % (
                run, len(r), sum(r) / len(r)))
        r = roofls.get(run, [])
        if r:
            fo.write("Run %d: on the large configurations (bench JSON `roofline_fraction_large`), over %d tasks: %.2f\n" % (
                run, len(r), sum(r) / len(r)))
    ev = [expert[t] for t in tasks if t in expert]
    if ev:
        fo.write("Expert/baseline geomean over %d tasks: %.3f (clipped: %.3f)\n" % (len(ev), geo(ev), geo([clip(x) for x in ev])))
print(open(os.path.join(out, "OPTIMIZE.md")).read())
EOF
exit $status
