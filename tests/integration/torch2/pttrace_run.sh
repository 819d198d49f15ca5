. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1500
# The five real torch 2.6 scenarios (tests/torch2/scenarios), run once by
# `pttrace run` (built inside the torch 2.x test bed) with TORCH_LOGS and
# TORCH_TRACE on, and checked three ways (pttrace_run_sid.sh: the same on the
# sid bed's torch 2.14, where the strings that changed are chosen by TB_TORCH):
# 1. the scenarios themselves: the facts the tier's checks and the repository's
#    fixtures rely on, read from the TORCH_TRACE files pttrace kept by the small
#    reference reader tests/torch2/tracecheck.py (record grammar and MD5 only)
#    and from the child's stdout and stderr as pttrace indexed them;
# 2. `pttrace run`'s index against what the scripts must produce and against
#    that reader: compile ids, graph breaks (each reason, the distinct causes),
#    recompiles (every failed guard), compiled-autograd captures, the failure
#    and its reason, both ranks, payloads with valid md5, the child's output and
#    status, the report's torch row;
# 3. `pttrace import` of the same trace files, into a database of its own,
#    against the reader.
# (One run serves all three: the scenarios are the tier's costliest part.)
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
. "$PT_TESTLIB/testbed.sh"
PY=/usr/bin/python3
[ -x $PY ] || skip "no /usr/bin/python3 on the host"
NAMES="simple breaks_recompile failure autograd_ca multirank"

t0=$(date +%s)
testbed_ready
PTT=$TB_BUILD/tracers/pttrace
# The bed's torch, from the interpreter itself (2.6.0+debian, 2.14.1+debian).
TV=$("$TB" run python3 -c 'import torch; print(torch.__version__)' 2>/dev/null)
check_eq "the bed has torch $TB_TORCH" "$TB_TORCH." "$(printf '%s' "$TV" | grep -o '^[0-9]*\.[0-9]*\.')"
# What torch's own messages say, by version: the print graph break and the int guard.
if [ "$TB_TORCH" = 2.6 ]; then
	PRINT_BREAK="builtin: print" INT_GUARD="L['n'] == 1"
else
	PRINT_BREAK="builtin operator \`print\`" INT_GUARD="0/0: n == 1"
fi

# TORCH_LOGS per scenario as in tests/torch2/run-scenarios (the fixtures' table).
declare -A logs=(
	[simple]="+dynamo,aot,inductor,graph_code,guards,recompiles,graph_breaks,output_code"
	[breaks_recompile]="graph_breaks,recompiles,guards,dynamic"
	[failure]="+dynamo"
	[autograd_ca]="compiled_autograd,aot_graphs,-inductor"
	[multirank]="dynamo,graph_breaks,recompiles,guards"
)
{
	echo "export PTTRACE_DB=/out/db/pttrace.db; P=$PTT; cd /out"
	for n in $NAMES; do
		printf 's=$(date +%%s); $P run -q --name %s --logs %q /src/tests/torch2/scenarios/%s.py >%s.run.out 2>&1; echo $? >%s.rc; echo $(( $(date +%%s) - s )) >%s.seconds\n' \
			"$n" "${logs[$n]}" "$n" "$n" "$n" "$n"
		echo "\$P --json show $n >$n.show.json; \$P --json compiles $n >$n.compiles.json"
		echo "\$P logs --stream stdout $n >$n.stdout.txt; \$P logs --stream stderr $n >$n.stderr.txt"
		echo "\$P sql $n 'SELECT count(*) FROM trace_records WHERE run_id = :run AND payload_md5 IS NOT NULL' >$n.payloads.txt"
		echo "tr=/out/db/runs/\$(python3 -c 'import json; print(json.load(open(\"$n.show.json\"))[\"id\"])')/trace"
		echo "python3 /src/tests/torch2/tracecheck.py \$tr >$n.ref.json 2>$n.ref.err; echo \$? >$n.ref.rc"
		# The same files through `pttrace import`, into a database of its own.
		echo "PTTRACE_DB=/out/db2/pttrace.db \$P import --name $n \$tr >$n.import.txt 2>&1; echo \$? >$n.import.rc"
		echo "PTTRACE_DB=/out/db2/pttrace.db \$P --json show $n >imp.$n.show.json"
		echo "PTTRACE_DB=/out/db2/pttrace.db \$P --json compiles $n >imp.$n.compiles.json"
		echo "PTTRACE_DB=/out/db2/pttrace.db \$P sql $n 'SELECT count(*) FROM trace_records WHERE run_id = :run AND payload_md5 IS NOT NULL' >imp.$n.payloads.txt"
	done
	echo 'export PTTRACE_DB=/out/db2/pttrace.db'
	echo '$P --json graph-breaks breaks_recompile >imp.breaks.json; $P --json recompiles breaks_recompile >imp.recompiles.json'
	echo '$P --json ranks multirank >imp.ranks.json'
	echo '$P --json graph-breaks --unique breaks_recompile >imp.unique.json'
	echo '$P report breaks_recompile --out /out/rep_br >/dev/null; $P report autograd_ca --out /out/rep_ca >/dev/null'
	echo 'export PTTRACE_DB=/out/db/pttrace.db'
	echo '$P --json graph-breaks breaks_recompile >breaks.json; $P --json recompiles breaks_recompile >recompiles.json'
	echo '$P --json ranks multirank >ranks.json'
	echo '$P --json logs --artifact compiled_autograd autograd_ca >ca_logs.json'
	echo 'for r in 0 1; do $P --json logs --rank $r multirank >rank$r.json; done'
} >"$T/go.sh"
"$TB" run -b "$T:/out" bash /out/go.sh 2>/dev/null

# q NAME EXPR: s = show, c = compiles, d/f = reference summary/first file, ld(NAME) = other JSON.
q() {
	$PY -c "import json
ld = lambda n: json.load(open('$T/' + n + '.json'))
s = ld('$1.show'); c = ld('$1.compiles'); d = ld('$1.ref'); f = d['files'][0]
print($2)" 2>&1
}

# --- 1. the scenarios: tracecheck over the trace files pttrace kept -------------
for n in $NAMES; do
	check_eq "tracecheck reads $n's trace" 0 "$(cat "$T/$n.ref.rc")"
	[ "$(cat "$T/$n.ref.rc")" = 0 ] || cat "$T/$n.ref.err"
done
# Every scenario: readable records only, every payload's MD5 right.
for n in simple breaks_recompile failure autograd_ca multirank; do
	check_eq "$n: every line is a record or a payload" "0" "$(q $n "sum(x['unparsed_lines'] for x in d['files'])")"
	check_eq "$n: payloads with a valid md5" "True 0" \
		"$(q $n "all(x['payloads'] > 0 for x in d['files']), sum(x['md5_bad'] for x in d['files'])" | tr -d '(),')"
done

# simple: one file, one compile [0/0] down to inductor's output code.
check_eq "simple: one trace file" 1 "$(q simple "len(d['files'])")"
check_eq "simple: compile ids" "['0/0']" "$(q simple "f['compile_ids']")"
check_eq "simple: graph, output code, metrics" "1 1 1" \
	"$(q simple "f['kinds'].get('dynamo_output_graph'), f['kinds'].get('inductor_output_code'), f['kinds'].get('compilation_metrics')" | tr -d '(),')"
check_eq "simple: no failure" "[]" "$(q simple "f['failures']")"
check_contains "simple: the output is right" "simple: allclose True" "$(cat "$T/simple.stdout.txt")"
check_contains "simple: TORCH_LOGS output code on stderr" "[0/0] [__output_code]" "$(cat "$T/simple.stderr.txt")"

# breaks_recompile: 4 calls. Each compile of g restarts at the print
# (attempt _1) and compiles the resume frame 1/N; n=2 recompiles (guard
# L['n'] == 1), the size-5 call recompiles with a dynamic size, and the
# size-6 call reuses it (no 0/3).
check_eq "breaks_recompile: compile ids" \
	"['0/0', '0/0_1', '1/0', '0/1', '0/1_1', '1/1', '0/2', '0/2_1', '1/2']" \
	"$(q breaks_recompile "f['compile_ids']")"
check_eq "breaks_recompile: restarts (graph breaks) at" "['0/0_1', '0/1_1', '0/2_1']" \
	"$(q breaks_recompile "[r['compile_id'] for r in f['restarts']]")"
check_contains "breaks_recompile: the break is the print" "$PRINT_BREAK" \
	"$(q breaks_recompile "f['restarts'][0]['reasons']")"
check_eq "breaks_recompile: recompiles at" "['0/1', '1/1', '0/2', '1/2']" \
	"$(q breaks_recompile "[r['compile_id'] for r in f['recompile_reasons']]")"
check_contains "breaks_recompile: int recompile reason" "$INT_GUARD" \
	"$(q breaks_recompile "f['recompile_reasons'][0]['reasons']")"
check_contains "breaks_recompile: shape recompile reason" "size mismatch at index 0. expected 4, actual 5" \
	"$(q breaks_recompile "f['recompile_reasons'][2]['reasons']")"
check_eq "breaks_recompile: dynamic shapes created symbols" "True" \
	"$(q breaks_recompile "f['kinds'].get('create_symbol', 0) > 0")"
check_eq "breaks_recompile: the print ran once per call" 4 \
	"$(grep -c 'graph break here' "$T/breaks_recompile.stdout.txt")"
check_contains "breaks_recompile: TORCH_LOGS recompiles" "[__recompiles]" "$(cat "$T/breaks_recompile.stderr.txt")"

# failure: fullgraph=True fails at [0/0] with Unsupported; the script catches it.
check_eq "failure: failure record" "['0/0', 'Unsupported']" \
	"$(q failure "[f['failures'][0]['compile_id'], f['failures'][0]['fail_type']]")"
check_contains "failure: the reason names the print" "$PRINT_BREAK" "$(q failure "f['failures'][0]['fail_reason']")"
check_eq "failure: dynamo_error artifact" 1 "$(q failure "f['artifacts'].get('dynamo_error')")"
check_contains "failure: caught by the script" "failure: caught Unsupported" "$(cat "$T/failure.stdout.txt")"

# autograd_ca: torch 2.6 writes no compiled_autograd_id, 2.14 does ([!0], [!0/1/0]);
# both one compiled_autograd_graph per backward, and a forward/backward AOT pair.
check_eq "autograd_ca: one compiled autograd graph per iteration" 2 \
	"$(q autograd_ca "f['kinds'].get('compiled_autograd_graph')")"
check_eq "autograd_ca: aot forward and backward graphs" "True True" \
	"$(q autograd_ca "'aot_forward_graph' in f['kinds'], 'aot_backward_graph' in f['kinds']" | tr -d '(),')"
check_eq "autograd_ca: both iterations ran" 2 "$(grep -c 'autograd_ca: iteration' "$T/autograd_ca.stdout.txt")"
check_contains "autograd_ca: TORCH_LOGS compiled autograd" "[__compiled_autograd] TRACED GRAPH" \
	"$(cat "$T/autograd_ca.stderr.txt")"

# multirank: one rank_<R> file per rank, every record of it carrying that rank.
check_eq "multirank: two rank files" "[0, 1]" "$(q multirank "[x['rank_in_name'] for x in d['files']]")"
check_eq "multirank: records carry their file's rank" "[[0], [1]]" "$(q multirank "[x['ranks'] for x in d['files']]")"
check_eq "multirank: each rank compiled [0/0]" "[['0/0'], ['0/0']]" "$(q multirank "[x['compile_ids'] for x in d['files']]")"
for r in 0 1; do
	check_contains "multirank: rank $r all-reduced" "multirank: rank $r: [6.0, 6.0, 6.0, 6.0]" "$(cat "$T/multirank.stdout.txt")"
	check_eq "multirank: [rank$r]: lines on stderr" "True" \
		"$([ "$(grep -c "^\[rank$r\]:" "$T/multirank.stderr.txt")" -gt 0 ] && echo True || echo False)"
done

# --- 2. pttrace run's index ------------------------------------------------------
for n in $NAMES; do
	check_eq "pttrace run $n: the child's exit status passes through" 0 "$(cat "$T/$n.rc")"
	[ "$(cat "$T/$n.rc")" = 0 ] || tail -20 "$T/$n.run.out"
	check_eq "pttrace run $n: torch $TB_TORCH probed" "$TV" "$(q $n "s['torch_version']")"
	check_eq "pttrace run $n: TORCH_LOGS as asked" "${logs[$n]}" "$(q $n "s['logs_spec']")"
	check_eq "pttrace run $n: trace part indexed" "True" \
		"$(q $n "{'part': 'trace', 'version': 4, 'state': 'done'} in [dict(i) for i in s['indexed']]")"
	check_eq "pttrace run $n: records as the reference counts them" True \
		"$(q $n "s['torch_trace']['records'] == sum(x['records'] for x in d['files']) > 0")"
	check_eq "pttrace run $n: records per kind" True \
		"$(q $n "s['records_by_kind'] == {k: sum(x['kinds'].get(k, 0) for x in d['files']) for x in d['files'] for k in x['kinds']}")"
	check_eq "pttrace run $n: payloads, all with a valid md5" "0 $(q $n "sum(x['payloads'] for x in d['files'])") 0" \
		"$(q $n "s['payload_md5_mismatches'], sum(x['md5_bad'] for x in d['files'])" | tr -d '(),' |
			awk -v p="$(tail -1 "$T/$n.payloads.txt" | tr -dc 0-9)" '{ print $1, p, $2 }')"
	check_eq "pttrace run $n: compile ids" \
		"$(q $n "sorted(set(i for x in d['files'] for i in x['compile_ids']))")" \
		"$(q $n "sorted(set(x['compile_id'] for x in c))")"
done
check_contains "simple: the child's stdout is kept" "simple: allclose True" "$(cat "$T/simple.stdout.txt")"
check_eq "simple: one compile [0/0], ok" "[('0/0', 'ok')]" "$(q simple "[(x['compile_id'], x['status']) for x in c]")"

# breaks_recompile: three graph breaks at the print (one per compile of g),
# four recompiles (int guard, then size), in the TORCH_LOGS lines and the trace.
check_eq "breaks_recompile: graph breaks (trace) at" "['0/0', '0/1', '0/2']" \
	"$(q breaks_recompile "[x['compile_id'] for x in ld('breaks')]")"
check_contains "breaks_recompile: graph break reason" "$PRINT_BREAK" "$(q breaks_recompile "ld('breaks')[0]['reason']")"
check_eq "breaks_recompile: graph breaks (TORCH_LOGS) at" "[(0, 0), (0, 1), (0, 2)]" \
	"$(q breaks_recompile "[(g['frame_id'], g['frame_compile_id']) for g in s['graph_breaks']]")"
check_contains "breaks_recompile: graph break text (TORCH_LOGS)" "breaks_recompile.py:9" \
	"$(q breaks_recompile "s['graph_breaks'][0]['text']")"
check_eq "breaks_recompile: recompiles (trace)" "$(q breaks_recompile "sorted(r['compile_id'] for r in f['recompile_reasons'])")" \
	"$(q breaks_recompile "sorted(set(x['compile_id'] for x in ld('recompiles')))")"
check_eq "breaks_recompile: every failed guard is in torch's reasons" True \
	"$(q breaks_recompile "all(x['failed_guard'] in {r['compile_id']: r['reasons'] for r in f['recompile_reasons']}[x['compile_id']] for x in ld('recompiles'))")"
check_eq "breaks_recompile: recompiles (TORCH_LOGS)" 4 "$(q breaks_recompile "len(s['recompiles'])")"

# failure: the Unsupported at [0/0] and its reason (the script catches it).
check_eq "failure: the failure and its reason" True \
	"$(q failure "[(x['compile_id'], x['status'], x['fail_type'], x['fail_reason']) for x in c] == [('0/0', 'failed', 'Unsupported', f['failures'][0]['fail_reason'])]")"
check_contains "failure: the script's stdout" "failure: caught Unsupported" "$(cat "$T/failure.stdout.txt")"

# autograd_ca: compiled autograd's TORCH_LOGS records and both iterations.
check_eq "autograd_ca: compiled_autograd records" True "$(q autograd_ca "len(ld('ca_logs')) > 0")"
check_eq "autograd_ca: both iterations on stdout" 2 "$(grep -c 'autograd_ca: iteration' "$T/autograd_ca.stdout.txt")"

# multirank: both ranks, in the trace (rank files) and in the [rankN]: lines.
check_eq "multirank: ranks and records (trace)" True \
	"$(q multirank "[(r['rank'], r['records']) for r in ld('ranks')['ranks']] == [(x['ranks'][0], x['records']) for x in d['files']]")"
check_eq "multirank: no divergence" "[]" "$(q multirank "ld('ranks')['divergences']")"
for r in 0 1; do
	check_eq "multirank: [rank$r]: lines indexed with rank $r" "True" \
		"$(q multirank "len(ld('rank$r')) > 0 and all(x['rank'] == $r for x in ld('rank$r'))")"
	check_contains "multirank: rank $r's stdout" "multirank: rank $r: [6.0, 6.0, 6.0, 6.0]" "$(cat "$T/multirank.stdout.txt")"
done

# --- 3. pttrace import of the same trace files, against the reference reader ----
# pq NAME EXPR: EXPR over the import's JSON (s = show, c = compiles) and the reference (f, d).
pq() {
	$PY -c "import json
d = json.load(open('$T/$1.ref.json')); f = d['files'][0]
s = json.load(open('$T/imp.$1.show.json')); c = json.load(open('$T/imp.$1.compiles.json'))
ld = lambda n: json.load(open('$T/imp.' + n + '.json'))
print($2)"
}
for n in simple breaks_recompile failure autograd_ca multirank; do
	check_eq "pttrace import $n" 0 "$(cat "$T/$n.import.rc")"
	[ "$(cat "$T/$n.import.rc")" = 0 ] || cat "$T/$n.import.txt"
	check_eq "pttrace $n: records as the reference counts them" True \
		"$(pq $n "s['torch_trace']['records'] == sum(x['records'] for x in d['files'])")"
	check_eq "pttrace $n: records per kind" True \
		"$(pq $n "s['records_by_kind'] == {k: sum(x['kinds'].get(k, 0) for x in d['files']) for x in d['files'] for k in x['kinds']}")"
	check_eq "pttrace $n: no md5 mismatch" 0 "$(pq $n "s['payload_md5_mismatches']")"
	check_eq "pttrace $n: payloads" "$(q $n "sum(x['payloads'] for x in d['files'])")" \
		"$(tail -1 "$T/imp.$n.payloads.txt" | tr -dc 0-9)"
	check_eq "pttrace $n: compile ids" \
		"$(q $n "sorted(set(i for x in d['files'] for i in x['compile_ids']))")" \
		"$(pq $n "sorted(set(x['compile_id'] for x in c))")"
done
check_eq "pttrace failure: the failure and its reason" True \
	"$(pq failure "[(x['compile_id'], x['status'], x['fail_type'], x['fail_reason']) for x in c] == [('0/0', 'failed', 'Unsupported', f['failures'][0]['fail_reason'])]")"
check_eq "pttrace breaks_recompile: graph breaks where the frames restarted" True \
	"$(pq breaks_recompile "[x['compile_id'] for x in ld('breaks')] == [r['compile_id'].split('_')[0] for r in f['restarts']]")"
# Each graph break as the reader reads its dynamo_graph_break_reason record (2.14's
# many-line reason as "<type>: <explanation>"), and the distinct (where, reason)
# pairs as `graph-breaks --unique` and the report's breaks page count them.
check_eq "pttrace breaks_recompile: graph breaks as the reader reads them" True \
	"$(pq breaks_recompile "[(x['compile_id'], x['where'], x['reason']) for x in ld('breaks')] == [(g['compile_id'], g['where'], g['reason']) for g in f['graph_breaks']]")"
check_eq "pttrace breaks_recompile: distinct causes (--unique)" \
	"$(pq breaks_recompile "len(set((g['where'], g['reason']) for g in f['graph_breaks']))")" \
	"$(pq breaks_recompile "len(ld('unique'))")"
check_contains "pttrace report: graph breaks, distinct" \
	"$(pq breaks_recompile "'%d graph breaks, %d distinct' % (len(f['graph_breaks']), len(set((g['where'], g['reason']) for g in f['graph_breaks'])))")" \
	"$(cat "$T/rep_br/breaks.html")"
check_eq "pttrace breaks_recompile: every failed guard as the reader reads it" True \
	"$(pq breaks_recompile "[(x['compile_id'], x['guard_of'], x['failed_guard']) for x in ld('recompiles')] == [(r['compile_id'], r['guard_of'], r['failed_guard']) for r in f['recompiles']]")"
# Compiled-autograd captures ([!N], 2.14; none in 2.6): status autograd, counted apart.
check_eq "pttrace autograd_ca: captures are no compiles" True \
	"$(pq autograd_ca "sorted(x['compile_id'] for x in c if x['status'] == 'autograd') == sorted(f['captures']) and s['torch_trace']['autograd_captures'] == len(f['captures']) and s['torch_trace']['compiles'] == len(f['compile_ids']) - len(f['captures'])")"
check_contains "pttrace report: compiles (compilation_metrics)" \
	"compiles (compilation_metrics)</th><td class=\"n\">$(pq autograd_ca "f['kinds']['compilation_metrics']")<" "$(cat "$T/rep_ca/index.html")"
for cap in $(pq autograd_ca "' '.join(c[1:] for c in f['captures'])"); do
	check_contains "pttrace report: capture [!$cap] has its page, linked" "href=\"c/-_${cap}_-_-_0.html\"" "$(cat "$T/rep_ca/compiles.html")"
	check_contains "pttrace report: [!$cap]'s compiled_autograd_graph linked" ">compiled_autograd_graph</a>" "$(cat "$T/rep_ca/c/-_${cap}_-_-_0.html")"
done
# The report's torch row of an imported 2.14 trace: its torch_version artifact.
[ "$TB_TORCH" = 2.6 ] || check_contains "pttrace report: the torch row of an import" \
	"<th>torch</th><td>$(pq autograd_ca "f['torch_version']") " "$(cat "$T/rep_ca/index.html")"
check_contains "pttrace breaks_recompile: graph break at the print" "breaks_recompile.py:9" \
	"$(pq breaks_recompile "ld('breaks')[0]['where']")"
check_eq "pttrace breaks_recompile: recompiles" True \
	"$(pq breaks_recompile "sorted(set(x['compile_id'] for x in ld('recompiles'))) == sorted(r['compile_id'] for r in f['recompile_reasons'])")"
check_eq "pttrace breaks_recompile: every failed guard is in torch's reasons" True \
	"$(pq breaks_recompile "all(x['failed_guard'] in {r['compile_id']: r['reasons'] for r in f['recompile_reasons']}[x['compile_id']] for x in ld('recompiles'))")"
check_eq "pttrace multirank: both ranks, records each" True \
	"$(pq multirank "[(r['rank'], r['records']) for r in ld('ranks')['ranks']] == [(x['ranks'][0], x['records']) for x in d['files']]")"
check_eq "pttrace multirank: no divergence" "[]" "$(pq multirank "ld('ranks')['divergences']")"

echo "torch2 pttrace run: $(( $(date +%s) - t0 )) s in all;" \
	"$(for n in $NAMES; do printf '%s %s s, ' "$n" "$(cat "$T/$n.seconds")"; done)"
finish
