#!/usr/bin/env python3
"""scripts/rule_precision.py: how often each rule's findings held up on fresh code.

Every fresh lint sample (docs/fresh*-DATE.md) is a table of warnings and
errors drawn at random from public code the project had not swept, each
read by hand and judged real (costs time or correctness at realistic
sizes), negligible (there, but costs little) or false (not there).  This
script pools those verdicts per rule and prints one row a rule: how many
of its findings were judged, and how many were real, negligible and false.
Tables under a heading that says they sample notes are left out: the
samples are of warnings and errors.

It also applies the default-set policy of docs/rules.md ("status"): a rule
with at least --min-judged judged findings of which at least --max-false
are false and at most --max-real real belongs in `preview` (off by default),
and the last column says so.  With --check, the exit status is 1 when a
rule's status in rules/ disagrees with that policy in either direction
(a stable rule that the policy puts in preview, or a preview rule that it
does not), and every disagreement is printed.

usage: rule_precision.py [--docs DIR] [--rules DIR] [--since N]
                         [--min-judged N] [--max-false F] [--max-real F]
                         [--format text|md] [--check]
  --since N  only samples numbered N and later (fresh.md is 1, freshN.md is N)
"""
import argparse
import collections
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VERDICT = re.compile(r"\*{0,2}(real|negligible|false)\b", re.I)
RULE_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")


def sample_number(path):
    m = re.search(r"fresh(\d*)-", os.path.basename(path))
    return int(m.group(1) or 1) if m else None


def verdict_rows(path):
    """(rule, verdict) for each judged row of the file's sample tables."""
    skip = False
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#"):
                skip = re.search(r"\bnotes?\b", line, re.I) is not None and "sample" in line.lower()
                continue
            if skip or not line.startswith("|"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 5 or not cells[0].isdigit():
                continue
            rule = next((c for c in cells[1:] if RULE_ID.fullmatch(c)), None)
            verdict = None
            for c in cells[1:]:
                m = VERDICT.match(c)
                if m:
                    verdict = m.group(1).lower()
                    break
            if rule and verdict:
                yield rule, verdict


def rule_statuses(rules_dir):
    status = {}
    for path in glob.glob(os.path.join(rules_dir, "*", "*.md")):
        rid, st = None, "stable"
        with open(path, encoding="utf-8") as fh:
            if fh.readline().strip() != "---":
                continue
            for line in fh:
                if line.strip() == "---":
                    break
                m = re.match(r"id:\s*(\S+)", line)
                if m:
                    rid = m.group(1)
                m = re.match(r"status:\s*(\w+)", line)
                if m:
                    st = m.group(1)
        if rid:
            status[rid] = st
    return status


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", default=os.path.join(ROOT, "docs"))
    ap.add_argument("--rules", default=os.path.join(ROOT, "rules"))
    ap.add_argument("--since", type=int, default=1)
    ap.add_argument("--min-judged", type=int, default=20)
    ap.add_argument("--max-false", type=float, default=0.5,
                    help="preview when at least this share is false (default 0.5)")
    ap.add_argument("--max-real", type=float, default=0.05,
                    help="... and at most this share is real (default 0.05)")
    ap.add_argument("--format", choices=("text", "md"), default="text")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()

    files = [f for f in glob.glob(os.path.join(a.docs, "fresh*-*.md"))
             if sample_number(f) is not None and sample_number(f) >= a.since]
    if not files:
        sys.exit("rule_precision: no docs/fresh*-DATE.md sample at or after %d in %s" % (a.since, a.docs))
    counts = collections.defaultdict(collections.Counter)
    for f in files:
        for rule, verdict in verdict_rows(f):
            counts[rule][verdict] += 1
    status = rule_statuses(a.rules)

    def policy(c):
        n = sum(c.values())
        if n < a.min_judged:
            return None
        return "preview" if (c["false"] >= a.max_false * n and c["real"] <= a.max_real * n) else "stable"

    rows = sorted(counts.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))
    head = ("rule", "judged", "real", "negligible", "false", "true %", "real %", "status", "policy")
    out = []
    for rule, c in rows:
        n = sum(c.values())
        out.append((rule, n, c["real"], c["negligible"], c["false"],
                    "%.0f" % (100.0 * (n - c["false"]) / n), "%.0f" % (100.0 * c["real"] / n),
                    status.get(rule, "(gone)"), policy(c) or "-"))
    tot = collections.Counter()
    for _, c in rows:
        tot.update(c)
    n = sum(tot.values())
    out.append(("all rules", n, tot["real"], tot["negligible"], tot["false"],
                "%.0f" % (100.0 * (n - tot["false"]) / n), "%.0f" % (100.0 * tot["real"] / n), "", ""))
    if a.format == "md":
        print("| " + " | ".join(head) + " |")
        print("|---|" + "---:|" * 6 + "---|---|")
        for r in out:
            print("| " + " | ".join(str(x) for x in r) + " |")
    else:
        w = max(len(r[0]) for r in out)
        print("%-*s %6s %5s %10s %5s %6s %6s  %-9s %s" % ((w,) + head))
        for r in out:
            print("%-*s %6d %5d %10d %5d %6s %6s  %-9s %s" % ((w,) + r))
    print("(%d samples, %s onwards; policy: preview when judged >= %d, false >= %.0f%%, real <= %.0f%%)"
          % (len(files), "fresh%d" % a.since, a.min_judged, 100 * a.max_false, 100 * a.max_real))

    if a.check:
        bad = []
        for rule, c in rows:
            p, st = policy(c), status.get(rule)
            if st is None or p is None:
                continue
            if p == "preview" and st == "stable":
                bad.append("%s: stable, but the judged samples put it in preview" % rule)
            elif p == "stable" and st == "preview":
                bad.append("%s: preview, but the judged samples no longer put it there" % rule)
        for b in bad:
            print("rule_precision: " + b, file=sys.stderr)
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
