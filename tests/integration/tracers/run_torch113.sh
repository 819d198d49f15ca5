# Rule: pttrace run keeps everything a real torch program says and reports
# how it ended: prints, warnings and a traceback from Debian's torch 1.13;
# a child killed by a signal, one killed through pttrace (SIGTERM forwarded
# to its process group), one that closes its streams early, workers forked
# by multiprocessing writing [rankN]: lines, and commands that cannot run.
# ctest-timeout: 300
. "$PT_TESTLIB/common.sh" || exit 2
PY=/usr/bin/python3
[ -x "$PY" ] || skip "no $PY"
"$PY" -c 'import torch' 2>/dev/null || skip "Debian's python3-torch is not installed"
export PTTRACE_DB="$T/db/pttrace.db"
P="$PTTRACE"
sqlv() { "$P" sql "$1" "$2" | tail -n +2; }
# The caller's environment must not matter: pttrace sets PYTHONUNBUFFERED itself.
unset PYTHONUNBUFFERED TORCH_LOGS TORCH_TRACE

cat >"$T/talk.py" <<'PYEOF'
import sys, warnings
import torch
for i in range(3):
    print("stdout line", i)
print("stderr line", file=sys.stderr)
warnings.warn("careful with that tensor")
print(torch.ones(2) + 1)
raise ValueError("boom")
PYEOF
"$P" run --python "$PY" --name talk --tag e2e "$T/talk.py" a1 >"$T/out" 2>"$T/err"
check_eq "talk: exit status is the child's" 1 $?
check_contains "talk: live stdout" "stdout line 2" "$(cat "$T/out")"
check_contains "talk: live stderr" "ValueError: boom" "$(cat "$T/err")"
check_contains "talk: torch 1.13 warning" "TORCH_LOGS has no effect: torch 1.13" "$(cat "$T/err")"
printf 'stdout line 0\nstdout line 1\nstdout line 2\ntensor([2., 2.])\n' >"$T/want.out"
"$P" logs --stream stdout talk >"$T/got.out"
check_eq "talk: stdout kept byte for byte" "" "$(diff "$T/want.out" "$T/got.out")"
check_eq "talk: status" "exited|1" "$(sqlv talk "SELECT status || '|' || exit_code FROM runs WHERE id = :run")"
check_eq "talk: argv" "[\"$PY\",\"$T/talk.py\",\"a1\"]" "$(sqlv talk "SELECT argv FROM runs WHERE id = :run")"
check_contains "talk: torch version" "1.13" "$(sqlv talk "SELECT torch_version FROM runs WHERE id = :run")"
check_eq "talk: traceback grouped" "4|ValueError: boom" \
	"$(sqlv talk "SELECT nlines || '|' || substr(text, -16) FROM records WHERE run_id = :run AND kind = 'traceback'")"
check_eq "talk: warning with its source line" "2|30" \
	"$(sqlv talk "SELECT nlines || '|' || level FROM records WHERE run_id = :run AND kind = 'warning'")"
check_eq "talk: environment recorded (the short default TORCH_LOGS)" "1|graph_breaks,recompiles" \
	"$(sqlv talk "SELECT (SELECT value FROM run_env WHERE run_id = :run AND name = 'PYTHONUNBUFFERED') || '|' || (SELECT value FROM run_env WHERE run_id = :run AND name = 'TORCH_LOGS')")"
# The child's TORCH_LOGS: --logs SPEC for more, the caller's own TORCH_LOGS wins over the default.
cat >"$T/logs.py" <<'PYEOF'
import os
print("TORCH_LOGS=" + os.environ.get("TORCH_LOGS", "(unset)"))
PYEOF
"$P" run -q --python "$PY" --name logsdef "$T/logs.py" >/dev/null 2>&1
check_eq "logs: default" "TORCH_LOGS=graph_breaks,recompiles" "$("$P" logs --stream stdout logsdef)"
"$P" run -q --python "$PY" --name logsopt --logs +dynamo,guards "$T/logs.py" >/dev/null 2>&1
check_eq "logs: --logs SPEC" "TORCH_LOGS=+dynamo,guards" "$("$P" logs --stream stdout logsopt)"
TORCH_LOGS=+dynamo "$P" run -q --python "$PY" --name logsenv "$T/logs.py" >/dev/null 2>&1
check_eq "logs: the caller's TORCH_LOGS wins" "TORCH_LOGS=+dynamo" "$("$P" logs --stream stdout logsenv)"
"$P" run -q --python "$PY" --name logsoff --logs '' "$T/logs.py" >/dev/null 2>&1
check_eq "logs: --logs '' unsets it" "TORCH_LOGS=(unset)" "$("$P" logs --stream stdout logsoff)"
"$P" --json show talk >"$T/show.json"
check_eq "talk: show --json" "exited 1 e2e 5 1" \
	"$("$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); k={x["kind"]: x["lines"] for x in d["lines_by_kind"]}; print(d["status"], d["exit_code"], d["tag"], k["other"], len(d["errors"]))' "$T/show.json")"
check_contains "talk: show names the warning" "logs-old-torch" "$(cat "$T/show.json")"
"$P" show talk --json >"$T/show2.json"
check_eq "talk: show RUN --json (option after the operand) gives the same document" "" "$(diff "$T/show.json" "$T/show2.json")"
check_eq "talk: --level W finds the warning and the traceback" "2" \
	"$("$P" --json logs --level W talk | "$PY" -c 'import json,sys; print(len(json.load(sys.stdin)))')"

# Killed by a signal: 128+9, and what it printed before is there.
cat >"$T/killed.py" <<'PYEOF'
import os, signal
print("before the signal")
os.kill(os.getpid(), signal.SIGKILL)
PYEOF
"$P" run -q --python "$PY" --name killed "$T/killed.py" >/dev/null 2>&1
check_eq "killed: exit 128+9" 137 $?
check_eq "killed: status" "signaled|9" "$(sqlv killed "SELECT status || '|' || signal FROM runs WHERE id = :run")"
check_eq "killed: output before the signal" "before the signal" "$("$P" logs killed)"

# A hanging child: SIGTERM to pttrace reaches the child's process group.
cat >"$T/hang.py" <<'PYEOF'
import os, sys, time
if os.fork() == 0:
    time.sleep(60); sys.exit(0)
print("ready", flush=True)
time.sleep(60)
PYEOF
"$P" run --python "$PY" --name hang "$T/hang.py" >"$T/hang.out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q ready "$T/hang.out" 2>/dev/null && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid"
check_eq "hang: exit 128+15" 143 $?
check_eq "hang: status" "signaled|15" "$(sqlv hang "SELECT status || '|' || signal FROM runs WHERE id = :run")"
check_eq "hang: its forked child got SIGTERM too (no process left)" "" \
	"$(ps -eo args | grep -F "$T/hang.py" | grep -v grep)"

# Streams closed early, the process goes on and exits 3.
cat >"$T/closes.py" <<'PYEOF'
import os, sys, time
print("out before close"); print("err before close", file=sys.stderr)
os.close(1); os.close(2)
time.sleep(0.5)
sys.exit(3)
PYEOF
"$P" run -q --python "$PY" --name closes "$T/closes.py" >/dev/null 2>&1
check_eq "closes: exit 3" 3 $?
check_eq "closes: both lines" "2" "$(sqlv closes "SELECT SUM(nlines) FROM records WHERE run_id = :run")"

# Forked workers writing [rankN]: lines, interleaved: every line, by rank.
cat >"$T/workers.py" <<'PYEOF'
import multiprocessing as mp, os, sys, time
def work(rank):
    for i in range(200):
        sys.stderr.write("[rank%d]:I1122 02:48:32.452000 %d torch/_dynamo/x.py:%d] [0/0] step %d\n" % (rank, os.getpid(), 10 + i, i))
        sys.stderr.flush()
if __name__ == "__main__":
    ps = [mp.Process(target=work, args=(r,)) for r in range(2)]
    for p in ps: p.start()
    for p in ps: p.join()
    print("done")
PYEOF
"$P" run -q --python "$PY" --name workers "$T/workers.py" >/dev/null 2>&1
check_eq "workers: exit 0" 0 $?
check_eq "workers: lines by rank" "0|200 1|200" \
	"$(sqlv workers "SELECT rank || '|' || SUM(nlines) FROM records WHERE run_id = :run AND kind = 'log' GROUP BY rank ORDER BY rank" | tr '\n' ' ' | sed 's/ $//')"
check_eq "workers: 401 lines in all" 401 "$(sqlv workers "SELECT SUM(nlines) FROM records WHERE run_id = :run")"

# A segmentation fault: 128+11.
"$P" run -q --python "$PY" --name segv -- "$PY" -c 'import ctypes; print("x"); ctypes.string_at(0)' >/dev/null 2>&1
check_eq "segv: exit 128+11" 139 $?

# Commands that cannot run: 127 not found, 126 not executable; the run says "failed".
check_rc "missing command: 127" 127 "$P" run -q -- "$T/no-such-program"
check_contains "missing command: message" "no-such-program" "$(cat "$T/.err")"
printf 'x\n' >"$T/plain.txt"
check_rc "not executable: 126" 126 "$P" run -q -- "$T/plain.txt"
check_rc "missing --python: 127" 127 "$P" run -q --python "$T/nopython" "$T/talk.py"
check_eq "failed runs recorded (missing, not executable, missing --python)" "failed failed failed" "$(sqlv last "SELECT status FROM runs WHERE status = 'failed'" | tr '\n' ' ' | sed 's/ $//')"

# --dispatch from Python on a release torch: the warning, and nothing traced.
"$P" run -q --dispatch --python "$PY" --name disp -- "$PY" -c 'import torch; print(torch.ones(1) + 1)' >/dev/null 2>"$T/err"
check_contains "release torch: dispatch warning" "TORCH_SHOW_DISPATCH_TRACE has no effect on torch 1.13" "$(cat "$T/err")"
check_eq "release torch: warnings recorded" "dispatch-no-output dispatch-release-build logs-old-torch trace-old-torch" \
	"$(sqlv disp "SELECT code FROM run_warnings WHERE run_id = :run ORDER BY code" | tr '\n' ' ' | sed 's/ $//')"

# pttrace itself killed: the run becomes "lost", its raw output is kept, reindex indexes it.
cat >"$T/long.py" <<'PYEOF'
import time
for i in range(3):
    print("line", i, flush=True)
time.sleep(60)
PYEOF
"$P" run -q --python "$PY" --name lost "$T/long.py" >/dev/null 2>&1 &
ppid=$!
for _ in $(seq 100); do
	[ "$(sqlv lost "SELECT bytes FROM run_files WHERE run_id = :run" 2>/dev/null)" = "" ] || break
	[ -s "$T/db/runs/$(sqlv lost "SELECT :run" 2>/dev/null)/stdout.log" ] && break
	sleep 0.1
done
sleep 0.3
kill -KILL "$ppid"
wait "$ppid" 2>/dev/null
child=$(sqlv lost "SELECT pid FROM runs WHERE id = :run")
kill -TERM -- "-$child" 2>/dev/null
check_rc "reindex after pttrace was killed" 0 "$P" reindex
check_eq "killed pttrace: run marked lost" lost "$(sqlv lost "SELECT status FROM runs WHERE id = :run")"
check_eq "killed pttrace: its lines indexed" 3 "$(sqlv lost "SELECT SUM(nlines) FROM records WHERE run_id = :run")"

# rm: rows and directory gone.
id=$(sqlv talk "SELECT :run")
check_rc "rm" 0 "$P" rm talk
check_eq "rm: directory removed" "no" "$([ -d "$T/db/runs/$id" ] && echo yes || echo no)"
check_rc "rm: gone" 2 "$P" show talk
finish
