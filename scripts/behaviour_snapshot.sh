#!/usr/bin/env bash
# scripts/behaviour_snapshot.sh: what kcheck says and fixes on the shipped
# examples and the golden corpus, as files that can be diffed between two
# revisions.  A refactoring is behaviour-preserving when the snapshots of the
# old and new trees are byte-identical:
#   scripts/behaviour_snapshot.sh OUT [KCHECK]     (KCHECK default build/cli/kcheck)
#   diff -r OLD NEW
# For every .cu/.cuh/.hip file under examples/ and tests/golden/analyzer/ it
# writes the JSON findings (--sort location, -j 1, the facts as JSON) and the
# patch of --diff --unsafe-fixes.  Paths in the output are relative to the
# repository, so two checkouts compare equal.
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: behaviour_snapshot.sh OUT [KCHECK]}
kcheck=${2:-$root/build/cli/kcheck}
case $kcheck in /*) ;; *) kcheck=$PWD/$kcheck ;; esac
[ -x "$kcheck" ] || { echo "behaviour_snapshot: error: no kcheck at $kcheck" >&2; exit 2; }
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
cd "$root" || exit 2
n=0
while IFS= read -r f; do
	name=$(printf '%s' "$f" | tr '/' '_')
	"$kcheck" --no-config --format json --exit-zero -q "$f" >"$out/$name.json" 2>"$out/$name.stderr"
	echo "exit $?" >>"$out/$name.stderr"
	"$kcheck" --no-config --diff --unsafe-fixes --exit-zero -q "$f" >"$out/$name.diff" 2>>"$out/$name.stderr"
	"$kcheck" facts --format json "$f" >"$out/$name.facts.json" 2>>"$out/$name.stderr"
	n=$((n + 1))
done < <(find examples tests/golden/analyzer -type f \( -name '*.cu' -o -name '*.cuh' -o -name '*.hip' \) | LC_ALL=C sort)
echo "behaviour_snapshot: $n files -> $out"
