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
# Goals: slowdown vs the pipe < 10 %, indexing >= 150 MB/s, done
# within 1 s of the child's exit for 256 MB, peak RSS < 64 MB.
# --against DIR: also the pttrace of another build tree (an older commit),
# in the same reps, interleaved, so that before and after meet the same load;
# its figures are printed in a second column.
#   bench/run_indexing.sh [--size MB] [--gb] [--build DIR] [--against DIR] [--reps N]
# Default 256 MB (--gb: 1024 MB), 3 reps; scratch files in $TMPDIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
size=256 build="$here/../build" reps=3 against=
while [ $# -gt 0 ]; do
	case $1 in
	--size) size=$2; shift ;;
	--gb) size=1024 ;;
	--build) build=$2; shift ;;
	--against) against=$2; shift ;;
	--reps) reps=$2; shift ;;
	*) echo "usage: $0 [--size MB] [--gb] [--build DIR] [--against DIR] [--reps N]" >&2; exit 2 ;;
	esac
	shift
done
P="$build/tracers/pttrace"
[ -x "$P" ] || { echo "bench: no $P; build first" >&2; exit 2; }
A=
if [ -n "$against" ]; then
	A="$against/tracers/pttrace"
	[ -x "$A" ] || { echo "bench: no $A; build it first" >&2; exit 2; }
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/loggen" "$here/loggen.c"

/usr/bin/python3 - "$P" "$tmp" "$size" "$reps" "$A" <<'EOF'
import json, os, statistics, subprocess, sys, time

P, tmp, size, reps, A = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
gen, tfile = os.path.join(tmp, "loggen"), os.path.join(tmp, "t")

def child():
    """The child's own figures: seconds writing, bytes, CLOCK_MONOTONIC at its end."""
    with open(tfile) as f:
        s, b, end = f.read().split()
    return float(s), int(b), float(end)

class Side:
    """The figures of one pttrace over the reps."""
    def __init__(self, exe, name):
        self.exe = exe
        self.env = dict(os.environ, PTTRACE_DB=os.path.join(tmp, "db-" + name, "pttrace.db"))
        self.under, self.wall, self.lag, self.idx, self.idxcpu, self.rss = [], [], [], [], [], []

    def rep(self):
        t0 = time.monotonic()
        r = subprocess.run([self.exe, "run", "-q", "--json", "--no-trace", "--", gen, size, tfile],
                           env=self.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
        t1 = time.monotonic()
        j = json.loads(r.stdout)
        secs, nbytes, end = child()
        self.under.append(secs)
        self.wall.append(t1 - t0)
        self.lag.append(t1 - end)
        self.idx.append(j["index_seconds"])
        self.idxcpu.append(j["index_cpu_seconds"])
        self.rss.append(j["peak_rss_kb"])
        self.lines, self.nbytes = j["lines"], nbytes
        subprocess.run([self.exe, "rm", "last"], env=self.env, stdout=subprocess.DEVNULL, check=True)

sides = [Side(P, "this")] + ([Side(A, "against")] if A else [])
pipe, file_ = [], []
for i in range(reps):
    # Anchor 1: a plain pipe to cat; both streams, as pttrace takes both.
    subprocess.run("'%s' %s '%s' 2>&1 | cat >/dev/null" % (gen, size, tfile), shell=True, check=True)
    pipe.append(child()[0])
    # Anchor 2: a file on the disk the spool goes to.
    with open(os.path.join(tmp, "out"), "wb") as out:
        subprocess.run([gen, size, tfile], stdout=out, stderr=subprocess.STDOUT, check=True)
    file_.append(child()[0])
    os.unlink(os.path.join(tmp, "out"))
    # pttrace run; with --against both builds, in turn, the first one alternating.
    for s in (sides if i % 2 == 0 else sides[::-1]):
        s.rep()

med = statistics.median
mb = sides[0].nbytes / 1048576
ap, af = med(pipe), med(file_)
with open("/proc/loadavg") as f:
    load = f.read().split()[0]
print("pttrace run benchmark: %.1f MB, %d lines, median of %d runs, %d CPUs, load %s"
      % (mb, sides[0].lines, reps, os.cpu_count(), load))
if A:
    print("  (this build | the --against build, interleaved)")

def row(label, fmt, f, goal=""):
    print("  %-34s: %s%s" % (label, " | ".join(fmt % f(s) for s in sides), goal))

print("  child alone, into a pipe to cat   : %7.2f s" % ap)
print("  child alone, into a file          : %7.2f s" % af)
row("child under pttrace run -q", "%7.2f s", lambda s: med(s.under))
row("slowdown vs the pipe", "%6.1f %%", lambda s: (med(s.under) / ap - 1) * 100, "   (goal < 10 %)")
row("slowdown vs the file", "%6.1f %%", lambda s: (med(s.under) / af - 1) * 100)
row("spooling rate (bytes / child time)", "%6.0f MB/s", lambda s: mb / med(s.under))
row("pttrace run, total wall", "%7.2f s", lambda s: med(s.wall))
row("child exit to pttrace exit", "%7.2f s", lambda s: med(s.lag), "   (goal <= 1 s)")
row("indexing rate (bytes / index time)", "%6.1f MB/s", lambda s: mb / med(s.idx), " (goal >= 150)")
row("indexing rate (bytes / its CPU)", "%6.1f MB/s", lambda s: mb / med(s.idxcpu),
    "" if A else " (what an idle machine would give)")
row("pttrace peak RSS", "%6.1f MB", lambda s: max(s.rss) / 1024, "   (goal < 64)")
EOF
