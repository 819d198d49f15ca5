#!/usr/bin/env bash
# pttrace report and artifact --out against hostile output directories and large
# traces (docs/internals/fault-matrix.md, second review): N1 a directory of another
# user, or a link in an earlier output, is never written through; N13 nothing of an
# earlier report stays; N12 `rm` of the run while the report reads it; N4 many
# compiles in one trace file (work counted); N15 many artifact names in one compile
# (and what the report writes for them).
# The traces are made by gen_trace below, after gen_many.py of the review's probes
# (shared/tools/probes/gen_many.py, review-reliability-2.md): N compiles, each a
# dynamo_start, PER artifacts with a payload and a compilation_metrics record.
# ctest-timeout: 900
. "$PT_TESTLIB/common.sh"
cd "$T" || exit 2
export PTTRACE_DB=$T/db/pt.db
export PTTRACE_HLJS=/nonexistent	# no highlight.js copy: smaller, and the same everywhere
F=$PT_FIXTURES/traces/tlparse-tests/inputs

# gen_trace OUT N PER [NAME_PREFIX]: one TORCH_TRACE file with N compiles of PER artifacts.
gen_trace() {
	python3 - "$@" <<'PYEOF'
import hashlib, json, sys
out, n, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
prefix = sys.argv[4] if len(sys.argv) > 4 else "a"
w = open(out, "w")
t = 0
def rec(env, payload=None):
    global t
    t += 1
    if payload is not None:
        env["has_payload"] = hashlib.md5(payload.encode()).hexdigest()
    w.write("V1206 15:18:10.%06d 1500233 torch/_dynamo/utils.py:1] " % (t % 1000000) + json.dumps(env) + "\n")
    if payload is not None:
        w.write("".join("\t" + l + "\n" for l in payload.split("\n")))
w.write('V1206 15:18:10.000000 1500233 torch/x.py:1] {"str": ["/a/b.py", 0]}\n')
for i in range(n):
    cid = {"frame_id": i, "frame_compile_id": 0, "attempt": 0}
    rec(dict({"dynamo_start": {"stack": [{"line": i, "name": "f%d" % i, "filename": 0}]}}, **cid))
    for j in range(per):
        rec(dict({"artifact": {"name": "%s%d" % (prefix, j), "encoding": "string"}}, **cid), "payload %d %d" % (i, j))
    rec(dict({"compilation_metrics": {"co_name": "f%d" % i, "co_filename": "/a/b.py", "co_firstlineno": i,
                                      "graph_op_count": 1, "entire_frame_compile_time_s": 0.1}}, **cid))
PYEOF
}
json_field() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
leftovers() { find "$1" -maxdepth 1 -name '.pttrace-*' | wc -l; }

"$PTTRACE" import --name cm "$F/comp_metrics.log" >/dev/null 2>&1
"$PTTRACE" import --name ex "$F/export.log" >/dev/null 2>&1
echo "precious data" >victim.txt
chmod 600 victim.txt

# ---- N1: links in an earlier output of one's own are not followed: the directory is
# replaced whole (before: index.html -> victim was written through, as root too).
mkdir own && touch own/report.css && ln -s "$T/victim.txt" own/index.html
check_rc "report into an earlier report holding a link: exit" 0 "$PTTRACE" report cm --out own
check_eq "the link's target is untouched" "precious data" "$(cat victim.txt)"
check_eq "index.html is the report's own file now" "file" "$([ -f own/index.html ] && [ ! -L own/index.html ] && echo file)"
check_eq "nothing left beside it" 0 "$(leftovers "$T")"
"$PTTRACE" artifact cm --out art >/dev/null 2>&1
ln -sf "$T/victim.txt" art/chromium_events.json
check_rc "artifact --out into an earlier tree holding a link: exit" 0 "$PTTRACE" artifact cm --out art
check_eq "artifact --out: the link's target is untouched" "precious data" "$(cat victim.txt)"
check_eq "artifact --out: chromium_events.json is its own file" "file" \
	"$([ -f art/chromium_events.json ] && [ ! -L art/chromium_events.json ] && echo file)"
# The review's case: compile_directory.json itself a link (no earlier tree): refused.
mkdir art2 && ln -s "$T/victim.txt" art2/compile_directory.json
check_rc "artifact --out, compile_directory.json a link: refused" 2 "$PTTRACE" artifact cm --out art2
check_eq "artifact --out, compile_directory.json a link: the target is untouched" "precious data" "$(cat victim.txt)"
# Modes as mkdir gives them (the private directory is 0700 while written).
check_eq "the report directory's mode" "$(printf '%o' $((0777 & ~0$(umask))))" "$(stat -c %a own)"
# A link of one's own to an earlier report: the report goes where it points, the link stays.
ln -s own ownlink
check_rc "report through a link of one's own" 0 "$PTTRACE" report ex --out ownlink
check_eq "the link stays a link" "own" "$(readlink ownlink)"
check_eq "the report is in the directory it names" "yes" "$([ -f own/export.html ] && echo yes)"
# Not ours to replace: a directory that holds something else, a file.
mkdir busy && echo notes >busy/notes.txt
out=$("$PTTRACE" artifact cm --out busy 2>&1); rc=$?
check_eq "artifact --out into a directory holding something else: exit" 2 "$rc"
check_contains "artifact --out: said" "exists and is not empty nor an earlier pttrace artifact --out tree" "$out"
check_eq "artifact --out: the directory is left alone" "notes.txt" "$(ls busy)"
out=$("$PTTRACE" report cm --out victim.txt 2>&1); rc=$?
check_eq "report --out a file: exit" 2 "$rc"
check_contains "report --out a file: said" "exists and is not a directory" "$out"
check_eq "nothing left beside them" 0 "$(leftovers "$T")"

# The other user's directory (the review's probe, as root with `nobody`): refused, exit 2.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	chmod 711 "$T"
	mkdir -m 1777 shared
	nob() { setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups sh -c "$1"; }
	nob "mkdir shared/pttrace-report-1 && touch shared/pttrace-report-1/report.css &&
	     ln -s '$T/victim.txt' shared/pttrace-report-1/index.html &&
	     mkdir shared/art && ln -s '$T/victim.txt' shared/art/compile_directory.json &&
	     mkdir shared/empty && ln -s '$T/own' shared/link"
	out=$(cd shared && "$PTTRACE" report 1 2>&1); rc=$?
	check_eq "another user's earlier-looking report: exit" 2 "$rc"
	check_contains "another user's directory: said" "'pttrace-report-1': belongs to another user" "$out"
	check_eq "another user's directory: the victim is untouched" "precious data" "$(cat victim.txt)"
	out=$("$PTTRACE" artifact cm --out shared/art 2>&1); rc=$?
	check_eq "artifact --out into another user's tree: exit" 2 "$rc"
	check_contains "artifact --out, another user's: said" "belongs to another user" "$out"
	check_eq "artifact --out, another user's: the victim is untouched" "precious data" "$(cat victim.txt)"
	check_rc "another user's empty directory: refused" 2 "$PTTRACE" report cm --out shared/empty
	check_rc "another user's link to one's own report: refused" 2 "$PTTRACE" report cm --out shared/link
	check_eq "nothing left in the shared directory" 0 "$(leftovers shared)"
	# A fresh name in the shared directory: written, the caller's, not writable by others.
	check_rc "a new directory in a shared one" 0 "$PTTRACE" report cm --out shared/mine
	check_eq "the new report's owner and mode" "$(id -un) 755" "$(stat -c '%U %a' shared/mine)"
	chmod 700 "$T"
else
	echo "note: not root or no setpriv: the other user's directory is not tried"
fi

# ---- N13: a report into an earlier report's directory keeps nothing of it: the same
# files as a fresh report (before: run ex's export.html and payloads stayed).
"$PTTRACE" report ex --out d >/dev/null 2>&1
check_eq "the first report has export.html" yes "$([ -f d/export.html ] && echo yes)"
check_rc "a report of another run into it" 0 "$PTTRACE" report cm --out d
"$PTTRACE" report cm --out fresh >/dev/null 2>&1
check_eq "the same files as a fresh report" "" "$(diff -r d fresh 2>&1)"
"$PTTRACE" artifact ex --out ad >/dev/null 2>&1
"$PTTRACE" artifact cm --out ad >/dev/null 2>&1
"$PTTRACE" artifact cm --out afresh >/dev/null 2>&1
check_eq "artifact --out: the same tree as a fresh one" "" "$(diff -r ad afresh 2>&1)"
check_eq "nothing left beside them" 0 "$(leftovers "$T")"

# ---- N12: `rm` while the report reads: one snapshot. The report is held on a FIFO as
# its highlight.js copy (read after the snapshot starts, before any page) while the run
# is deleted; it then writes every page from the snapshot, or fails. Before: the
# report read the index after the rm and wrote empty pages, exit 0.
gen_trace rm.log 300 3
"$PTTRACE" import --name victimrun rm.log >/dev/null 2>&1
mkfifo hljs.fifo
(PTTRACE_HLJS=$T/hljs.fifo timeout 120 "$PTTRACE" report victimrun --out rmrep >rm.out 2>rm.err; echo $? >rm.rc) &
timeout 60 bash -c 'exec 3>"$1"; "$2" rm victimrun >"$3/rm.said" 2>&1; echo $? >"$3/rm.rc2"; echo "/* hljs */" >&3' \
	_ "$T/hljs.fifo" "$PTTRACE" "$T"
wait
check_eq "rm while the report reads: rm's exit" 0 "$(cat rm.rc2 2>/dev/null)"
check_eq "the run is gone" 2 "$("$PTTRACE" show victimrun >/dev/null 2>&1; echo $?)"
if [ "$(cat rm.rc)" = 0 ]; then
	check_eq "the report has every compile page" 300 "$(ls rmrep/c | wc -l)"
	check_eq "every compile page has its metrics" 0 "$(grep -l 'No compilation_metrics' rmrep/c/*.html | wc -l)"
	check_eq "every payload page" 900 "$(ls rmrep/p | grep -c '\.html$')"
else
	check_contains "or the report failed, saying why" "no report written" "$(cat rm.err)"
fi

# ---- N4: 6000 compiles in one file: each record is read a bounded number of times
# (before, each compile page scanned the file's whole id range, twice: 36 M rows here).
gen_trace many.log 6000 1
"$PTTRACE" import --name many many.log >/dev/null 2>&1
nrec=$("$PTTRACE" sql many 'SELECT count(*) FROM trace_records WHERE run_id = :run' | tail -1)
out=$(timeout 300 "$PTTRACE" --json report many --out many 2>"$T/many.err"); rc=$?
check_eq "6000 compiles: report exit" 0 "$rc"
check_eq "6000 compiles: every compile page" 6000 "$(ls many/c | wc -l)"
read=$(printf '%s' "$out" | json_field records_read)
[ "$read" -le $((5 * nrec)) ] && pass || fail "6000 compiles: $read rows read for $nrec records (bound 5x)"
check_rc "6000 compiles: compiles" 0 timeout 300 "$PTTRACE" compiles many

# ---- N15: one compile with 100,000 distinct artifact names (sharing a long prefix,
# so that each comparison of the old linear search costs: minutes for `compiles`
# before, a second now), and what the report writes for them: at most 50,000 payload
# pages and 1,000 artifacts listed on the compile's page, the rest counted.
long=$(printf 'x%.0s' $(seq 200))
gen_trace names.log 1 100000 "$long"
"$PTTRACE" import --name names names.log >/dev/null 2>&1
out=$(timeout 120 "$PTTRACE" --json compiles names 2>&1); rc=$?
check_eq "100,000 artifact names: compiles exit" 0 "$rc"
check_eq "100,000 artifact names: each counted once" 100000 \
	"$(printf '%s' "$out" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)[0]["artifacts"]))')"
out=$(timeout 300 "$PTTRACE" --json report names --out names 2>&1); rc=$?
check_eq "100,000 payloads: report exit" 0 "$rc"
check_eq "100,000 payloads: 50,000 payload pages" 50000 "$(printf '%s' "$out" | json_field payloads)"
check_eq "100,000 payloads: 50,000 pages under p/, each holding its payload (no .txt copy)" 50000 "$(ls names/p | wc -l)"
page=$(ls names/c/*.html)
check_eq "the compile's page lists 1,000" 1000 "$(grep -c '^<li><a href="../p/' "$page")"
check_contains "and counts the rest" "and 99000 more, not listed" "$(cat "$page")"
check_contains "the index says what has no page" "50000 payloads have no page of their own" "$(cat names/index.html)"
finish
