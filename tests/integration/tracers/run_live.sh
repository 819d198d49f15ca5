#!/usr/bin/env bash
# B23 (docs/internals/fault-matrix.md): the records of a running `pttrace run`
# are visible to readers while the child is quiet, not only every 1024 lines
# or at the end: the indexer commits when it has caught up with the child
# (logs_ingest_idle), and a TORCH_LOGS record still open is shown as it is so
# far, then completed in place (one row, counted once). While the child is
# quiet the indexer holds no write lock: another run starts and ends.
# No fixed sleeps: the test polls with a deadline and the child waits for a file.
# ctest-timeout: 300
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTTRACE
export PTTRACE_DB=$T/db/pttrace.db
export NO_COLOR=1
cd "$T" || exit 2

L1='I1122 02:47:00.000000 9740 torch/_dynamo/convert_frame.py:12] [0/0] compiling step one'
L2='I1122 02:47:00.000000 9740 torch/_dynamo/convert_frame.py:12] [0/0] compiling step two'
cat >child.sh <<EOF
echo 'hello from the child'
echo '$L1' >&2
while [ ! -e "$T/go" ]; do sleep 0.02; done
echo '$L2' >&2
echo 'bye' >&2
exit 3
EOF
"$P" run -q --no-trace --name live -- sh child.sh >run.out 2>run.err &
runner=$!

# poll_until DEADLINE_S CMD...: run CMD until it succeeds or the deadline passes.
poll_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.05
	done
}
seen_both() {
	"$P" logs live >logs.live 2>/dev/null &&
		grep -qx 'hello from the child' logs.live && grep -qxF "$L1" logs.live
}
if poll_until 60 seen_both; then
	pass
else
	fail "pttrace logs during the run: the child's first lines never showed (60 s)"
	cat logs.live 2>/dev/null | sed 's/^/  | /'
fi
check_eq "during the run: the two lines, in order" "hello from the child
$L1" "$(cat logs.live 2>/dev/null)"
check_eq "during the run: the open log record shown with its one line so far" "log|1" \
	"$("$P" sql "SELECT kind || '|' || nlines FROM records WHERE run_id = (SELECT id FROM runs WHERE name = 'live') AND kind = 'log'" | tail -n +2)"

# The quiet run holds no write lock: a second run is recorded meanwhile.
check_rc "a second run while the first is quiet" 0 timeout 60 "$P" run -q --no-trace -- true
check_eq "the first run is still going" 0 "$(kill -0 $runner; echo $?)"

touch "$T/go"
wait $runner
check_eq "run exits with the child's status" 3 $?

# The open record was completed in place: one log record of two lines, counted once.
q="SELECT seq, stream, nlines, kind, text FROM records WHERE run_id = (SELECT id FROM runs WHERE name = 'live') ORDER BY seq"
"$P" sql "$q" >after_run.txt
check_eq "records after the run" "seq	stream	nlines	kind	text
0	1	1	other	hello from the child
1	2	2	log	compiling step one
compiling step two
3	2	1	other	bye" "$(cat after_run.txt)"
check_contains "summary counts each line once" "4 lines (other 2, log 2)" "$(cat run.err)"
check_eq "logs after the run" "hello from the child
$L1
$L2
bye" "$("$P" logs live)"
# The same rows as indexing the kept output from scratch.
"$P" reindex live >/dev/null 2>&1
"$P" sql "$q" >after_reindex.txt
check_eq "records after reindex equal those of the live run" "$(cat after_run.txt)" "$(cat after_reindex.txt)"

# A child that writes faster than the indexer reads: indexing goes on after its
# exit (the main thread takes over from the indexing thread, rows go in 32 at a
# time): nothing lost, nothing twice, every byte covered once per stream.
"$P" run -q --no-trace --json --name fast -- sh -c 'seq 1 200000; seq 1 50000 >&2' >fast.json 2>fast.err
check_eq "fast run: exit" 0 $?
check_contains "fast run: every line indexed" '"lines":250000' "$(tr -d ' \n' <fast.json)"
check_eq "fast run: records per stream, lines, bytes, first and last" "1|200000|200000|1288895|1|200000
2|50000|50000|288894|1|50000" \
	"$("$P" sql "SELECT stream, count(*), sum(nlines), sum(len), min(CAST(text AS INTEGER)), max(CAST(text AS INTEGER)) FROM records WHERE run_id = (SELECT id FROM runs WHERE name = 'fast') GROUP BY stream ORDER BY stream" | tail -n +2 | tr '\t' '|')"
check_eq "fast run: records in arrival order of each stream, back to back" 0 \
	"$("$P" sql "SELECT count(*) FROM (SELECT off, len, lag(off + len) OVER (PARTITION BY stream ORDER BY seq) AS prev_end FROM records WHERE run_id = (SELECT id FROM runs WHERE name = 'fast')) WHERE coalesce(prev_end, 0) != off" | tail -1)"
finish
