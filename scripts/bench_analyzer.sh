#!/usr/bin/env bash
# scripts/bench_analyzer.sh: what the analysis costs on top of parsing.
#
# For every kernel file of the corpus (tests/corpus, tests/golden/analyzer,
# examples) it times `kcheck facts FILE --format sqlite` against
# `clang-19 -fsyntax-only` with the same compiler arguments (from
# `kcheck facts --print-clang-args`), in two modes:
#   pch    kcheck as it runs by default, with its precompiled header of the
#          toolkit's headers; clang gets the same header (the
#          `-include-pch PATH` that --print-clang-args prints);
#   nopch  both parse the toolkit's headers in full (KCHECK_NO_PCH=1).
# The runs are paired: each of the REPS rounds runs clang, then kcheck, on
# the same file, so a burst of load hits both.  It prints a Markdown table
# of the median CPU times (user + sys) and the ratio per file, then the
# total, the median and the largest per-file ratio of each mode, and the
# largest over the files that clang parses to the end against TARGET: on a
# fatal error (a missing header) clang -fsyntax-only stops, while kcheck
# parses on (libclang's KeepGoing) to analyse the kernels after it, so
# those files' ratios compare unequal work (listed, not judged).  Then it
# times `kcheck -j 1` and `kcheck -j 2` over the whole corpus and checks
# that both reports are byte-identical.
#
# Usage: scripts/bench_analyzer.sh [KCHECK]     (default: build/cli/kcheck)
# Environment: REPS (default 3), CLANG (default clang-19), CORPUS (a list of
# files or folders instead of the default corpus), MODES (default
# "pch nopch"), TARGET (the per-file ratio aimed at, default 1.10), JOBS
# (0 skips the -j 1 / -j 2 comparison; default 1).
# MEASURE=instructions counts instructions instead of timing: each command
# runs once under valgrind's callgrind (children included, so a ptxas that
# kcheck starts counts), and the table compares the instructions executed
# (callgrind's Ir), which do not move with the load of a shared machine as
# CPU time does; they leave out cache misses and stalls, so they stand in
# for time, they do not replace it.  REPS is 1 there (the count repeats).
# Exit status: 0 when the -j outputs agree, 1 when they differ, 2 on setup
# errors.  The target is reported, not enforced (timings depend on the
# machine).
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
kcheck=${1:-$root/build/cli/kcheck}
reps=${REPS:-3}
clang=${CLANG:-clang-19}
modes=${MODES:-pch nopch}
target=${TARGET:-1.10}
shim_dir=$root/analyzer/shim

measure_kind=${MEASURE:-cpu}
die() { echo "bench_analyzer: error: $*" >&2; exit 2; }
case $measure_kind in
  cpu) ;;
  instructions)
    command -v valgrind >/dev/null || die "MEASURE=instructions needs valgrind (apt-get install valgrind)"
    reps=1 ;;
  *) die "unknown MEASURE '$measure_kind' (cpu, instructions)" ;;
esac
[ -x "$kcheck" ] || die "no kcheck at $kcheck (build it, or pass its path)"
command -v "$clang" >/dev/null || die "$clang not found (apt-get install clang-19)"
for m in $modes; do
  case $m in pch | nopch) ;; *) die "unknown mode '$m' in MODES (pch, nopch)" ;; esac
done

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

median() {   # median of the arguments (numbers)
  printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}

# One run of a command: its wall time in $wall_us, its CPU time (user + sys
# of the command and its children) in $cpu_us, both in microseconds, and
# its exit status in $last_rc.  CPU time is what the verdict uses: on a
# shared machine the wall time also measures everybody else.
wall_us=0 cpu_us=0 last_rc=0
run_once() {
  local t0 t1 u s TIMEFORMAT='%3U %3S'
  if [ "$measure_kind" = instructions ]; then
    rm -f "$tmp"/cg.* "$tmp"/vg.*
    t0=$(now_ns)
    # --dump-before=fork: a forked child starts with its parent's counters
    # (kcheck analyses each file in a fork), so without a dump and reset at
    # the fork every instruction before it would be counted twice, once in
    # each process's total
    valgrind --tool=callgrind --trace-children=yes --dump-before=fork --log-file="$tmp/vg.%p" \
      --callgrind-out-file="$tmp/cg.%p" "$@" >/dev/null 2>"$tmp/err"
    last_rc=$?
    t1=$(now_ns)
    wall_us=$(((t1 - t0) / 1000))
    # cpu_us holds the instruction count in this mode
    cpu_us=$(cat "$tmp"/cg.* 2>/dev/null | awk '$1 == "summary:" {n += $2} END {printf "%.0f", n}')
    return
  fi
  t0=$(now_ns)
  { time "$@" >/dev/null 2>"$tmp/err"; } 2>"$tmp/time"
  last_rc=$?
  t1=$(now_ns)
  read -r u s <"$tmp/time"
  wall_us=$(((t1 - t0) / 1000))
  cpu_us=$(awk -v u="$u" -v s="$s" 'BEGIN {printf "%d", (u + s) * 1e6}')
}

# Runs the command REPS times; the median wall and CPU times in $took_us
# and $cpu_us (the -j comparison).
took_us=0
time_us() {
  local walls=() cpus=() i
  for ((i = 0; i < reps; i++)); do
    run_once "$@"
    walls+=("$wall_us") cpus+=("$cpu_us")
  done
  took_us=$(median "${walls[@]}")
  cpu_us=$(median "${cpus[@]}")
}

# The clang arguments kcheck uses for a file, one per line, with the
# in-memory shim folder mapped to the shim headers in the source tree; in
# pch mode they end with kcheck's -include-pch (built on first use).
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

# CPU microseconds as milliseconds, or instructions as millions
ms() { awk -v u="$1" -v d="$([ "$measure_kind" = instructions ] && echo 1000000 || echo 1000)" 'BEGIN {printf "%.1f", u / d}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b ? a / b : 0}'; }

# One file in one mode: REPS paired rounds (clang, then kcheck).  Leaves the
# medians in $m_clang, $m_kcheck (CPU, us), the summed medians of the wall
# times in $w_clang, $w_kcheck, and a note.
m_clang=0 m_kcheck=0 w_clang=0 w_kcheck=0 note=""
measure() {
  local f=$1 mode=$2 cc=() ck=() wc=() wk=() i args
  note=""
  if [ "$mode" = nopch ]; then export KCHECK_NO_PCH=1; else unset KCHECK_NO_PCH; fi
  mapfile -t args < <(clang_args "$f")
  "$kcheck" facts "$f" --format sqlite -o "$tmp/facts.db" >/dev/null 2>&1 # caches (PCH, ptxas) warm
  for ((i = 0; i < reps; i++)); do
    run_once "$clang" -fsyntax-only "${args[@]}" "$f"
    cc+=("$cpu_us") wc+=("$wall_us")
    if grep -q "fatal error" "$tmp/err"; then
      note="clang: fatal error (it stops there; kcheck parses on)"
    elif [ "$last_rc" -ne 0 ]; then
      note="clang: errors"
    fi
    run_once "$kcheck" facts "$f" --format sqlite -o "$tmp/facts.db"
    ck+=("$cpu_us") wk+=("$wall_us")
    [ "$last_rc" -ne 0 ] && note="${note:+$note; }kcheck exit $last_rc"
  done
  unset KCHECK_NO_PCH
  m_clang=$(median "${cc[@]}") m_kcheck=$(median "${ck[@]}")
  w_clang=$(median "${wc[@]}") w_kcheck=$(median "${wk[@]}")
}

# --- per-file table -------------------------------------------------------------
read -r load0 _ </proc/loadavg
if [ "$measure_kind" = instructions ]; then
  echo "## kcheck facts vs clang-19 -fsyntax-only (millions of instructions, callgrind Ir, one run each)"
else
  echo "## kcheck facts vs clang-19 -fsyntax-only (CPU ms, median of $reps paired runs)"
fi
echo
hdr="| file |" sep="| --- |"
for m in $modes; do
  hdr+=" parse ($m) | kcheck ($m) | ratio ($m) |"
  sep+=" ---: | ---: | ---: |"
done
echo "$hdr note |"
echo "$sep --- |"
declare -A tot_c tot_k wall_c wall_k ratios whole
for m in $modes; do tot_c[$m]=0 tot_k[$m]=0 wall_c[$m]=0 wall_k[$m]=0 ratios[$m]="" whole[$m]=""; done
n=0
for f in "${files[@]}"; do
  rel=${f#"$root"/}
  row="| $rel |" notes=""
  for m in $modes; do
    measure "$f" "$m"
    r=$(ratio "$m_kcheck" "$m_clang")
    row+=" $(ms "$m_clang") | $(ms "$m_kcheck") | ${r}x |"
    tot_c[$m]=$((tot_c[$m] + m_clang)) tot_k[$m]=$((tot_k[$m] + m_kcheck))
    wall_c[$m]=$((wall_c[$m] + w_clang)) wall_k[$m]=$((wall_k[$m] + w_kcheck))
    ratios[$m]+="$r "
    case "$note" in *"fatal error"*) ;; *) whole[$m]+="$r " ;; esac
    [ -n "$note" ] && case "$notes" in *"$note"*) ;; *) notes="${notes:+$notes; }$note" ;; esac
  done
  echo "$row $notes |"
  n=$((n + 1))
done
row="| **total ($n files)** |"
for m in $modes; do
  row+=" **$(ms "${tot_c[$m]}")** | **$(ms "${tot_k[$m]}")** | **$(ratio "${tot_k[$m]}" "${tot_c[$m]}")x** |"
done
echo "$row |"
echo
read -r load1 _ </proc/loadavg
for m in $modes; do
  # shellcheck disable=SC2086
  med=$(median ${ratios[$m]})
  # shellcheck disable=SC2086
  max=$(printf '%s\n' ${ratios[$m]} | sort -g | tail -1)
  # shellcheck disable=SC2086
  nsame=$(printf '%s\n' ${whole[$m]} | grep -c .)
  # shellcheck disable=SC2086
  maxs=$(printf '%s\n' ${whole[$m]} | sort -g | tail -1)
  verdict=$(awk -v x="${maxs:-0}" -v t="$target" 'BEGIN {print (x <= t ? "met" : "NOT met")}')
  what=CPU
  [ "$measure_kind" = instructions ] && what=instructions
  echo "- $m: total $what $(ratio "${tot_k[$m]}" "${tot_c[$m]}")x the bare parse," \
    "per-file ratio median ${med}x, max ${max}x; max ${maxs:-none}x over the $nsame files that clang" \
    "parses to the end (target <= ${target}x per file: $verdict); wall $(ratio "${wall_k[$m]}" "${wall_c[$m]}")x."
done
echo "- load average (1 min): $load0 before, $load1 after."
echo

[ "${JOBS:-1}" = 0 ] && exit 0

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
