# What a new user meets first: a mistyped --db creates no
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
# The figures bench/run_indexing.sh reads: the SQLite writer's CPU is a part of the indexing's.
"$P" run -q --json -- seq 1 50000 >"$T/run.json" 2>/dev/null
check_eq "run --json: the writer's CPU is given (> 0), within the indexing's" "True 50000" "$($PY -c 'import json,sys; j=json.load(open(sys.argv[1])); print(0 < j["index_writer_cpu_seconds"] <= j["index_cpu_seconds"], j["lines"])' "$T/run.json")"
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

# show counts from all indexed data: an imported run has TORCH_TRACE breaks,
# recompiles and failed compiles, and no TORCH_LOGS lines.
check_eq "show: graph breaks and recompiles from TORCH_TRACE" "6 6 15" \
	"$("$P" --json show br | $PY -c 'import json,sys; c=json.load(sys.stdin)["counts"]; print(c["graph_breaks"]["total"], c["graph_breaks"]["torch_trace"], c["recompiles"]["total"])')"
check_contains "show text" "graph_breaks: 6 (TORCH_TRACE 6, TORCH_LOGS 0)" "$("$P" show br)"
"$P" import --name cf "$F/comp_failure.log" >/dev/null
check_contains "a failed compile is an error" "errors: 1 (TORCH_TRACE 1 failed compiles, TORCH_LOGS 0)" "$("$P" show cf)"

# diff covers the output: warnings and errors by normalised text and place,
# tracebacks by exception and innermost frame.
"$P" run -q --name w1 -- /bin/sh -c 'echo "/x/a.py:3: UserWarning: slow path at 0x7f1234 took 1.25 s" >&2' 2>/dev/null
"$P" run -q --name w1b -- /bin/sh -c 'echo "/x/a.py:3: UserWarning: slow path at 0x7f9999 took 2.5 s" >&2' 2>/dev/null
"$P" run -q --name w2 -- /bin/sh -c 'echo "/x/a.py:3: UserWarning: slow path at 0x7f9999 took 2.5 s" >&2
echo "/x/a.py:9: FutureWarning: new one" >&2
printf "Traceback (most recent call last):\n  File \"/x/a.py\", line 12, in <module>\n    f()\nValueError: bad\n" >&2; exit 1' 2>/dev/null
check_rc "the same warning, other address and time: no difference" 0 "$P" diff w1 w1b
check_rc "new warning and traceback: differences" 1 "$P" diff w1 w2
check_contains "new warning" "0 -> 1     /x/a.py:9: FutureWarning: new one" "$(cat "$T/.out")"
check_contains "traceback with its frame" "0 -> 1     ValueError: bad  (File \"/x/a.py\", line 12, in <module>)" "$(cat "$T/.out")"
# diff covers TORCH_TRACE graph breaks (reason and place).
B=$PT_FIXTURES/traces/generated/torch-2.6.0/breaks_recompile/trace/dedicated_log_torch_trace_d88agyhk.log
cut=$(grep -a -n '"dynamo_start"' "$B" | sed -n 5p | cut -d: -f1)
head -n $((cut - 1)) "$B" >"$T/dedicated_log_torch_trace_cut.log"
"$P" import --name brcut "$T/dedicated_log_torch_trace_cut.log" >/dev/null
check_rc "cut trace differs" 1 "$P" diff br brcut
check_contains "TORCH_TRACE graph breaks compared" "trace_graph_breaks: 6 -> 2" "$(cat "$T/.out")"
finish
