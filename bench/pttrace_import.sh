#!/usr/bin/env bash
# pttrace import throughput and peak RSS on a ~200 MB TORCH_TRACE made by
# concatenating real fixture records (tlparse's largest test log, rank 1 of
# multi_rank_logs, 3.56 MB, the same input tlparse was measured on in
# docs/formats/torch-trace-formats.md §9; concatenated logs are valid input).
# usage: bench/pttrace_import.sh [BUILD_DIR] [COPIES]    (default build, 56)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
copies=${2:-56}
P=$build/tracers/pttrace
fixtures=$src/tests/fixtures/traces
in=$fixtures/tlparse-tests/inputs/multi_rank_logs/dedicated_log_torch_trace_rank_1.log
[ -x "$P" ] || { echo "no pttrace at $P (build first)" >&2; exit 2; }
[ -r "$in" ] || { echo "no fixture $in" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ptbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
big=$work/dedicated_log_torch_trace_rank_1_bench.log
for _ in $(seq "$copies"); do cat "$in"; done >"$big"
bytes=$(stat -c %s "$big")
echo "input: $copies x $(basename "$in") = $bytes bytes, $(grep -a -c '^V' "$big") records"

for i in 1 2 3; do
	rm -rf "$work/db"
	/usr/bin/time -v "$P" --db "$work/db/pttrace.db" import --name "bench$i" "$big" \
		>"$work/out" 2>"$work/time"
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2, a, ":"); s=0; for (i=1;i<=n;i++) s=s*60+a[i]; print s}' "$work/time")
	rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time")
	user=$(awk -F': ' '/User time/ {print $2}' "$work/time")
	sys=$(awk -F': ' '/System time/ {print $2}' "$work/time")
	db=$(du -sk "$work/db" | cut -f1)
	awk -v b="$bytes" -v w="$wall" -v r="$rss" -v u="$user" -v s="$sys" -v d="$db" -v i="$i" 'BEGIN {
		printf "run %d: %.2f s wall (%.2f user + %.2f sys), %.1f MB/s wall, %.1f MB/s per CPU second, peak RSS %.1f MB, database+copy %.0f MB\n",
			i, w, u, s, b / 1e6 / w, b / 1e6 / (u + s), r / 1024, d / 1024 }'
done
echo "pttrace said: $(cat "$work/out")"
# Wall time depends on what else runs: say how loaded the machine was.
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
