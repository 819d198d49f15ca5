# What a new user meets first (issue 17, point 9): a mistyped --db creates no
# directory tree, ls says when there is no database, run --json keeps stdout
# JSON, a bad --grep is a usage error, rm gives the space back and ids are
# never reused, a failed exec is reported once, ops says why it is empty.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTTRACE
PY=/usr/bin/python3
F=$PT_FIXTURES/traces/tlparse-tests/inputs
export PTTRACE_DB=$T/db/pttrace.db

check_rc "--db in a missing directory" 2 "$P" --db "$T/nonexistent/dir/x.db" import "$F/links.log"
check_contains "says why" "only the database's own directory is created" "$(cat "$T/.err")"
check_eq "no directory created" no "$([ -e "$T/nonexistent" ] && echo yes || echo no)"
check_rc "ls with a named missing database" 2 "$P" --db "$T/none.db" ls
check_contains "named database missing" "no pttrace database (--db)" "$(cat "$T/.err")"
check_rc "ls, default database not there yet" 0 env -u PTTRACE_DB HOME="$T/home" XDG_DATA_HOME= "$P" ls
check_contains "no runs yet" "no runs yet (no database at '$T/home/.local/share/pttrace/pttrace.db')" "$(cat "$T/.err")"

# run --json: stdout is the JSON summary only; the child's output goes to stderr.
"$P" run --json -- /bin/echo hello-from-child >"$T/run.json" 2>"$T/run.err"
check_eq "run --json: stdout is one JSON document" 0 "$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["exit"])' "$T/run.json")"
check_contains "child's output on stderr" "hello-from-child" "$(cat "$T/run.err")"
check_rc "run of a missing command" 127 "$P" run -- /nonexistent/cmd
check_eq "its error once" 1 "$(grep -c "cannot run" "$T/.err")"

check_rc "logs --grep with a bad pattern" 2 "$P" logs --grep '(' last
check_contains "named as a pattern error" "--grep '(': not a POSIX extended regular expression" "$(cat "$T/.err")"
check_eq "no SQL in the message" 0 "$(grep -c SELECT "$T/.err")"
check_rc "ops without dispatcher calls" 1 "$P" ops last
check_contains "ops says why" "recorded without --dispatch" "$(cat "$T/.out")"

# rm: the database gives the space back, and a deleted run's id is not given again.
"$P" import --name big "$F/multi_rank_logs" >/dev/null
"$P" import --name small "$F/simple.log" >/dev/null
before=$(stat -c %s "$PTTRACE_DB")
last=$("$P" --json show small | $PY -c 'import json,sys; print(json.load(sys.stdin)["id"])')
check_rc "rm" 0 "$P" rm big small
after=$(stat -c %s "$PTTRACE_DB")
check_eq "database shrank to less than a third" 1 "$(( after * 3 < before ))"
"$P" import --name again "$F/simple.log" >/dev/null
check_eq "new run id after the deleted ones" $((last + 1)) "$("$P" --json show again | $PY -c 'import json,sys; print(json.load(sys.stdin)["id"])')"
check_eq "payloads of deleted runs gone" 59 "$("$P" sql again 'SELECT count(*) FROM trace_payloads' | tail -1)"
# graph-breaks --unique: a reason and place once, with its occurrences.
"$P" import --name br "$PT_FIXTURES/traces/generated/torch-2.6.0/breaks_recompile/trace" >/dev/null
check_rc "graph-breaks --unique" 0 "$P" graph-breaks br --unique
check_eq "one entry, six occurrences" "6x Unsupported: builtin: print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] False
    at /root/gen/breaks_recompile.py:4
    in [0/0], [1/0], [0/1], [1/1], [0/2], [1/2]" "$(cat "$T/.out")"
check_eq "--unique --json" "1 6 6" "$("$P" --json graph-breaks br --unique | $PY -c 'import json,sys; d=json.load(sys.stdin); print(len(d), d[0]["count"], len(d[0]["compile_ids"]))')"
finish
