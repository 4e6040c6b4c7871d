#!/usr/bin/env python3
"""tests/rules/message_scan.py: no finding message prints a placeholder.

Runs kcheck over the golden files, the examples, the test corpus and every
code block of every built-in rule (written out as files of their own), and
scans every message for what a NULL or empty fact would leave behind: a bare
`?` (the template's rendering of NULL, e.g. "line ?", "?-dependent"), or an
empty name ("the launch of  is", "[]", "''", "``").  A `?` that belongs to a
C ternary (`a ? b : c` quoted from the source) is fine.

usage: message_scan.py KCHECK REPO_ROOT
"""
import json
import os
import re
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"^```(cuda|hip) (bad|good|fixed)\n(.*?)^```", re.S | re.M)
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


def rule_blocks(root, out_dir):
    paths = []
    rules = os.path.join(root, "rules")
    for fam in sorted(os.listdir(rules)):
        d = os.path.join(rules, fam)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if not name.endswith(".md"):
                continue
            text = open(os.path.join(d, name), encoding="utf-8").read()
            for i, m in enumerate(BLOCK.finditer(text)):
                ext = ".hip" if m.group(1) == "hip" else ".cu"
                p = os.path.join(out_dir, "%s_%d_%s%s" % (name[:-3], i, m.group(2), ext))
                with open(p, "w", encoding="utf-8") as f:
                    f.write(m.group(3))
                paths.append(p)
    return paths


def run(kcheck, paths):
    r = subprocess.run([kcheck, "--no-config", "--format", "json", "--exit-zero", "-j", "2"] + paths,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not r.stdout.strip():
        sys.exit("kcheck printed no report (status %d): %s" % (r.returncode, r.stderr[:500]))
    return json.loads(r.stdout)["findings"]


def main():
    kcheck, root = sys.argv[1], sys.argv[2]
    bad = []
    total = 0
    with tempfile.TemporaryDirectory() as tmp:
        sets = [rule_blocks(root, tmp)]
        for sub in ("tests/golden/analyzer", "examples", "tests/corpus", "tests/recall"):
            d = os.path.join(root, sub)
            if os.path.isdir(d):
                sets.append([d])
        for paths in sets:
            for f in run(kcheck, paths):
                total += 1
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
    if total < 100:
        sys.exit("only %d findings scanned: the corpora were not found" % total)
    for b in bad:
        print(b)
    print("%d messages scanned, %d with placeholders or empty names" % (total, len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
