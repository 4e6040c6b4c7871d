#!/usr/bin/env bash
# tests/cli/isolate_test.sh: one bad file never ends the run.  Each file is
# analyzed in a process of its own; a crash (forced here with a small
# analysis stack, KCHECK_TEST_STACK_KB=8192: the 8 MB of libclang's own
# parse thread, on which a 5,000-deep expression always crashed), more
# memory than --file-memory or more time than --file-timeout (an
# exponential macro) fail that file only: its status says why, in text,
# JSON and SARIF, the exit status is 2, and the other file's findings are
# all there, also with -j2.  The limits are command-line options only: a
# repository's .kcheck.yaml cannot set them.  No GPU and no compiler needed.
# Usage: isolate_test.sh KCHECK
set -u
K=${1:?usage: isolate_test.sh KCHECK}
T=$(mktemp -d /tmp/ka-isolate-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
cd "$T" || exit 2

cat > a.cu <<'CU'
__global__ void sq(float *out, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = powf(x[i], 2.0f) * 0.5;
}
CU
{ printf '__global__ void k(int *p, int a) { p[threadIdx.x] = '
  for ((i = 0; i < 5000; i++)); do printf -- '- '; done
  printf 'a; }\n'; } > deep.cu
# 2^24 terms: clang's parse grows to gigabytes over minutes
cat > macro.cu <<'CU'
#define A(x) x+x
#define B(x) A(A(A(A(x))))
#define C(x) B(B(B(x)))
#define D(x) C(C(x))
__global__ void k(int *p, int a) { p[threadIdx.x] = D(a); }
CU

# A sanitizer build turns the forced crash into its own report and exit
# status 1; these runs want the crash itself, as a release build has it.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"

# The deep expression analyzes with the analysis thread's 512 MB stack.
timeout 120 "$K" --no-config deep.cu > deep0.out 2> deep0.err; rc=$?
[ $rc -le 1 ] && grep -q "expression too deep" deep0.err \
  && ok "5,000 unary minuses analyze (exit $rc)" || fail "deep expression: rc=$rc $(head -3 deep0.err)"

# A crash: the other file's findings, the crashed file's status, exit 2.
for j in 1 2; do
  KCHECK_TEST_STACK_KB=8192 timeout 120 "$K" --no-config --fail-on note -j $j a.cu deep.cu > crash.out 2> crash.err; rc=$?
  [ $rc = 2 ] && grep -q 'a.cu:5:18: .*math-pow-small-integer' crash.out \
    && grep -q '^deep.cu: failed: the analysis crashed (SIGSEGV)$' crash.out \
    && grep -q '^kcheck: error: deep.cu: the analysis crashed (SIGSEGV)$' crash.err \
    && grep -q '2 files: 1 analyzed, 0 partial, 1 failed' crash.err \
    && ok "a crashing file fails alone (-j$j)" || fail "crash -j$j: rc=$rc $(cat crash.out crash.err | head -20)"
  cp crash.out crash$j.out
done
cmp -s crash1.out crash2.out && ok "-j2 prints what -j1 prints" || fail "-j2 differs: $(diff crash1.out crash2.out)"

KCHECK_TEST_STACK_KB=8192 timeout 120 "$K" --no-config --format json -o crash.json a.cu deep.cu 2> /dev/null; rc=$?
python3 - crash.json <<'PY' && ok "JSON: files[] says which file failed and why" || fail "JSON status: rc=$rc $(head -c 600 crash.json)"
import json, sys
d = json.load(open(sys.argv[1]))
files = {f["file"]: f for f in d["files"]}
assert files["a.cu"]["status"] == "analyzed" and files["a.cu"]["reason"] is None
assert files["deep.cu"]["status"] == "failed"
assert files["deep.cu"]["reason"] == "the analysis crashed (SIGSEGV)"
assert any(f["rule"] == "math-pow-small-integer" and f["file"] == "a.cu" for f in d["findings"])
assert d["summary"]["files"] == {"analyzed": 1, "partial": 0, "failed": 1}
PY
[ $rc = 2 ] || fail "JSON run exit status $rc"

KCHECK_TEST_STACK_KB=8192 timeout 120 "$K" --no-config --format sarif -o crash.sarif a.cu deep.cu 2> /dev/null; rc=$?
python3 - crash.sarif <<'PY' && ok "SARIF: the invocation failed, with a file-failed notification" || fail "SARIF status: rc=$rc $(head -c 3000 crash.sarif)"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
inv = run["invocations"][0]
assert inv["executionSuccessful"] is False
notes = [n for n in inv["toolExecutionNotifications"] if n["descriptor"]["id"] == "file-failed"]
assert len(notes) == 1 and notes[0]["level"] == "error"
assert notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "deep.cu"
assert "crashed (SIGSEGV)" in notes[0]["message"]["text"]
assert all(len(r["partialFingerprints"]["kcheckLineHash/v1"]) == 16 for r in run["results"])
assert any(r["ruleId"] == "math-pow-small-integer" for r in run["results"])
PY

# More memory than --file-memory.
timeout 300 "$K" --no-config --fail-on note --file-memory 1500 a.cu macro.cu > mem.out 2> mem.err; rc=$?
[ $rc = 2 ] && grep -q 'math-pow-small-integer' mem.out \
  && grep -q '^macro.cu: failed: the analysis used more than 1500 MB of memory (--file-memory)$' mem.out \
  && ok "a file over --file-memory fails alone" || fail "memory: rc=$rc $(cat mem.out mem.err | tail -5)"

# More time than --file-timeout (-j1: each file's clock starts with it).
timeout 300 "$K" --no-config --fail-on note --file-timeout 10 a.cu macro.cu > time.out 2> time.err; rc=$?
[ $rc = 2 ] && grep -q 'math-pow-small-integer' time.out \
  && grep -q '^macro.cu: failed: the analysis took longer than 10 s (--file-timeout)$' time.out \
  && ok "a file over --file-timeout fails alone" || fail "timeout: rc=$rc $(cat time.out time.err | tail -5)"

# kcheck facts: the crashing file fails alone; the others' facts are all
# there, numbered apart (two files of one text used to clash on the ids).
cp a.cu b.cu
KCHECK_TEST_STACK_KB=8192 timeout 120 "$K" facts a.cu deep.cu b.cu -o facts.json > facts.out 2> facts.err; rc=$?
python3 - facts.json <<'PY' && [ $rc = 2 ] && grep -q '^kcheck: error: deep.cu: the analysis crashed (SIGSEGV)$' facts.err \
  && ok "facts: a crashing file fails alone" || fail "facts: rc=$rc $(cat facts.err | head -5)"
import json, sys
t = json.load(open(sys.argv[1]))["tables"]
assert [f["path"] for f in t["file"]] == ["a.cu", "b.cu"], t["file"]
assert sorted(k["name"] for k in t["kernel"]) == ["sq", "sq"]
ids = [r["id"] for rows in t.values() for r in rows if "id" in r]
assert len(ids) == len(set(ids)), "ids clash"
PY
# kcheck facts over two files that do not compile: each file's clang error
# is printed once, under that file (not again with the next file's).
printf '__global__ void e1(float *p) { p[0] = undefined_one; }\n' > bad1.cu
printf '__global__ void e2(float *p) { p[0] = undefined_two; }\n' > bad2.cu
timeout 120 "$K" facts bad1.cu a.cu bad2.cu -o bad.json > bad.out 2> bad.err; rc=$?
[ $rc = 2 ] && [ "$(grep -c undefined_one bad.err)" = 1 ] && [ "$(grep -c undefined_two bad.err)" = 1 ] \
  && grep -n undefined bad.err | head -1 | grep -q undefined_one \
  && ok "facts: each file's clang errors are printed once" || fail "facts errors: rc=$rc $(head -6 bad.err)"
# kcheck rules test: a rule whose example crashes the analysis fails alone.
mkdir -p rd
for id in gmem-crashy-example gmem-fine-example; do
  { printf -- '---\nid: %s\ntitle: t\nseverity: warning\ncategory: memory\nstatus: stable\n' "$id"
    printf 'scope: access\nwhere: 0\nmessage: "m"\nfix: none\nfix_safety: suggest\nimpact: "none"\n'
    printf 'references: []\ntags: []\nlanguages: [cuda]\narchitectures: [all]\n---\n## Why\n\nx\n\n```cuda good\n'
    [ $id = gmem-crashy-example ] && cat deep.cu || cat a.cu
    printf '```\n'; } > rd/$id.md
done
KCHECK_TEST_STACK_KB=8192 timeout 120 "$K" rules test --rules-dir rd gmem-crashy-example gmem-fine-example -j 2 > rt.out 2> rt.err; rc=$?
[ $rc = 1 ] && grep -q "^rd/gmem-crashy-example.md: gmem-crashy-example: the rule's test crashed (SIGSEGV)$" rt.out \
  && grep -q '^rules test: 1 passed, 1 failed, 0 skipped$' rt.out \
  && ok "rules test: a crashing example fails its rule alone" || fail "rules test: rc=$rc $(cat rt.out rt.err | head -8)"

# The limits are the user's: a repository's config cannot raise them.
printf 'file-timeout: 100000\n' > .kcheck.yaml
timeout 60 "$K" a.cu > cfg.out 2> cfg.err; rc=$?
[ $rc = 2 ] && grep -q "unknown key 'file-timeout'" cfg.err \
  && ok "file-timeout is not a .kcheck.yaml key" || fail "config key: rc=$rc $(cat cfg.err)"
rm -f .kcheck.yaml

[ $fails = 0 ] && echo "all isolation checks passed" || echo "$fails isolation check(s) failed"
exit $((fails > 0))
