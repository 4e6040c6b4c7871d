#!/usr/bin/env python3
"""tests/rewriter/examples_roundtrip.py: `kcheck --fix --unsafe-fixes` over a
copy of every naive example under examples/: the fixed file still compiles
(nvcc, hipcc for .hip; SKIP printed without them), a second --fix changes nothing, and for each
rule, the findings left are at most those before minus the fixes applied
(read from --export-fixes).  Usage: examples_roundtrip.py KCHECK EXAMPLES_DIR

The fixed file's compile: kcheck's compile gate has already compiled the
text it wrote, and a second nvcc run of the same bytes costs 2-3 s of CPU
an example.  kcheck's nvcc is therefore a recorder (gate_recorder) that runs
the real nvcc and notes the SHA-256 of each file nvcc accepted in the
gate's own form (-x cu, the -iquote kcheck adds for the file's folder,
-arch=sm_90, -c, no other flag).  The fixed file is taken as compiled only when nvcc accepted
those very bytes for this example; any other text is compiled here as
before."""
import collections, hashlib, json, os, re, shlex, shutil, subprocess, sys, tempfile

KCHECK_ENV = dict(os.environ)

def run(cmd, cwd, env=None):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600, env=env)

def gate_recorder(nvcc, folder):
    """A stand-in for nvcc (the name holds "nvcc", as kcheck's shell-safety
    check wants) that runs the real one and appends "SHA256 ARGS..." to
    accepted.log for each compile it passed."""
    path = os.path.join(folder, "nvcc")
    with open(path, "w") as f:
        f.write('#!/bin/sh\n'
                '%s "$@"\n'
                'rc=$?\n'
                'if [ $rc = 0 ]; then\n'
                '  for last; do :; done\n'
                '  printf "%%s %%s\\n" "$(sha256sum < "$last" | cut -d" " -f1)" "$*" >> %s\n'
                'fi\n'
                'exit $rc\n' % (shlex.quote(nvcc), shlex.quote(os.path.join(folder, "accepted.log"))))
    os.chmod(path, 0o755)
    return path

def gate_accepted(log, path):
    """nvcc accepted exactly the bytes of `path` in the gate's form (see the top)."""
    with open(path, "rb") as f:
        want = hashlib.sha256(f.read()).hexdigest()
    try:
        lines = open(log).read().splitlines()
    except FileNotFoundError:
        return False
    for line in lines:
        t = line.split(" ")
        if (len(t) == 10 and t[0] == want and t[1:4] == ["-x", "cu", "-Xcompiler"] and
                t[4].startswith("-iquote") and t[5:9] == ["-arch=sm_90", "-c", "-o", "/dev/null"]):
            return True
    return False

def rule_counts(kcheck, cwd, name, env):
    r = run([kcheck, "--format", "json", "--exit-zero", name], cwd, env)
    if r.returncode != 0:
        raise RuntimeError("kcheck failed on %s: %s" % (name, r.stderr.strip()))
    return collections.Counter(f["rule"] for f in json.loads(r.stdout)["findings"])

def compiler(hip):
    env, name, home = ("KCHECK_HIPCC", "hipcc", "/opt/rocm/bin/hipcc") if hip else \
                      ("KCHECK_NVCC", "nvcc", "/usr/local/cuda/bin/nvcc")
    for p in [os.environ.get(env), shutil.which(name), home]:
        if p and os.access(p, os.X_OK):
            return p
    return None

def compile_one(cc, hip, name, folder):
    if hip:
        return run([cc, "--offload-arch=gfx90a", "-c", "-o", "/dev/null", name], folder)
    return run([cc, "-arch=sm_90", "-x", "cu", "-c", "-o", "/dev/null", name], folder)

def one(kcheck, src):
    tmp = tempfile.mkdtemp(prefix="ka-examples-")
    try:
        folder = os.path.join(tmp, "ex")
        shutil.copytree(os.path.dirname(src), folder)
        name = os.path.basename(src)
        original = open(os.path.join(folder, name)).read()
        hip = name.endswith(".hip")
        cc = compiler(hip)
        env = KCHECK_ENV
        if cc and not hip:
            env = dict(KCHECK_ENV, KCHECK_NVCC=gate_recorder(cc, tmp))
        def original_builds():
            # A fix can only be judged against an original that builds: the
            # HIP examples use the 64-bit-mask *_sync warp functions of ROCm
            # 6.2+, which Debian's ROCm 5.2 headers do not declare.
            c = compile_one(cc, hip, name, os.path.join(tmp, "orig"))
            if c.returncode != 0:
                print("SKIP: %s does not compile with %s as it is; its fixes are not compiled" % (name, cc))
            return c.returncode == 0
        # (the original is compiled from a copy of its own, made now; for a
        # .cu only when the outcome needs it: a fixed text nvcc accepted
        # passes whether or not the original builds, so the original's
        # compile, 2-3 s of CPU an example, is made only when the fixed text
        # fails or --fix left the file as it was)
        shutil.copytree(folder, os.path.join(tmp, "orig"))
        if cc and hip and not original_builds():
            cc = None
        before = rule_counts(kcheck, folder, name, env)
        # one run fixes and exports what it applied (each fix goes through
        # the compile gate once, not once per flag)
        r = run([kcheck, "--fix", "--export-fixes", "fixes.yaml", "--unsafe-fixes", "--exit-zero", name], folder, env)
        if r.returncode != 0:
            return "--fix failed (%d): %s" % (r.returncode, r.stderr.strip())
        yaml = open(os.path.join(folder, "fixes.yaml")).read()
        planned = collections.Counter(re.findall(r"DiagnosticName:\s*(\S+)", yaml))
        fixed = open(os.path.join(folder, name)).read()
        run([kcheck, "--fix", "--unsafe-fixes", "--exit-zero", name], folder, env)
        if open(os.path.join(folder, name)).read() != fixed:
            return "a second --fix changed the file"
        after = rule_counts(kcheck, folder, name, env)
        for rule, n in planned.items():
            if after[rule] > max(before[rule] - n, 0):
                return "%s: %d finding(s) before, %d fixed, %d left" % (rule, before[rule], n, after[rule])
        if not compiler(hip):
            print("SKIP: %s not found: %s not compiled" % ("hipcc" if hip else "nvcc", name))
        elif cc and fixed == original:
            if not hip:
                original_builds()  # SKIP when it does not, as for a .hip above
        elif cc:
            # (one the gate's nvcc accepted byte for byte is not compiled again)
            if not hip and gate_accepted(os.path.join(tmp, "accepted.log"), os.path.join(folder, name)):
                print("%s: the fixed text is the one nvcc accepted in the compile gate" % name)
                return None
            c = compile_one(cc, hip, name, folder)
            if c.returncode != 0 and (hip or original_builds()):
                return "the fixed file does not compile: " + c.stderr.strip().splitlines()[0]
        return None
    finally:
        shutil.rmtree(tmp)

def main():
    kcheck, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    naive = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs
                   if f.endswith((".cu", ".hip")) and "naive" in os.path.join(d, f))
    if not naive:
        print("SKIP: no naive examples under %s" % root)
        return 0
    bad = 0
    for src in naive:
        err = one(kcheck, src)
        print("%s %s%s" % ("FAIL" if err else "ok", os.path.relpath(src, root), ": " + err if err else ""))
        bad += err is not None
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
