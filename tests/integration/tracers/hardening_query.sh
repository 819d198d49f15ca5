#!/usr/bin/env bash
# Query results are streamed (docs/internals/fault-matrix.md): B4 `pttrace logs`
# and --json of a long run under `| head` stop early in bounded memory; B16 an
# endless `pttrace sql` query prints rows at once and stops with its reader; B17
# text with more than one statement is refused, nothing run.
# ctest-timeout: 300
. "$PT_TESTLIB/common.sh"
cd "$T" || exit 2
export PTTRACE_DB=$T/db/pt.db
[ -x /usr/bin/time ] || skip "/usr/bin/time (Debian package time) is not installed"

# 200,000 lines of 100 bytes: the whole result in memory took ~2.5 KB a line
# (~500 MB here); streamed, a few MB whatever the length.
n=200000
"$PTTRACE" run -q --name big -- awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "line %07d %085d\n", i, 0 }' >/dev/null 2>"$T/run.err"
check_eq "big run recorded" "$n" "$("$PTTRACE" sql big 'SELECT SUM(nlines) FROM records WHERE run_id = :run' | tail -1)"
limit_kb=100000
if [ "${PT_SANITIZE:-OFF}" = ON ]; then
	# ASan keeps freed memory in quarantine (256 MB by default): a small one,
	# so that RSS measures what the program holds.
	export ASAN_OPTIONS="$ASAN_OPTIONS:quarantine_size_mb=16"
	limit_kb=150000
fi

rss() { /usr/bin/time -f %M -o "$T/rss" "$@"; }
first=$(rss "$PTTRACE" logs big 2>"$T/err" | head -1)
check_eq "logs | head -1: the first line" "line 0000000 $(printf '%085d' 0)" "$first"
kb=$(tail -1 "$T/rss")
[ "$kb" -lt $limit_kb ] && pass || fail "logs | head -1 used $kb KB (bound $limit_kb)"

rss "$PTTRACE" logs big >"$T/all.txt" 2>"$T/err"
check_eq "logs: all lines, byte for byte" "$(awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "line %07d %085d\n", i, 0 }' | md5sum)" "$(md5sum <"$T/all.txt")"
kb=$(tail -1 "$T/rss")
[ "$kb" -lt $limit_kb ] && pass || fail "logs of the whole run used $kb KB (bound $limit_kb)"

rss "$PTTRACE" --json logs big >"$T/all.json" 2>"$T/err"
kb=$(tail -1 "$T/rss")
[ "$kb" -lt $limit_kb ] && pass || fail "--json logs of the whole run used $kb KB (bound $limit_kb)"
# The streamed array is the document pt_json_print writes for the whole result.
"$PTTRACE" --json logs --limit 3 big >"$T/three.json"
k=$(($(wc -l <"$T/three.json") - 2))
check_eq "--json logs: the first rows as --limit gives them" "$(head -n $k "$T/three.json")" "$(head -n $k "$T/all.json")"
check_eq "--json logs: the array holds every record" "$n" "$(grep -c '"seq":' "$T/all.json")"
check_eq "--json logs: the array is closed" "]" "$(tail -1 "$T/all.json")"
check_eq "--json logs of nothing" "[]" "$("$PTTRACE" --json logs --grep zzz big)"

# A reader that closes the pipe, with SIGPIPE ignored: the output ends quietly.
(trap '' PIPE; "$PTTRACE" --json logs big 2>"$T/err" | head -2 >/dev/null; echo "${PIPESTATUS[0]}" >"$T/rc")
check_eq "closed pipe, SIGPIPE ignored: exit" 0 "$(cat "$T/rc")"
check_eq "closed pipe, SIGPIPE ignored: nothing on stderr" "" "$(cat "$T/err")"

# ops --tree streams too: the tree as before, a long trace in bounded memory.
cat >"$T/d.txt" <<'TXT'
 [call] op=[aten::add.Tensor], key=[AutogradCPU]
  [redispatch] op=[aten::add.Tensor], key=[CPU]
   [call] op=[aten::empty.memory_format], key=[BackendSelect]
  [call] op=[aten::copy_], key=[CPU]
 [call] op=[aten::mul.Tensor], key=[AutogradCPU]
    [call] op=[aten::deep], key=[CPU]
 [callBoxed] op=[aten::foo], key=[CPU]
TXT
"$PTTRACE" run -q --name tree -- sh -c "cat '$T/d.txt' >&2" 2>/dev/null
check_eq "ops --tree" "aten::add.Tensor [AutogradCPU] (call)
  aten::add.Tensor [CPU] (redispatch)
    aten::empty.memory_format [BackendSelect] (call)
  aten::copy_ [CPU] (call)
aten::mul.Tensor [AutogradCPU] (call)
  aten::deep [CPU] (call)
aten::foo [CPU] (callBoxed)" "$("$PTTRACE" ops --tree tree)"
check_eq "ops --tree --json: every call" 7 "$("$PTTRACE" --json ops --tree tree | grep -c '"label"')"
"$PTTRACE" run -q --name calls -- awk 'BEGIN { for (i = 0; i < 100000; i++) printf " [call] op=[aten::add.Tensor], key=[CPU]\n  [redispatch] op=[aten::add.Tensor], key=[CPU]\n" > "/dev/stderr" }' 2>/dev/null
first=$(rss "$PTTRACE" ops --tree calls 2>"$T/err" | head -1)
check_eq "ops --tree | head -1" "aten::add.Tensor [CPU] (call)" "$first"
rss "$PTTRACE" --json ops --tree calls >"$T/calls.json" 2>"$T/err"
check_eq "ops --tree --json: 200,000 calls" 200000 "$(grep -c '"label"' "$T/calls.json")"
kb=$(tail -1 "$T/rss")
[ "$kb" -lt $limit_kb ] && pass || fail "ops --tree --json of 200,000 calls used $kb KB (bound $limit_kb)"

# B16: an endless query prints its first rows at once, in bounded memory, and stops with its reader.
cte="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c"
out=$(rss timeout 60 "$PTTRACE" sql "$cte" 2>"$T/err" | head -3)
check_eq "endless sql | head -3" "$(printf 'x\n1\n2')" "$out"
kb=$(tail -1 "$T/rss")
[ "$kb" -lt $limit_kb ] && pass || fail "endless sql | head used $kb KB (bound $limit_kb)"
out=$(timeout 60 "$PTTRACE" --json sql "$cte" 2>"$T/err" | head -4)
check_eq "endless sql --json | head -4" "$(printf '[\n  {\n    "x": 1\n  },')" "$out"
rss "$PTTRACE" sql "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1000000) SELECT x FROM c" >"$T/cte.txt"
check_eq "a million rows of sql" "1000001 1000000" "$(wc -l <"$T/cte.txt") $(tail -1 "$T/cte.txt")"
kb=$(tail -1 "$T/rss")
[ "$kb" -lt $limit_kb ] && pass || fail "a million rows of sql used $kb KB (bound $limit_kb)"

# B17: several statements are refused, nothing run; a trailing ';' or comment is fine.
runs=$("$PTTRACE" sql 'SELECT count(*) FROM runs' | tail -1)
out=$("$PTTRACE" sql 'SELECT 1; DELETE FROM runs' 2>&1); rc=$?
check_eq "two statements: exit" 2 "$rc"
check_eq "two statements: refused, the rest named" "pttrace: one statement at a time: nothing was run; after the first comes 'DELETE FROM runs'" "$out"
out=$("$PTTRACE" sql 'SELECT 1 AS a; SELECT 2' 2>&1); rc=$?
check_eq "two SELECTs: exit" 2 "$rc"
check_eq "two SELECTs: nothing printed" "pttrace: one statement at a time: nothing was run; after the first comes 'SELECT 2'" "$out"
check_eq "runs untouched" "$runs" "$("$PTTRACE" sql 'SELECT count(*) FROM runs' | tail -1)"
out=$("$PTTRACE" sql "SELECT 7 AS a; -- a comment
;  " 2>&1); rc=$?
check_eq "a trailing ';' and comment: exit" 0 "$rc"
check_eq "a trailing ';' and comment: the row" "$(printf 'a\n7')" "$out"
finish
