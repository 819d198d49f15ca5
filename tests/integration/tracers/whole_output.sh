# Whole renderings of pttrace compared with expected/*.txt (stdout and
# stderr, normalised by check_output): what a reader of the terminal sees,
# so that a message printed twice or a column gone astray fails here.
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
finish
