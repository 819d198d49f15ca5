#!/usr/bin/env bash
# pttrace over a job of many ranks: RANKS copies of one real rank file
# (tlparse's multi_rank_logs rank 1, 3.56 MB, 810 records) imported as one
# run, then `pttrace ranks` (tlparse's cross-rank checks over every file) and
# `pttrace rm` of the run. Each of the two reads every file's records; done
# right, that is about one read of the run's trace_records in all, whatever
# the number of files.
# Anchor in the same invocation: the sqlite3 shell reading the run's
# trace_records once (sum(length(envelope)), a full scan), on the same
# database; ratios are pttrace's wall time / the anchor's.
# --against DIR: also the pttrace of another build tree (an older commit),
# on its own import of the same files.
#   bench/pttrace_ranks.sh [--against DIR] [BUILD] [RANKS]   (build, 128)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
against=
[ "${1:-}" = --against ] && { against=$2; shift 2; }
build=${1:-$src/build}
ranks=${2:-128}
[ -x "$build/tracers/pttrace" ] || { echo "no pttrace at $build/tracers/pttrace (build first)" >&2; exit 2; }
[ -z "$against" ] || [ -x "$against/tracers/pttrace" ] || { echo "no pttrace at $against/tracers/pttrace" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 shell (Debian package sqlite3)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
rank1=$src/tests/fixtures/traces/tlparse-tests/inputs/multi_rank_logs/dedicated_log_torch_trace_rank_1.log
work=$(mktemp -d "${TMPDIR:-/tmp}/ptranks.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/job"
for r in $(seq 0 $((ranks - 1))); do cp "$rank1" "$work/job/dedicated_log_torch_trace_rank_$r.log"; done
echo "pttrace over $ranks ranks ($(du -sm "$work/job" | cut -f1) MB): $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"

# timed LABEL CMD...: wall seconds of CMD (output discarded) into $t.
timed() {
	/usr/bin/time -f "%e" -o "$work/t" "$@" >/dev/null 2>"$work/err" || {
		echo "  $1 failed:" >&2; cat "$work/err" >&2; exit 1; }
	t=$(cat "$work/t")
}

side() {
	local label=$1 P=$2/tracers/pttrace db=$work/db.$1
	rm -rf "$db"
	timed "$P" --db "$db/p.db" import "$work/job"
	local imp=$t
	sync
	timed sqlite3 "$db/p.db" "SELECT sum(length(envelope)) FROM trace_records WHERE run_id = 1"
	local anchor=$t
	timed "$P" --db "$db/p.db" ranks 1
	local rk=$t
	timed "$P" --db "$db/p.db" rm 1
	local rm=$t
	awk -v l="$label" -v i="$imp" -v a="$anchor" -v k="$rk" -v r="$rm" 'BEGIN {
		a = a < 0.01 ? 0.01 : a
		printf "  %-8s import %6.2f s   anchor (one read of trace_records) %5.2f s   ranks %7.2f s (x anchor %6.1f)   rm %7.2f s (x anchor %6.1f)\n", l, i, a, k, k / a, r, r / a }'
}

side this "$build"
[ -z "$against" ] || side against "$against"
