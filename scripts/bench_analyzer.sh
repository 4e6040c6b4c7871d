#!/usr/bin/env bash
# scripts/bench_analyzer.sh: what the analysis costs on top of parsing.
#
# For every kernel file of the corpus (tests/corpus, tests/golden/analyzer,
# examples) it times `kcheck facts FILE` against `clang-19 -fsyntax-only`
# with the same compiler arguments (from `kcheck facts --print-clang-args`),
# the median of REPS runs each, and prints a Markdown table with the
# per-file and total overhead.  Then it times `kcheck -j 1` and `kcheck -j 2`
# over the whole corpus and checks that both reports are byte-identical.
#
# Usage: scripts/bench_analyzer.sh [KCHECK]     (default: build/cli/kcheck)
# Environment: REPS (default 3), CLANG (default clang-19), CORPUS (a list of
# files or folders instead of the default corpus).
# Exit status: 0 when the -j outputs agree, 1 when they differ, 2 on setup
# errors.  The 15% overhead target is reported, not enforced (timings
# depend on the machine).
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
kcheck=${1:-$root/build/cli/kcheck}
reps=${REPS:-3}
clang=${CLANG:-clang-19}
shim_dir=$root/analyzer/shim

die() { echo "bench_analyzer: error: $*" >&2; exit 2; }
[ -x "$kcheck" ] || die "no kcheck at $kcheck (build it, or pass its path)"
command -v "$clang" >/dev/null || die "$clang not found (apt-get install clang-19)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ka-bench-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# --- the corpus -------------------------------------------------------------
files=()
add_dir() {
  local f
  while IFS= read -r f; do files+=("$f"); done < <(
    find "$1" -type f \( -name '*.cu' -o -name '*.hip' \) 2>/dev/null | LC_ALL=C sort)
}
if [ -n "${CORPUS:-}" ]; then
  for p in $CORPUS; do
    if [ -d "$p" ]; then add_dir "$p"; else files+=("$p"); fi
  done
else
  add_dir "$root/tests/corpus"
  add_dir "$root/tests/golden/analyzer"
  add_dir "$root/examples"
fi
[ ${#files[@]} -gt 0 ] || die "no .cu/.hip files in the corpus"

# --- helpers ------------------------------------------------------------------
now_ns() { date +%s%N; }

median() {   # median of the arguments (integers)
  printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}

# Runs the command REPS times.  Leaves the median wall time in $took_us and
# the median CPU time (user + sys of the command and its children) in
# $cpu_us, both in microseconds; the exit status of the last run in $last_rc.
# CPU time is what the overhead verdict uses: on a shared machine the wall
# time also measures everybody else.
took_us=0 cpu_us=0 last_rc=0
time_us() {
  local walls=() cpus=() t0 t1 i u s TIMEFORMAT='%3U %3S'
  for ((i = 0; i < reps; i++)); do
    t0=$(now_ns)
    { time "$@" >/dev/null 2>&1; } 2>"$tmp/time"
    last_rc=$?
    t1=$(now_ns)
    read -r u s <"$tmp/time"
    walls+=($(((t1 - t0) / 1000)))
    cpus+=($(awk -v u="$u" -v s="$s" 'BEGIN {printf "%d", (u + s) * 1e6}'))
  done
  took_us=$(median "${walls[@]}")
  cpu_us=$(median "${cpus[@]}")
}

# The clang arguments kcheck uses for a file, one per line, with the
# in-memory shim folder mapped to the shim headers in the source tree.
clang_args() {
  local out
  if out=$("$kcheck" facts --print-clang-args "$1" 2>/dev/null) && [ -n "$out" ]; then
    eval "set -- $out"
    for a in "$@"; do printf '%s\n' "${a//\/kcheck-shim/$shim_dir}"; done
  else
    printf '%s\n' -x cuda --cuda-path=/usr/local/cuda --cuda-gpu-arch=sm_90 -nocudalib \
      --cuda-device-only -Xclang -target-sdk-version=12.5 -Wno-unknown-cuda-version \
      -isystem "$shim_dir"
  fi
}

ms() { awk -v u="$1" 'BEGIN {printf "%.1f", u / 1000}'; }

# --- per-file table -------------------------------------------------------------
pct() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%+.1f%%", b ? 100 * (a - b) / b : 0}'; }
echo "## kcheck facts vs clang-19 -fsyntax-only (median of $reps runs, ms)"
echo
echo "| file | parse wall | kcheck wall | parse CPU | kcheck CPU | CPU overhead | note |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
tw_parse=0 tw_kcheck=0 tc_parse=0 tc_kcheck=0 n=0
for f in "${files[@]}"; do
  mapfile -t args < <(clang_args "$f")
  time_us "$clang" -fsyntax-only "${args[@]}" "$f"
  wp=$took_us cp=$cpu_us note=""
  [ "$last_rc" -ne 0 ] && note="clang: errors"
  time_us "$kcheck" facts "$f" --format sqlite -o "$tmp/facts.db"
  wk=$took_us ck=$cpu_us
  [ "$last_rc" -ne 0 ] && note="${note:+$note; }kcheck exit $last_rc"
  rel=${f#"$root"/}
  echo "| $rel | $(ms "$wp") | $(ms "$wk") | $(ms "$cp") | $(ms "$ck") | $(pct "$ck" "$cp") | $note |"
  tw_parse=$((tw_parse + wp)) tw_kcheck=$((tw_kcheck + wk))
  tc_parse=$((tc_parse + cp)) tc_kcheck=$((tc_kcheck + ck))
  n=$((n + 1))
done
echo "| **total ($n files)** | **$(ms "$tw_parse")** | **$(ms "$tw_kcheck")** | **$(ms "$tc_parse")** | **$(ms "$tc_kcheck")** | **$(pct "$tc_kcheck" "$tc_parse")** | wall: $(pct "$tw_kcheck" "$tw_parse") |"
echo
total_ovh=$(awk -v a="$tc_kcheck" -v b="$tc_parse" 'BEGIN {printf "%.1f", 100 * (a - b) / b}')
verdict=$(awk -v o="$total_ovh" 'BEGIN {print (o <= 15 ? "met" : "NOT met")}')
echo "Analysis overhead over the bare parse (CPU time): ${total_ovh}% (target <= 15%: $verdict);"
echo "wall time: $(pct "$tw_kcheck" "$tw_parse")."
echo

# --- -j 1 vs -j 2 ---------------------------------------------------------------
echo "## kcheck -j 1 vs -j 2 over the corpus (median of $reps runs)"
echo
status=0
declare -A wall
for j in 1 2; do
  time_us "$kcheck" -j "$j" -q --exit-zero --format json -o "$tmp/report-j$j.json" "${files[@]}"
  wall[$j]=$took_us
done
if [ ! -s "$tmp/report-j1.json" ]; then
  same="not comparable: kcheck -j 1 wrote no report (exit $last_rc)"
  status=1
elif cmp -s "$tmp/report-j1.json" "$tmp/report-j2.json"; then
  same="identical"
else
  same="DIFFERENT"
  status=1
fi
speedup=$(awk -v a="${wall[1]}" -v b="${wall[2]}" 'BEGIN {printf "%.2f", b ? a / b : 0}')
echo "| run | wall (s) |"
echo "| --- | ---: |"
echo "| kcheck -j 1 | $(awk -v u="${wall[1]}" 'BEGIN {printf "%.2f", u / 1e6}') |"
echo "| kcheck -j 2 | $(awk -v u="${wall[2]}" 'BEGIN {printf "%.2f", u / 1e6}') |"
echo
echo "Speed-up ${speedup}x; JSON reports of -j 1 and -j 2: $same."
exit $status
