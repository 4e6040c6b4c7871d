#!/usr/bin/env bash
# scripts/corpus_sweep.sh: how kcheck fares on a tree of CUDA/HIP code.
#
# For every .cu/.cuh/.hip file under the given folders (or the given files)
# it runs `kcheck --format json` on that file alone and
# `clang-19 -fsyntax-only` with the compiler arguments kcheck uses (from
# `kcheck facts --print-clang-args`, so both see the same flags), and prints:
#   - per file: status (the report's files[0].status), clang's verdict,
#     kernels with findings, findings (clang's errors are no findings), CPU
#     time of both;
#   - the parse rate: files analyzed (no clang error), partial (clang errors,
#     but the kernels whose bodies parsed were analyzed), failed (nothing
#     analyzed), no-include (failed on a header that is not there);
#   - findings by rule and severity;
#   - the time ratio kcheck / clang -fsyntax-only (total and per-file median).
#
# Usage: scripts/corpus_sweep.sh [OPTIONS] PATH... [-- FLAGS]
#   FLAGS reach both kcheck and clang (e.g. -I include -std=c++17).
# Options:
#   --kcheck PATH   the kcheck binary (default: build/cli/kcheck, then PATH)
#   --ext LIST      file suffixes, comma-separated (default cu,cuh,hip)
#   --hip           parse every file as HIP (-x hip), e.g. for .cpp trees
#   --no-clang      skip the clang-19 timing (faster)
#   --every N       take every N-th file only (a sample of a large tree)
#   --tsv FILE      also write the per-file rows as tab-separated values
#   --quiet-files   print only the summary tables
# Environment: CLANG (default clang-19), KCHECK_SWEEP_TIMEOUT (seconds per
# command, default 300).
# Exit status: 0 when the sweep ran (whatever it found), 2 on setup errors.
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
kcheck=""
exts="cu,cuh,hip"
hip=0 no_clang=0 every=1 tsv="" quiet_files=0
clang=${CLANG:-clang-19}
tlimit=${KCHECK_SWEEP_TIMEOUT:-300}
shim_dir=$root/analyzer/shim

die() { echo "corpus_sweep: error: $*" >&2; exit 2; }

paths=() flags=()
while [ $# -gt 0 ]; do
  case "$1" in
    --kcheck) [ $# -ge 2 ] || die "--kcheck needs a path"; kcheck=$2; shift 2 ;;
    --ext) [ $# -ge 2 ] || die "--ext needs a list"; exts=$2; shift 2 ;;
    --hip) hip=1; shift ;;
    --no-clang) no_clang=1; shift ;;
    --every) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--every needs a positive number"
             every=$2; shift 2 ;;
    --tsv) [ $# -ge 2 ] || die "--tsv needs a file"; tsv=$2; shift 2 ;;
    --quiet-files) quiet_files=1; shift ;;
    -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; flags=("$@"); break ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) paths+=("$1"); shift ;;
  esac
done
[ ${#paths[@]} -gt 0 ] || die "no PATH given (usage: corpus_sweep.sh [OPTIONS] PATH... [-- FLAGS])"
if [ -z "$kcheck" ]; then
  if [ -x "$root/build/cli/kcheck" ]; then kcheck=$root/build/cli/kcheck
  else kcheck=$(command -v kcheck) || die "no kcheck found (build it, or pass --kcheck)"; fi
fi
[ -x "$kcheck" ] || die "kcheck at '$kcheck' is not executable"
command -v jq >/dev/null || die "jq not found (apt-get install jq)"
[ "$no_clang" = 1 ] || command -v "$clang" >/dev/null || die "$clang not found (or use --no-clang)"
[ "$hip" = 1 ] && flags=(-x hip "${flags[@]}")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ka-sweep-XXXXXX") || die "cannot create a temp folder"
trap 'rm -rf "$tmp"' EXIT

# --- the files -------------------------------------------------------------------
files=()
find_expr=()
IFS=, read -r -a ext_list <<<"$exts"
for e in "${ext_list[@]}"; do find_expr+=(${find_expr:+-o} -name "*.$e"); done
for p in "${paths[@]}"; do
  if [ -d "$p" ]; then
    while IFS= read -r f; do files+=("$f"); done < <(
      find "$p" -type f \( "${find_expr[@]}" \) 2>/dev/null | LC_ALL=C sort)
  elif [ -f "$p" ]; then
    files+=("$p")
  else
    die "'$p' is neither a file nor a folder"
  fi
done
if [ "$every" -gt 1 ]; then
  sample=()
  for ((i = 0; i < ${#files[@]}; i += every)); do sample+=("${files[$i]}"); done
  files=("${sample[@]}")
fi
[ ${#files[@]} -gt 0 ] || die "no .${exts//,/ .} files under ${paths[*]}"

# --- helpers ---------------------------------------------------------------------
# Runs a command under the time limit; CPU seconds (user + sys) in $cpu,
# exit status in $rc.
cpu=0 rc=0
timed() {
  local TIMEFORMAT='%3U %3S' u s
  { time timeout "$tlimit" "$@" >"$tmp/out" 2>"$tmp/err"; } 2>"$tmp/time"
  rc=$?
  read -r u s <"$tmp/time"
  cpu=$(awk -v u="$u" -v s="$s" 'BEGIN {printf "%.3f", u + s}')
}

# kcheck's clang arguments for a file, one per line; the in-memory shim
# folder is mapped to the shim headers in the source tree.
clang_args() {
  local out a
  out=$("$kcheck" facts --print-clang-args "$1" -- "${flags[@]}" 2>/dev/null) || return 1
  eval "set -- $out"
  for a in "$@"; do printf '%s\n' "${a//\/kcheck-shim/$shim_dir}"; done
}

# --- the sweep ---------------------------------------------------------------------
rows=$tmp/rows.tsv
: >"$rows"
: >"$tmp/findings.tsv"
[ "$quiet_files" = 1 ] || printf '%-8s %-6s %5s %5s %8s %8s  %s\n' \
  status clang kfind finds kcheck_s clang_s file
for f in "${files[@]}"; do
  # ./-prefix a relative path so a name like -foo.cu is never an option
  case "$f" in /*|./*) arg=$f ;; *) arg=./$f ;; esac
  timed "$kcheck" -q --exit-zero --no-config --format json -o "$tmp/report.json" "$arg" -- "${flags[@]}"
  kcpu=$cpu krc=$rc
  status=analyzed nfind=0 nker=0
  # the report's own word on the file (files[0].status): analyzed, partial
  # (clang errors or an analysis limit) or failed; exit 2 comes with both
  # of the latter, so the status is read, not the exit code
  [ -s "$tmp/report.json" ] && status=$(jq -r '.files[0].status // "failed"' "$tmp/report.json" 2>/dev/null)
  if [ "$krc" -eq 124 ]; then
    status=timeout
  elif [ "$krc" -gt 2 ] || [ ! -s "$tmp/report.json" ] || [ "$status" = failed ] || [ -z "$status" ]; then
    status=failed
    # a header that is not there (a dependency not installed, or a header
    # meant to be included after others) is not kcheck's failure
    grep -q "file not found" "$tmp/err" && status=no-include
  else
    jq -r '.findings[] | [.rule, .severity] | @tsv' "$tmp/report.json" >>"$tmp/findings.tsv" 2>/dev/null
    nker=$(jq '[.findings[].kernel | select(. != null)] | unique | length' "$tmp/report.json" 2>/dev/null || echo 0)
    nfind=$(jq '.findings | length' "$tmp/report.json" 2>/dev/null || echo 0)
  fi
  crc=- ccpu=0
  if [ "$no_clang" = 0 ]; then
    if mapfile -t args < <(clang_args "$arg") && [ ${#args[@]} -gt 0 ]; then
      timed "$clang" -fsyntax-only "${args[@]}" "$arg"
      ccpu=$cpu
      case $rc in 0) crc=ok ;; 124) crc=timeout ;; *) crc=errors ;; esac
    fi
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$status" "$crc" "${nker:-0}" "${nfind:-0}" \
    "$kcpu" "$ccpu" "$f" >>"$rows"
  [ "$quiet_files" = 1 ] || printf '%-8s %-6s %5s %5s %8s %8s  %s\n' "$status" "$crc" \
    "${nker:-0}" "${nfind:-0}" "$kcpu" "$ccpu" "$f"
done
[ -n "$tsv" ] && { printf 'status\tclang\tkernels_with_findings\tfindings\tkcheck_cpu_s\tclang_cpu_s\tfile\n'; cat "$rows"; } >"$tsv"

# --- summary -------------------------------------------------------------------------
echo
echo "## Parse rate"
echo
awk -F'\t' '
  { n++; s[$1]++; if ($2 == "ok") ok++; if ($2 == "ok" && ($1 == "analyzed" || $1 == "partial")) okan++ }
  END {
    an = s["analyzed"] + s["partial"]
    m = n - s["no-include"]
    printf "| files | analyzed | partial | failed | no-include | timeout | parse rate | rate, includes found | clang clean | of those analyzed |\n"
    printf "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
    printf "| %d | %d | %d | %d | %d | %d | %.1f%% | %.1f%% | %s | %s |\n", n, s["analyzed"], s["partial"],
      s["failed"], s["no-include"], s["timeout"], n ? 100 * an / n : 0, m ? 100 * an / m : 0,
      clang ? ok : "-", clang ? okan : "-"
  }' clang=$((1 - no_clang)) "$rows"
echo
echo "parse rate = (analyzed + partial) / files; no-include = failed on a header that is"
echo "not there (an uninstalled dependency, or a header meant to be included after"
echo "others); the next rate leaves those out; clang clean = clang -fsyntax-only with"
echo "the same flags reports no error."
echo
if [ "$no_clang" = 0 ]; then
  echo "## Time (CPU seconds, kcheck / clang-19 -fsyntax-only)"
  echo
  awk -F'\t' '
    $6 > 0 { k += $5; c += $6; r[++n] = $5 / $6 }
    END {
      if (!n) { print "no timings"; exit }
      # median of the per-file ratios (insertion sort: n is small)
      for (i = 2; i <= n; i++) { v = r[i]; for (j = i - 1; j >= 1 && r[j] > v; j--) r[j + 1] = r[j]; r[j + 1] = v }
      med = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
      printf "| files timed | kcheck s | clang s | total ratio | median per-file ratio | p90 per-file |\n"
      printf "| ---: | ---: | ---: | ---: | ---: | ---: |\n"
      p = int(0.9 * n + 0.5); if (p < 1) p = 1
      printf "| %d | %.1f | %.1f | %.2fx | %.2fx | %.2fx |\n", n, k, c, k / c, med, r[p]
    }' "$rows"
  echo
fi
echo "## Findings by rule and severity"
echo
if [ -s "$tmp/findings.tsv" ]; then
  echo "| rule | error | warning | note |"
  echo "| --- | ---: | ---: | ---: |"
  awk -F'\t' '{ c[$1 "\t" $2]++; r[$1] = 1 }
    END { for (x in r) printf "| %s | %d | %d | %d |\n", x, c[x "\terror"], c[x "\twarning"], c[x "\tnote"] }' \
    "$tmp/findings.tsv" | LC_ALL=C sort
else
  echo "(none)"
fi
exit 0
