#!/usr/bin/env bash
# Benchmark of `pttrace run`: a child writes SIZE MB of mixed torch-like
# output (bench/loggen.c) as fast as it can, alone and under pttrace run.
# Prints the child's slowdown, the spooling rate, the indexing rate and
# pttrace's peak RSS. Goals: slowdown < 10 %, spool >= 200 MB/s,
# index >= 50 MB/s, peak RSS < 64 MB whatever the size.
#   bench/pttrace_run.sh [--size MB] [--gb] [--build DIR] [--reps N]
# Default 256 MB (--gb: 1024 MB); the database goes to a scratch directory.
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
export PTTRACE_DB="$tmp/db/pttrace.db"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

alone_null=() alone_pipe=() under=() idx=() idxcpu=() lag=() rss=()
for r in $(seq "$reps"); do
	"$tmp/loggen" "$size" "$tmp/t" >/dev/null 2>&1
	alone_null+=("$(cut -d' ' -f1 "$tmp/t")")
	"$tmp/loggen" "$size" "$tmp/t" 2>&1 | cat >/dev/null
	alone_pipe+=("$(cut -d' ' -f1 "$tmp/t")")
	"$P" run -q --json --no-trace -- "$tmp/loggen" "$size" "$tmp/t" >"$tmp/j" 2>/dev/null
	under+=("$(cut -d' ' -f1 "$tmp/t")")
	bytes=$(cut -d' ' -f2 "$tmp/t")
	idx+=("$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["index_seconds"])' "$tmp/j")")
	idxcpu+=("$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["index_cpu_seconds"])' "$tmp/j")")
	lag+=("$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["index_lag_seconds"])' "$tmp/j")")
	rss+=("$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["peak_rss_kb"])' "$tmp/j")")
	lines=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["lines"])' "$tmp/j")
	"$P" rm last >/dev/null
done
an=$(printf '%s\n' "${alone_null[@]}" | median)
ap=$(printf '%s\n' "${alone_pipe[@]}" | median)
un=$(printf '%s\n' "${under[@]}" | median)
ix=$(printf '%s\n' "${idx[@]}" | median)
ic=$(printf '%s\n' "${idxcpu[@]}" | median)
lg=$(printf '%s\n' "${lag[@]}" | median)
rs=$(printf '%s\n' "${rss[@]}" | sort -n | tail -1)
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
echo "pttrace run benchmark: $mb MB, $lines lines, median of $reps runs, $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
awk -v an="$an" -v ap="$ap" -v un="$un" -v ix="$ix" -v ic="$ic" -v lg="$lg" -v rs="$rs" -v mb="$mb" 'BEGIN {
	printf "  child alone, output to /dev/null : %7.2f s\n", an
	printf "  child alone, output through a pipe: %7.2f s\n", ap
	printf "  child under pttrace run -q        : %7.2f s\n", un
	printf "  slowdown vs alone (/dev/null)     : %6.1f %%   (goal < 10 %%)\n", (un / an - 1) * 100
	printf "  slowdown vs alone (pipe)          : %6.1f %%\n", (un / ap - 1) * 100
	printf "  spooling rate (bytes / child time): %6.0f MB/s (goal >= 200)\n", mb / un
	printf "  indexing rate (bytes / index time): %6.1f MB/s (goal >= 50)\n", mb / ix
	printf "  indexing rate (bytes / its CPU)   : %6.1f MB/s (what an idle machine would give)\n", mb / ic
	printf "  indexing finished after the child : %7.2f s\n", lg
	printf "  pttrace peak RSS                  : %6.1f MB   (goal < 64)\n", rs / 1024
}'
