#!/usr/bin/env bash
# tests/rules/placement_cli_test.sh KCHECK: a rule file outside the folder
# of its family stops kcheck with `file:line: message` and exit 2, before
# any file is analysed; the same file in the right folder loads.
set -u
kcheck=${1:?usage: placement_cli_test.sh KCHECK}
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
fails=0
ok() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
mkdir -p "$t/rules/sync"
cat > "$t/rules/sync/div-misplaced.md" <<'RULE'
---
id: div-misplaced
title: A rule in another family's folder
severity: note
category: divergence
scope: branch
where: "0"
message: "never"
---
Body.
RULE
printf '__global__ void k(float *a) { a[threadIdx.x] = 0.0f; }\n' > "$t/k.cu"
want="$t/rules/sync/div-misplaced.md:2: rule 'div-misplaced' is in folder 'sync/', but its family is 'div': move it to div/div-misplaced.md (folder = family = id prefix)"
"$kcheck" --no-config --rules-dir "$t/rules" "$t/k.cu" > "$t/out" 2> "$t/err"; rc=$?
[ $rc = 2 ] && [ "$(cat "$t/err")" = "$want" ] && [ ! -s "$t/out" ] && ok "lint: misplaced rule is exit 2 with file:line" \
  || fail "lint: rc=$rc err=$(cat "$t/err") out=$(head -c 300 "$t/out")"
"$kcheck" rules list --rules-dir "$t/rules" > "$t/out" 2> "$t/err"; rc=$?
[ $rc = 2 ] && [ "$(cat "$t/err")" = "$want" ] && ok "rules list: the same error" || fail "rules list: rc=$rc err=$(cat "$t/err")"
mkdir -p "$t/rules/div" && mv "$t/rules/sync/div-misplaced.md" "$t/rules/div/"
"$kcheck" rules show div-misplaced --rules-dir "$t/rules" > "$t/out" 2> "$t/err"; rc=$?
[ $rc = 0 ] && grep -q '^id: div-misplaced$' "$t/out" && ok "in div/ it loads" || fail "div/: rc=$rc err=$(cat "$t/err")"
[ $fails = 0 ] || exit 1
