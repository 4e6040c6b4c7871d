#!/usr/bin/env bash
# scripts/fetch_sarif_schema.sh: the OASIS SARIF 2.1.0 JSON schema, for the
# test that validates kcheck's SARIF output (tests/cli/sarif_schema_test.sh).
#
# The schema ships inside the npm package @microsoft/jest-sarif 1.0.0-beta.0
# (lib/schemas/sarif-2.1.0-rtm.5.json); this takes the package's tarball
# from the npm registry, checks its SHA-256, and keeps the schema under
# ${XDG_CACHE_HOME:-$HOME/.cache}/kernelarc/sarif/.  Nothing is run from the
# package.  Prints the schema's path; exits non-zero (one line on stderr)
# when it cannot be had.
set -euo pipefail
URL=https://registry.npmjs.org/@microsoft/jest-sarif/-/jest-sarif-1.0.0-beta.0.tgz
SHA256=748e2c3d1a842e7bb258416685c7ea3a0da40005b72267b2052c2856d48ad102
MEMBER=package/lib/schemas/sarif-2.1.0-rtm.5.json
DIR=${XDG_CACHE_HOME:-$HOME/.cache}/kernelarc/sarif
OUT=$DIR/sarif-2.1.0-rtm.5.json
if [ -s "$OUT" ]; then
  echo "$OUT"
  exit 0
fi
mkdir -p "$DIR"
tmp=$(mktemp -d "$DIR/fetch-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if ! curl -sSfL --max-time 120 -o "$tmp/pkg.tgz" "$URL"; then
  echo "fetch_sarif_schema: cannot download $URL" >&2
  exit 1
fi
if [ "$(sha256sum "$tmp/pkg.tgz" | cut -d' ' -f1)" != "$SHA256" ]; then
  echo "fetch_sarif_schema: $URL does not have the expected SHA-256" >&2
  exit 1
fi
tar -xzf "$tmp/pkg.tgz" -C "$tmp" "$MEMBER"
mv "$tmp/$MEMBER" "$OUT"
echo "$OUT"
