#!/usr/bin/env bash
# Benchmark of `pttrace run`'s capture and indexing: a child (bench/loggen.c)
# writes SIZE MB of mixed torch-like output as fast as it can, in the same
# invocation and interleaved, rep after rep:
#   anchor 1: into a plain pipe to `cat >/dev/null`;
#   anchor 2: into a file;
#   then under `pttrace run -q --json --no-trace`.
# Prints the child's own time each way (the slowdown pttrace's capture costs
# it), pttrace's total wall time, the time from the child's exit to
# pttrace's exit, the indexing rate (wall and per CPU second of the indexing
# thread) and pttrace's peak RSS, medians of the reps (RSS: the maximum).
# Goals (issue 20): slowdown vs the pipe < 10 %, indexing >= 150 MB/s, done
# within 1 s of the child's exit for 256 MB, peak RSS < 64 MB.
#   bench/run_indexing.sh [--size MB] [--gb] [--build DIR] [--reps N]
# Default 256 MB (--gb: 1024 MB), 3 reps; scratch files in $TMPDIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
size=256 build="$here/../build" reps=3
while [ $# -gt 0 ]; do
	case $1 in
	--size) size=$2; shift ;;
	--gb) size=1024 ;;
	--build) build=$2; shift ;;
	--reps) reps=$2; shift ;;
	*) echo "usage: $0 [--size MB] [--gb] [--build DIR] [--reps N]" >&2; exit 2 ;;
	esac
	shift
done
P="$build/tracers/pttrace"
[ -x "$P" ] || { echo "bench: no $P; build first" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/loggen" "$here/loggen.c"

/usr/bin/python3 - "$P" "$tmp" "$size" "$reps" <<'EOF'
import json, os, statistics, subprocess, sys, time

P, tmp, size, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
gen, tfile = os.path.join(tmp, "loggen"), os.path.join(tmp, "t")
env = dict(os.environ, PTTRACE_DB=os.path.join(tmp, "db", "pttrace.db"))

def child():
    """The child's own figures: seconds writing, bytes, CLOCK_MONOTONIC at its end."""
    with open(tfile) as f:
        s, b, end = f.read().split()
    return float(s), int(b), float(end)

pipe, file_, under, wall, lag, idx, idxcpu, rss = [], [], [], [], [], [], [], []
for _ in range(reps):
    # Anchor 1: a plain pipe to cat; both streams, as pttrace takes both.
    subprocess.run("'%s' %s '%s' 2>&1 | cat >/dev/null" % (gen, size, tfile), shell=True, check=True)
    pipe.append(child()[0])
    # Anchor 2: a file on the disk the spool goes to.
    with open(os.path.join(tmp, "out"), "wb") as out:
        subprocess.run([gen, size, tfile], stdout=out, stderr=subprocess.STDOUT, check=True)
    file_.append(child()[0])
    os.unlink(os.path.join(tmp, "out"))
    # pttrace run.
    t0 = time.monotonic()
    r = subprocess.run([P, "run", "-q", "--json", "--no-trace", "--", gen, size, tfile],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
    t1 = time.monotonic()
    j = json.loads(r.stdout)
    secs, nbytes, end = child()
    under.append(secs)
    wall.append(t1 - t0)
    lag.append(t1 - end)
    idx.append(j["index_seconds"])
    idxcpu.append(j["index_cpu_seconds"])
    rss.append(j["peak_rss_kb"])
    lines = j["lines"]
    subprocess.run([P, "rm", "last"], env=env, stdout=subprocess.DEVNULL, check=True)

med = statistics.median
mb = nbytes / 1048576
ap, af, un = med(pipe), med(file_), med(under)
with open("/proc/loadavg") as f:
    load = f.read().split()[0]
print("pttrace run benchmark: %.1f MB, %d lines, median of %d runs, %d CPUs, load %s"
      % (mb, lines, reps, os.cpu_count(), load))
print("  child alone, into a pipe to cat   : %7.2f s" % ap)
print("  child alone, into a file          : %7.2f s" % af)
print("  child under pttrace run -q        : %7.2f s" % un)
print("  slowdown vs the pipe              : %6.1f %%   (goal < 10 %%)" % ((un / ap - 1) * 100))
print("  slowdown vs the file              : %6.1f %%" % ((un / af - 1) * 100))
print("  spooling rate (bytes / child time): %6.0f MB/s" % (mb / un))
print("  pttrace run, total wall           : %7.2f s" % med(wall))
print("  child exit to pttrace exit        : %7.2f s   (goal <= 1 s)" % med(lag))
print("  indexing rate (bytes / index time): %6.1f MB/s (goal >= 150)" % (mb / med(idx)))
print("  indexing rate (bytes / its CPU)   : %6.1f MB/s (what an idle machine would give)"
      % (mb / med(idxcpu)))
print("  pttrace peak RSS                  : %6.1f MB   (goal < 64)" % (max(rss) / 1024))
EOF
