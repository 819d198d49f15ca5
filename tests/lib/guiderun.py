#!/usr/bin/python3
"""Run the examples of a guide (docs/guide-*.md) and compare them with the
output it shows. The convention is in docs/internals/guides.md:

  ```console [needs=torch2,cudabed,nvcc,gdb,cuda]
  $ command            (run with bash from the repository root)
  > continuation       (more lines of the same command, as the shell's PS2)
  output lines         (stdout and stderr as a terminal shows them)
  ```

Every console block of a guide runs in order in one bash session, in a copy
of the repository (tracked and untracked-but-not-ignored files) in an empty
temporary directory, with build/ pointing at the tree under test and a private
HOME and TMPDIR. Before comparing, both sides are normalised: the copy's path
becomes /path/to/ptools, dates and times, durations and rates, long addresses,
run ids and mktemp names are masked. In the guide, a line '...' stands for any
number of lines, and '~N' (N a number) for any number: a timing-dependent
figure.

usage: guiderun.py GUIDE.md --src REPO --build BUILD [--update] [--keep]
  --update  rewrite the output of every command that differs with what it
            printed now (then trim it by hand with '...' and '~N')
Exit: 0 all match, 1 a difference or a lint error, 77 skipped blocks (needs).
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

ELLIPSIS = {"...", "…"}


def parse(path):
    """Console blocks: (first line no, needs, [(cmd line no, cmd, [expected])]),
    and lint errors."""
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks, errors = [], []
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)```(\S*)(.*)$", lines[i])
        if not m:
            i += 1
            continue
        lang, info = m.group(2), m.group(3)
        start = i
        body = []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append((i + 1, lines[i]))
            i += 1
        i += 1
        if lang == "text":
            continue    # a transcript kept as measured (too long to rerun); docs/internals/guides.md
        if lang != "console":
            for no, l in body:
                if l.startswith("$ "):
                    errors.append("%s:%d: a '$ ' command outside a ```console block is never "
                                  "run: make the block ```console (tested) or drop the prompt"
                                  % (path, no))
            continue
        needs = []
        mm = re.search(r"needs=([\w,-]+)", info)
        if mm:
            needs = [x for x in mm.group(1).split(",") if x]
        cmds = []
        k = 0
        if body and not body[0][1].startswith("$ "):
            errors.append("%s:%d: a console block starts with a command ('$ ')" % (path, body[0][0]))
        while k < len(body):
            no, l = body[k]
            if l.startswith("$ "):
                cmd = l[2:]
                # Continuation lines start with '> ' (the shell's PS2), as a terminal shows them.
                while k + 1 < len(body) and body[k + 1][1].startswith("> "):
                    k += 1
                    cmd = cmd + "\n" + body[k][1][2:]
                cmds.append([no, cmd, []])
            elif cmds:
                cmds[-1][2].append(l)
            k += 1
        blocks.append((start + 1, needs, cmds))
    return lines, blocks, errors


class Norm:
    def __init__(self, root, tmp, home):
        self.pairs = [(root, "/path/to/ptools"), (tmp, "/tmp"), (home, "~")]

    def actual(self, s):
        for a, b in self.pairs:
            s = s.replace(a, b)
        return s

    @staticmethod
    def both(s):
        s = re.sub(r"/tmp/tmp\.[A-Za-z0-9]{10}", "/tmp/tmp.XXXXXXXXXX", s)
        s = re.sub(r"\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?", "<date>", s)
        s = re.sub(r"\b\d{4}-\d\d-\d\d\b", "<date>", s)
        s = re.sub(r"\b\d\d:\d\d:\d\d(\.\d+)?", "<time>", s)
        s = re.sub(r"(?<![\w.~])\d+(\.\d+)? ?(s|ms|µs|us|min)\b", "<dur>", s)
        s = re.sub(r"(?<![\w.~])\d+(\.\d+)? ?[kKMG]i?B/s\b", "<rate>", s)
        s = re.sub(r"\b0x[0-9a-fA-F]{6,}\b", "0x<addr>", s)
        s = re.sub(r"\b[0-9a-f]{40}\b", "<build-id>", s)
        s = re.sub(r"\b(run|RUN) #?\d+\b", r"\1 <n>", s)
        s = re.sub(r"\b(pid|process|LWP) \d+\b", r"\1 <n>", s)
        s = re.sub(r"/proc/\d+/", "/proc/<pid>/", s)
        # glog's own prefix (Debian's libtorch logs through glog): date, time, pid.
        s = re.sub(r"\b([IWEF])\d{8} <time> +\d+ ", r"\1<date> <time> <pid> ", s)
        # Column padding follows the width of the figures: compare words, not spaces.
        s = re.sub(r"(?<=\S)[ \t]+", " ", s)
        # ... and so does the indent of a right-aligned column of figures that
        # starts a line ("   17.4 s  file.o" under load, "    7.4 s" on an idle
        # machine; a count, or the guide's '~N'): the words are still compared.
        s = re.sub(r"^[ \t]+(?=<dur>|<rate>|~?-?\d)", "  ", s)
        return s.rstrip()


def line_re(exp):
    """A normalised expected line as a regex: '~N' matches any number."""
    out = []
    pos = 0
    for m in re.finditer(r"~\d+(\.\d+)?", exp):
        out.append(re.escape(exp[pos:m.start()]))
        out.append(r"-?\d+(?:\.\d+)?")
        pos = m.end()
    out.append(re.escape(exp[pos:]))
    return re.compile("^" + "".join(out) + "$")


def matches(exp, act):
    """exp: normalised expected lines ('...' = any lines); act: actual lines."""
    pats = [None if e.strip() in ELLIPSIS else line_re(e) for e in exp]
    memo = {}

    def go(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(pats):
            r = j == len(act)
        elif pats[i] is None:
            r = any(go(i + 1, k) for k in range(j, len(act) + 1))
        else:
            r = j < len(act) and bool(pats[i].match(act[j])) and go(i + 1, j + 1)
        memo[(i, j)] = r
        return r

    sys.setrecursionlimit(100000)
    return go(0, 0)


def have(need, src, env):
    """None when the machine has it, else the reason it is missing."""
    if need == "nvcc":
        return None if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else "no nvcc in /usr/local/cuda/bin"
    if need == "cuda":
        return None if os.path.exists("/usr/local/cuda/lib64/libcublasLt.so.13") else "no CUDA 13 libraries in /usr/local/cuda/lib64"
    if need == "gdb":
        return None if shutil.which("gdb") else "gdb is not installed"
    if need == "torch2":
        r = subprocess.run([os.path.join(src, "tests/torch2/testbed"), "create"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode == 0:
            return None
        why = [l for l in r.stdout.splitlines() if "cannot run here" in l]
        return "the torch 2.x test bed: " + (why[-1] if why else "exit %d" % r.returncode)
    if need == "cudabed":
        r = subprocess.run([os.path.join(src, "tests/torch2/testbed"), "--flavour", "cuda", "create"],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode == 0:
            return None
        why = [l for l in r.stdout.splitlines() if "cannot run here" in l]
        return "the CUDA test bed: " + (why[-1] if why else "exit %d" % r.returncode)
    return "unknown need '%s'" % need


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("guide")
    ap.add_argument("--src", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    src = os.path.realpath(a.src)
    guide = os.path.realpath(a.guide)
    rel = os.path.relpath(guide, src)
    lines, blocks, errors = parse(guide)
    for e in errors:
        print("FAIL:", e)
    ncmds = sum(len(b[2]) for b in blocks)
    if ncmds == 0:
        print("FAIL: %s has no ```console command to run" % rel)
        return 1

    work = tempfile.mkdtemp(prefix="ptguide.")
    os.chmod(work, 0o755)   # a guide may run a command as another user (setpriv)
    try:
        root = os.path.join(work, "ptools")
        tmp = os.path.join(work, "tmp")
        home = os.path.join(work, "home")
        os.makedirs(root)
        os.makedirs(tmp)
        os.makedirs(home)
        files = subprocess.run(["git", "-C", src, "ls-files", "-z", "--cached", "--others",
                                "--exclude-standard"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL).stdout.split(b"\0")
        for f in files:
            f = f.decode()
            if not f or not os.path.lexists(os.path.join(src, f)):
                continue
            d = os.path.join(root, os.path.dirname(f))
            os.makedirs(d, exist_ok=True)
            shutil.copy2(os.path.join(src, f), os.path.join(root, f), follow_symlinks=False)
        os.symlink(os.path.realpath(a.build), os.path.join(root, "build"))
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("PT_", "PTTRACE", "PTINSPECT", "TORCH_", "NO_COLOR", "CLICOLOR"))}
        env.update(HOME=home, TMPDIR=tmp, XDG_DATA_HOME=os.path.join(home, ".local/share"),
                   XDG_CACHE_HOME=os.path.join(home, ".cache"), LC_ALL="C.UTF-8", TZ="UTC",
                   PYTHONUNBUFFERED="1", COLUMNS="100", TERM="dumb",
                   # A bench a guide shows runs once here: its figures are elided
                   # ("...") in the guide, the test checks that it runs as written.
                   PT_BENCH_RUNS="1")
        for k in ("PT_TORCH2_CACHE", "PT_TORCH2_CUDA_CACHE", "PT_TORCH2_MIRROR", "PT_STRICT"):
            if k in os.environ:
                env[k] = os.environ[k]
        norm = Norm(root, tmp, home)

        # Which blocks can run here.
        reasons = {}
        for need in sorted({n for b in blocks for n in b[1]}):
            r = have(need, root, env)
            if r:
                reasons[need] = r
        out = os.path.join(work, "out")
        os.makedirs(out)
        script = ["cd %s || exit 2" % shlex_quote(root)]
        runlist = []
        skipped = []
        for bno, needs, cmds in blocks:
            miss = [reasons[n] for n in needs if n in reasons]
            if miss:
                skipped.append((bno, miss[0]))
                continue
            for c in cmds:
                n = len(runlist)
                runlist.append(c)
                # The status survives for the guide's own `echo $?`.
                script.append("{ %s\n} >%s/%d.out 2>&1 </dev/null; __rc=$?; echo $__rc >%s/%d.rc; "
                              "(exit $__rc)" % (c[1], out, n, out, n))
        with open(os.path.join(work, "guide.sh"), "w") as f:
            f.write("\n".join(script) + "\n")
        if runlist:
            subprocess.run(["timeout", "1800", "stdbuf", "-oL", "-eL", "bash",
                            os.path.join(work, "guide.sh")], env=env, cwd=root)

        fails = len(errors)
        updates = {}
        for n, (no, cmd, exp) in enumerate(runlist):
            try:
                act_raw = open(os.path.join(out, "%d.out" % n), encoding="utf-8",
                               errors="replace").read()
            except OSError:
                act_raw = "<not run: the session ended before this command>\n"
            act_lines = norm.actual(act_raw).rstrip("\n").split("\n") if act_raw else []
            act = [Norm.both(l) for l in act_lines]
            while act and act[-1] == "":
                act.pop()
            expn = [Norm.both(l) for l in exp]
            while expn and expn[-1] == "":
                expn.pop()
            if matches(expn, act):
                continue
            fails += 1
            print("FAIL: %s:%d: $ %s" % (rel, no, cmd.replace("\n", "\n    ")))
            for d in difflib.unified_diff(expn, act, "guide", "now", lineterm="", n=2):
                print("  " + d)
            if a.update:
                updates[no] = (len(exp), [re.sub(r"/tmp/tmp\.[A-Za-z0-9]{10}", "/tmp/tmp.XXXXXXXXXX",
                                                 l.rstrip()) for l in act_lines])
        if a.update and updates:
            new = []
            i = 0
            while i < len(lines):
                new.append(lines[i])
                if (i + 1) in updates:
                    nexp, repl = updates[i + 1]
                    # keep the command's continuation lines, then replace the old output
                    while i + 1 < len(lines) and lines[i + 1].startswith("> "):
                        i += 1
                        new.append(lines[i])
                    new.extend(repl)
                    i += 1 + nexp
                    continue
                i += 1
            with open(guide, "w", encoding="utf-8") as f:
                f.write("\n".join(new))
            print("updated %d outputs in %s" % (len(updates), rel))
        print("%s: %d commands run, %d differ%s" % (rel, len(runlist), fails,
              "".join("; skipped the block at line %d: %s" % s for s in skipped)))
        if fails:
            return 1
        if skipped:
            for bno, why in skipped:
                print("SKIP: %s:%d needs %s" % (rel, bno, why))
            return 77
        return 0
    finally:
        if a.keep:
            print("kept", work)
        else:
            shutil.rmtree(work, ignore_errors=True)


def shlex_quote(s):
    import shlex
    return shlex.quote(s)


if __name__ == "__main__":
    sys.exit(main())
