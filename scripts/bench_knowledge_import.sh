#!/usr/bin/env bash
# How `kcheck knowledge import` grows with the rows of an export: writes an
# export of one learned rule and N evidence rows, all of that rule (the
# worst case for the duplicate check and the rule's review), imports it into
# a new DB, then imports it again (every row a duplicate), and prints a
# table of rows, wall and CPU (user + system) seconds of both imports and
# CPU microseconds per row of the first.  Linear cost means the time per
# row stays flat as N grows (wall time also counts waiting for a busy
# machine; the import checks the export in memory first, then writes).
#
# usage: scripts/bench_knowledge_import.sh [N...]   (default: 8000 32000 100000)
# env:   KCHECK=path/to/kcheck (default build/cli/kcheck)
set -euo pipefail
cd "$(dirname "$0")/.."
kcheck=${KCHECK:-build/cli/kcheck}
if [ ! -x "$kcheck" ]; then
	echo "bench_knowledge_import: error: $kcheck not built (cmake --build build)" >&2
	exit 2
fi
if [ ! -x /usr/bin/time ]; then
	echo "bench_knowledge_import: error: /usr/bin/time (GNU time) is needed" >&2
	exit 2
fi
[ $# -gt 0 ] || set -- 8000 32000 100000
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ka-import-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

gen() { # gen N DIR
	mkdir -p "$2/rules"
	cp tests/knowledge/fixtures/team/rules/gmem-learned-broadcast-row.md "$2/rules/"
	awk -v n="$1" 'BEGIN {
		printf "{\"format\": \"kcheck-knowledge\", \"version\": 1,\n"
		printf " \"rules\": [{\"id\": \"gmem-learned-broadcast-row\", \"status\": \"candidate\"}],\n"
		printf " \"evidence\": [\n"
		for (i = 0; i < n; i++)
			printf "  {\"rule\": \"gmem-learned-broadcast-row\", \"fix\": \"f\", \"task\": \"t%d\", \"gpu\": \"G\", \"arch\": \"sm_90\", \"speedup\": %.3f, \"verdict\": \"%s\", \"at\": %d}%s\n", \
				i % 97, 0.5 + (i % 7) / 2.0, (i % 3) ? "faster" : "slower", 1764590000 + i, i + 1 < n ? "," : ""
		printf " ]}\n"
	}' >"$2/evidence.json"
}

secs() { # secs CMD... : "WALL CPU" seconds of one run
	/usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" >/dev/null
	awk '{ printf "%s %.2f", $1, $2 + $3 }' "$tmp/time"
}

printf '| rows | import wall (s) | import CPU (s) | again, all duplicates: wall (s) | CPU (s) | CPU us per row |\n'
printf '| ---: | ---: | ---: | ---: | ---: | ---: |\n'
for n in "$@"; do
	gen "$n" "$tmp/x$n"
	read -r w1 c1 <<<"$(secs "$kcheck" knowledge import "$tmp/x$n" --db "$tmp/k$n.db")"
	read -r w2 c2 <<<"$(secs "$kcheck" knowledge import "$tmp/x$n" --db "$tmp/k$n.db")"
	awk -v n="$n" -v w1="$w1" -v c1="$c1" -v w2="$w2" -v c2="$c2" \
		'BEGIN { printf "| %d | %s | %s | %s | %s | %.0f |\n", n, w1, c1, w2, c2, c1 * 1e6 / n }'
done
