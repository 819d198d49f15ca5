#!/usr/bin/python3
"""Interleaved timing of commands for the bench scripts: each round runs every
command once (in turn, so load on the shared machine hits them alike), then
prints per command the median wall time, median CPU time (user + sys of the
child) and the peak RSS (max of 3 more runs under GNU time, /usr/bin/time,
cold too with --cold).

usage: runstat.py [--runs N] [--cold FILELIST] [--anchor LABEL] -- LABEL CMD... [-- LABEL CMD...]
  --cold FILELIST: before every run, drop the files named in FILELIST (one a
  line) from the page cache with posix_fadvise(POSIX_FADV_DONTNEED) (pages a
  running process maps stay; everything else is read from disk again).
  --anchor LABEL: ratios are printed against this command (default: the last).
"""
import os, statistics, sys, time

def parse(argv):
    runs, cold, anchor, cmds = 11, None, None, []
    i = 0
    while i < len(argv) and argv[i] != "--":
        if argv[i] == "--runs": runs = int(argv[i + 1]); i += 2
        elif argv[i] == "--cold": cold = argv[i + 1]; i += 2
        elif argv[i] == "--anchor": anchor = argv[i + 1]; i += 2
        else: sys.exit("runstat.py: unknown option " + argv[i])
    cur = None
    for a in argv[i:]:
        if a == "--":
            cur = []
            cmds.append(cur)
        else:
            cur.append(a)
    cmds = [(c[0], c[1:]) for c in cmds if len(c) >= 2]
    return runs, cold, anchor or cmds[-1][0], cmds

def evict(files):
    for f in files:
        try:
            fd = os.open(f, os.O_RDONLY)
        except OSError:
            continue
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)

def spawn(argv):
    """Fork and exec argv with its output discarded; the child's pid."""
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    return pid

def run(cmd):
    t0 = time.perf_counter()
    _, status, ru = os.wait4(spawn(cmd), 0)
    wall = time.perf_counter() - t0
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, os.waitstatus_to_exitcode(status)

def peak_rss_mb(cmd, tmp, files):
    """Peak RSS through GNU time (its own small process forks the command;
    wait4's figure for a child of this Python would include Python's pages),
    with the page cache as cold as the timed runs had it."""
    if files:
        evict(files)
    os.waitpid(spawn(["/usr/bin/time", "-f", "%M", "-o", tmp] + cmd), 0)
    with open(tmp) as f:
        return int(f.read().split()[-1]) / 1024

def main():
    runs, cold, anchor, cmds = parse(sys.argv[1:])
    files = [l.strip() for l in open(cold) if l.strip()] if cold else None
    res = {label: [] for label, _ in cmds}
    for label, cmd in cmds:	# one untimed run each: warm caches, check it works
        w = run(cmd)
        if w[3] not in (0, 1):
            sys.exit("runstat.py: %s exited %d: %s" % (label, w[3], " ".join(cmd)))
    for _ in range(runs):
        for label, cmd in cmds:
            if files:
                evict(files)
            res[label].append(run(cmd))
    tmp = "/tmp/runstat.%d" % os.getpid()
    rss = {label: max(peak_rss_mb(cmd, tmp, files) for _ in range(3)) for label, cmd in cmds}
    os.unlink(tmp)
    a = res[anchor]
    aw = statistics.median(r[0] for r in a)
    ac = statistics.median(r[1] for r in a)
    for label, _ in cmds:
        r = res[label]
        w = statistics.median(x[0] for x in r)
        c = statistics.median(x[1] for x in r)
        print("  %-28s wall %8.1f ms  cpu %8.1f ms  peak RSS %6.1f MB   wall %5.2fx  cpu %5.2fx %s"
              % (label, w * 1000, c * 1000, rss[label], w / aw, c / ac,
                 "(anchor)" if label == anchor else "x " + anchor))

main()
