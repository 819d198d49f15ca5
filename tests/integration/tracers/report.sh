#!/usr/bin/env bash
# pttrace report without a browser: the files it writes for real traces (tlparse's
# multi-rank job, a miss/hit/miss cache log, torch 2.6 graph breaks and recompiles, an
# export), what the pages say, and that text from a trace never reaches the HTML
# unescaped. The browser checks are report_browser.sh.
. "$PT_TESTLIB/common.sh"
F=$PT_SRC/tests/fixtures/traces
export PTTRACE_DB=$T/db/pttrace.db
export PTTRACE_HLJS=/nonexistent	# the pages must read without highlight.js too

import() { "$PTTRACE" import "$@" >/dev/null 2>"$T/import.err" || [ $? = 1 ] || fail "import $*: $(cat "$T/import.err")"; }

# 1. tlparse's four-rank job: a page per compile id and rank, the rank matrix.
import "$F/tlparse-tests/inputs/multi_rank_logs"
out=$("$PTTRACE" --json report last --out "$T/mr" 2>"$T/err")
check_eq "report exit" 0 $?
check_eq "stderr of --json" "" "$(cat "$T/err")"
check_eq "pages in the JSON" "$(find "$T/mr" -name '*.html' | wc -l)" "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["pages"])')"
check_eq "compile pages = distinct (rank, compile id) with records" \
	"$("$PTTRACE" sql last "SELECT count(*) FROM (SELECT DISTINCT rank, ca, frame, compile, coalesce(attempt,0) FROM trace_records WHERE run_id=:run AND kind IN ('compilation_metrics','dynamo_start'))" | tail -1)" \
	"$(ls "$T/mr/c" | wc -l)"
check_eq "payload pages = distinct payloads (chromium events aside)" \
	"$("$PTTRACE" sql last "SELECT count(DISTINCT payload_md5) FROM trace_records WHERE run_id=:run AND kind<>'chromium_event'" | tail -1)" \
	"$(ls "$T/mr/p" | grep -c '\.html$')"
# The raw bytes of every page (its p/<md5>.txt, or its own lines where it holds the payload
# as it is: report.js's download) are the md5 the page is named after.
bad=0
for f in $(ls "$T/mr/p" | grep '\.html$'); do
	[ "$(/usr/bin/python3 "$PT_TESTLIB/payload_raw.py" "$T/mr/p/$f" | md5sum | cut -d' ' -f1)" = "${f%.html}" ] ||
		{ bad=$((bad + 1)); echo "raw bytes of $f differ from its md5"; }
done
check_eq "every payload page's raw bytes are its md5" 0 "$bad"
check_eq "one copy: a .txt only beside pages that show the payload otherwise" \
	"$(grep -l '<a href="[0-9a-f]*\.txt" download>' "$T"/mr/p/*.html | sed 's/html$/txt/' | sort)" \
	"$(ls "$T"/mr/p/*.txt 2>/dev/null | sort)"
idx=$(cat "$T/mr/index.html")
check_contains "rank matrix" '<h2 id="ranks">Ranks</h2>' "$idx"
check_contains "failed compiles counted" '<tr><th>failed</th><td class="n bad">2</td></tr>' "$idx"
check_contains "recompiles counted" '<a href="frames.html">recompiles</a></th><td class="n">126</td>' "$idx"
check_contains "no highlight.js said" "without highlighting" "$idx"
check_contains "timeline svg" '<svg xmlns="http://www.w3.org/2000/svg"' "$idx"
python3 -c 'import gzip,json,sys; d=json.load(gzip.open(sys.argv[1])); assert d["traceEvents"]' "$T/mr/chromium_events.json.gz" || fail "chromium_events.json.gz is not a gzipped Chrome trace"
check_eq "the Chrome trace is the one pttrace timeline writes" "$("$PTTRACE" timeline last --chrome - | sha256sum)" "$(gzip -dc "$T/mr/chromium_events.json.gz" | sha256sum)"

# 1b. tlparse's cross-rank checks on its collective-schedule job: ranks 0 and 2 agree, 1 differs.
import "$F/tlparse-tests/inputs/multi_rank_schedule"
"$PTTRACE" report last --out "$T/sched" >/dev/null 2>&1 || fail "report multi_rank_schedule"
sc=$(cat "$T/sched/index.html")
check_contains "schedule check diverges" '<tr><td>collective schedules</td><td class="bad">ranks diverge</td><td><ol><li>rank 0, rank 2: <code>' "$sc"
check_contains "second schedule group" '<li>rank 1: <code>' "$sc"
check_contains "checks without data said so" '<tr><td>tensor metadata</td><td>no data to compare</td>' "$sc"

# 2. miss / hit / miss of one compile id: three rows, the hit kept.
import "$F/tlparse-tests/inputs/cache_hit_miss.log"
"$PTTRACE" report last --out "$T/chm" >/dev/null 2>&1 || fail "report cache_hit_miss"
rows=$(grep -o '<tr class="s-[a-z]*"><td class="n">-</td><td><a class="cid s-ok" href="c/-_-_1_0_0.html">\[1/0\]</a></td><td class="n">[0-9]</td><td>[^<]*<code>[^<]*</code></td><td>ok</td><td>[a-z-]*</td>' "$T/chm/compiles.html" | sed 's/.*<td>ok<\/td><td>//; s/<\/td>$//' | tr '\n' ' ')
check_eq "[1/0] fx cache per occurrence" "miss hit miss " "$rows"

# 3. torch 2.6 graph breaks and recompiles: de-duplicated breaks, the recompile chain.
import "$F/generated/torch-2.6.0/breaks_recompile/trace"
"$PTTRACE" report last --out "$T/br" >/dev/null 2>&1 || fail "report breaks_recompile"
nb=$("$PTTRACE" --json graph-breaks last | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
check_contains "graph breaks total and distinct" "<p>$nb graph breaks," "$(cat "$T/br/breaks.html")"
check_contains "recompile reason on the frames page" "&rarr; <em>" "$(cat "$T/br/frames.html")"
check_contains "a frame whose first compile restarted has its function" '<td>h <code>/root/gen/breaks_recompile.py:6</code></td><td class="n">6</td>' "$(cat "$T/br/frames.html")"
check_contains "the restarted compile too" '<p>h <code>/root/gen/breaks_recompile.py:6</code> &mdash; status <span class="cid s-restarted">' "$(cat "$T/br/c/-_-_0_0_0.html")"
check_contains "the compile page's stack: paths and lines" '<h3>dynamo_start (line 15): where the compile started</h3>
<details><summary>stack</summary><ol><li><code>/root/gen/breaks_recompile.py:13 in &lt;module&gt;</code></li><li><code>/root/gen/breaks_recompile.py:6 in h</code></li></ol></details>' "$(cat "$T/br/c/-_-_0_0_0.html")"
if grep -l '<li><code>[0-9]*:[0-9]*</code>' "$T"/br/c/*.html "$T"/ex/*.html >"$T/hits"; then fail "string-table indices as stack frames in: $(cat "$T/hits")"; fi

# 3a. Failures: the text a block with its line breaks (g++'s error), the user's line beside it.
import "$F/generated/torch-2.6.0/inductor_cpp_compile_failure/trace"
"$PTTRACE" report last --out "$T/cpp" >/dev/null 2>&1 || fail "report inductor_cpp_compile_failure"
check_contains "g++'s error as a block" '<h2>Failure</h2>
<p><b>BackendCompilerFailed</b></p>
<pre class="text">backend=&#39;inductor&#39; raised:
CppCompileError: C++ compile error

Command:
g++ ' "$(cat "$T"/cpp/c/*.html)"
check_contains "its lines kept in the compiles table too" '<td>BackendCompilerFailed: <pre class="text">backend=&#39;inductor&#39; raised:
CppCompileError: C++ compile error
' "$(cat "$T/cpp/compiles.html")"
import "$F/generated/torch-2.6.0/failure/trace"
"$PTTRACE" report last --out "$T/fail" >/dev/null 2>&1 || fail "report failure"
check_contains "failure source on the compile page" '<p>Failure source: <code>/root/gen/failure.py:4</code></p>' "$(cat "$T/fail/c/-_-_0_0_0.html")"
check_contains "failure source in the compiles table" '<p>Failure source: <code>/root/gen/failure.py:4</code></p></td></tr>' "$(cat "$T/fail/compiles.html")"

# 3b. --diff: the same trace cut before its 9th dynamo_start, compared as `pttrace diff` does.
B=$(ls "$F"/generated/torch-2.6.0/breaks_recompile/trace/*.log)
head -n $(($(grep -a -n '"dynamo_start"' "$B" | sed -n 9p | cut -d: -f1) - 1)) "$B" >"$T/cut.log"
import --name full "$B"
import --name cut "$T/cut.log"
"$PTTRACE" report full --diff cut --out "$T/df" >/dev/null 2>"$T/err" || fail "report --diff: $(cat "$T/err")"
dj=$("$PTTRACE" --json diff full cut)
df=$(cat "$T/df/diff.html")
check_contains "diff page says they differ" "they differ" "$df"
check_contains "sections neither run has, in one line" "<p>Nothing in either run: ops, graph_breaks, recompiles, warnings, errors.</p>" "$df"
check_contains "trace graph breaks section" "<h2>trace_graph_breaks: $(printf '%s' "$dj" | python3 -c 'import json,sys; d=json.load(sys.stdin)["trace_graph_breaks"]; print("%d &rarr; %d" % (d["a"], d["b"]))')</h2>" "$df"
check_contains "compiles section" "<h2>compiles: $(printf '%s' "$dj" | python3 -c 'import json,sys; d=json.load(sys.stdin)["compiles"]; print("%d &rarr; %d" % (d["compiles_a"], d["compiles_b"]))')</h2>" "$df"
check_eq "compiles only in the first run" "$(printf '%s' "$dj" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["compiles"]["removed"]))')" \
	"$(grep -c '<td>only in the first run</td>' "$T/df/diff.html")"
check_eq "changed compiles" "$(printf '%s' "$dj" | python3 -c 'import json,sys; print(sum(1 for m in json.load(sys.stdin)["compiles"]["matched"] if m["changed"]))')" \
	"$(grep -c '^<tr><td>~</td>' "$T/df/diff.html")"
check_eq "the JSON on the page is pttrace diff --json's" "$(printf '%s' "$dj" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), sort_keys=True))')" \
	"$(python3 -c '
import html, json, re, sys
s = open(sys.argv[1]).read()
m = re.search(r"<pre class=\"code\" data-lang=\"json\">(.*?)</pre>", s, re.S)
print(json.dumps(json.loads(html.unescape(m.group(1))), sort_keys=True))' "$T/df/diff.html")"
grep -q 'href="diff.html"' "$T/df/index.html" || fail "the landing page links the diff page"
"$PTTRACE" report full --diff nosuchrun --out "$T/df2" >/dev/null 2>"$T/err"
check_eq "--diff with an unknown run" 2 $?

# 3c. Two processes without a rank in one run: their compiles are kept apart (p1, p2), each
# compile page holds its own process's records only, as a report of that file alone.
mkdir -p "$T/two"
cp "$F/tlparse-tests/inputs/simple.log" "$T/two/a.log"
cp "$F/tlparse-tests/inputs/simple.log" "$T/two/b.log"
import "$T/two/a.log"
"$PTTRACE" report last --out "$T/one" >/dev/null 2>&1 || fail "report of one process"
import "$T/two"
"$PTTRACE" report last --out "$T/pp" >/dev/null 2>&1 || fail "report of two processes"
check_eq "compile pages per process" "p1_-_0_0_0.html p2_-_0_0_0.html" "$(ls "$T/pp/c" | tr '\n' ' ' | sed 's/ $//')"
arts() { grep -c '^<li><a href="../p/[0-9a-f]*.html">' "$1" || true; }
check_eq "p1's page has one process's records" "$(arts "$T/one/c/-_-_0_0_0.html")" "$(arts "$T/pp/c/p1_-_0_0_0.html")"
check_eq "p2's page has one process's records" "$(arts "$T/one/c/-_-_0_0_0.html")" "$(arts "$T/pp/c/p2_-_0_0_0.html")"
check_contains "the compiles table says who" '<td class="n">p2</td><td><a class="cid s-ok" href="c/p2_-_0_0_0.html">p2 [0/0]</a>' "$(cat "$T/pp/compiles.html")"
check_contains "the matrix has a row per process" '<tr><th>p1</th>' "$(cat "$T/pp/index.html")"

# 4. export records get their page only when there are some.
import "$F/tlparse-tests/inputs/export.log"
"$PTTRACE" report last --out "$T/ex" >/dev/null 2>&1 || fail "report export"
[ -f "$T/ex/export.html" ] || fail "export.html missing for an export trace"
[ -f "$T/br/export.html" ] && fail "export.html written for a trace without export records"
ex=$(cat "$T/ex/export.html")
check_contains "the trie shows each frame's source line" '<summary><code>test/export/test_draft_export.py:534 in &lt;module&gt;<br>&nbsp;&nbsp;&nbsp;&nbsp;<span class="loc">run_tests()</span></code></summary>' "$(cat "$T/ex/index.html")"
check_contains "propagate_real_tensors' provenance, expression by expression" '<details open><summary>provenance of the expression</summary><ul class="trie"><li><code>Eq((((-u0)//3)) + 5, 0)</code> = <b>eq</b>' "$ex"
check_contains "down to the unbacked symbol" '<li><code>-u0</code> = <b>neg</b> <code>[&quot;u0&quot;]</code><ul><li><code>u0</code> <small>(unbacked symbol)</small></li></ul>' "$ex"
check_contains "user stack: file names from the string table, source lines" '<li><code>torch/nn/modules/module.py:1751 in _wrapped_call_impl<br>&nbsp;&nbsp;&nbsp;&nbsp;<span class="loc">return self._call_impl(*args, **kwargs)</span></code></li>' "$ex"
printf 'V1124 10:00:00.000000 1 x.py:1] {"propagate_real_tensors": {"expr": "Eq(u0, 2)", "result": "True", "stack": []}}\n' >"$T/prt.log"
import "$T/prt.log"
"$PTTRACE" report last --out "$T/prt" >/dev/null 2>&1 || fail "report propagate_real_tensors"
check_contains "propagate_real_tensors alone makes the export view" '<tr><td>propagate_real_tensors</td><td><b>expr</b> <code>Eq(u0, 2)</code> <b>result</b> <code>True</code>' "$(cat "$T/prt/export.html" 2>/dev/null)"

# 5. Provenance: the three panes line-linked from the node mappings.
import "$F/tlparse-tests/inputs/inductor_provenance_jit_log.txt"
"$PTTRACE" report last --out "$T/prov" >/dev/null 2>&1 || fail "report provenance"
pv=$(cat "$T/prov/c/-_-_0_0_0.provenance.html" 2>/dev/null)
check_contains "post-grad relu links to pre-grad x_1" '<span class="l" id="post-L8"><span class="t">        relu: &quot;f32[8, 16][16, 1]cpu&quot; = torch.ops.aten.relu.default(addmm);  addmm = None</span><span class="links"> <a class="prov" href="#pre-L14">&rarr; x_1</a> <a class="prov" href="#code-L' "$pv"
check_contains "the compile page links the pane" 'href="-_-_0_0_0.provenance.html"' "$(cat "$T/prov/c/-_-_0_0_0.html")"

# 6. Hostile text: every HTML file escapes it; the raw bytes stay as they were.
needle=$(python3 "$PT_TESTLIB/mktrace.py" "$T/xss.log" xss)
import "$T/xss.log"
"$PTTRACE" report last --out "$T/xss" >/dev/null 2>&1 || fail "report xss"
if grep -rl --include='*.html' -e '<img src=' -e '<script>alert' -e 'onerror="window' "$T/xss" >"$T/hits"; then
	fail "unescaped trace text in: $(cat "$T/hits")"
fi
check_contains "escaped on the payload page" '&lt;/script&gt;&lt;img src=x onerror=&quot;window.__pwned=1;alert(1)&quot;&gt;' "$(cat "$T"/xss/p/*.html)"
for f in "$T"/xss/p/*.html; do /usr/bin/python3 "$PT_TESTLIB/payload_raw.py" "$f"; done | grep -qF "$needle" ||
	fail "raw payload bytes changed"

# 7. A `pttrace run` run: its command and status, errors and tracebacks, the call tree.
F26=$F/generated/torch-2.6.0/inductor_cpp_compile_failure
printf ' [call] op=[aten::add.Tensor], key=[AutogradCPU]\n  [redispatch] op=[aten::add.Tensor], key=[CPU]\n   [call] op=[aten::empty.memory_format], key=[BackendSelect]\n [call] op=[aten::mul.Tensor], key=[CPU]\n' >"$T/disp.txt"
"$PTTRACE" run -q --no-trace -- sh -c "cat '$T/disp.txt'; cat '$F26/stderr.txt' >&2; exit 3" >/dev/null 2>&1
check_eq "run exit passed through" 3 $?
"$PTTRACE" report last --out "$T/run" >/dev/null 2>&1 || fail "report of a run"
ri=$(cat "$T/run/index.html")
check_contains "run status" '<tr><th>status</th><td>exited, exit code 3</td></tr>' "$ri"
check_contains "the traceback listed" '<li><b>traceback ERROR</b><pre>Traceback (most recent call last):' "$ri"
check_contains "no TORCH_TRACE: the report opens on the run" '<p>No TORCH_TRACE output in this run: TORCH_TRACE was off, this torch does not write it (before 2.1), or the program ended before its first <code>torch.compile</code>. Below: what the run printed.</p>
<h2 id="run">Run</h2>' "$ri"
case $ri in *'id="health"'*|*'id="totals"'*) fail "no TORCH_TRACE, and still a health table or totals" ;; esac
check_contains "call tree nested" '<ul class="trie"><li><code>aten::add.Tensor</code> <small>AutogradCPU</small>
<ul class="trie"><li><code>aten::add.Tensor</code> <small>CPU</small>
<ul class="trie"><li><code>aten::empty.memory_format</code> <small>BackendSelect</small>
</li></ul></li></ul></li><li><code>aten::mul.Tensor</code> <small>CPU</small>
</li></ul>' "$ri"

# 8. Frames in generated code (compiled autograd's <eval_with_key>.N) link to the line
# of their dump_file page.
import "$F/generated/torch-2.6.0/autograd_ca/trace"
"$PTTRACE" report last --out "$T/ca" >/dev/null 2>&1 || fail "report autograd_ca"
md5=$("$PTTRACE" sql last "SELECT payload_md5 FROM trace_records WHERE run_id=:run AND kind='dump_file' AND envelope LIKE '%<eval_with_key>.4%'" | tail -1)
check_contains "trie frame linked to its dump_file line" "<a href=\"p/$md5.html#L4\">&lt;eval_with_key&gt;.4:4 in forward</a>" "$(cat "$T/ca/index.html")"
grep -q 'id="L4"' "$T/ca/p/$md5.html" || fail "line 4 anchor missing on the dump_file page"

# 9. pttrace run --report: the report written at the end, the child's status kept.
(cd "$T" && "$PTTRACE" run -q --no-trace --report -- sh -c "cat '$F26/stderr.txt' >&2; exit 4" >/dev/null 2>"$T/err")
check_eq "run --report passes the child's status" 4 $?
rid=$("$PTTRACE" --json ls | python3 -c 'import json,sys; print(max(r["id"] for r in json.load(sys.stdin)))')
check_contains "run --report says where" "report: pttrace-report-$rid/index.html" "$(cat "$T/err")"
check_contains "run --report wrote the run's report" '<li><b>traceback ERROR</b>' "$(cat "$T/pttrace-report-$rid/index.html" 2>/dev/null)"
mkdir -p "$T/full"; echo x >"$T/full/x"
"$PTTRACE" run -q --no-trace --report="$T/full" -- true >/dev/null 2>"$T/err"
check_eq "a busy --report dir leaves the exit status the child's" 0 $?
check_contains "busy --report dir said" "no report written" "$(cat "$T/err")"

# 10. --out refuses a directory that holds something else; an earlier report is replaced.
mkdir -p "$T/busy"; echo x >"$T/busy/notes.txt"
"$PTTRACE" report last --out "$T/busy" >/dev/null 2>"$T/err"
check_eq "busy --out exit" 2 $?
check_contains "busy --out message" "exists and is not empty nor an earlier pttrace report" "$(cat "$T/err")"
"$PTTRACE" report last --out "$T/xss" >/dev/null 2>&1
check_eq "rewrite an earlier report" 0 $?
"$PTTRACE" report 999 --out "$T/none" >/dev/null 2>&1
check_eq "no such run" 2 $?

# 11. Every page of every report above is reachable from its index.html.
reports=$(for d in "$T"/*/index.html "$T"/*/*/index.html; do [ -f "$d" ] && dirname "$d"; done)
out=$(python3 "$PT_TESTLIB/reachable.py" $reports)
check_eq "no orphan page, no broken link in $(printf '%s\n' "$reports" | wc -l) reports" "" "$(printf '%s\n' "$out" | grep -v ' 0 problems$')"

finish
