. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1500
# `pttrace run`, built inside the torch 2.x test bed, runs the five real torch
# 2.6 scenarios (tests/torch2/scenarios) with TORCH_LOGS and TORCH_TRACE on.
# Its index is checked against what the scripts must produce and against
# tests/torch2/tracecheck.py reading the TORCH_TRACE files pttrace kept:
# compile ids, graph breaks, recompiles, the failure and its reason, both
# ranks, payloads with valid md5, the child's output and exit status.
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
TB=$PT_SRC/tests/torch2/testbed
PY=/usr/bin/python3
[ -x $PY ] || skip "no /usr/bin/python3 on the host"
NAMES="simple breaks_recompile failure autograd_ca multirank"

t0=$(date +%s)
"$TB" create 2>"$T/create.err"
rc=$?
[ $rc = 77 ] && skip "torch 2.x test bed unavailable: $(grep 'cannot run here' "$T/create.err")"
grep -h 'testbed: ' "$T/create.err"	# cold (with each step's time) or cached
check_eq "testbed create" 0 $rc
"$TB" build >"$T/build.out" 2>&1
rc=$?
check_eq "project builds inside" 0 $rc
[ $rc = 0 ] || { tail -30 "$T/build.out"; finish; }
PTT=$("$TB" builddir)/tracers/pttrace

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
		echo "\$P logs --stream stdout $n >$n.stdout.txt"
		echo "\$P sql $n 'SELECT count(*) FROM trace_records WHERE run_id = :run AND payload_md5 IS NOT NULL' >$n.payloads.txt"
		echo "python3 /src/tests/torch2/tracecheck.py /out/db/runs/\$(python3 -c 'import json; print(json.load(open(\"$n.show.json\"))[\"id\"])')/trace >$n.ref.json"
	done
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
for n in $NAMES; do
	check_eq "pttrace run $n: the child's exit status passes through" 0 "$(cat "$T/$n.rc")"
	[ "$(cat "$T/$n.rc")" = 0 ] || tail -20 "$T/$n.run.out"
	check_eq "pttrace run $n: torch 2.6 probed" "2.6.0+debian" "$(q $n "s['torch_version']")"
	check_eq "pttrace run $n: TORCH_LOGS as asked" "${logs[$n]}" "$(q $n "s['logs_spec']")"
	check_eq "pttrace run $n: trace part indexed" "True" \
		"$(q $n "{'part': 'trace', 'version': 2, 'state': 'done'} in [dict(i) for i in s['indexed']]")"
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
check_contains "breaks_recompile: graph break reason" "builtin: print" "$(q breaks_recompile "ld('breaks')[0]['reason']")"
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

echo "torch2 pttrace run: $(( $(date +%s) - t0 )) s in all;" \
	"$(for n in $NAMES; do printf '%s %s s, ' "$n" "$(cat "$T/$n.seconds")"; done)"
finish
