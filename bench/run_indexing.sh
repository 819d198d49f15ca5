#!/usr/bin/env bash
# Benchmark of `pttrace run`'s capture and indexing: a child (bench/loggen.c)
# writes SIZE MB of mixed torch-like output as fast as it can, in the same
# invocation and interleaved, rep after rep:
#   anchor 1: into a plain pipe to `cat >/dev/null`;
#   anchor 2: into a file;
#   then under `pttrace run -q --json --no-trace`;
#   anchor 3, after the reps: SQLite alone (the sqlite3 shell) copying the
#   rows of one more run into a fresh database of the same tables (the
#   floor of any indexer that stores these rows), with WAL and with none.
# Prints the child's own time each way (the slowdown pttrace's capture costs
# it), pttrace's total wall time, the time from the child's exit to
# pttrace's exit, the indexing rate (wall, per CPU second of the indexing
# threads, and per CPU second of its SQLite writer thread alone, which is
# compared with the floor at the end) and pttrace's peak RSS, medians of
# the reps (RSS: the maximum).
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
import json, os, resource, shutil, statistics, subprocess, sys, time

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
        self.wcpu = []  # the SQLite writer threads' CPU (absent from builds before 2026-11-29)

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
        if "index_writer_cpu_seconds" in j:
            self.wcpu.append(j["index_writer_cpu_seconds"])
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
row("  of it, the SQLite writer thread", "%6.1f MB/s", lambda s: mb / med(s.wcpu) if s.wcpu else float("nan"),
    "" if A else " (per its CPU second)")
row("pttrace peak RSS", "%6.1f MB", lambda s: max(s.rss) / 1024, "   (goal < 64)")

# Anchor 3, SQLite's own floor: the rows this pttrace made of one more run,
# copied by the sqlite3 shell with INSERT ... SELECT (no parsing, no binding,
# one transaction) into a fresh database of the same two tables, as pttrace
# opens it (16 KiB pages, WAL, synchronous=NORMAL) and with no journal at all.
# CPU of the copy less the CPU of reading the same columns: what SQLite alone
# costs per indexed byte, whoever produces the rows.
sq = shutil.which("sqlite3")
if not sq:
    print("  SQLite floor                      : skipped (no sqlite3 shell: apt-get install sqlite3)")
    sys.exit(0)
s0 = sides[0]
subprocess.run([P, "run", "-q", "--no-trace", "--", gen, size, tfile], env=s0.env,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
src = s0.env["PTTRACE_DB"]

def q(db, sql):
    return subprocess.run([sq, db, sql], capture_output=True, text=True, check=True).stdout

tables = ("records", "dispatch_calls")
schema = q(src, "SELECT sql || ';' FROM sqlite_master WHERE type = 'table' AND name IN %s" % (tables,))
cols = {t: q(src, "SELECT group_concat(name) FROM pragma_table_xinfo('%s') WHERE hidden = 0" % t).strip()
        for t in tables}
nrows = sum(int(q(src, "SELECT count(*) FROM " + t)) for t in tables)

def cpu(script, fresh=None):
    """user+sys of one sqlite3 shell running script (median of 3); fresh: a file removed before each."""
    out = []
    for _ in range(3):
        for ext in ("", "-wal", "-shm"):
            if fresh and os.path.exists(fresh + ext):
                os.unlink(fresh + ext)
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sq, ":memory:"], input=script, text=True, check=True, stdout=subprocess.DEVNULL)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return med(out)

attach = "ATTACH '%s' AS s;\n" % src
read = cpu(attach + "".join("SELECT sum(%s) FROM s.%s;\n" % ("+".join("(%s IS NULL)" % c for c in cols[t].split(",")), t)
                           for t in tables))

def copy(journal, sync):
    dst = os.path.join(tmp, "floor.db")
    return cpu("ATTACH '%s' AS d;\nPRAGMA d.page_size=16384; PRAGMA d.journal_mode=%s; PRAGMA d.synchronous=%s;\n"
               % (dst, journal, sync) + "".join(
                   "CREATE TABLE d." + line[len("CREATE TABLE "):] + ";\n" for line in schema.strip().split(";\n") if line)
               + attach + "BEGIN;\n" + "".join("INSERT INTO d.%s(%s) SELECT %s FROM s.%s;\n" % (t, cols[t], cols[t], t)
                                               for t in tables) + "COMMIT;\n", dst)

wal, off = copy("WAL", "NORMAL") - read, copy("OFF", "OFF") - read
print("SQLite floor: the %d rows (%.1f per KB) of one more such run, copied by the sqlite3 shell" % (nrows, nrows / (mb * 1024)))
print("  (INSERT ... SELECT, one transaction, into a fresh database of the same tables; CPU less reading)")
print("  as pttrace writes (WAL)           : %6.1f MB/s per CPU s   (%.2f s)" % (mb / wal, wal))
print("  with no journal at all            : %6.1f MB/s per CPU s   (%.2f s)" % (mb / off, off))
print("  this pttrace's indexing           : %6.1f MB/s per CPU s   (goal >= 150)" % (mb / med(s0.idxcpu)))
if s0.wcpu:  # builds before 2026-11-29 do not give it
    print("  this pttrace's SQLite writer      : %6.1f MB/s per CPU s   (%.2f s: %.2fx the floor with WAL)"
          % (mb / med(s0.wcpu), med(s0.wcpu), med(s0.wcpu) / wal))
EOF
