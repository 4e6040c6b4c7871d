#!/usr/bin/env python3
"""tests/rules/message_scan.py: no finding message prints a placeholder.

Runs kcheck over the test corpus and the recall pairs, and scans every
message for what a NULL or empty fact would leave behind: a bare
`?` (the template's rendering of NULL, e.g. "line ?", "?-dependent"), or an
empty name ("the launch of  is", "[]", "''", "``").  A `?` that belongs to a
C ternary (`a ? b : c` quoted from the source) is fine.

Every rule's examples are checked by `kcheck rules test` itself (the
rules_examples test), with every rule run on each example and the same
check in C (ka_finding_message_defect, rules/finding.c), so they are not
linted a second time here.  The examples and the analyzer's golden files
are linted by tests/analyzer/pch_test.sh too (with and without the precompiled header):
that test scans its first report with --report instead of this one
linting them again, unless there are no CUDA headers (it then skips, and
this scan lints them itself).

usage: message_scan.py KCHECK REPO_ROOT
       message_scan.py --report REPORT.json   (scan a report kcheck wrote)
"""
import json
import os
import re
import subprocess
import sys

EMPTY = [re.compile(p) for p in (r"\S  +\S", r"\[\]", r"''", r"``", r"\(\s*,", r",\s*\)", r"\{\}")]


def placeholder_question(msg):
    """A `?` not followed by a ':' of a ternary within the next 120 chars."""
    for m in re.finditer(r"\?", msg):
        if ":" not in msg[m.end():m.end() + 120]:
            return True
        after = msg[m.end():m.end() + 2]
        if after[:1] in ("-", ")", ",") or msg[max(0, m.start() - 5):m.start()] == "line ":
            return True
    return False


def run(kcheck, paths):
    r = subprocess.run([kcheck, "--no-config", "--format", "json", "--exit-zero", "-j", "2"] + paths,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not r.stdout.strip():
        sys.exit("kcheck printed no report (status %d): %s" % (r.returncode, r.stderr[:500]))
    return json.loads(r.stdout)["findings"]


def bad_messages(findings):
    """The findings whose message shows a placeholder or an empty name."""
    bad = []
    for f in findings:
        msg = f["message"]
        why = None
        if placeholder_question(msg):
            why = "placeholder '?'"
        else:
            for rx in EMPTY:
                if rx.search(msg):
                    why = "empty name (%s)" % rx.pattern
                    break
        if why is None and f.get("kernel") == "":
            why = "empty kernel name"
        if why:
            bad.append("%s:%s: [%s] %s: %s" % (os.path.basename(f["file"]), f["line"], f["rule"], why, msg))
    return bad


def report(total, bad, least):
    if total < least:
        sys.exit("only %d findings scanned: the corpora were not found" % total)
    for b in bad:
        print(b)
    print("%d messages scanned, %d with placeholders or empty names" % (total, len(bad)))
    sys.exit(1 if bad else 0)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--report":
        with open(sys.argv[2], encoding="utf-8") as f:
            findings = json.load(f)["findings"]
        report(len(findings), bad_messages(findings), 1)
    kcheck, root = sys.argv[1], sys.argv[2]
    cuda = os.path.join(os.environ.get("CUDA_PATH") or "/usr/local/cuda", "include", "cuda_runtime.h")
    subs = ["tests/corpus", "tests/recall"]
    if not os.path.exists(cuda):  # tests/analyzer/pch_test.sh skips: lint them here
        subs = ["tests/golden/analyzer", "examples"] + subs
    bad = []
    total = 0
    for sub in subs:
        d = os.path.join(root, sub)
        if os.path.isdir(d):
            findings = run(kcheck, [d])
            total += len(findings)
            bad += bad_messages(findings)
    report(total, bad, 100)


if __name__ == "__main__":
    main()
