#!/usr/bin/env bash
# Every page a report writes is reachable from its index.html (tests/lib/reachable.py
# walks the links and names each orphan page and each broken link): the report of
# every TORCH_TRACE fixture in the repository (tlparse's inputs, torch 2.6's
# scenarios), and of a crafted trace with payloads outside any compile page (no
# compile id, a compile id with neither dynamo_start nor compilation_metrics,
# compiled autograd's ids, a vLLM-style artifact, a graph with a subgraph_name).
. "$PT_TESTLIB/common.sh"
F=$PT_SRC/tests/fixtures/traces
export PTTRACE_DB=$T/db/pttrace.db
export PTTRACE_HLJS=/nonexistent

i=0
mkdir -p "$T/rep"
for x in "$F"/tlparse-tests/inputs/* "$F"/tlparse-tests/graph_exec_order_tests/* \
	"$F"/generated/torch-2.6.0/*/trace "$F"/generated/torch-2.6.0/compile_order/*/trace; do
	[ -e "$x" ] || continue
	i=$((i + 1))
	"$PTTRACE" import --name "r$i" "$x" >/dev/null 2>"$T/err" || [ $? = 1 ] || { fail "import $x: $(cat "$T/err")"; continue; }
	"$PTTRACE" report "r$i" --out "$T/rep/$i" >/dev/null 2>"$T/err" || fail "report of $x: $(cat "$T/err")"
	echo "${x#"$F"/} $T/rep/$i" >>"$T/list"
done
check_eq "fixtures reported" 1 "$((i >= 30))"

python3 - "$T/loose.log" "$PT_TESTLIB" <<'PYEOF'
import sys
sys.path.insert(0, sys.argv[2])
from mktrace import write
st = [{"line": 3, "name": "main", "filename": 0}]
write(sys.argv[1], [
    ({"str": ["/tmp/w/serve.py", 0]}, None),
    ({"dynamo_start": {"stack": st}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0}, None),
    ({"dynamo_output_graph": {}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0}, "class G0: pass"),
    # a compile id that logged neither dynamo_start nor compilation_metrics
    ({"dynamo_output_graph": {}, "frame_id": 3, "frame_compile_id": 0, "attempt": 0}, "class G3: pass"),
    # compiled autograd's capture ids (torch 2.7+)
    ({"compiled_autograd_graph": {}, "compiled_autograd_id": 0, "stack": st}, "class CompiledAutograd0: pass"),
    ({"compiled_autograd_graph": {}, "compiled_autograd_id": 1, "frame_id": 1, "frame_compile_id": 0, "attempt": 0}, "class CompiledAutograd1: pass"),
    # vLLM's artifacts, outside any compile
    ({"artifact": {"name": "vllm_piecewise_split_graph", "encoding": "string"}}, "graph():\n    %x"),
    ({"graph_dump": {"name": "split_module", "subgraph_name": "submod_0"}}, "def forward(self, x): return x"),
    ({"artifact": {"name": "vllm_compilation_config", "encoding": "json"}, "stack": st}, '{"level": 3}'),
])
PYEOF
"$PTTRACE" import --name loose "$T/loose.log" >/dev/null 2>"$T/err" || [ $? = 1 ] || fail "import loose: $(cat "$T/err")"
"$PTTRACE" report loose --out "$T/rep/loose" >/dev/null 2>"$T/err" || fail "report loose: $(cat "$T/err")"
echo "crafted $T/rep/loose" >>"$T/list"
check_eq "payload pages of the crafted trace" 7 "$(ls "$T/rep/loose/p" | grep -c '\.html$')"
# 5: compiled autograd's capture [!0] has its own page (compiles.html links it), the rest are here
check_contains "the landing page links the rest" '<li><a href="records.html">payloads outside the compile pages</a> (5 records)</li>' \
	"$(cat "$T/rep/loose/index.html")"

out=$(python3 "$PT_TESTLIB/reachable.py" $(cut -d' ' -f2 "$T/list"))
check_eq "reachable.py exit" 0 $?
check_eq "no orphan page, no broken link" "" "$(printf '%s\n' "$out" | grep -v ' 0 problems$')"
check_eq "every report walked" "$(wc -l <"$T/list")" "$(printf '%s\n' "$out" | grep -c ' 0 problems$')"

# The checker fails on what it must find: a page nothing links, a link to no page.
cp -r "$T/rep/loose" "$T/bad"
echo '<p>x</p>' >"$T/bad/p/0123.html"
sed -i 's|href="records.html"|href="nowhere.html"|' "$T/bad/index.html"
out=$(python3 "$PT_TESTLIB/reachable.py" "$T/bad")
check_eq "reachable.py on a damaged report" 1 $?
check_contains "orphan named" "orphan: p/0123.html" "$out"
check_contains "records.html orphaned with it" "orphan: records.html" "$out"
check_contains "broken link named" "broken: index.html -> nowhere.html" "$out"
finish
