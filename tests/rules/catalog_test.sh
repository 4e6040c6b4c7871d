#!/usr/bin/env bash
# tests/rules/catalog_test.sh KCHECK CATALOG: docs/rule-catalog.md is what
# `kcheck rules list --format markdown` prints for the built-in rules.
set -u -o pipefail
kcheck=${1:?usage: catalog_test.sh KCHECK CATALOG}
doc=${2:?usage: catalog_test.sh KCHECK CATALOG}
out=$("$kcheck" rules list --format markdown) || { echo "FAIL: kcheck rules list --format markdown exited $?"; exit 1; }
if ! diff -u "$doc" <(printf '%s\n' "$out"); then
	echo "FAIL: $doc is stale; regenerate it: kcheck rules list --format markdown > docs/rule-catalog.md"
	exit 1
fi
echo "ok: $doc matches the rule files"
