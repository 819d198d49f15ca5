#!/usr/bin/env bash
# pttrace report on a ~200 MB single-rank TORCH_TRACE import: wall time, peak RSS and
# the report's size, beside the figures tlparse 0.4.3 needs for the same kind of input
# (docs/formats/torch-trace-formats.md: 12.8 s, 703 MB peak RSS and ~460 MB of output for
# 199.6 MB = 56 copies of this same fixture; tlparse is not in Debian, so its figures
# are quoted, not re-measured here).
# The input is 56 concatenated copies of tlparse's largest test log (rank 1 of
# multi_rank_logs): payloads repeat, so a report with one page per distinct payload
# is much smaller than tlparse's one file per record. Said in the output.
# With --distinct MB the input is gen_trace.py's instead: MB of the same records, each copy
# with its own payloads and md5s (a long job, where every graph and kernel differs).
# usage: bench/pttrace_report.sh [--distinct MB] [BUILD_DIR] [COPIES]    (default build, 56)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
distinct=
if [ "${1:-}" = --distinct ]; then distinct=$2; shift 2; fi
build=${1:-$src/build}
copies=${2:-56}
P=$build/tracers/pttrace
in=$src/tests/fixtures/traces/tlparse-tests/inputs/multi_rank_logs/dedicated_log_torch_trace_rank_1.log
[ -x "$P" ] || { echo "no pttrace at $P (build first)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ptbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
big=$work/dedicated_log_torch_trace_rank_1_bench.log
if [ -n "$distinct" ]; then
	(cd "$src" && /usr/bin/python3 bench/gen_trace.py "$distinct" "$big")
else
	for _ in $(seq "$copies"); do cat "$in"; done >"$big"
fi
bytes=$(stat -c %s "$big")
"$P" --db "$work/db/pttrace.db" import "$big" >/dev/null 2>&1 || [ $? = 1 ]
if [ -n "$distinct" ]; then
	echo "input: gen_trace.py $distinct MB (distinct payloads) = $bytes bytes, imported as run 1"
else
	echo "input: $copies x $(basename "$in") = $bytes bytes, imported as run 1"
fi
for i in 1 2 3; do
	rm -rf "$work/out"
	/usr/bin/time -v "$P" --db "$work/db/pttrace.db" report 1 --out "$work/out" >/dev/null 2>"$work/time"
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2, a, ":"); s=0; for (i=1;i<=n;i++) s=s*60+a[i]; print s}' "$work/time")
	rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time")
	cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$work/time")
	size=$(du -sk "$work/out" | cut -f1)
	files=$(find "$work/out" -type f | wc -l)
	awk -v b="$bytes" -v w="$wall" -v c="$cpu" -v r="$rss" -v s="$size" -v f="$files" -v i="$i" 'BEGIN {
		printf "pttrace report run %d: %.2f s wall (cpu %.2f s), peak RSS %.1f MB, output %.1f MB in %d files (%.2fx the input)\n",
			i, w, c, r / 1024, s / 1024, f, s * 1024 / b }'
done
echo "tlparse 0.4.3 (published, same input kind): 12.79 s wall, peak RSS 703 MB, ~460 MB in 11,445 files (2.3x the input)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
