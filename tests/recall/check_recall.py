#!/usr/bin/env python3
"""tests/recall/check_recall.py: naive -> optimized pairs.

Each pair is NAME_naive.cu and NAME_opt.cu.  The naive file's first lines
name the anti-pattern (`// recall: RULE-ID`); kcheck must report that rule
on it at warning or error.  The optimized file must carry no warning and no
error at all (notes are fine).  A naive file marked `// xfail: REASON`
documents a gap of the analyzer: its miss is reported as XFAIL and does not
fail the test, and an unexpected pass says the mark can go.

usage: check_recall.py KCHECK PAIRS_DIR
"""
import glob
import json
import os
import re
import subprocess
import sys


def findings(kcheck, path):
    r = subprocess.run([kcheck, "--no-config", "--format", "json", "--exit-zero", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        sys.exit("%s: kcheck failed (status %d): %s" % (path, r.returncode, r.stderr[:400]))
    return json.loads(r.stdout)["findings"]


def main():
    kcheck, d = sys.argv[1], sys.argv[2]
    naive = sorted(glob.glob(os.path.join(d, "*_naive.cu")))
    failed, passed, xfail = [], 0, 0
    for nv in naive:
        name = os.path.basename(nv)[:-len("_naive.cu")]
        opt = os.path.join(d, name + "_opt.cu")
        head = open(nv, encoding="utf-8").read(2000)
        m = re.search(r"^// recall: (\S+)", head, re.M)
        if not m or not os.path.exists(opt):
            failed.append("%s: needs a `// recall: RULE` line and %s" % (name, os.path.basename(opt)))
            continue
        rule = m.group(1)
        xf = re.search(r"^// xfail: (.*)$", head, re.M)
        hits = [f for f in findings(kcheck, nv)
                if f["rule"] == rule and f["severity"] in ("warning", "error")]
        loud = [f for f in findings(kcheck, opt) if f["severity"] in ("warning", "error")]
        ok = bool(hits) and not loud
        if ok and xf:
            print("XPASS %-20s %s: passes now, remove its xfail line" % (name, rule))
            passed += 1
        elif ok:
            print("PASS  %-20s %s (%d finding(s) at warning or above)" % (name, rule, len(hits)))
            passed += 1
        elif xf:
            print("XFAIL %-20s %s: %s" % (name, rule, xf.group(1)))
            xfail += 1
        else:
            why = []
            if not hits:
                why.append("naive: %s not reported at warning or above" % rule)
            for f in loud:
                why.append("optimized: %s:%d %s %s" % (os.path.basename(f["file"]), f["line"], f["severity"], f["rule"]))
            failed.append("%s: %s" % (name, "; ".join(why)))
    for f in failed:
        print("FAIL  " + f)
    print("%d pairs: %d pass, %d expected failures, %d fail" % (len(naive), passed, xfail, len(failed)))
    if len(naive) < 12:
        sys.exit("fewer than 12 pairs in %s" % d)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
