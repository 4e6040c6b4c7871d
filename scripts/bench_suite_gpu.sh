#!/usr/bin/env bash
# scripts/bench_suite_gpu.sh: reproduces bench/RESULTS.md in one run on a
# machine with an NVIDIA GPU, nvcc and python3:
#   1. the suite, RUNS times (default 3): every task's expert against its
#      baseline (kcheck bench --suite); every task must get the same verdict
#      in every run,
#   2. every expert against itself (the paired 95% CI must contain 1.0 and the
#      median speedup stay within 2% of 1),
#   3. the adversarial candidates of tests/bench/adversarial/MANIFEST, each of
#      which must end with the verdict and gate the manifest names (or one of
#      the alternatives "A|B" it lists),
# then writes OUTDIR/RESULTS.md (the table) next to the JSON it came from.
#
# usage: scripts/bench_suite_gpu.sh [OUTDIR]        (default: bench-results)
# environment: KA_BENCH   ka-bench binary (default: built with cmake into build-gpu/)
#              KA_BENCH_BUILD_DIR   object cache (default: OUTDIR/build)
#              TASKS      subset of task names (default: all of bench/tasks)
#              PARTS      subset of "taskcheck suite self adversarial" (default: the
#                         last three; taskcheck runs --check-task $CHECK_SEEDS, default 5;
#                         empty: only rebuild RESULTS.md from the JSON in OUTDIR)
#              SELF_TASKS tasks for the self-against-self runs (default: TASKS)
#              ADV_ONLY   extended regex: run only matching adversarial files
#              RUNS       how many suite runs (default 3)
#              SUITE_OPTS extra options for the suite runs (e.g. "--configs visible")
#              SELF_OPTS  extra options for the self-against-self runs
#                         (e.g. "--configs visible" to time only visible configs)
# Exit status: 0 when every check held, 1 when one did not, 2 on an error.
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
out=${1:-bench-results}
mkdir -p "$out/suite" "$out/self" "$out/adversarial" || exit 2
parts=${PARTS-suite self adversarial}
bench=${KA_BENCH:-}
if [ -z "$bench" ] && [ -n "$parts" ]; then
	cmake -S . -B build-gpu >/dev/null && cmake --build build-gpu -j --target ka-bench >/dev/null || exit 2
	bench=build-gpu/bench/ka-bench
fi
build=${KA_BENCH_BUILD_DIR:-$out/build}
all_tasks=$(cd bench/tasks && ls -d */ | tr -d /)
tasks=${TASKS:-$all_tasks}
status=0

if [ -n "$parts" ]; then
	if ! nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$out/gpu.txt"; then
		echo "kcheck: error: no CUDA device found" >&2
		exit 2
	fi
	date -u +%Y-%m-%dT%H:%MZ >"$out/date.txt"
	nvcc --version | tail -n 2 >"$out/nvcc.txt" 2>/dev/null
fi

t0=$(date +%s)
if [[ " $parts " == *" taskcheck "* ]]; then
	"$bench" --suite bench/tasks --check-task "${CHECK_SEEDS:-5}" --build-dir "$build" >"$out/taskcheck.txt" 2>&1 || status=1
	echo "taskcheck: done in $(($(date +%s) - t0)) s"
fi
if [[ " $parts " == *" suite "* ]]; then
	for run in $(seq 1 "${RUNS:-3}"); do
		if [ -z "${TASKS:-}" ]; then
			# shellcheck disable=SC2086
			"$bench" --suite bench/tasks --json --build-dir "$build" ${SUITE_OPTS:-} >"$out/suite-$run.json"
			rc=$?
		else
			mkdir -p "$out/suite/$run"
			for t in $tasks; do
				# shellcheck disable=SC2086
				"$bench" "bench/tasks/$t" --json --build-dir "$build" ${SUITE_OPTS:-} >"$out/suite/$run/$t.json"
				rc=$?
			done
		fi
		[ "$rc" -ge 2 ] && status=1
		echo "suite run $run: done in $(($(date +%s) - t0)) s"
	done
fi

if [[ " $parts " == *" self "* ]]; then
	for t in ${SELF_TASKS:-$tasks}; do
		e="bench/tasks/$t/expert.cu"
		# shellcheck disable=SC2086
		"$bench" "bench/tasks/$t" --candidate "$e" --baseline "$e" --json --build-dir "$build" ${SELF_OPTS:-} \
			>"$out/self/$t.json"
	done
	echo "self: done in $(($(date +%s) - t0)) s"
fi

if [[ " $parts " == *" adversarial "* ]]; then
	: >"$out/adversarial.txt"
	grep -v '^#' tests/bench/adversarial/MANIFEST | while read -r file task _static gpu; do
		[ -z "$file" ] && continue
		[ -n "${ADV_ONLY:-}" ] && ! [[ $file =~ $ADV_ONLY ]] && continue
		extra=()
		want=${gpu%\~}
		name=${file%.cu}
		[ "$want" != "$gpu" ] && { extra=(--unsafe-skip-static-gate); name=$name-dynamic; }
		"$bench" "bench/tasks/$task" --candidate "tests/bench/adversarial/$file" --json \
			--build-dir "$build" "${extra[@]}" >"$out/adversarial/$name.json"
		got=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("%s:%s" % (r["verdict"], r["failed_gate"] or "-"))' \
			"$out/adversarial/$name.json" 2>/dev/null || echo "no-result")
		why=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print((r["reason"] or "")[:150])' \
			"$out/adversarial/$name.json" 2>/dev/null)
		if [[ "|$want|" == *"|$got|"* ]]; then echo "PASS $name $got $why"; else echo "FAIL $name want $want got $got $why"; fi >>"$out/adversarial.txt"
	done
	grep -q '^FAIL' "$out/adversarial.txt" && status=1
	echo "adversarial: done in $(($(date +%s) - t0)) s"
fi

python3 - "$out" <<'PY' || status=1
import glob, json, os, sys
out = sys.argv[1]
def load(p):
    try:
        return json.load(open(p))
    except Exception:
        return None
def suite_run(k):
    s = load(os.path.join(out, "suite-%d.json" % k))
    if s:
        return s, s["tasks"]
    return None, [r for r in (load(p) for p in sorted(glob.glob(os.path.join(out, "suite", str(k), "*.json")))) if r]
runs = [suite_run(k) for k in range(1, 10)]
runs = [r for r in runs if r[1]]
s, tasks = runs[0] if runs else (None, [])
L = []
gpu = open(os.path.join(out, "gpu.txt")).read().strip()
L.append("Date: %s  \nGPU: %s  \n" % (open(os.path.join(out, "date.txt")).read().strip(), gpu))
if tasks:
    tasks = [r for r in tasks if "speedup" in r or L.append("| %s | %s (%s) |" % (r["task"], r["verdict"], r.get("reason")))]
    if len(runs) > 1:
        L.append("Suite runs: %d. Verdict of every task in each run (must not change):\n" % len(runs))
        L.append("| task | " + " | ".join("run %d" % (i + 1) for i in range(len(runs))) + " | stable |")
        L.append("|---|" + "---|" * len(runs) + "---|")
        names = [r["task"] for r in runs[0][1]]
        for nm in names:
            vs = []
            for _, ts in runs:
                m = [r for r in ts if r["task"] == nm]
                vs.append("%s %s" % (m[0]["verdict"], "%.3f" % m[0]["speedup"]["geomean"] if m and m[0].get("speedup") and m[0]["speedup"]["geomean"] else "") if m else "-")
            stable = len(set(v.split()[0] for v in vs)) == 1
            bad_runs = 0 if stable else 1
            L.append("| %s | %s | %s |" % (nm, " | ".join(vs), "yes" if stable else "NO"))
            if not stable:
                print("UNSTABLE verdict:", nm, vs)
        L.append("\nFirst run in detail:\n")
    L.append("| task | verdict | correct (vis / unseen) | geomean speedup [95% CI] | visible | unseen | roofline | large configs | copy GB/s |")
    L.append("|---|---|---|---|---|---|---|---|---|")
    for r in tasks:
        sp = r["speedup"]
        f = lambda v: "-" if v is None else "%.3f" % v
        L.append("| %s | %s%s | %d/%d / %d/%d | %s [%s, %s] | %s | %s | %s | %s | %s |" % (
            r["task"], r["verdict"], (" (" + r["failed_gate"] + ")") if r["failed_gate"] else "",
            r["correct"]["visible"][0], r["correct"]["visible"][1], r["correct"]["unseen"][0], r["correct"]["unseen"][1],
            f(sp["geomean"]), f(sp["ci95"][0]), f(sp["ci95"][1]), f(sp["visible"]), f(sp["unseen"]),
            f(r["roofline_fraction_mean"]), f(r.get("roofline_fraction_large")), f(r["ceilings"]["copy_gbs"])))
    if not s:   # per-task runs: the score of docs/bench.md, computed here
        import math
        def passed(r): return r["verdict"] in ("faster", "same", "slower")
        def allok(r, k): return r["correct"][k][1] > 0 and r["correct"][k][0] == r["correct"][k][1]
        n = len(tasks); ps = [r for r in tasks if passed(r)]
        clip = lambda v: min(8.0, max(1.0 / 8, v))
        geo = math.exp(sum(math.log(clip(r["speedup"]["geomean"]) if passed(r) else 1.0 / 8) for r in tasks) / n)
        vu = [(r["speedup"]["visible"], r["speedup"]["unseen"]) for r in ps if r["speedup"]["visible"] and r["speedup"]["unseen"]]
        cv = sum(allok(r, "visible") for r in tasks) / n; cu = sum(allok(r, "unseen") for r in tasks) / n
        s = {"score": {"tasks": n, "passed": len(ps), "correct_visible": cv, "correct_unseen": cu,
             "fast_p": {k: sum(1 for r in ps if r["speedup"]["ci95"][0] > float(k)) / n for k in ("1.0", "1.1", "1.5", "2.0")},
             "geomean_speedup": geo, "generalization_gap": {"correctness": cv - cu,
             "speedup_visible_over_unseen": math.exp(sum(math.log(a / b) for a, b in vu) / len(vu)) if vu else None},
             "roofline_fraction_mean": sum(r["roofline_fraction_mean"] for r in ps) / len(ps) if ps else None}}
        rl = [r["roofline_fraction_large"] for r in ps if r.get("roofline_fraction_large")]
        s["score"]["roofline_fraction_large_mean"] = sum(rl) / len(rl) if rl else None
    if s:
        sc = s["score"]
        g = lambda v: "-" if v is None else "%.3f" % v
        L.append("\nSuite score: %d tasks, %d passed every gate; correct visible %.2f, unseen %.2f; fast_p "
                 "1.0/1.1/1.5/2: %s; geomean speedup %.3f; generalization gap: correctness %.2f, speedup "
                 "visible/unseen %s; mean roofline fraction %s (large configurations %s).\n" % (
            sc["tasks"], sc["passed"], sc["correct_visible"], sc["correct_unseen"],
            "/".join("%.2f" % sc["fast_p"][k] for k in ("1.0", "1.1", "1.5", "2.0")), sc["geomean_speedup"],
            sc["generalization_gap"]["correctness"], g(sc["generalization_gap"]["speedup_visible_over_unseen"]),
            g(sc["roofline_fraction_mean"]), g(sc.get("roofline_fraction_large_mean"))))
    L.append("\nPer configuration (baseline and expert medians in us, paired speedup):\n")
    L.append("| task | config | split | baseline us (IQR) | expert us (IQR) | speedup [95% CI] | GB/s | graph |")
    L.append("|---|---|---|---|---|---|---|---|")
    for r in tasks:
        for c in r["configs"]:
            if not c.get("timed"):
                continue
            L.append("| %s | %s | %s | %.2f (%.2f) | %.2f (%.2f) | %.3f [%.3f, %.3f] | %.0f | %s |" % (
                r["task"], c["name"], c["split"], c["baseline"]["median_us"], c["baseline"]["iqr_us"],
                c["candidate"]["median_us"], c["candidate"]["iqr_us"], c["speedup"]["median"],
                c["speedup"]["ci95"][0], c["speedup"]["ci95"][1], c["achieved_gbs"], "yes" if c["cuda_graph"] else "no"))
selfs = [r for r in (load(p) for p in sorted(glob.glob(os.path.join(out, "self", "*.json")))) if r]
bad = 0
if selfs:
    L.append("\nSelf against self (expert vs expert): verdict `same`, and every config's paired median within 2% of 1.\n")
    L.append("| task | verdict | configs | CI contains 1 | max abs(median-1) | check |")
    L.append("|---|---|---|---|---|---|")
    for r in selfs:
        cs = [c for c in r["configs"] if c.get("timed")]
        inside = sum(1 for c in cs if c["speedup"]["ci95"][0] <= 1.0 <= c["speedup"]["ci95"][1])
        spread = max([abs(c["speedup"]["median"] - 1) for c in cs] or [float("nan")])
        ok = cs and r["verdict"] == "same" and spread < 0.02
        bad += not ok
        L.append("| %s | %s | %d | %d/%d | %.2f%% | %s |" % (r["task"], r["verdict"], len(cs), inside, len(cs), 100 * spread,
                                                        "ok" if ok else "OUT"))
adv = os.path.join(out, "adversarial.txt")
if os.path.exists(adv):
    L.append("\nAdversarial candidates (tests/bench/adversarial/MANIFEST):\n")
    L.append("| result | candidate | verdict:gate |")
    L.append("|---|---|---|")
    for line in open(adv):
        w = line.split()
        L.append("| %s | %s | %s |" % (w[0], w[1], " ".join(w[2:])))
open(os.path.join(out, "RESULTS.md"), "w").write("\n".join(L) + "\n")
print("\n".join(L))
sys.exit(1 if bad else 0)
PY
[ $? -ne 0 ] && status=1
echo "total: $(($(date +%s) - t0)) s"
exit $status
