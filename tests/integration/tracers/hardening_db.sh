#!/usr/bin/env bash
# The database path and concurrent first runs (docs/internals/fault-matrix.md):
# B25 a FIFO given as --db never hangs; B3 runs started together on a new database
# are all recorded.
# ctest-timeout: 300
. "$PT_TESTLIB/common.sh"
cd "$T" || exit 2
mkfifo dbfifo
for cmd in ls "run -q -- true" "show last"; do
	out=$(timeout 10 "$PTTRACE" --db "$T/dbfifo" $cmd 2>&1); rc=$?
	[ $rc = 124 ] && fail "--db FIFO hangs '$cmd'" || pass
	check_contains "--db FIFO refused ($cmd)" "'$T/dbfifo': not a regular file: not a pttrace database" "$out"
done

# Three runs started at once on a database that does not exist yet, ten times.
lost=0
for t in $(seq 1 10); do
	db=$T/c$t/pt.db
	for i in 1 2 3; do
		(PTTRACE_DB=$db "$PTTRACE" run -q -- sh -c 'seq 200' >/dev/null 2>"$T/err.$t.$i"; echo $? >"$T/rc.$t.$i") &
	done
	wait
	n=$(PTTRACE_DB=$db "$PTTRACE" sql 'SELECT count(*) FROM runs' 2>/dev/null | tail -1)
	if [ "$n" != 3 ] || [ "$(cat "$T"/rc.$t.* | sort -u)" != 0 ]; then
		lost=$((lost + 1))
		cat "$T"/err.$t.*
	fi
done
check_eq "trials of three concurrent first runs that lost a run" 0 "$lost"
finish
