#!/usr/bin/env python3
"""scripts/graded_pairs.py: kcheck on naive -> optimized kernel pairs from public repositories.

The pair list (scripts/graded_pairs.tsv by default) names a repository, the
commit measured, and for each side a file and a kernel; no code is stored.
A pair PASSES when kcheck reports one of the pair's expected rules at warning
or error inside the naive kernel, and nothing at warning or error inside the
optimized kernel (notes are fine).  A finding counts for a kernel when its
`kernel` field names it or its message lists the kernel among the other
kernels that reach the same line (`also in kernels ...`); kernel `-` stands
for the file's host code.

usage: graded_pairs.py [--pairs TSV] [--kcheck PATH] [--only ID,...] CORPUS
  CORPUS holds one checkout per repository, named owner+name (e.g.
  CORPUS/karpathy+llm.c); a checkout at another commit is reported and used.
Exit status: 0 when every pair was measured (whatever the result), 2 on
setup errors (missing checkout or file, kcheck failing).
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LOUD = ("warning", "error")


def die(msg):
    sys.stderr.write("graded_pairs: %s\n" % msg)
    sys.exit(2)


def read_pairs(path):
    pairs = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 9:
                die("%s:%d: expected 9 tab-separated columns, found %d" % (path, n, len(cols)))
            keys = ("id", "repo", "commit", "nfile", "nkernel", "ofile", "okernel", "rules", "flags")
            p = dict(zip(keys, cols))
            p["rules"] = p["rules"].split("|")
            pairs.append(p)
    return pairs


class Runner:
    def __init__(self, kcheck, corpus):
        self.kcheck, self.corpus, self.cache, self.checked = kcheck, corpus, {}, {}

    def root(self, repo, commit):
        root = os.path.join(self.corpus, repo.replace("/", "+"))
        if not os.path.isdir(root):
            die("no checkout of %s at %s (git clone https://github.com/%s %s)" % (repo, root, repo, root))
        if repo not in self.checked:
            r = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
            head = r.stdout.strip()
            if head and not head.startswith(commit):
                sys.stderr.write("graded_pairs: %s is at %s, the list was measured at %s\n"
                                 % (repo, head[:7], commit))
            self.checked[repo] = head
        return root

    def findings(self, repo, commit, rel, flags):
        root = self.root(repo, commit)
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            die("%s: no such file in %s" % (rel, repo))
        key = (path, flags)
        if key not in self.cache:
            fl = flags.replace("{dir}", os.path.dirname(path)).replace("{root}", root).split()
            r = subprocess.run([self.kcheck, "--no-config", "--no-db", "-q", "--exit-zero",
                                "--format", "json", path, "--"] + fl,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # status 2 with a report: clang errors in part of the file (a missing
            # third-party header); the kernels that parsed were analyzed
            try:
                rep = json.loads(r.stdout) if r.returncode in (0, 2) else None
            except ValueError:
                rep = None
            if rep is None:
                die("%s: kcheck failed (status %d): %s" % (rel, r.returncode, r.stderr[:300]))
            if r.returncode == 2:
                sys.stderr.write("graded_pairs: %s: partly analyzed: %s\n"
                                 % (rel, r.stderr.strip().splitlines()[0] if r.stderr.strip() else "?"))
            self.cache[key] = rep["findings"]
        return self.cache[key]


def in_kernel(f, kernel):
    k = f.get("kernel")
    if kernel == "-":
        return not k
    if k == kernel:
        return True
    m = re.search(r"also in kernels? ([^\]\n]*)", f.get("message", ""))
    return bool(m) and kernel in re.split(r"[\s,]+", m.group(1))


def show(f):
    est = f.get("estimate")
    return "%s:%d %s%s" % (f["severity"][0], f["line"], f["rule"], " %gx" % est if est else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", default=os.path.join(HERE, "graded_pairs.tsv"))
    ap.add_argument("--kcheck", default=os.path.join(HERE, "..", "build", "cli", "kcheck"))
    ap.add_argument("--only", default="")
    ap.add_argument("corpus")
    a = ap.parse_args()
    if not os.access(a.kcheck, os.X_OK):
        die("kcheck not found at %s (build first or pass --kcheck)" % a.kcheck)
    pairs = read_pairs(a.pairs)
    if a.only:
        want = set(a.only.split(","))
        pairs = [p for p in pairs if p["id"] in want]
    run = Runner(a.kcheck, a.corpus)
    passed = 0
    print("| pair | naive: expected finding | optimized: warnings/errors | result |")
    print("|---|---|---|---|")
    for p in pairs:
        nf = [f for f in run.findings(p["repo"], p["commit"], p["nfile"], p["flags"])
              if f["severity"] in LOUD and in_kernel(f, p["nkernel"])]
        hits = [f for f in nf if f["rule"] in p["rules"]]
        of = [f for f in run.findings(p["repo"], p["commit"], p["ofile"], p["flags"])
              if f["severity"] in LOUD and in_kernel(f, p["okernel"])]
        ok = bool(hits) and not of
        passed += ok
        if hits:
            naive = ", ".join(sorted({show(f) for f in hits}))
        else:
            naive = "MISSED (%s)%s" % ("|".join(p["rules"]), "; other: " + ", ".join(
                sorted({show(f) for f in nf})) if nf else "")
        opt = ", ".join(sorted({show(f) for f in of})) or "clean"
        print("| %s | %s | %s | %s |" % (p["id"], naive, opt, "pass" if ok else "FAIL"))
    print("\n%d of %d pairs pass" % (passed, len(pairs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
