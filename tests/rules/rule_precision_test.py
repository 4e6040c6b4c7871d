#!/usr/bin/env python3
"""tests/rules/rule_precision_test.py: scripts/rule_precision.py.

On a made-up docs folder and rule folder:
  - verdicts are pooled per rule from the sample tables, bold or not, and a
    table under a heading about a sample of notes is left out;
  - the policy puts a rule with >= 20 judged findings, >= half false and
    <= 5% real in preview, and leaves one with real findings stable;
  - --check fails on a stable rule the policy puts in preview and on a
    preview rule it does not, names each, and passes when they agree.
Then on the repository itself: the rule files' statuses agree with the
fresh samples in docs/.

usage: rule_precision_test.py SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile

SRC = sys.argv[1]
SCRIPT = os.path.join(SRC, "scripts", "rule_precision.py")


def run(*args):
    r = subprocess.run([sys.executable, SCRIPT] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return r.returncode, r.stdout, r.stderr


def rule_file(d, rid, status):
    fam = rid.split("-")[0]
    os.makedirs(os.path.join(d, fam), exist_ok=True)
    with open(os.path.join(d, fam, rid + ".md"), "w") as fh:
        fh.write("---\nid: %s\ntitle: t\n%s---\n## Why\n" % (rid, "status: %s\n" % status if status else ""))


def fail(msg):
    sys.exit("FAIL: " + msg)


with tempfile.TemporaryDirectory() as t:
    docs, rules = os.path.join(t, "docs"), os.path.join(t, "rules")
    os.makedirs(docs)
    rows = []
    # noisy-rule: 22 judged, 12 false, 1 real -> preview
    rows += [("noisy-rule", "**false**")] * 12 + [("noisy-rule", "negligible")] * 9 + [("noisy-rule", "**real**")]
    # good-rule: 22 judged, 12 false, 10 real -> stable
    rows += [("good-rule", "false")] * 12 + [("good-rule", "real")] * 10
    # few-rule: 5 false -> too few to decide
    rows += [("few-rule", "false")] * 5
    with open(os.path.join(docs, "fresh40-2026-12-08.md"), "w") as fh:
        fh.write("# sample\n\n| # | file:line | rule | kernel | verdict | why |\n|---|---|---|---|---|---|\n")
        for i, (r, v) in enumerate(rows, 1):
            fh.write("| %d | a.cu:%d | %s | k | %s | because |\n" % (i, i, r, v))
        # a sample of notes: not counted
        fh.write("\n## Supplementary: a sample of the notes\n\n| # | file:line | rule | kernel | verdict | why |\n")
        for i in range(1, 30):
            fh.write("| %d | b.cu:%d | good-rule | k | false | a note |\n" % (i, i))
    rule_file(rules, "noisy-rule", None)
    rule_file(rules, "good-rule", "preview")
    rule_file(rules, "few-rule", None)
    rc, out, err = run("--docs", docs, "--rules", rules, "--check")
    lines = {l.split()[0]: l.split() for l in out.splitlines() if l and not l.startswith(("rule ", "("))}
    if lines.get("noisy-rule", [])[1:5] != ["22", "1", "9", "12"]:
        fail("noisy-rule counts: %r" % lines.get("noisy-rule"))
    if lines.get("good-rule", [])[1:5] != ["22", "10", "0", "12"]:
        fail("good-rule counts (the notes table must not count): %r" % lines.get("good-rule"))
    if lines["noisy-rule"][-1] != "preview" or lines["good-rule"][-1] != "stable" or lines["few-rule"][-1] != "-":
        fail("policy column: %r" % out)
    if rc != 1 or "noisy-rule: stable, but" not in err or "good-rule: preview, but" not in err:
        fail("--check on disagreeing statuses: rc %d, %r" % (rc, err))
    rule_file(rules, "noisy-rule", "preview")
    rule_file(rules, "good-rule", None)
    rc, out, err = run("--docs", docs, "--rules", rules, "--check")
    if rc != 0 or err:
        fail("--check on agreeing statuses: rc %d, %r" % (rc, err))
    rc, out, err = run("--docs", docs, "--rules", rules, "--since", "41")
    if rc == 0 or "no docs/fresh" not in err:
        fail("--since past every sample: rc %d, %r" % (rc, err))

rc, out, err = run("--check")
if rc != 0:
    fail("the repository's rule statuses disagree with its samples:\n" + err)
print("rule_precision: all checks pass")
