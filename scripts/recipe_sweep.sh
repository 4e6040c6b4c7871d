#!/usr/bin/env bash
# scripts/recipe_sweep.sh: the offline expert's recipes on a tree of CUDA
# code from outside the project.
#
# For every .cu/.cuh file under DIR it runs the recipe_sweep tool
# (tests/agents/recipe_sweep.c: every recipe, its grid's first parameter
# set, on every kernel), then compiles each rewrite it wrote with
# `nvcc -arch=sm_90 -c` (the FLAGS, and -I the original's folder so its own
# includes resolve) and the original the same way: a rewrite whose original
# does not compile alone is n/a.  A file that does not compile alone (a
# header, or a .cu written to be included) is compiled through a .cu of DIR
# that includes it
# (directly or through other headers of DIR): the original, then the
# rewrite in its place, in a mirror of DIR (OUT/mirror, symbolic links) whose
# header is swapped for the rewrite; the includer counts only when nvcc's
# dependency list shows that it reads the header.  A kernel whose launch
# is in a .cu that includes its file (the tool read it there: the rewrite
# edits both files) is compiled only through that .cu, the original and
# then both rewrites in place, with the same dependency check.  It prints:
#   - per recipe: kernels seen, applied, applied and compiles, n/a (the
#     original does not compile), applied but breaks the build;
#   - per recipe, the most frequent decline reasons (quoted text and the
#     kernel's name folded, so one reason is one line);
#   - files the source model could not read, and any crash or timeout of the
#     tool (with its stderr kept under OUT/crash/).
#
# Usage: scripts/recipe_sweep.sh [OPTIONS] DIR [-- FLAGS]
#        scripts/recipe_sweep.sh [--top N] --summary ROWS.tsv...
#   FLAGS reach nvcc and the kernel model the recipes build (e.g. -I
#   /tmp/corpus/cuda-samples/Common -std=c++17), relative paths against the
#   folder the script runs in.
#   --summary prints the tables again from earlier sweeps' rows, summed
#   (several corpora in one table).
# Options:
#   --tool PATH     the recipe_sweep binary (default build/tests/agents/recipe_sweep)
#   --out DIR       where rewrites, nvcc logs and rows go (default ./recipe-sweep-out)
#   --no-nvcc       skip the compiles (the compile columns read '-')
#   --recipe NAME   that recipe alone (the tool's -R NAME)
#   --files LIST    the files LIST names, one a line, relative to DIR, not
#                   every .cu/.cuh under it (a change whose effect is
#                   confined to some files, swept before and after on them)
#   --top N         decline reasons shown per recipe (default 3)
# Environment: NVCC (default nvcc), RECIPE_SWEEP_TIMEOUT (seconds per
# command, default 300).
# The rows stay in OUT/rows.tsv: file, kernel, recipe, params, status,
# detail, original compiles, rewrite compiles, the includer they compiled
# through ('-' when alone); for a rewrite whose launch is in the includer,
# 'launch' and the includer's rewrite ('-' when only the file changed).
# Exit status: 0 when the sweep ran (whatever it found), 2 on setup errors.
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
tool=$root/build/tests/agents/recipe_sweep
out=$PWD/recipe-sweep-out
nvcc=${NVCC:-nvcc}
tlimit=${RECIPE_SWEEP_TIMEOUT:-300}
no_nvcc=0 top=3 only=() list=""

die() { echo "recipe_sweep: error: $*" >&2; exit 2; }

dir="" flags=() summary=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tool) [ $# -ge 2 ] || die "--tool needs a path"; tool=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a folder"; out=$2; shift 2 ;;
    --no-nvcc) no_nvcc=1; shift ;;
    --recipe) [ $# -ge 2 ] || die "--recipe needs a name"; only=(-R "$2"); shift 2 ;;
    --files) [ $# -ge 2 ] && [ -f "$2" ] || die "--files needs a file"; list=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    --top) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--top needs a positive number"
           top=$2; shift 2 ;;
    --summary) shift; summary=("$@"); break ;;
    -h|--help) sed -n '2,49p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; flags=("$@"); break ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) [ -z "$dir" ] || die "one DIR only"; dir=$1; shift ;;
  esac
done
# --- summary --------------------------------------------------------------------------
# summarize ROWS TITLE: the tables from a rows file.
summarize() {
  local rows=$1
  echo "## Recipes on $2"
  echo
  awk -F'\t' '
    $5 == "scan-error" { scanerr++ }
    $5 == "crash" || $5 == "timeout" { bad++ }
    $2 != "-" { files[$1] = 1; kern[$1 "\t" $2] = 1 }
    END {
      for (f in files) nf++
      for (k in kern) nk++
      printf "%d files with kernels, %d kernels; %d files the source model could not read; %d crashes or timeouts\n",
        nf, nk, scanerr, bad
    }' "$rows"
  echo
  echo "| recipe | kernels seen | applied | applied, compiles | n/a (original does not compile) | applied, breaks the build |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
  awk -F'\t' '
    $3 != "-" {
      if (!($3 in seen)) order[++n] = $3
      seen[$3]++
      if ($5 == "applied") {
        app[$3]++
        if ($7 == "fails") na[$3]++
        else if ($8 == "ok") ok[$3]++
        else if ($8 == "fails") brk[$3]++
      }
    }
    END {
      for (i = 1; i <= n; i++) {
        r = order[i]
        printf "| %s | %d | %d | %d | %d | %d |\n", r, seen[r], app[r], ok[r], na[r], brk[r]
        ts += seen[r]; ta += app[r]; to += ok[r]; tn += na[r]; tb += brk[r]
      }
      printf "| **all** | %d | %d | %d | %d | %d |\n", ts, ta, to, tn, tb
    }' "$rows"
  awk -F'\t' '$5 == "applied" && $8 == "-" { n++ } END { exit !n }' "$rows" &&
    echo && echo "(some rewrites were not compiled: --no-nvcc)"
  awk -F'\t' '$5 == "applied" && $9 != "" && $9 != "-" && $10 != "launch" { n++; f[$1] = 1 }
    END { for (x in f) nf++
          if (n) printf "\n(%d rewrites of %d files that do not compile alone were compiled through a .cu that includes them)\n", n, nf
          exit !n }' "$rows" || true
  awk -F'\t' '$5 == "applied" && $10 == "launch" { n++; k[$1 "\t" $2] = 1; if ($8 == "ok") ok++; if ($11 != "-") both++ }
    END { for (x in k) nk++
          if (n) printf "\n(%d rewrites of %d kernels read the launch in a .cu that includes the kernel'"'"'s file; %d edit that .cu too; %d compile through it with both edits)\n", n, nk, both, ok
          exit !n }' "$rows" || true
  echo
  echo "## Decline reasons (top $top per recipe)"
  echo
  echo "| recipe | count | reason |"
  echo "| --- | ---: | --- |"
  # one reason, whatever the kernel: its name becomes K, quoted text '*'
  # (by hand, not gsub: mawk has no word boundaries)
  awk -F'\t' -v OFS='\t' '
    function word(c) { return c ~ /[A-Za-z0-9_]/ }
    $5 == "declined" {
      w = $6; k = $2; o = ""
      while ((i = index(w, k)) > 0) {
        pre = substr(w, 1, i - 1); post = substr(w, i + length(k))
        # not in "the kernel" (a kernel named kernel)
        if (!word(substr(pre, length(pre), 1)) && !word(substr(post, 1, 1)) && pre !~ /the $/)
          o = o pre "K"
        else o = o pre k
        w = post
      }
      w = o w
      gsub(/(^| )'\''[^'\'']*'\''/, " '\''*'\''", w)
      sub(/^ /, "", w)
      print $3, w
    }' "$rows" | LC_ALL=C sort | uniq -c |
    awk -v top="$top" '{
        n = $1; sub(/^ *[0-9]+ /, ""); split($0, a, "\t")
        print a[1] "\t" n "\t" substr($0, length(a[1]) + 2)
      }' | LC_ALL=C sort -t$'\t' -k1,1 -k2,2nr |
    awk -F'\t' -v top="$top" '++c[$1] <= top { printf "| %s | %d | %s |\n", $1, $2, $3 }'
  echo
  if grep -qP '\t(scan-error|crash|timeout)\t' "$rows"; then
    echo "## Files not swept"
    echo
    awk -F'\t' '$5 == "scan-error" || $5 == "crash" || $5 == "timeout" { printf "- %s: %s: %s\n", $1, $5, $6 }' "$rows"
    echo
  fi
}

if [ ${#summary[@]} -gt 0 ]; then
  all=$(mktemp "${TMPDIR:-/tmp}/ka-recipe-sweep-XXXXXX") || die "cannot create a temp file"
  trap 'rm -f "$all"' EXIT
  cat "${summary[@]}" >"$all" || die "cannot read ${summary[*]}"
  summarize "$all" "${summary[*]}"
  exit 0
fi
[ -n "$dir" ] || die "no DIR given (usage: recipe_sweep.sh [OPTIONS] DIR [-- FLAGS])"
[ -d "$dir" ] || die "'$dir' is not a folder"
[ -x "$tool" ] || die "no recipe_sweep tool at '$tool' (cmake --build build --target recipe_sweep)"
[ "$no_nvcc" = 1 ] || command -v "$nvcc" >/dev/null || die "$nvcc not found (or use --no-nvcc)"
dir=$(cd "$dir" && pwd)
mkdir -p "$out/rewrites" "$out/nvcc" "$out/crash" || die "cannot create '$out'"
out=$(cd "$out" && pwd)

# --- the recipes, file by file (relative names: they name the rewrites) --------
rows=$out/rows.tsv raw=$out/raw.tsv
: >"$raw"
if [ -n "$list" ]; then
  mapfile -t files < <(grep -v '^$' "$list" | LC_ALL=C sort -u)
else
  mapfile -t files < <(cd "$dir" && find . -type f \( -name '*.cu' -o -name '*.cuh' \) | sed 's|^\./||' |
    LC_ALL=C sort)
fi
[ ${#files[@]} -gt 0 ] || die "no .cu or .cuh files under $dir"
for f in "${files[@]}"; do
  log=$out/crash/${f//\//+}.log
  timeout "$tlimit" "$tool" -o "$out/rewrites" -r "$dir" "${only[@]}" "$f" -- "${flags[@]}" >>"$raw" 2>"$log"
  rc=$?
  case $rc in
    0) rm -f "$log" ;;
    124) printf '%s\t-\t-\t-\ttimeout\tover %ss\n' "$f" "$tlimit" >>"$raw" ;;
    *) printf '%s\t-\t-\t-\tcrash\texit %s, see %s\n' "$f" "$rc" "$log" >>"$raw" ;;
  esac
done

# --- the compiles -------------------------------------------------------------------
# compiles FILE LOG INCDIR: 0 when nvcc -arch=sm_90 -c takes FILE (a .cuh as
# CUDA) with -I INCDIR first (a rewrite lives elsewhere: its original's
# folder must win over FLAGS' folders, as it does for the original), then
# the FLAGS; nvcc's output goes to LOG.
compiles() {
  local obj=$out/nvcc/obj.o
  timeout "$tlimit" "$nvcc" -arch=sm_90 -c -x cu -I "$3" "${flags[@]}" "$1" -o "$obj" >"$2" 2>&1
  local rc=$?
  rm -f "$obj"
  [ $rc -eq 0 ]
}
# --- a header through the .cu files that include it ------------------------------
# The mirror: DIR as symbolic links, so that one header can be swapped for its
# rewrite while every other file, and every include path into DIR, stays.
mirror=$out/mirror
mirror_flags=()
make_mirror() {
  [ -d "$mirror/.ka-ready" ] && return 0
  rm -rf "$mirror" && mkdir -p "$mirror" && cp -rs "$dir/." "$mirror/" && mkdir "$mirror/.ka-ready" || return 1
  # FLAGS that name a folder inside DIR name the mirror's instead
  local fl
  mirror_flags=()
  for fl in "${flags[@]}"; do
    case $fl in
      "$dir") mirror_flags+=("$mirror") ;;
      "$dir"/*) mirror_flags+=("$mirror${fl#"$dir"}") ;;
      -I"$dir") mirror_flags+=("-I$mirror") ;;
      -I"$dir"/*) mirror_flags+=("-I$mirror${fl#-I"$dir"}") ;;
      *) mirror_flags+=("$fl") ;;
    esac
  done
}
# includers F: the .cu files of DIR whose #include lines name F's base name,
# directly or through up to two headers of DIR that do (a candidate list:
# the dependency list decides), sorted, at most 4.
includers() {
  local names=("$(basename "$1")") found=() level h
  for level in 1 2 3; do
    local pat
    pat=$(printf '%s\n' "${names[@]}" | sed 's/[.[\*^$]/\\&/g' | paste -sd'|')
    mapfile -t hits < <(cd "$dir" && grep -rlE --include='*.cu' --include='*.cuh' --include='*.h' \
      --include='*.hpp' --include='*.inl' "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]([^\">]*/)?($pat)[\">]" . |
      sed 's|^\./||' | LC_ALL=C sort)
    names=()
    for h in "${hits[@]}"; do
      case $h in
        *.cu) found+=("$h") ;;
        *) [ "$h" != "$1" ] && names+=("$(basename "$h")") ;;
      esac
    done
    [ ${#found[@]} -gt 0 ] || [ ${#names[@]} -eq 0 ] && break
  done
  printf '%s\n' "${found[@]}" | grep -v '^$' | LC_ALL=C sort -u | head -4
}
# via_compiles INC F LOG: 0 when the mirror's INC compiles and its
# dependency list holds F (resolved: the mirror's F is a link to DIR's or a
# rewrite copied there).
via_compiles() {
  local obj=$out/nvcc/obj.o dep=$out/nvcc/obj.d want
  want=$(readlink -f "$mirror/$2")
  timeout "$tlimit" "$nvcc" -arch=sm_90 -c -x cu -MD -MF "$dep" -I "$(dirname "$mirror/$1")" \
    -I "$(dirname "$mirror/$2")" "${mirror_flags[@]}" "$mirror/$1" -o "$obj" >"$3" 2>&1
  local rc=$? t hit=1
  if [ $rc -eq 0 ]; then
    for t in $(tr -d '\\' <"$dep"); do
      [ "$(basename "$t")" = "$(basename "$2")" ] && [ "$(readlink -f "$t")" = "$want" ] && { hit=0; break; }
    done
    [ $hit -eq 0 ] || echo "recipe_sweep: $1 compiles but does not read $2" >>"$3"
  fi
  rm -f "$obj" "$dep"
  [ $rc -eq 0 ] && [ $hit -eq 0 ]
}
# swap F REWRITE: the mirror's F becomes a copy of REWRITE; unswap F: the link again.
swap() { rm -f "$mirror/$1" && cp "$2" "$mirror/$1"; }
unswap() { rm -f "$mirror/$1" && ln -s "$dir/$1" "$mirror/$1"; }

declare -A orig_ok=() via=() xorig=()
: >"$rows"
while IFS=$'\t' read -r f k r p st det xinc xout; do
  oc=- nc=- vc=- xl=
  if [ -n "${xinc:-}" ]; then
    # the launch is in XINC, which includes F: the rewrite edits F (DET)
    # and, XOUT not '-', XINC (XOUT); both compile only through XINC, the
    # original first, then both rewrites in place, each time with F in
    # nvcc's dependency list
    vc=$xinc xl=launch
    if [ "$st" = applied ] && [ "$no_nvcc" = 0 ]; then
      key="$xinc"$'\t'"$f"
      if [ -z "${xorig[$key]:-}" ]; then
        xorig[$key]=fails
        make_mirror && via_compiles "$xinc" "$f" "$out/nvcc/${f//\//+}.${xinc//\//+}.orig.log" && xorig[$key]=ok
      fi
      oc=${xorig[$key]} nc=fails
      log=$out/nvcc/$(basename "$det" .cu).log
      if make_mirror && swap "$f" "$det" && { [ "$xout" = - ] || swap "$xinc" "$xout"; }; then
        via_compiles "$xinc" "$f" "$log" && nc=ok
      fi
      unswap "$f"
      [ "$xout" = - ] || unswap "$xinc"
    fi
  elif [ "$st" = applied ] && [ "$no_nvcc" = 0 ]; then
    src=$dir/$f
    if [ -z "${orig_ok[$f]:-}" ]; then
      via[$f]=-
      if compiles "$src" "$out/nvcc/${f//\//+}.orig.log" "$(dirname "$src")"; then orig_ok[$f]=ok
      else
        orig_ok[$f]=fails
        if make_mirror; then
          while IFS= read -r inc; do
            [ -n "$inc" ] || continue
            if via_compiles "$inc" "$f" "$out/nvcc/${f//\//+}.via.log"; then
              orig_ok[$f]=ok via[$f]=$inc
              break
            fi
          done < <(includers "$f")
        fi
      fi
    fi
    oc=${orig_ok[$f]} vc=${via[$f]}
    log=$out/nvcc/$(basename "$det" .cu).log
    if [ "$vc" = - ]; then
      if compiles "$det" "$log" "$(dirname "$src")"; then nc=ok; else nc=fails; fi
    else
      nc=fails
      swap "$f" "$det" && via_compiles "$vc" "$f" "$log" && nc=ok
      unswap "$f"
    fi
  fi
  if [ -n "$xl" ]; then
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$k" "$r" "$p" "$st" "$det" "$oc" "$nc" "$vc" \
      "$xl" "$xout" >>"$rows"
  else
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$k" "$r" "$p" "$st" "$det" "$oc" "$nc" "$vc" >>"$rows"
  fi
done <"$raw"
rm -f "$raw"

summarize "$rows" "$dir"
echo "rows: $rows; rewrites: $out/rewrites; nvcc logs: $out/nvcc"
exit 0
