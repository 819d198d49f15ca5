# pttrace diff --json compared whole, as whole_output.sh compares diff's text:
# two runs of captured output (a real TORCH_LOGS stderr, dispatcher calls, a
# failing child), a real TORCH_TRACE against itself cut before its 9th
# dynamo_start (compiles removed and changed, recompile reasons in one run
# only), the same compiles in another order (paired by location, renumbered),
# and warnings from two temporary directories (masked) with a dispatcher line
# without key=[...]. Keys, their order and every value, byte for byte; the exit
# status of each. Rewrite: PT_UPDATE_EXPECTED=1 ctest -R tracers_diff_json_whole_output
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTTRACE
E=$PT_SRC/tests/integration/tracers/expected/diff_json
export PTTRACE_DB=$T/db/pttrace.db
export NO_COLOR=1
cd "$T" || exit 2
F=$PT_FIXTURES/traces
B=$F/generated/torch-2.6.0/breaks_recompile
O=$F/generated/torch-2.6.0/compile_order

quiet() { "$@" >/dev/null 2>"$T/setup.err" || fail "$*: $(cat "$T/setup.err")"; }
cat >"$T/d.txt" <<'TXT'
 [call] op=[aten::add.Tensor], key=[AutogradCPU]
  [redispatch] op=[aten::add.Tensor], key=[CPU]
   [call] op=[aten::empty.memory_format], key=[BackendSelect]
 [call] op=[aten::mul.Tensor], key=[CPU]
TXT
quiet "$P" run -q --no-trace --name replay -- sh -c "cat d.txt; cat '$B/stderr.txt' >&2"
"$P" run -q --no-trace --name other -- sh -c 'echo out; echo "W1125 06:00:00.000000 1 x.py:1] warn" >&2; exit 3' \
	>/dev/null 2>&1
check_eq "the failing child's exit" 3 $?
quiet "$P" import --name breaks "$B/trace"
L=$(ls "$B"/trace/*.log)
head -n $(($(grep -a -n '"dynamo_start"' "$L" | sed -n 9p | cut -d: -f1) - 1)) "$L" >"$T/dedicated_log_torch_trace_cut.log"
quiet "$P" import --name cut "$T/dedicated_log_torch_trace_cut.log"
quiet "$P" import --name fg "$O/fg/trace"
quiet "$P" import --name gf "$O/gf/trace"
quiet "$P" run -q --no-trace --name nokey -- sh -c "echo ' [call] op=[aten::add.Tensor]'; echo '/tmp/tmp.Ab3dE9/sub/x.py:8: UserWarning: high' >&2; echo '/tmp/tmp.Ab3dE9/sub/x.py:9: UserWarning: low' >&2"
quiet "$P" run -q --no-trace --name nokey2 -- sh -c "echo ' [call] op=[aten::mul.Tensor], key=[CPU]'; echo '/tmp/tmp.Zz9yX8/sub/x.py:8: UserWarning: high' >&2; echo '/tmp/tmp.Zz9yX8/sub/x.py:10: UserWarning: low' >&2"

check_case runs 1 "$P" --json diff replay other
check_case runs_same 0 "$P" --json diff replay replay
check_case imports 1 "$P" --json diff breaks cut
check_case imports_reversed 1 "$P" --json diff cut breaks
check_case compile_order 0 "$P" --json diff fg gf
check_case nokey_tmp 1 "$P" --json diff nokey nokey2
finish
