#!/usr/bin/env bash
# pttrace over a job of many ranks: RANKS copies of one real rank file
# (tlparse's multi_rank_logs rank 1, 3.56 MB, 810 records) imported as one
# run, then the commands that read every file's records (`ranks`: tlparse's
# cross-rank checks; `show`, `compiles`, `graph-breaks`, `recompiles`,
# `report`: the static HTML report) and `pttrace rm` of the run. Done right, each costs about one read of the
# run's trace_records, whatever the number of files.
# Anchor in the same invocation: the sqlite3 shell reading the run's
# trace_records once (sum(length(envelope)), a full scan), on the same
# database; ratios are pttrace's wall time / the anchor's.
# --against DIR: also the pttrace of another build tree (an older commit),
# on its own import of the same files; the two trees' outputs (text and
# --json; not show's, which has the run's times, pids and schema versions)
# must be identical, and the script says whether they are.
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

QUERIES=(ranks show compiles graph-breaks recompiles)

# ratio WHAT SECONDS ANCHOR: "   WHAT 1.23 s (x4.5)" (the anchor at least 0.01 s).
ratio() {
	awk -v q="$1" -v t="$2" -v a="$3" 'BEGIN { a = a < 0.01 ? 0.01 : a; printf "   %s %.2f s (x%.1f)", q, t, t / a }'
}

side() {
	local label=$1 P=$2/tracers/pttrace db=$work/db.$1 q line
	rm -rf "$db"
	mkdir -p "$work/out.$label"
	timed "$P" --db "$db/p.db" import "$work/job"
	line=$(printf "  %-8s import %6.2f s" "$label" "$t")
	sync
	timed sqlite3 "$db/p.db" "SELECT sum(length(envelope)) FROM trace_records WHERE run_id = 1"
	local anchor=$t
	line+=$(printf "   anchor %5.2f s:" "$anchor")
	for q in "${QUERIES[@]}"; do
		timed "$P" --db "$db/p.db" "$q" 1
		line+=$(ratio "$q" "$t" "$anchor")
		[ "$q" = show ] && continue
		"$P" --db "$db/p.db" "$q" 1 >"$work/out.$label/$q.txt" 2>/dev/null || true
		"$P" --db "$db/p.db" --json "$q" 1 >"$work/out.$label/$q.json" 2>/dev/null || true
	done
	timed "$P" --db "$db/p.db" report 1 --out "$work/out.$label/report"
	line+=$(ratio report "$t" "$anchor")
	timed "$P" --db "$db/p.db" rm 1
	line+=$(ratio rm "$t" "$anchor")
	echo "$line"
}

echo "  (seconds of wall time; x: times the anchor, one sqlite3 read of the run's trace_records)"
side this "$build"
if [ -n "$against" ]; then
	side against "$against"
	if diff -r "$work/out.this" "$work/out.against" >/dev/null; then
		echo "  outputs (text and --json, but show's; the report's files) of the two trees: identical"
	else
		echo "  outputs (text and --json) of the two trees: DIFFER"; diff -r "$work/out.this" "$work/out.against" | head -20
		exit 1
	fi
fi
