#!/usr/bin/env bash
# tests/cli/help_test.sh: each subcommand's --help is a real page (usage,
# Options, Examples, exit 0 on stdout), it lists every option its parser
# accepts, and every option it lists is one the parser accepts.  The
# parsers' options are read from the source: the rows of the option table
# (cli/tool_opts.c) for kcheck, facts, rules and knowledge; the rows of
# the tables of optimize and bench init (cli/tool_optimize.c), of bench
# (bench/bench.c) and of the runner both take (bench/scale.c).
# Usage: help_test.sh KCHECK
set -u
K=${1:?usage: help_test.sh KCHECK}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/ka-help-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# the table's rows of a command: {"NAME", ALIAS, CMDS, ...}
table_opts() {
	grep -oE '^\s*\{"-[^"]*", ("[^"]*"|NULL), [A-Z |]+,' "$SRC/cli/tool_opts.c" |
		awk -v want="$1" -F', ' '{ split($3, c, /[ |,]+/); for (i in c) if (c[i] == want) { gsub(/[{" \t]/, "", $1); print $1; if ($2 != "NULL") { gsub(/"/, "", $2); print $2 } } }'
}
# the names of the rows of table $2 in file $1 ({.name = "--x", ...} or ROW("--x", ...))
table_rows() { sed -n "/^static const ka_opt $2\[\] = {/,/^};/p" "$1" | grep -oE '(\.name = |ROW\()"--?[a-z][a-z-]*"' | grep -oE '"[^"]*"' | tr -d '"' | sort -u; }
runner_opts() { table_rows "$SRC/bench/scale.c" scale_table | grep -vx -- "$1"; }

check() { # NAME "kcheck ARGS" OPTIONS...
	local name=$1 cmd=$2
	shift 2
	$cmd --help > "$T/page" 2> "$T/err"
	local rc=$?
	[ $rc = 0 ] && [ ! -s "$T/err" ] || fail "$name --help: exit $rc, stderr $(cat "$T/err")"
	for part in 'usage: kcheck' 'Options:' 'Examples:'; do
		grep -q "$part" "$T/page" || fail "$name --help has no '$part'"
	done
	for o in "$@"; do # every option the parser takes is on the page
		grep -qE -- "^  (-[a-z], )?$o( |,|$)" "$T/page" || fail "$name --help lacks $o"
	done
	# every option on the page is one the parser takes
	for o in $(grep -oE '^  --?[a-z][a-z-]*(, --[a-z-]+)?' "$T/page" | tr -d ' ' | tr ',' ' '); do
		[ "$o" = -h ] || [ "$o" = --help ] && continue
		$cmd $o > /dev/null 2> "$T/err2" < /dev/null
		grep -qi "unknown option\|unexpected argument '$o'" "$T/err2" && fail "$name: $o is on the page, the parser refuses it"
	done
	echo "ok: $name --help ($(grep -cE '^  -' "$T/page") options)"
}

check facts "$K facts" $(table_opts FA)
check rules "$K rules" $(table_opts R)
check "rules list" "$K rules list" $(table_opts R)
check knowledge "$K knowledge" $(table_opts K)
check optimize "$K optimize" $(table_rows "$SRC/cli/tool_optimize.c" optimize_table) $(runner_opts '')
check "bench init" "$K bench init" $(table_rows "$SRC/cli/tool_optimize.c" init_table)
check bench "$K bench" $(table_rows "$SRC/bench/bench.c" bench_table) $(runner_opts '')
# the tables are where the names are: none of them came out empty
[ "$(table_rows "$SRC/cli/tool_optimize.c" optimize_table | wc -l)" -ge 10 ] || fail "optimize_table not read"
[ "$(table_rows "$SRC/bench/bench.c" bench_table | wc -l)" -ge 10 ] || fail "bench_table not read"
[ "$(runner_opts '' | wc -l)" -ge 10 ] || fail "scale_table not read"

# kcheck --help: every lint option of the table, and every subcommand
"$K" --help > "$T/main"
for o in $(table_opts L); do
	case $o in --no-color) continue ;; esac # the hidden spelling of --color never
	grep -qE -- "^  (-[a-z], )?$o( |,|$)" "$T/main" || fail "kcheck --help lacks $o"
done
for s in 'kcheck rules' 'kcheck facts' 'kcheck bench TASK' 'kcheck bench init' 'kcheck optimize' 'kcheck knowledge'; do
	grep -q "$s" "$T/main" || fail "kcheck --help does not name $s"
done

[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
[ $fails = 0 ]
