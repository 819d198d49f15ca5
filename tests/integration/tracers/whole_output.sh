# Whole renderings of pttrace compared with expected/*.txt (stdout and
# stderr, normalised by check_output and check_case): what a reader of the
# terminal sees, so that a message printed twice or a column gone astray fails
# here. Every text renderer: run, import, ls, show, logs, ops (--tree), compiles,
# graph-breaks (--unique), recompiles, artifact (one payload, --out), ranks,
# timeline, diff (two runs, two imports), sql, reindex, rm, report, usage errors.
# Rewrite the expected files: PT_UPDATE_EXPECTED=1 ctest -R tracers_whole_output
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTTRACE
E=$PT_SRC/tests/integration/tracers/expected
export PTTRACE_DB=$T/db/pttrace.db
export NO_COLOR=1
cd "$T" || exit 2

# A child that writes a damaged TORCH_TRACE file: the warning once, then the summary.
"$P" run -q --name damaged -- sh -c 'mkdir -p "$TORCH_TRACE"; printf "garbage\n" > "$TORCH_TRACE/dedicated_log_torch_trace_rank_0_x.log"' \
	>"$T/run.out" 2>"$T/run.err"
check_eq "run exits with the child's status" 0 $?
check_output "run: stderr" "$E/run_damaged_trace.stderr.txt" "$T/run.err"
check_output "run: stdout" "$E/run_damaged_trace.stdout.txt" "$T/run.out"

# A command that is not there: one message, exit 127.
"$P" run -q -- /nonexistent/cmd >"$T/nf.out" 2>"$T/nf.err"
check_eq "run: not found" 127 $?
check_output "run: command not found, stderr" "$E/run_not_found.stderr.txt" "$T/nf.err"

# ls and show of those runs (times normalised).
"$P" ls 2>"$T/ls.err" | sed -E 's/ +[0-9]+\.[0-9]  / <DUR>  /' >"$T/ls.out"
check_output "ls" "$E/ls.stdout.txt" "$T/ls.out"
check_output "ls: stderr" "$E/empty.txt" "$T/ls.err"
"$P" show damaged >"$T/show.out" 2>"$T/show.err"
check_output "show" "$E/show_damaged.stdout.txt" "$T/show.out"
check_output "show: stderr" "$E/empty.txt" "$T/show.err"

# What differs between two runs of this script, and nothing else (check_case):
NORM=(
	# wall-clock dates (ls, show)
	-e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]/<DATE>/g'
	# durations measured here: ls's SECONDS column, show's "started:" line, import's time and rate
	-e 's/<DATE>  *[0-9]\+\.[0-9]  /<DATE>  <SECONDS>  /'
	-e 's/^\(  started:  <DATE>\), [0-9.]\+ s$/\1, <SECONDS> s/'
	-e 's/ in [0-9.]\+ s ([0-9.]\+ [KMG]\?B\/s);/ in <SECONDS> s (<RATE>);/'
)
F=$PT_FIXTURES/traces
B=$F/generated/torch-2.6.0/breaks_recompile
export PTTRACE_DB=$T/db2/pttrace.db
cat >"$T/d.txt" <<'TXT'
 [call] op=[aten::add.Tensor], key=[AutogradCPU]
  [redispatch] op=[aten::add.Tensor], key=[CPU]
   [call] op=[aten::empty.memory_format], key=[BackendSelect]
 [call] op=[aten::mul.Tensor], key=[CPU]
TXT

# run: dispatcher calls on stdout, a real TORCH_LOGS stderr; then a failing child.
check_case run_replay 0 "$P" run -q --no-trace --name replay -- sh -c "cat d.txt; cat '$B/stderr.txt' >&2"
check_case run_exit3 3 "$P" run -q --no-trace --name other -- sh -c 'echo out; echo "W1125 06:00:00.000000 1 x.py:1] warn" >&2; exit 3'
check_case run_passthrough 0 "$P" run --no-trace --name live -- sh -c 'echo to-stdout; echo to-stderr >&2'
# import: a job's TORCH_TRACE, a directory of ranks, a file cut short (for diff).
check_case import_breaks 0 "$P" import --name breaks "$B/trace"
check_case import_job 0 "$P" import --name job "$F/tlparse-tests/inputs/multi_rank_logs"
L=$(ls "$B"/trace/*.log)
head -n $(($(grep -a -n '"dynamo_start"' "$L" | sed -n 9p | cut -d: -f1) - 1)) "$L" >"$T/dedicated_log_torch_trace_cut.log"
check_case import_cut 0 "$P" import --name cut "$T/dedicated_log_torch_trace_cut.log"
check_case import_missing 2 "$P" import "$T/nonexistent"

check_case ls_all 0 "$P" ls
check_case show_run 0 "$P" show replay
check_case show_import 0 "$P" show breaks
check_case logs_warnings 0 "$P" logs --level W replay
check_case logs_artifact_compile 0 "$P" logs --artifact recompiles --compile 0/1 replay
check_case logs_grep_limit 0 "$P" logs --grep 'size mismatch' --kind log --limit 2 replay
check_case logs_stream 0 "$P" logs --stream stdout other
check_case ops 0 "$P" ops replay
check_case ops_tree 0 "$P" ops --tree replay
check_case ops_none 1 "$P" ops breaks
check_case compiles 0 "$P" compiles breaks
check_case graph_breaks 0 "$P" graph-breaks breaks
check_case graph_breaks_unique 0 "$P" graph-breaks --unique breaks
check_case recompiles 0 "$P" recompiles breaks
check_case artifact_payload 0 "$P" artifact breaks 1/0_1 dynamo_output_graph
check_case artifact_out 0 "$P" artifact breaks --out "$T/art"
check_case ranks 1 "$P" ranks job
check_case timeline 0 "$P" timeline job --chrome "$T/job.json"

# Colour only on a terminal: `script` gives pttrace a pseudo-terminal as stdout, so
# --color=auto has colour to give (ranks marks its differences), and NO_COLOR takes it away.
need script
on_tty() { script -qec "$*" /dev/null </dev/null; }
check_contains "ranks on a terminal: colour" $'\033[33m' "$(on_tty "env -u NO_COLOR '$P' ranks job")"
on_tty "env NO_COLOR=1 '$P' ranks job" | grep -q $'\033\\[' && fail "NO_COLOR: ranks still coloured on a terminal" || pass
check_contains "NO_COLOR set but empty is ignored" $'\033[33m' "$(on_tty "env NO_COLOR= '$P' ranks job")"
on_tty "env -u NO_COLOR '$P' --color=never ranks job" | grep -q $'\033\\[' && fail "--color=never: coloured" || pass
"$P" --color=always ranks job | grep -q $'\033\\[33m' && pass || fail "--color=always: not coloured in a pipe"
check_case diff_runs 1 "$P" diff replay other
check_case diff_imports 1 "$P" diff breaks cut
# Compiles paired by code location: compile_order's two real runs compile f and g in
# the opposite order, so 0/0 is f in one and g in the other (issue 32, item 6).
O=$F/generated/torch-2.6.0/compile_order
check_case import_order_fg 0 "$P" import --name fg "$O/fg/trace"
check_case import_order_gf 0 "$P" import --name gf "$O/gf/trace"
check_case diff_compile_order 0 "$P" diff fg gf
# A dispatcher line with no key=[...] (no "(null)"); warnings from two temporary
# directories: the directory masked, file name and line kept, so the same warning
# in both is no difference and the one at another line is.
LONG="E1125 06:00:00.000000 1 x.py:1] RuntimeError: $(printf 'the message a user needs to read whole %.0s' 1 2 3 4)end"
check_case run_nokey 0 "$P" run -q --no-trace --name nokey -- sh -c "echo ' [call] op=[aten::add.Tensor]'; echo '$LONG' >&2; echo '/tmp/tmp.Ab3dE9/sub/x.py:8: UserWarning: high' >&2; echo '/tmp/tmp.Ab3dE9/sub/x.py:9: UserWarning: low' >&2"
check_case run_nokey2 0 "$P" run -q --no-trace --name nokey2 -- sh -c "echo ' [call] op=[aten::mul.Tensor], key=[CPU]'; echo '/tmp/tmp.Zz9yX8/sub/x.py:8: UserWarning: high' >&2; echo '/tmp/tmp.Zz9yX8/sub/x.py:10: UserWarning: low' >&2"
check_case diff_nokey_tmp 1 "$P" diff nokey nokey2
# show: the error line whole; --short cuts it at 100 characters.
check_case show_long 0 "$P" show nokey
check_case show_short 0 "$P" show --short nokey
check_case sql 0 "$P" sql replay 'SELECT kind, COUNT(*) AS n FROM records WHERE run_id = :run GROUP BY kind ORDER BY kind'
check_case reindex_named 0 "$P" reindex replay breaks
check_case reindex_stale 0 "$P" reindex
check_case report 0 "$P" report breaks --out "$T/rep"
mkdir -p "$T/busy" && touch "$T/busy/x"
check_case report_busy 2 "$P" report breaks --out "$T/busy"
check_case rm 0 "$P" rm job
check_case ls_after_rm 0 "$P" ls
check_case usage_bad_option 2 "$P" diff --frob
check_case usage_no_run 2 "$P" show nosuchrun
check_case help 0 "$P" --help
# torch 2.14 names its version in the trace (a torch_version artifact): show of the import says it.
check_case import_214 0 "$P" import --name t214 "$F/generated/torch-2.14.1/records/breaks_recompile.log"
check_case show_import_214 0 "$P" show t214
finish
