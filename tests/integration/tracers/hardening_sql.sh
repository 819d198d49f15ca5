#!/usr/bin/env bash
# pttrace sql on a database someone changed with the sqlite3 shell
# (docs/internals/fault-matrix.md): N19 a query on an FTS5, FTS3 or R*Tree table
# prints its rows and exits 0 (it aborted at close: "BUG: unfinalized statement",
# SIGABRT); N20 fts3_tokenizer() is refused in either form, exit 2, nothing
# printed (the one-argument form printed a code address, the two-argument form
# installed any bytes as a tokenizer).
# ctest-timeout: 120
. "$PT_TESTLIB/common.sh"
cd "$T" || exit 2
command -v sqlite3 >/dev/null || skip "sqlite3 (Debian package sqlite3) is not installed"
export PTTRACE_DB=$T/db/pt.db
"$PTTRACE" import --name r "$PT_FIXTURES/traces/tlparse-tests/inputs/comp_metrics.log" >/dev/null 2>"$T/import.err" ||
	fail "import: $(cat "$T/import.err")"
sqlite3 "$PTTRACE_DB" "PRAGMA wal_checkpoint(TRUNCATE);
	CREATE VIRTUAL TABLE notes USING fts5(body); INSERT INTO notes VALUES ('graph break in layer 3'), ('recompile');
	CREATE VIRTUAL TABLE n3 USING fts3(body); INSERT INTO n3 VALUES ('graph break');
	CREATE VIRTUAL TABLE rt USING rtree(id, x0, x1); INSERT INTO rt VALUES (1, 0, 1);" >/dev/null ||
	fail "sqlite3 could not add the virtual tables"

# N19: the rows, exit 0, nothing on stderr; text and --json, with RUN bound too.
sq() { "$PTTRACE" "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
for q in "SELECT count(*) AS n FROM notes WHERE notes MATCH 'graph'" \
	"SELECT count(*) AS n FROM n3 WHERE n3 MATCH 'graph'" \
	"SELECT count(*) AS n FROM rt WHERE x0 < 5" \
	"SELECT rowid AS n FROM notes WHERE notes MATCH 'graph' ORDER BY rank"; do
	sq sql "$q"
	check_eq "$q: exit" 0 "$(cat "$T/rc")"
	check_eq "$q: the row" "$(printf 'n\n1')" "$(cat "$T/out")"
	check_eq "$q: stderr" "" "$(cat "$T/err")"
done
sq --json sql "SELECT count(*) AS n FROM notes WHERE notes MATCH 'graph'"
check_eq "fts5 --json: exit" 0 "$(cat "$T/rc")"
check_eq "fts5 --json: the array" "$(printf '[\n  {\n    "n": 1\n  }\n]')" "$(cat "$T/out")"
sq sql r "SELECT count(*) AS n FROM notes WHERE notes MATCH 'graph' AND :run = 1"
check_eq "fts5 with RUN bound: exit and row" "0 $(printf 'n\n1')" "$(cat "$T/rc") $(cat "$T/out")"
# A query the virtual table fails: the error, exit 2, no abort.
sq sql "SELECT * FROM notes WHERE notes MATCH 'AND AND'"
check_eq "fts5 syntax error: exit" 2 "$(cat "$T/rc")"
check_contains "fts5 syntax error: the message" "fts5: syntax error" "$(cat "$T/err")"
grep -q BUG "$T/err" && fail "fts5 syntax error: $(cat "$T/err")" || pass
# Stopped by its reader in the middle of the rows.
sq sql "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000) SELECT x FROM c, notes WHERE notes MATCH 'graph'"
check_eq "fts5 joined, all rows: exit" 0 "$(cat "$T/rc")"
check_eq "fts5 joined, all rows: count" 100001 "$(wc -l <"$T/out")"
# (SIGPIPE ignored: the write error ends the rows, through the escaping stdout too.)
out=$( (trap '' PIPE; timeout 60 "$PTTRACE" sql "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c WHERE x > (SELECT count(*) - 1 FROM notes WHERE notes MATCH 'graph')" 2>"$T/err"; echo "rc=$?" >"$T/rc") | head -2)
check_eq "fts5 in an endless query, | head -2" "$(printf 'x\n1')" "$out"
check_eq "fts5 in an endless query, reader gone: exit, stderr" "rc=0 " "$(cat "$T/rc") $(cat "$T/err")"

# N20: refused before anything runs, in either form and any case; exit 2, no row.
for q in "SELECT hex(fts3_tokenizer('simple'))" \
	"SELECT fts3_tokenizer('simple', x'4141414141414141')" \
	"SELECT FTS3_TOKENIZER('porter') IS NULL"; do
	sq sql "$q"
	check_eq "$q: exit" 2 "$(cat "$T/rc")"
	check_eq "$q: nothing printed" "" "$(cat "$T/out")"
	check_contains "$q: the message" "not authorized to use function: " "$(cat "$T/err")"
	sq --json sql "$q"
	check_eq "$q --json: exit and stdout" "2 " "$(cat "$T/rc") $(cat "$T/out")"
done
# Nothing was installed: FTS3's own tokenizer still works after the two-argument attempt.
sq sql "SELECT count(*) AS n FROM n3 WHERE n3 MATCH 'break'"
check_eq "fts3 after the refused fts3_tokenizer: exit and row" "0 $(printf 'n\n1')" "$(cat "$T/rc") $(cat "$T/out")"
# What stays allowed: ordinary functions and the read-only check as before (B17).
sq sql "SELECT length(hex(randomblob(8))) AS n"
check_eq "other functions" "0 $(printf 'n\n16')" "$(cat "$T/rc") $(cat "$T/out")"
sq sql "DELETE FROM notes"
check_eq "a write: exit" 2 "$(cat "$T/rc")"
check_contains "a write: refused" "only read-only statements" "$(cat "$T/err")"
finish
