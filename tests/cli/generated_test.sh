#!/usr/bin/env bash
# tests/cli/generated_test.sh: the man page and the bash completion come
# from the option table: every option --help lists is in both, the
# completion offers option values and subcommands, --exclude works on the
# command line.
# usage: generated_test.sh KCHECK
set -u
K=${1:?usage: generated_test.sh KCHECK}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
ok() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
"$K" --print-man > "$T/kcheck.1" && "$K" --print-completion bash > "$T/kcheck.bash" || fail "could not print them"
opts=$("$K" --help | grep -oE '^  (-[a-z]|--[a-z-]+)' | sed 's/^ *//' | sort -u)
[ -n "$opts" ] || fail "no options in --help"
missing=""
for o in $opts; do
	grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" "$T/kcheck.1" || missing="$missing man:$o"
	grep -qE -- "(^| |')$o( |')" "$T/kcheck.bash" || missing="$missing bash:$o"
done
[ -z "$missing" ] && ok "every --help option is in the man page and the completion ($(echo $opts | wc -w))" \
	|| fail "missing:$missing"
# the subcommands with tables of their own: each option their --help lists,
# in the man page's section for them and in the completion after them
for sub in optimize bench "bench init"; do
	sopts=$("$K" $sub --help | grep -oE '^  (-[a-z]|--[a-z-]+)' | sed 's/^ *//' | sort -u)
	title=$(echo "$sub" | tr a-z A-Z)
	sed -n "/^\.SH KCHECK $title OPTIONS/,/^\.SH/p" "$T/kcheck.1" > "$T/sec"
	[ "$(echo $sopts | wc -w)" -ge 3 ] || fail "kcheck $sub --help lists no options"
	missing=""
	for o in $sopts; do
		grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" "$T/sec" || missing="$missing man:$o"
		bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kcheck; printf "%s\n" "${COMPREPLY[@]}"' \
			_ "$T/kcheck.bash" kcheck $sub "$o" | grep -qx -- "$o" || missing="$missing bash:$o"
	done
	[ -z "$missing" ] && ok "kcheck $sub: every --help option is in its man section and completes ($(echo $sopts | wc -w))" \
		|| fail "kcheck $sub missing:$missing"
done
bash -n "$T/kcheck.bash" && ok "the completion is valid bash" || fail "completion syntax"
complete_words() { # complete_words WORD...: what completing the last word offers
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kcheck; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$T/kcheck.bash" "$@"
}
[ "$(complete_words kcheck --form)" = "--format" ] && ok "--form completes to --format" || fail "--form: $(complete_words kcheck --form)"
complete_words kcheck --format '' | grep -qx github && ok "--format offers github" || fail "--format values"
complete_words kcheck opt | grep -qx optimize && ok "subcommands offered first" || fail "subcommands"
[ "$(complete_words kcheck optimize --bud)" = "--budget" ] && ok "optimize --bud completes to --budget" \
	|| fail "optimize --bud: $(complete_words kcheck optimize --bud)"
complete_words kcheck optimize --form | grep -q . && fail "optimize offers the lint's --format" || ok "optimize offers only its own options"
[ "$(complete_words kcheck bench init f.cu --ker)" = "--kernel" ] && ok "bench init --ker completes to --kernel" \
	|| fail "bench init --ker: $(complete_words kcheck bench init f.cu --ker)"
complete_words kcheck bench t --configs '' | grep -qx unseen && ok "bench --configs offers unseen" || fail "--configs values"
complete_words kcheck bench t --runner '' | grep -qx slurm && ok "--runner offers slurm" || fail "--runner values"
(cd "$T" && mkdir -p src/gen && printf '__global__ void k(float *p) { p[threadIdx.x] = 1.f; }\n' > src/a.cu \
	&& cp src/a.cu src/gen/b.cu && "$K" --no-config --no-db --format concise --exit-zero --exclude gen src > ex.out 2> ex.err)
grep -q '^src/a.cu:' "$T/ex.out" && ! grep -q 'gen/b.cu' "$T/ex.out" && ok "--exclude on the command line" \
	|| fail "--exclude: $(cat "$T/ex.out" "$T/ex.err" | head -3)"
# --list-rules: the rules --checks enables, one line each
"$K" --no-config --list-rules --checks '-*,sync-*' > "$T/lr.out" 2> "$T/lr.err"
n=$(wc -l < "$T/lr.out")
[ "$n" -gt 0 ] && [ "$(grep -vc '^sync-' "$T/lr.out")" = 0 ] && ok "--list-rules follows --checks ($n sync rules)" \
	|| fail "--list-rules: $(head -3 "$T/lr.out" "$T/lr.err")"
all=$("$K" --no-config --list-rules | wc -l)
[ "$all" -gt "$n" ] && ok "--list-rules without --checks: $all rules" || fail "--list-rules all: $all"
"$K" --no-config --list-rules --checks '-*,sync-wrp-*' > /dev/null 2> "$T/lr2.err"; rc=$?
[ $rc = 2 ] && grep -q "matches no rule" "$T/lr2.err" && ok "--list-rules with a bad glob: exit 2" || fail "bad glob: rc=$rc"
[ $fails = 0 ] && echo "all generated-file checks passed" || echo "$fails generated-file check(s) failed"
[ $fails = 0 ]
