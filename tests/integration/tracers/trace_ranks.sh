# pttrace ranks: one row per process, and tlparse's cross-rank checks on
# tlparse's own multi-rank inputs, with what its integration tests assert
# (tests/integration_test.rs: test_diverging_compile_ids_warning,
# test_diverging_cache_events_multiple_groups, test_collective_schedule_*,
# test_runtime_analysis_*, test_tensor_meta_divergence_groups,
# test_graph_execution_order_diagnostics, test_collectives_parity_detects_mismatch).
# ctest-timeout: 300
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTTRACE
PY=/usr/bin/python3
F=$PT_FIXTURES/traces/tlparse-tests
export PTTRACE_DB=$T/db/pttrace.db
# j RUN EXPR: an expression over `pttrace ranks --json`'s object d.
j() { "$P" --json ranks "$1" | $PY -c "import json,sys; d=json.load(sys.stdin); c=d['checks']; print($2)"; }

"$P" import --name logs "$F/inputs/multi_rank_logs" >/dev/null
check_rc "multi_rank_logs: ranks diverge" 1 "$P" ranks logs
check_contains "compile ids diverge" "rank 1 compiled 15 graphs, rank 0 1" "$(cat "$T/.out")"
check_eq "cache hit/miss: several groups" True "$(j logs 'c["cache"]["diverge"] and len(c["cache"]["groups"]) > 1')"

"$P" import --name sched "$F/inputs/multi_rank_schedule" >/dev/null 2>&1
check_eq "collective schedules: ranks 0 and 2 together, rank 1 apart" "[['rank 0', 'rank 2'], ['rank 1']]" \
	"$(j sched '[g["ranks"] for g in c["collective_schedule"]["groups"]]')"
check_eq "ops of -_0_0_0: 6 in ranks 0 and 2, 4 in rank 1 (as tlparse asserts)" "[('rank 0', 6), ('rank 1', 4), ('rank 2', 6)]" \
	"$(j sched '[(s["rank"], len(s["ops"])) for s in c["collective_schedule"]["schedules"] if s["graph"] == "-_0_0_0"]')"
mkdir "$T/s02"
cp "$F/inputs/multi_rank_schedule/dedicated_log_torch_trace_rank_0_6u3fubwl.log" "$T/s02/dedicated_log_torch_trace_rank_0.log"
cp "$F/inputs/multi_rank_schedule/dedicated_log_torch_trace_rank_2.log" "$T/s02/"
"$P" import --name s02 "$T/s02" >/dev/null 2>&1
check_eq "ranks 0 and 2 alone: same schedules" False "$(j s02 'c["collective_schedule"]["diverge"]')"

"$P" import --name rt "$F/inputs/multi_rank_runtime" >/dev/null 2>&1
check_eq "runtime: rank 4 misses a graph" True "$(j rt 'c["runtime"]["mismatched_graph_counts"]')"
check_eq "tensor meta: ranks 5 and 6 together" True "$(j rt '["rank 5", "rank 6"] in [g["ranks"] for g in c["tensor_meta"]["groups"]] and c["tensor_meta"]["diverge"]')"
mkdir "$T/rt03"
cp "$F"/inputs/multi_rank_runtime/dedicated_log_torch_trace_rank_[0-3].log "$T/rt03/"
"$P" import --name rt03 "$T/rt03" >/dev/null 2>&1
check_rc "ranks 0-3" 1 "$P" ranks rt03
check_contains "runtime deltas per graph" "-_0_0_0: delta 2.071 ms (rank 0 13.806 ms, rank 3 15.877 ms)" "$(cat "$T/.out")"
check_eq "runtime: same graph counts" "False 4" "$(j rt03 'c["runtime"]["mismatched_graph_counts"], len(c["runtime"]["graphs"])')"

"$P" import --name geo "$F/graph_exec_order_tests" >/dev/null 2>&1
check_rc "graph execution order differs: exit 1" 1 "$P" ranks geo
check_contains "order differs" "graph execution order: differs" "$(cat "$T/.out")"
check_contains "first row" "0: rank 0 [0/1] rank 1 [0/0]; schedule mismatch" "$(cat "$T/.out")"
check_eq "cache consistent across ranks" "True [] False" \
	"$(j geo 'c["execution_order"]["order_differs"], c["execution_order"]["cache_mismatch"], c["cache"]["diverge"]')"

"$P" import --name par "$F/inputs/collectives_parity" >/dev/null 2>&1
check_rc "collectives parity mismatch: exit 1" 1 "$P" ranks par
check_eq "parity as tlparse asserts it" "[('-_0_0_0', '[0/0]', 0, 1), ('-_0_1_0', '[0/1]', 0, 3)]" \
	"$(j par 'sorted((g["graph"], g["compile_id"], g["offset"], g["missing_waits"]) for g in c["collectives_parity"]["graphs"])')"

# An empty file is no rank: not the reference, not compared, no false divergence.
"$P" import --name messy "$F/inputs/multi_rank_messy_input" >/dev/null 2>&1
check_rc "messy input: no divergence" 0 "$P" ranks messy
check_contains "empty file listed apart" "trace/another.log (no records, not compared)" "$(cat "$T/.out")"
check_eq "reference is rank 0" "rank 0" "$(j messy 'd["reference"]')"
check_eq "no 'rank -1' anywhere" 0 "$(grep -c 'rank -1' "$T/.out")"

# Two processes without a rank: two members, p1 and p2, never merged.
mkdir "$T/two"
cp "$PT_FIXTURES"/traces/generated/torch-2.6.0/simple/trace/*.log "$PT_FIXTURES"/traces/generated/torch-2.6.0/failure/trace/*.log "$T/two/"
"$P" import --name two "$T/two" >/dev/null 2>&1
check_eq "two unranked processes" "['p1', 'p2']" "$(j two '[m["label"] for m in d["members"]]')"
check_eq "compiles name the process: one [0/0] each, not one mixed" "p1 [0/0] ok|p2 [0/0] failed" \
	"$("$P" --json compiles two | $PY -c 'import json,sys; print("|".join("%s [%s] %s" % (c["who"], c["compile_id"], c["status"]) for c in json.load(sys.stdin) if c["compile_id"] == "0/0"))')"
check_contains "compiles text names the process" "p2 [0/0] failed" "$("$P" compiles two)"
# A conflict is reported once per file, in the row of its file.
"$P" import --name sch "$F/inputs/multi_rank_schedule" >/dev/null 2>&1
"$P" ranks sch >"$T/sch.txt"
check_eq "one conflict line per conflicting file" 2 "$(grep -c 'conflict: the file name says rank' "$T/sch.txt")"

# Whole outputs, text and --json, of the runs above: the renderers of tt_ranks_load's struct.
E=$PT_SRC/tests/integration/tracers/expected
for r in sched rt03 geo par; do
	check_case "ranks_$r" 1 "$P" ranks "$r"
	check_case "ranks_${r}_json" 1 "$P" --json ranks "$r"
done
check_case ranks_rt 1 "$P" ranks rt
check_case ranks_messy 0 "$P" ranks messy
check_case ranks_messy_json 0 "$P" --json ranks messy
finish
