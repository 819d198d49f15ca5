#!/usr/bin/env bash
# pttrace run under faults (docs/internals/fault-matrix.md): B7 the disk fills
# while the raw output is spooled; B14 pttrace SIGKILLed with a quiet child; B20
# `pttrace rm` of a run still being recorded.
# ctest-timeout: 300
. "$PT_TESTLIB/common.sh"
cd "$T" || exit 2
need perl

# B14: pttrace killed with SIGKILL while its child sleeps silently. The child
# must not run on unobserved, and the run must not stay "running".
export PTTRACE_DB=$T/db/pt.db
quiet='$| = 1; print "start\n"; sleep 10; open(F, ">", "survived"); print "end\n"'
"$PTTRACE" run -q --name quiet -- perl -e "$quiet" >/dev/null 2>&1 &
p=$!
for _ in $(seq 100); do
	child=$("$PTTRACE" sql quiet 'SELECT pid FROM runs WHERE id = :run' 2>/dev/null | tail -n +2)
	[ -n "$child" ] && [ "$child" != NULL ] && break
	sleep 0.1
done
case "$child" in ''|*[!0-9]*) fail "the child's pid is not in the run row: '$child'"; child=999999999 ;; esac
sleep 0.5
kill -KILL $p
wait $p 2>/dev/null
gone=no
for _ in $(seq 20); do
	if ! kill -0 "$child" 2>/dev/null || [ "$(ps -o stat= -p "$child" | cut -c1)" = Z ]; then gone=yes; break; fi
	sleep 0.1
done
check_eq "pttrace SIGKILLed: its quiet child ends too" yes "$gone"
check_contains "pttrace SIGKILLed: ls says interrupted" "quiet        interrupted" "$("$PTTRACE" ls)"
check_contains "pttrace SIGKILLed: show says interrupted" "  status:   interrupted (the recording pttrace died before the run ended; 'pttrace reindex 1' indexes the output it kept)" "$("$PTTRACE" show quiet)"
check_contains "pttrace SIGKILLed: show --json" '"status": "lost"' "$("$PTTRACE" --json show quiet)"
sleep 10
check_eq "the child did not finish unattended" no "$([ -e survived ] && echo yes || echo no)"
check_rc "reindex of the interrupted run" 0 "$PTTRACE" reindex quiet
check_eq "interrupted run: its line kept" start "$("$PTTRACE" logs quiet)"

# A recorder pid that now belongs to a process started after the run (pid reuse) is gone too.
if [ -x /usr/bin/python3 ]; then
	sleep 30 &
	later=$!
	/usr/bin/python3 - "$T/db/pt.db" "$later" <<'PYEOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE runs SET status = 'running', pttrace_pid = ?, started_us = started_us - 60000000 WHERE name = 'quiet'", (int(sys.argv[2]),))
c.commit()
PYEOF
	check_contains "recorder pid reused: interrupted" "quiet        interrupted" "$("$PTTRACE" ls)"
	/usr/bin/python3 - "$T/db/pt.db" "$$" <<'PYEOF'
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE runs SET status = 'running', pttrace_pid = ?, started_us = ? WHERE name = 'quiet'", (int(sys.argv[2]), int(time.time() * 1e6)))
c.commit()
PYEOF
	check_contains "recorder alive: running" "quiet        running" "$("$PTTRACE" ls)"
	kill $later
	wait $later 2>/dev/null
fi

# B20: rm of a run being recorded is refused at once; the run goes on and is kept.
"$PTTRACE" run -q --name victim -- perl -e '$| = 1; print "start\n"; sleep 4; print "end\n"' >/dev/null 2>"$T/victim.err" &
p=$!
for _ in $(seq 100); do
	[ "$("$PTTRACE" sql victim 'SELECT status FROM runs WHERE id = :run' 2>/dev/null | tail -1)" = running ] && break
	sleep 0.1
done
id=$("$PTTRACE" sql victim 'SELECT :run' | tail -1)
out=$("$PTTRACE" rm victim 2>&1); rc=$?
check_eq "rm of a running run: exit" 2 "$rc"
check_contains "rm of a running run: refused" "pttrace: run $id is still being recorded (by a pttrace run on $(hostname)" "$out"
check_contains "rm of a running run: not deleted" "not deleted; stop that run first" "$out"
wait $p
check_eq "the refused run finished" 0 $?
check_contains "the refused run is whole" "$(printf 'start\nend')" "$("$PTTRACE" logs victim)"
check_rc "rm once it ended" 0 "$PTTRACE" rm victim

# Diagnostics once: a damaged order.bin at reindex, a command that cannot run, a taken name.
"$PTTRACE" run -q --name order -- sh -c 'echo a; echo b >&2; echo c' 2>/dev/null
printf 'garbage!' >"$T/db/runs/$("$PTTRACE" sql order 'SELECT :run' | tail -1)/order.bin"
out=$("$PTTRACE" reindex order 2>&1 >/dev/null)
check_eq "a damaged order.bin: one warning" 1 "$(printf '%s\n' "$out" | grep -c 'order after it is lost')"
check_eq "a damaged order.bin: the lines still there" 3 "$("$PTTRACE" logs order | wc -l)"
out=$("$PTTRACE" run -q -- /nonexistent/cmd 2>&1)
check_eq "cannot run: said once" "pttrace: '/nonexistent/cmd': cannot run: No such file or directory" "$out"
out=$("$PTTRACE" run -q --name order -- true 2>&1)
check_eq "a taken name: said once" 1 "$(printf '%s\n' "$out" | grep -c 'is taken')"

# B7: the disk holding the run directories fills while the child writes. One
# error naming the file; the child runs on with its output passed through; what
# was kept is indexed; show says the output is incomplete; exit status 125.
# Without a mount namespace the part above still counts: said, and finished there.
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "SKIP: not applicable: B7 needs root and a mount namespace for a 1 MB tmpfs"
	finish
fi
cat >"$T/full.sh" <<'SHEOF'
set -u
mkdir -p "$T/small" "$T/full"
mount -t tmpfs -o size=1m tmpfs "$T/small" || exit 99
ln -s "$T/small" "$T/full/runs"
PTTRACE_DB=$T/full/pt.db "$PTTRACE" run --name fill -- sh -c 'awk "BEGIN { for (i = 0; i < 40000; i++) printf \"line %07d %085d\\n\", i, 0 }"; sleep 3; echo the end' >"$T/fill.out" 2>"$T/fill.err" &
p=$!
# The error is shown when it happens, while the child still runs.
for _ in $(seq 200); do
	if grep -q 'No space left' "$T/fill.err"; then
		grep -q 'the end' "$T/fill.out" || echo yes >"$T/fill.early"
		break
	fi
	kill -0 $p 2>/dev/null || break
	sleep 0.05
done
wait $p
echo $? >"$T/fill.rc"
# The kept part is indexed from the files on the tmpfs: read them before it goes.
PTTRACE_DB=$T/full/pt.db "$PTTRACE" logs fill >"$T/fill.logs"
SHEOF
T=$T PTTRACE=$PTTRACE unshare -m bash "$T/full.sh"
if [ $? = 99 ]; then
	echo "SKIP: not applicable: B7: mounting a tmpfs is not allowed here"
	finish
fi
check_eq "disk full: the error shown while the child runs on" yes "$(cat "$T/fill.early" 2>/dev/null)"
check_eq "disk full: exit 125 (the child's 0 but its output not kept)" 125 "$(cat "$T/fill.rc")"
check_eq "disk full: the child ran on, its output passed through whole" "40001 the end" "$(wc -l <"$T/fill.out") $(tail -1 "$T/fill.out")"
check_eq "disk full: one error" 1 "$(grep -c "stdout.log: write: No space left on device" "$T/fill.err")"
check_contains "disk full: the error names the file" "pttrace: '$T/full/runs/1': stdout.log: write: No space left on device; the child's output from here on is passed through but not kept" "$(cat "$T/fill.err")"
check_contains "disk full: the summary says so" "OUTPUT INCOMPLETE" "$(cat "$T/fill.err")"
check_eq "disk full: two lines on stderr in all" 2 "$(wc -l <"$T/fill.err")"
kept=$(PTTRACE_DB=$T/full/pt.db "$PTTRACE" sql fill 'SELECT bytes_stdout FROM runs WHERE id = :run' | tail -1)
[ "$kept" -gt 500000 ] && pass || fail "disk full: only $kept bytes kept"
lines=$(PTTRACE_DB=$T/full/pt.db "$PTTRACE" sql fill 'SELECT SUM(nlines) FROM records WHERE run_id = :run' | tail -1)
check_eq "disk full: what was kept is indexed" $(((kept + 98) / 99)) "$lines"
check_eq "disk full: logs gives back what was kept" "$(head -c "$kept" "$T/fill.out")" "$(head -c "$kept" "$T/fill.logs")"
check_contains "disk full: show warns" "  warning:  output incomplete: writing the raw output failed (No space left on device) after $kept bytes of stdout and 0 of stderr;" "$(PTTRACE_DB=$T/full/pt.db "$PTTRACE" show fill)"
finish
