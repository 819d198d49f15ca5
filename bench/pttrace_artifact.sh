#!/usr/bin/env bash
# pttrace artifact --out (tlparse's output tree) of a large single-rank import: wall
# and CPU time, peak RSS, files written. The input is made by gen_trace.py (each copy
# of tlparse's multi_rank_logs rank 1 with its own payloads), at MB and at twice MB:
# the peak RSS must not follow the input (what is held is one record and the
# compile_directory.json listing; chromium_events.json is written as it comes).
# usage: bench/pttrace_artifact.sh [BUILD_DIR] [MB]    (default build, 74)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
mb=${2:-74}
P=$build/tracers/pttrace
[ -x "$P" ] || { echo "no pttrace at $P (build first)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ptbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$src"
for size in "$mb" $((mb * 2)); do
	big=$work/dedicated_log_torch_trace_rank_1_$size.log
	python3 bench/gen_trace.py "$size" "$big"
	"$P" --db "$work/db/pttrace.db" import --name "b$size" "$big" >/dev/null 2>&1 || [ $? = 1 ]
	rm -f "$big"
	rm -rf "$work/out"
	/usr/bin/time -v "$P" --db "$work/db/pttrace.db" artifact "b$size" --out "$work/out" >/dev/null 2>"$work/time"
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2, a, ":"); s=0; for (i=1;i<=n;i++) s=s*60+a[i]; print s}' "$work/time")
	rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time")
	cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$work/time")
	files=$(find "$work/out" -type f | wc -l)
	awk -v m="$size" -v w="$wall" -v c="$cpu" -v r="$rss" -v f="$files" 'BEGIN {
		printf "artifact --out of %d MB: %.2f s wall (cpu %.2f s), peak RSS %.1f MB, %d files\n", m, w, c, r / 1024, f }'
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
