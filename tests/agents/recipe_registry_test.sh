#!/usr/bin/env bash
# tests/agents/recipe_registry_test.sh: the recipe table's generator
# (recipes/recipe_registry_gen.cmake).  On the real recipes it writes the
# table in recipes.list's order; on made-up recipe folders it stops the
# build with one message naming the fault: a rule id not in rules/, a
# recipe declared and not listed, listed and not declared, or declared
# under another name.
# usage: recipe_registry_test.sh CMAKE SOURCE_DIR
set -u
CMAKE=${1:?usage: recipe_registry_test.sh CMAKE SOURCE_DIR}
SRC=${2:?usage: recipe_registry_test.sh CMAKE SOURCE_DIR}
GEN=$SRC/recipes/recipe_registry_gen.cmake
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
ok() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
gen() { # gen DIR LIST: run the generator, output in $T/log, header in $T/out.h
	rm -f "$T/out.h"
	"$CMAKE" -DLIST="$2" -DDIR="$1" -DRULES_DIR="$SRC/rules" -DOUT="$T/out.h" -P "$GEN" > "$T/log" 2>&1
}

# the real recipes: the table is recipes.list's names, in its order
if gen "$SRC/recipes" "$SRC/recipes/recipes.list"; then
	want=$(sed 's/#.*//' "$SRC/recipes/recipes.list" | awk 'NF { gsub(/-/, "_", $1); print $1 }')
	got=$(grep -oE '^	&ka_recipe_[a-z0-9_]+' "$T/out.h" | sed 's/.*&ka_recipe_//')
	[ -n "$want" ] && [ "$want" = "$got" ] && ok "the table follows recipes.list ($(echo "$got" | wc -l) recipes)" \
		|| fail "table order: want [$want] got [$got]"
else
	fail "the real recipes: $(cat "$T/log")"
fi

# a made-up folder: recipe_a.c declares what $1 says, the list is $2
case_dir() {
	rm -rf "$T/d" && mkdir "$T/d"
	printf '#include "recipes/recipe.h"\n%b' "$1" > "$T/d/recipe_a.c"
	printf '%b' "$2" > "$T/d/recipes.list"
}
decl() { # decl ID NAME RULES
	printf '\nconst ka_recipe ka_recipe_%s = {\n\t.name = "%s",\n\t.summary = "s",\n\t.rules = "%s",\n\t.grid = g,\n\t.apply = a,\n};\n' "$1" "$2" "$3"
}
expect_fail() { # expect_fail NAME WANT: the generator fails, naming WANT
	if gen "$T/d" "$T/d/recipes.list"; then
		fail "$1: the generator passed"
	elif tr '\n' ' ' < "$T/log" | tr -s ' ' | grep -qF -- "$2" && [ ! -e "$T/out.h" ]; then
		ok "$1: stops with '$2'"
	else
		fail "$1: $(cat "$T/log")"
	fi
}
case_dir "$(decl foo_bar foo-bar 'gmem-uncoalesced-access')" 'foo-bar recipe_a.c\n'
gen "$T/d" "$T/d/recipes.list" && grep -q '&ka_recipe_foo_bar' "$T/out.h" && ok "a good made-up recipe passes" \
	|| fail "good made-up recipe: $(cat "$T/log")"
case_dir "$(decl foo_bar foo-bar 'gmem-uncoalesced-access gmem-no-such-rule')" 'foo-bar recipe_a.c\n'
expect_fail "unknown rule" "recipe 'foo-bar' serves rule 'gmem-no-such-rule', which is not in the rule base"
case_dir "$(decl foo_bar foo-bar 'gmem-uncoalesced-access')$(decl baz baz 'launch-small-grid')" 'foo-bar recipe_a.c\n'
expect_fail "not listed" "recipe 'baz' (ka_recipe_baz) is declared and not in"
case_dir "$(decl foo_bar foo-bar 'gmem-uncoalesced-access')" 'foo-bar recipe_a.c\nqux recipe_a.c\n'
expect_fail "not declared" "recipe 'qux' is listed, and no file declares ka_recipe_qux"
case_dir "$(decl foo_bar foo-baz 'gmem-uncoalesced-access')" 'foo-bar recipe_a.c\n'
expect_fail "another name" "ka_recipe_foo_bar is named 'foo-baz'"
case_dir "$(decl foo_bar foo-bar '')" 'foo-bar recipe_a.c\n'
expect_fail "no rules" "recipe 'foo-bar' serves no rule"
case_dir "$(decl foo_bar foo-bar 'launch-small-grid')" 'foo-bar recipe_a.c\nfoo-bar recipe_a.c\n'
expect_fail "listed twice" "recipe 'foo-bar' is listed twice"

[ $fails = 0 ] && echo "all recipe registry checks passed" || echo "$fails recipe registry check(s) failed"
[ $fails = 0 ]
