# pttrace import over every real TORCH_TRACE fixture: nothing lost (records per
# kind equal a plain count of envelope lines), every payload md5 recomputed (the
# mismatches are those tlparse's own rule finds: some of tlparse's test inputs
# really have them, e.g. export.log's blank lines inside a payload),
# compile ids, failures and restarts as the files state them, simple.log's
# tlparse compile directory, ranks from file names, damaged lines reported.
# ctest-timeout: 300
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTTRACE
PY=/usr/bin/python3
F=$PT_FIXTURES/traces
[ -d "$F" ] || fail "no trace fixtures at $F"
export PTTRACE_DB=$T/db/pttrace.db

# The plain count: envelope lines start with V; the kind is the first JSON key.
plain_counts() {
	grep -a -h '^V' "$@" | sed -E 's/^[^{]*\{"([^"]+)".*/\1/' | sort | uniq -c | awk '{print $2 "=" $1}'
}
jget() { "$P" show --json "$1" | $PY -c "import json,sys; d=json.load(sys.stdin); print($2)"; }

# tlparse's rule, independent of pttrace's parser: after an envelope with
# has_payload, the lines starting with a tab (a trailing CR dropped, as Rust's
# lines() does) are the payload, tab stripped, joined by \n. Prints the number of
# payloads whose md5 differs from the declared one, then "conflict" when the
# records' "rank" key disagrees with the rank in the file name, else "ok".
tlparse_ref() {
	$PY - "$1" <<'PYEOF'
import hashlib, json, re, sys
fn = sys.argv[1]
lines = open(fn, "rb").read().split(b"\n")
if lines and lines[-1] == b"":
    lines.pop()
lines = [l[:-1] if l.endswith(b"\r") else l for l in lines]
bad, ranks, i = 0, set(), 0
while i < len(lines):
    l = lines[i]
    i += 1
    if not l.startswith(b"V") or b"] {" not in l:
        continue
    try:
        env = json.loads(l.split(b"] ", 1)[1])
    except ValueError:
        continue
    if "rank" in env:
        ranks.add(env["rank"])
    if "has_payload" not in env:
        continue
    p = []
    while i < len(lines) and lines[i].startswith(b"\t"):
        p.append(lines[i][1:])
        i += 1
    bad += hashlib.md5(b"\n".join(p)).hexdigest() != env["has_payload"]
m = re.search(r"rank_(\d+)", fn.rsplit("/", 1)[-1])
print(bad)
print("conflict" if m and ranks and int(m.group(1)) not in ranks else "ok")
PYEOF
}

n=0
while IFS= read -r f; do
	n=$((n + 1))
	{ read -r bad; read -r conflict; } < <(tlparse_ref "$f")
	want_rc=0
	[ "$bad" = 0 ] && [ "$conflict" = ok ] || want_rc=1
	check_rc "import $f ($bad md5 mismatches by tlparse's rule, rank $conflict)" $want_rc "$P" import --name "fx$n" "$f"
	# One show: the counts per kind, then the mismatches.
	got=$("$P" show --json "fx$n" | $PY -c 'import json,sys; d=json.load(sys.stdin)
for k,v in sorted(d["records_by_kind"].items()): print("%s=%d" % (k,v))
print("mismatches=%d" % d["payload_md5_mismatches"])')
	check_eq "records per kind of $f, md5 mismatches as tlparse counts them" \
		"$({ plain_counts "$f"; echo "mismatches=$bad"; })" "$got"
	check_eq "payload count of $f" "$(grep -a '^V' "$f" | grep -c '"has_payload"')" \
		"$("$P" sql "fx$n" 'SELECT count(*) FROM trace_records WHERE run_id = :run AND payload_md5 IS NOT NULL' 2>/dev/null | tail -1 | tr -dc 0-9)"
done < <(find "$F" -name '*.log' -o -name 'inductor_provenance_*.txt' | sort)
[ "$n" -ge 40 ] || fail "only $n fixture logs found"

# Stored payloads are byte-exact: their md5 is what the file declares.
bad=$("$P" sql fx1 "SELECT count(*) FROM trace_records r JOIN trace_payloads p ON p.md5 = r.payload_md5 WHERE r.run_id = :run AND length(p.data) <> p.size" 2>/dev/null | tail -1 | tr -dc 0-9)
check_eq "payload sizes" 0 "$bad"

# simple.log: one compile [0/0], ok, the artifacts tlparse's tests expect.
S=$F/tlparse-tests/inputs/simple.log
"$P" import --name simple "$S" >/dev/null
out=$("$P" compiles simple)
check_contains "simple: [0/0] ok" "[0/0] ok" "$out"
check_contains "simple: frame" "forward /data/users/xmfan/a/pytorch/test/inductor/test_torchinductor.py:11123" "$out"
check_contains "simple: ops and guards" "graphs 1, ops 3, guards 49" "$out"
check_contains "simple: stack resolved through str records" '"/data/users/xmfan/a/pytorch/test/inductor/test_torchinductor.py:11123 in forward"' \
	"$("$P" --json compiles simple)"
check_rc "artifact --out" 0 "$P" artifact simple --out "$T/tl"
for want in aot_forward_graph dynamo_output_graph inductor_post_grad_graph inductor_output_code; do
	ls "$T/tl/-_0_0_0/" | grep -q "^$want" || fail "tlparse compile dir -_0_0_0 lacks $want"
	pass
done
check_eq "compile_directory.json lists [0/0]" "yes" \
	"$($PY -c 'import json,sys; print("yes" if "[0/0]" in json.load(open(sys.argv[1])) else "no")' "$T/tl/compile_directory.json")"
# A printed payload hashes to the md5 the file declares.
decl=$(grep -a '"dynamo_output_graph"' "$S" | head -1 | sed -E 's/.*"has_payload": "([0-9a-f]+)".*/\1/')
"$P" artifact simple 0/0 dynamo_output_graph >"$T/g.txt"
check_eq "artifact bytes hash to has_payload" "$decl" "$(md5sum <"$T/g.txt" | cut -d' ' -f1)"
check_rc "unknown artifact kind" 1 "$P" artifact simple 0/0 no_such_kind
check_rc "bad compile id" 2 "$P" artifact simple zz dynamo_output_graph

# Failures and restarts as the files state them.
"$P" import --name fail "$F/tlparse-tests/inputs/comp_failure.log" >/dev/null
out=$("$P" --json compiles fail)
check_eq "comp_failure: [0/0] failed" "failed BackendCompilerFailed" \
	"$(printf '%s' "$out" | $PY -c 'import json,sys; c=[x for x in json.load(sys.stdin) if x["compile_id"]=="0/0"][0]; print(c["status"], c["fail_type"].split(".")[-1].strip("<>'"'"'"))')"
check_rc "compiles exits 1 when a compile failed" 1 "$P" compiles fail
"$P" import --name restarts "$F/tlparse-tests/inputs/comp_metrics.log" >/dev/null
out=$("$P" compiles restarts)
check_contains "comp_metrics: [0/0] restarted" "[0/0] restarted" "$out"
check_contains "comp_metrics: [0/0_1] ok" "[0/0_1] ok" "$out"
check_contains "comp_metrics: restart reason" "skip function graph_break" "$out"
out=$("$P" graph-breaks restarts)
check_contains "graph-breaks from restart reasons (2024 format)" "[0/0_1] 'skip function graph_break" "$out"

# Every compile occurrence: cache_hit_miss.log compiles [0/0] and [1/0] three
# times each (a reset between); [1/0] misses, hits, misses the fx graph cache.
"$P" import --name chm "$F/tlparse-tests/inputs/cache_hit_miss.log" >/dev/null
check_eq "three occurrences each, cache miss/hit/miss" \
	"0/0 1 ok None|1/0 1 ok fx miss|0/0 2 ok None|1/0 2 ok fx hit|0/0 3 ok None|1/0 3 ok fx miss" \
	"$("$P" --json compiles chm | $PY -c 'import json,sys; print("|".join("%s %d %s %s" % (c["compile_id"], c["occurrence"], c["status"], c["cache"]) for c in json.load(sys.stdin)))')"
check_contains "the hit is shown" "[1/0 #2] ok" "$("$P" compiles chm)"
# compilation_metrics without compile id (AOTInductor) are compiles of [-/-].
"$P" import --name aot "$F/tlparse-tests/inputs/inductor_provenance_aot_log.txt" >/dev/null
check_eq "AOT metrics without compile id" "-/-" "$("$P" --json compiles aot | $PY -c 'import json,sys; print(" ".join(c["compile_id"] for c in json.load(sys.stdin)))')"

# 2.6.0 graph breaks and recompiles, with the failed guard.
"$P" import --name br "$F/generated/torch-2.6.0/breaks_recompile/trace" >/dev/null
out=$("$P" graph-breaks br)
check_contains "graph break reason" "[0/0] Unsupported: builtin: print" "$out"
check_contains "graph break place" "at /root/gen/breaks_recompile.py:4" "$out"
out=$("$P" recompiles br)
check_contains "recompile guard" "[3/1] guard of [3/0] failed: L['n'] == 1" "$out"
# graph_op_count 0: empty; restart reasons as the list torch logged.
check_contains "empty graph" "[0/0_1] empty" "$("$P" compiles br)"
check_eq "restart_reasons a list" "list 1" "$("$P" --json compiles br | $PY -c 'import json,sys; c=[x for x in json.load(sys.stdin) if x["compile_id"]=="0/0_1"][0]; print(type(c["restart_reasons"]).__name__, len(c["restart_reasons"]))')"

# diff: the same trace twice differs in nothing; a trace cut before its last
# compiles lost those compile ids (and their recompile reasons).
B=$F/generated/torch-2.6.0/breaks_recompile/trace/dedicated_log_torch_trace_d88agyhk.log
cut=$(grep -a -n '"dynamo_start"' "$B" | sed -n 9p | cut -d: -f1)
head -n $((cut - 1)) "$B" >"$T/dedicated_log_torch_trace_cut.log"
"$P" import --name br2 "$B" >/dev/null
"$P" import --name brcut "$T/dedicated_log_torch_trace_cut.log" >/dev/null
check_rc "diff of equal traces" 0 "$P" diff br br2
check_contains "diff shows compile times" "compile time of the compiles both have" "$(cat "$T/.out")"
check_rc "diff of a cut trace" 1 "$P" diff br brcut
check_contains "removed compile" "- [3/3] torch_dynamo_resume_in_h_at_8" "$(cat "$T/.out")"
check_contains "changed compile" '~ [3/2] torch_dynamo_resume_in_h_at_8  (/root/gen/breaks_recompile.py:8): graph changed; status ok -> missing' "$(cat "$T/.out")"
check_contains "lost recompile reason" "- recompile [3/3] tensor 'L['___stack0']' size mismatch at index 0" "$(cat "$T/.out")"
check_eq "diff --json: removed ids" "0/2 0/2_1" "$("$P" --json diff br brcut | $PY -c 'import json,sys
d=json.load(sys.stdin)["compiles"]; print(" ".join(sorted(x["compile_id"] for x in d["removed"])))' | cut -d' ' -f1-2)"

# Pairing by code location (issue 32): compile_order's real runs compile f and g
# in the opposite order, so 0/0 is f in one run and g in the other. Paired by
# file, line and function, not by id: nothing added or removed, f 0/0 -> 1/0.
O=$F/generated/torch-2.6.0/compile_order
"$P" import --name ofg "$O/fg/trace" >/dev/null
"$P" import --name ogf "$O/gf/trace" >/dev/null
check_rc "diff of the same compiles in another order" 0 "$P" diff ofg ogf
check_contains "f paired by location" "= [0/0] -> [1/0] f  (/gen/order.py:4)" "$(cat "$T/.out")"
check_eq "diff --json: pairs by location" "0 0 f:0/0->1/0@/gen/order.py:4 g:1/0->0/0@/gen/order.py:7" "$("$P" --json diff ofg ogf | $PY -c 'import json,sys
d=json.load(sys.stdin)["compiles"]; print(len(d["added"]), len(d["removed"]), " ".join("%s:%s->%s@%s" % (m["name"], m["compile_id"], m["compile_id_b"], m["location"]) for m in d["matched"]))')"

# Multi-rank: ranks from the file names (no "rank" key inside), CRLF rank 1.
"$P" import --name mr "$F/tlparse-tests/inputs/multi_rank_logs" >/dev/null
check_eq "ranks in show" "[0, 1, 2, 3]" "$(jget mr 'd["ranks"]')"
check_eq "CRLF rank file: no md5 mismatch" 0 "$(jget mr 'd["payload_md5_mismatches"]')"
"$P" ranks mr >"$T/ranks.txt"
check_eq "ranks diverge: exit 1" 1 $?
check_contains "rank 1 compiled more graphs" "rank 1 compiled 15 graphs, rank 0 1" "$(cat "$T/ranks.txt")"
check_contains "a compile only rank 3 has" "rank 3 compiled [0/6], rank 0 did not" "$("$P" --json ranks mr)"
check_contains "text output is capped" "more (--json lists all)" "$(cat "$T/ranks.txt")"
check_rc "timeline" 0 "$P" timeline mr --chrome "$T/tl.json"
check_eq "timeline: one event per chromium_event, pid per rank" \
	"$(grep -a -c '{"chromium_event"' "$F"/tlparse-tests/inputs/multi_rank_logs/*.log | awk -F: '{s+=$2} END {print s}') [0, 1, 2, 3]" \
	"$($PY -c 'import json,sys; e=[x for x in json.load(open(sys.argv[1]))["traceEvents"] if x["ph"] != "M"]; print(len(e), sorted({x["pid"] for x in e}))' "$T/tl.json")"
check_eq "timeline: a named process per rank" "rank 0,rank 1,rank 2,rank 3" \
	"$($PY -c 'import json,sys; print(",".join(sorted(x["args"]["name"] for x in json.load(open(sys.argv[1]))["traceEvents"] if x["ph"] == "M")))' "$T/tl.json")"

# The rank rule: the file name's rank wins, the conflict is reported, nothing
# is merged (tlparse goes by the file name too); --rank-from=record takes the
# records' rank, and files that then say the same rank are kept apart.
mkdir "$T/conf"
cp "$F/generated/torch-2.6.0/multirank/trace/dedicated_log_torch_trace_rank_0_vxekux_v.log" \
	"$T/conf/dedicated_log_torch_trace_rank_5_xxxxxxxx.log"
cp "$F/generated/torch-2.6.0/multirank/trace/dedicated_log_torch_trace_rank_0_vxekux_v.log" "$T/conf/"
check_rc "rank conflict is a problem" 1 "$P" import --name conf "$T/conf"
check_contains "conflict named" "the file name says rank 5, its records rank 0; rank 5 used (--rank-from=record uses the records')" "$(cat "$T/.err")"
check_eq "file name's rank used" "[0, 5]" "$(jget conf 'd["ranks"]')"
check_rc "--rank-from=record" 1 "$P" import --rank-from=record --name confrec "$T/conf"
check_contains "records' rank used" "rank 0 used (--rank-from=record)" "$(cat "$T/.err")"
check_contains "same rank, not merged" "2 files say rank 0 (trace/dedicated_log_torch_trace_rank_0_vxekux_v.log, trace/dedicated_log_torch_trace_rank_5_xxxxxxxx.log): kept apart as processes 1, 2, not merged" "$(cat "$T/.err")"
check_eq "records' rank, two processes" "[0] 2" "$(jget confrec 'd["ranks"], len(d["processes"])')"
check_rc "--rank-from=bad" 2 "$P" import --rank-from=bad "$T/conf"
# tlparse's own inputs: rank 5's records say rank 1, the schedule files all say rank 0.
"$P" import --name rt "$F/tlparse-tests/inputs/multi_rank_runtime" >/dev/null 2>&1
check_eq "multi_rank_runtime: ranks by file name" "[0, 1, 2, 3, 4, 5, 6]" "$(jget rt 'd["ranks"]')"
"$P" import --name sch "$F/tlparse-tests/inputs/multi_rank_schedule" >/dev/null 2>&1
check_eq "multi_rank_schedule: ranks by file name" "[0, 1, 2]" "$(jget sch 'd["ranks"]')"
# Two single-process traces in one directory (a script run twice): two processes, not one.
mkdir "$T/two"
cp "$F/generated/torch-2.6.0/simple/trace/"*.log "$F/generated/torch-2.6.0/failure/trace/"*.log "$T/two/"
check_rc "two unranked processes: fine" 0 "$P" import --name two "$T/two"
check_contains "two processes noted" "2 processes without a rank" "$(cat "$T/.err")"
check_eq "two processes in show" 2 "$(jget two 'len(d["processes"])')"

# A damaged line and a hand-edited payload: reported with file and line; the rest indexed.
C=$F/tlparse-tests/inputs/comp_metrics.log
{ head -n 20 "$C"; echo 'V0403 07:28:48.052000 1 x.py:1] {"broken": '; tail -n +21 "$C"; } >"$T/damaged.log"
sed -i '0,/^\t\[$/s//\t[ edited/' "$T/damaged.log"
check_rc "damaged import exits 1" 1 "$P" import --name dmg "$T/damaged.log"
check_contains "damaged line named" "'trace/damaged.log': line 21: invalid envelope JSON" "$(cat "$T/.err")"
check_contains "md5 mismatch named" "payload md5" "$(cat "$T/.err")"
check_eq "the rest indexed" "$(grep -a -c '^V' "$C")" "$(jget dmg 'sum(d["records_by_kind"].values())')"
check_eq "one md5 mismatch recorded" 1 "$(jget dmg 'd["payload_md5_mismatches"]')"

# --into adds files to a run; the copies live in the run directory.
check_rc "import --into" 0 "$P" import --into simple "$F/tlparse-tests/inputs/links.log"
check_eq "two files in the run" 2 "$(jget simple 'd["torch_trace"]["files"]')"
check_eq "copy is byte-identical" "$(md5sum <"$F/tlparse-tests/inputs/links.log")" \
	"$(md5sum <"$(dirname "$PTTRACE_DB")/runs/$(jget simple 'd["id"]')/trace/links.log")"
# A job directory holds other files too: only *.log files are taken from a directory.
check_rc "import a scenario directory" 0 "$P" import --name scen "$F/generated/torch-2.6.0/simple"
check_eq "only the trace file" 1 "$(jget scen 'd["torch_trace"]["files"]')"
check_rc "missing path" 2 "$P" import /nonexistent/x.log
check_rc "no path" 2 "$P" import

finish
