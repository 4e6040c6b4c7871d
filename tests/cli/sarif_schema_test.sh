#!/usr/bin/env bash
# tests/cli/sarif_schema_test.sh: kcheck's SARIF validates against the
# OASIS SARIF 2.1.0 schema (scripts/fetch_sarif_schema.sh fetches it; the
# check is python3-jsonschema's Draft 4 validator, the schema's draft).
# The runs cover what the SARIF writer emits: the shipped examples (many
# rules, fixes, code flows), a clean file, a file clang reports an error in,
# a file whose analysis crashes (the invocation's notifications) and a
# baselined run.  Skips (77) loudly without the schema or jsonschema.
# Usage: sarif_schema_test.sh KCHECK SOURCE_DIR
set -u
K=${1:?usage: sarif_schema_test.sh KCHECK SOURCE_DIR}
SRC=${2:?usage: sarif_schema_test.sh KCHECK SOURCE_DIR}
K=$(cd "$(dirname "$K")" && pwd)/$(basename "$K")
SRC=$(cd "$SRC" && pwd)
SCHEMA=${KCHECK_SARIF_SCHEMA:-${XDG_CACHE_HOME:-$HOME/.cache}/kernelarc/sarif/sarif-2.1.0-rtm.5.json}
if [ ! -s "$SCHEMA" ] && ! SCHEMA=$(bash "$SRC/scripts/fetch_sarif_schema.sh" 2>/dev/null); then
  echo "SKIP: no SARIF 2.1.0 schema (run scripts/setup.sh or scripts/fetch_sarif_schema.sh)"
  exit 77
fi
if ! python3 -c 'import jsonschema' 2>/dev/null; then
  echo "SKIP: python3-jsonschema is not installed (scripts/setup.sh installs it)"
  exit 77
fi
T=$(mktemp -d /tmp/ka-sarif-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cat > "$T/clean.cu" <<'CU'
__global__ void copy(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
CU
printf '#include "no_such_header.h"\n__global__ void k(float *p) { p[threadIdx.x] = 0; }\n' > "$T/missing.cu"
{ printf '__global__ void k(int *p, int a) { p[threadIdx.x] = '
  for ((i = 0; i < 5000; i++)); do printf -- '- '; done
  printf 'a; }\n'; } > "$T/deep.cu"
cp "$SRC/examples/transpose/"*.cu "$T/" 2>/dev/null

run() { # NAME ARGS...: one SARIF log to $T/NAME.sarif
  local name=$1
  shift
  (cd "$T" && timeout 300 "$K" --no-config --format sarif -o "$name.sarif" "$@" > "$name.out" 2>&1)
  [ -s "$T/$name.sarif" ] || fail "$name: no SARIF written ($(head -3 "$T/$name.out"))"
}
run examples -j 2 "$SRC/examples"
run clean clean.cu
run missing missing.cu clean.cu
(export KCHECK_TEST_STACK_KB=8192 ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"; run crash deep.cu clean.cu)
(cd "$T" && "$K" --no-config --baseline base.json --write-baseline ./*.cu > /dev/null 2>&1)
run baselined --baseline base.json ./*.cu

[ $fails = 0 ] && python3 - "$SCHEMA" "$T"/*.sarif <<'PY' || fails=$((fails + 1))
import json, sys
from jsonschema import Draft4Validator
schema = json.load(open(sys.argv[1]))
v = Draft4Validator(schema)
bad = 0
for path in sys.argv[2:]:
    log = json.load(open(path))
    errs = sorted(v.iter_errors(log), key=lambda e: list(e.absolute_path))
    results = sum(len(r.get("results", [])) for r in log["runs"])
    name = path.rsplit("/", 1)[-1]
    if errs:
        bad += 1
        for e in errs[:5]:
            print(f"FAIL: {name}: {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}")
    else:
        print(f"ok: {name} validates ({results} results)")
assert bad == 0
# the validator is awake: a result with a level SARIF does not have fails
broken = json.load(open(sys.argv[2]))
broken["runs"][0].setdefault("results", []).append({"message": {"text": "x"}, "level": "fatal"})
assert any(True for _ in v.iter_errors(broken)), "the validator accepted a bad level"
# the runs exercised what they were meant to
logs = {p.rsplit("/", 1)[-1]: json.load(open(p)) for p in sys.argv[2:]}
assert sum(len(r["results"]) for r in logs["examples.sarif"]["runs"]) >= 10
inv = logs["crash.sarif"]["runs"][0]["invocations"][0]
assert inv["executionSuccessful"] is False and inv["toolExecutionNotifications"]
PY
[ $fails = 0 ] && echo "SARIF: every log validates against $(basename "$SCHEMA")" || echo "$fails SARIF check(s) failed"
exit $((fails > 0))
