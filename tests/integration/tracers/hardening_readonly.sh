#!/usr/bin/env bash
# B6 (docs/internals/fault-matrix.md): a database in a directory nobody may
# write (a read-only mount, an archive) can still be read: ls, show, logs, sql.
# Root writes through chmod, so the directory is a read-only bind mount in a
# mount namespace of its own.
# ctest-timeout: 120
. "$PT_TESTLIB/common.sh"
cd "$T" || exit 2
need perl
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	not_applicable "a read-only bind mount needs root and a mount namespace"
fi
mkdir -p ro rowal
PTTRACE_DB=$T/ro/pt.db "$PTTRACE" run -q --name three -- sh -c 'echo hi; exit 3' 2>/dev/null
# A database whose write-ahead log still holds changes, without its -shm index:
# a writer killed, its -shm removed.
PTTRACE_DB=$T/rowal/pt.db "$PTTRACE" run -q --name one -- sh -c 'echo hi' 2>/dev/null
PTTRACE_DB=$T/rowal/pt.db "$PTTRACE" run -q --name two -- perl -e '$| = 1; print "x\n" for 1 .. 3000; sleep 30' >/dev/null 2>&1 &
p=$!
for _ in $(seq 100); do [ -s rowal/pt.db-wal ] && break; sleep 0.1; done
sleep 0.5
kill -KILL $p
wait $p 2>/dev/null
rm -f rowal/pt.db-shm
cat >ro.sh <<'SHEOF'
set -u
cd "$T"
for d in ro rowal; do mount --bind $d $d && mount -o remount,ro,bind $d $d || exit 99; done
touch ro/probe 2>/dev/null && exit 98
export PTTRACE_DB=$T/ro/pt.db
"$PTTRACE" ls >ls.out 2>&1; echo $? >ls.rc
"$PTTRACE" show three >show.out 2>&1; echo $? >show.rc
"$PTTRACE" logs three >logs.out 2>&1; echo $? >logs.rc
"$PTTRACE" sql 'SELECT count(*) FROM runs' >sql.out 2>&1; echo $? >sql.rc
"$PTTRACE" run -q -- true >run.out 2>&1; echo $? >run.rc
PTTRACE_DB=$T/rowal/pt.db "$PTTRACE" ls >wal.out 2>&1; echo $? >wal.rc
SHEOF
T=$T PTTRACE=$PTTRACE unshare -m bash ro.sh
case $? in
99) not_applicable "a read-only bind mount is not allowed here" ;;
98) fail "the bind mount is writable" ;;
esac
check_eq "read-only directory: ls" "0 three        exit 3" "$(cat ls.rc) $(grep -o 'three *exit 3' ls.out)"
check_eq "read-only directory: show" "0   status:   exit 3" "$(cat show.rc) $(grep status: show.out)"
check_eq "read-only directory: logs" "0 hi" "$(cat logs.rc) $(cat logs.out)"
check_eq "read-only directory: sql" "0 count(*) 1" "$(cat sql.rc) $(cat sql.out | tr '\n' ' ' | sed 's/ $//')"
check_eq "read-only directory: run cannot record (125)" 125 "$(cat run.rc)"
check_eq "read-only directory: run says why" "pttrace: '$T/ro': cannot write here (Read-only file system): a database is written with its -wal and -shm files beside it" "$(cat run.out)"
check_eq "a log with changes and no index: exit" 2 "$(cat wal.rc)"
check_eq "a log with changes and no index: said once" "pttrace: '$T/rowal/pt.db': cannot be read here: its directory is read-only and its write-ahead log '$T/rowal/pt.db-wal' holds changes not yet in the database (open it once where it is writable, or copy the files)" "$(cat wal.out)"
finish
