#!/usr/bin/env bash
# N16 (docs/internals/fault-matrix.md): terminal escape sequences in what a run
# or an imported TORCH_TRACE holds (run name, file name, co_name, co_filename,
# fail_type/fail_reason, stack names, the str table, graph-break and recompile
# reasons, dispatcher op names, log text, SQL values) never reach stdout or
# stderr raw in text output: shown as \xNN as ptinspect does (B24,
# common/ttysafe). Printable UTF-8 passes; --json is JSON-escaped as before;
# logs and artifact into a pipe stay byte for byte, on a terminal are escaped.
# ctest-timeout: 120
. "$PT_TESTLIB/common.sh"
cd "$T" || exit 2
export PTTRACE_DB=$T/db/pt.db NO_COLOR=1
P=$PTTRACE

# The title set, the screen cleared, red, and a C1 CSI (U+009B), then printable UTF-8.
python3 - "$T" <<'PY' || fail "python3: the crafted trace"
import hashlib, json, os, sys
E = '\x1b]0;PWNED\x07\x1b[2J\x1b[31m\u009b1m'
U = '\u00e9\u2713'
w = open(os.path.join(sys.argv[1], 'esc\x1b[2J.log'), 'w', encoding='utf-8')
def rec(env, p=None):
    if p is not None: env['has_payload'] = hashlib.md5(p.encode()).hexdigest()
    w.write('V1206 15:18:10.000000 1 a.py:1] ' + json.dumps(env) + '\n')
    if p is not None: w.write(''.join('\t' + l + '\n' for l in p.split('\n')))
cid = {"frame_id": 0, "frame_compile_id": 0, "attempt": 0}
rec({"str": ["/x/" + E + "f.py", 0]})
rec(dict({"dynamo_start": {"stack": [{"line": 1, "name": "fn" + E, "filename": 0}]}}, **cid))
payload = "Graph break " + E + "\n  File \"x.py\", line 1, in f"
open(os.path.join(sys.argv[1], 'payload'), 'w', encoding='utf-8').write(payload)
rec(dict({"artifact": {"name": "dynamo_graph_break_reason", "encoding": "string"}}, **cid), payload)
rec(dict({"artifact": {"name": "recompile_reasons", "encoding": "json"}}, frame_id=0, frame_compile_id=1, attempt=0), json.dumps(["guard " + E]))
rec(dict({"compilation_metrics": {"co_name": "co" + E + U, "co_filename": "/f" + E, "co_firstlineno": 1, "fail_type": "T" + E, "fail_reason": "R" + E}}, **cid))
PY
ESC=$'\x1b'
"$P" import --name "job${ESC}[31m" "$T/esc${ESC}[2J.log" >/dev/null 2>"$T/import.err" || fail "import: $(cat "$T/import.err")"
printf ' [call] op=[aten::a\033c\007dd.Tensor], key=[CPU]\n  [redispatch] op=[aten::add\033c], key=[CPU]\n' >"$T/d.txt"
"$P" run -q --name "ops${ESC}]0;T"$'\a' -- sh -c "cat '$T/d.txt'; printf 'W1125 06:00:00.000000 1 x.py:1] warn \033[2J here\n' >&2" >/dev/null 2>&1 ||
	fail "run of the dispatcher lines"
# A damaged file whose name sets the title: import's warning names it.
printf 'V1206 15:18:10.000000 1 a.py:1] {"str": [broken\n' >"$T/bad${ESC}]0;T"$'\a'".log"
"$P" import --name bad "$T/bad${ESC}]0;T"$'\a'".log" >"$T/bad.out" 2>"$T/bad.err"

# Raw control bytes other than newline and tab (C0, DEL, C1 as UTF-8) in a file.
ctl() {
	echo $(($(LC_ALL=C tr -cd '\000-\010\013-\037\177' <"$1" | wc -c) + $(LC_ALL=C grep -aoP '\xc2[\x80-\x9f]' "$1" | wc -l)))
}
check_eq "import's warning on stderr: raw control bytes" 0 "$(ctl "$T/bad.err")"
check_contains "import's warning: the name escaped" "bad\x1b]0;T\x07.log" "$(cat "$T/bad.err")"

# Every text command on these runs: no raw control byte on stdout or stderr.
nocontrol() {
	"$P" "$@" >"$T/out" 2>"$T/err"
	check_eq "pttrace $*: raw control bytes on stdout" 0 "$(ctl "$T/out")"
	check_eq "pttrace $*: raw control bytes on stderr" 0 "$(ctl "$T/err")"
	[ -s "$T/out" ] || [ -s "$T/err" ] || fail "pttrace $*: no output at all"
}
for c in "ls" "show 1" "show 2" "compiles 1" "graph-breaks 1" "graph-breaks --unique 1" "recompiles 1" \
	"ops 2" "ops --tree 2" "ranks 1" "diff 1 2" "diff 2 1"; do
	nocontrol $c
done
nocontrol sql 'SELECT * FROM runs'
nocontrol sql 'SELECT char(27, 93, 48, 59, 88, 7, 27, 91, 50, 74, 155) AS v'
nocontrol show "nope${ESC}[2J"
nocontrol compiles "nope${ESC}]0;T"$'\a'

# What the reader sees instead: \xNN, a C1 control as \xc2\xNN; printable UTF-8 as it is.
E='\x1b]0;PWNED\x07\x1b[2J\x1b[31m\xc2\x9b1m'
out=$("$P" compiles 1)
check_contains "compiles: co_name escaped, its UTF-8 kept" "co$E"$'\u00e9\u2713'" /f$E:1" "$out"
check_contains "compiles: the failure escaped" "failed: T$E: R$E" "$out"
check_contains "ls: the run name escaped" 'job\x1b[31m' "$("$P" ls)"
check_contains "graph-breaks: reason and stack escaped" "Graph break $E" "$("$P" graph-breaks 1)"
check_contains "recompiles: the guard escaped" "guard $E" "$("$P" recompiles 1)"
check_contains "ranks: the file name escaped" 'esc\x1b[2J.log' "$("$P" ranks 1)"
check_contains "ops: the op name escaped" 'aten::a\x1bc\x07dd.Tensor' "$("$P" ops 2)"
check_contains "sql: a value escaped" '\x1b]0;X\x07\x1b[2J\xc2\x9b' "$("$P" sql 'SELECT char(27,93,48,59,88,7,27,91,50,74,155) AS v')"
check_contains "stderr: no such run, escaped" "no run 'nope\x1b[2J'" "$("$P" show "nope${ESC}[2J" 2>&1)"

# --json: the strings as they were, JSON-escaped (no \xNN), valid JSON.
got=$("$P" --json compiles 1 | python3 -c '
import json, sys
print(json.load(sys.stdin)[0]["name"] == "co\x1b]0;PWNED\x07\x1b[2J\x1b[31m\u009b1m\u00e9\u2713")')
check_eq "compiles --json: the name byte for byte" True "$got"
got=$("$P" sql --json 'SELECT char(27, 155, 127) AS v' | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["v"] == "\x1b\u009b\x7f")')
check_eq "sql --json: the value byte for byte" True "$got"
got=$("$P" --json ls | python3 -c 'import json, sys; print([r["name"] for r in json.load(sys.stdin)][:2])')
check_eq "ls --json: the names" "['job\x1b[31m', 'ops\x1b]0;T\x07']" "$got"

# logs and artifact into a pipe: the bytes as written; on a terminal: escaped.
"$P" artifact 1 0/0 dynamo_graph_break_reason >"$T/art" 2>"$T/err"
check_eq "artifact into a pipe: byte for byte" "$(md5sum <"$T/payload")" "$(md5sum <"$T/art")"
"$P" logs 2 >"$T/logs" 2>"$T/err"
check_eq "logs into a pipe: byte for byte" "$( (cat "$T/d.txt"; printf 'W1125 06:00:00.000000 1 x.py:1] warn \033[2J here\n') | sort | md5sum)" "$(sort "$T/logs" | md5sum)"
on_tty() { script -qec "$*" /dev/null </dev/null | tr -d '\r'; }
for c in "logs 2" "artifact 1 0/0 dynamo_graph_break_reason" "compiles 1" "sql SELECT\ name\ FROM\ runs"; do
	on_tty "'$P' $c" >"$T/tty"
	check_eq "pttrace $c on a terminal: raw control bytes" 0 "$(ctl "$T/tty")"
	[ -s "$T/tty" ] || fail "pttrace $c on a terminal: no output"
done
check_contains "logs on a terminal: escaped" 'warn \x1b[2J here' "$(on_tty "'$P' logs 2")"
check_contains "artifact on a terminal: escaped" "Graph break $E" "$(on_tty "'$P' artifact 1 0/0 dynamo_graph_break_reason")"
finish
