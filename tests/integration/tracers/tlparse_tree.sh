# `pttrace artifact --out` writes tlparse's output tree: every path that
# tlparse's own integration tests assert (tests/integration_test.rs, extracted
# in tests/fixtures/traces/tlparse-tests/EXPECTED.json) and that names a payload
# file, compile_directory.json or chromium_events.json exists in ours, on the
# same inputs; per rank (rank_<N>/) for the multi-rank ones. The paths of HTML
# pages, raw.log/raw.jsonl and the landing page's JSON files are not produced
# (docs/pttrace-trace.1 says why) and are counted, not checked.
# ctest-timeout: 300
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTTRACE
PY=/usr/bin/python3
F=$PT_FIXTURES/traces/tlparse-tests
export PTTRACE_DB=$T/db/pttrace.db

$PY - "$P" "$F" "$T" >"$T/report" <<'PYEOF'
import json, os, re, subprocess, sys
P, F, T = sys.argv[1:4]
exp = json.load(open(os.path.join(F, "EXPECTED.json")))
payload_path = re.compile(r"^[-0-9!]+_[-0-9]+_[-0-9]+_[-0-9]+/")
checked = skipped = failed = 0
for k, t in enumerate(exp):
    inputs = [os.path.join(F, i[len("tests/"):]) for i in t["inputs"]]
    if not inputs or not all(os.path.exists(i) for i in inputs):
        continue
    wanted = [p for p in t["expected_paths"]
              if payload_path.match(p) or p in ("compile_directory.json", "chromium_events.json")
              or p.startswith("rank_{}/chromium_events") or p.startswith("rank_{}/compile_directory")]
    skipped += len(t["expected_paths"]) - len(wanted)
    if not wanted:
        continue
    name = "t%d" % k
    r = subprocess.run([P, "import", "--name", name] + inputs, capture_output=True, text=True)
    if r.returncode == 2:
        print("FAIL: import for %s: %s" % (t["test"], r.stderr)); failed += 1; continue
    out = os.path.join(T, name)
    args = [P, "artifact", name, "--out", out] + (["--export"] if "export" in t["options"] else [])
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL: artifact --out for %s: %s" % (t["test"], r.stderr)); failed += 1; continue
    files = []
    for root, _, names in os.walk(out):
        files += [os.path.relpath(os.path.join(root, n), out) for n in names]
    multi = "--all-ranks-html" in t["options"] and any(f.startswith("rank_") for f in files)
    for p in wanted:
        checked += 1
        if multi and not p.startswith("rank_"):
            # tlparse's landing page level: the ranks' trees are below rank_<N>/.
            ok = p in files or any(f.split("/", 1)[1].startswith(p) for f in files if f.startswith("rank_"))
        elif "{}" in p:
            ok = any(re.fullmatch(re.escape(p).replace(r"\{\}", r"\d+"), f) for f in files)
        else:
            ok = any(f.startswith(p) for f in files)
        if not ok:
            failed += 1
            print("FAIL: %s: %s not in pttrace's tree" % (t["test"], p))
print("checked %d tlparse paths, %d not produced (HTML, raw, landing page), %d failed" % (checked, skipped, failed))
PYEOF
cat "$T/report"
check_eq "no tlparse path missing" 0 "$(grep -c '^FAIL' "$T/report")"
check_eq "paths checked" 1 "$(( $(sed -n 's/^checked \([0-9]*\) .*/\1/p' "$T/report") >= 30 ))"

# payloads/<md5>.txt: the payloads no parser writes as a file of their own. tlparse's own test
# (integration_test.rs test_parse_compilation_metrics) wants exactly these three for
# comp_metrics.log: its dynamo_guards, which it renders as pages.
"$P" import --name cm "$F/inputs/comp_metrics.log" >/dev/null
check_rc "artifact --out comp_metrics" 0 "$P" artifact cm --out "$T/cm"
check_eq "tlparse's three payloads" "11726d08889974e57b12edee2812504e.txt 29e35548d59d0e446f0c8a3f3010cc72.txt e18e1bcb67140c0a67427a6119556f7a.txt" \
	"$(ls "$T/cm/payloads" | tr '\n' ' ' | sed 's/ $//')"
for f in "$T"/cm/payloads/*.txt; do
	check_eq "payload $(basename "$f") is its md5" "$(basename "$f" .txt)" "$(md5sum <"$f" | cut -d' ' -f1)"
done
# dump_file: tlparse's pages (dump_file/eval_with_key_N.html, a line an anchor), the source in payloads/.
"$P" import --name ca "$PT_FIXTURES/traces/generated/torch-2.6.0/autograd_ca/trace" >/dev/null
check_rc "artifact --out autograd_ca" 0 "$P" artifact ca --out "$T/ca"
check_eq "dump_file pages as tlparse names them" "eval_with_key_4.html eval_with_key_9.html" "$(ls "$T/ca/dump_file" | tr '\n' ' ' | sed 's/ $//')"
check_contains "line 4 an anchor, text escaped" '<span id="L4">def forward(self, inputs, sizes, scalars, hooks):</span>' "$(cat "$T/ca/dump_file/eval_with_key_4.html")"
check_contains "listed under tlparse's url" '"url": "dump_file/eval_with_key_4.html"' "$(cat "$T/ca/compile_directory.json")"
check_eq "the dumped sources in payloads/" 2 "$(ls "$T/ca/payloads" | wc -l)"

# The numbers are tlparse's: cache_hit_miss.log, and restarting at 0 per rank.
"$P" import --name chm "$F/inputs/cache_hit_miss.log" >/dev/null
check_rc "artifact --out" 0 "$P" artifact chm --out "$T/chm"
check_contains "files counted" "pttrace artifact: 37 files in $T/chm" "$(cat "$T/.err")"
check_eq "tlparse's numbers" "fx_graph_cache_hit_20.json fx_graph_cache_miss_33.json fx_graph_cache_miss_9.json" \
	"$(cd "$T/chm/-_1_0_0" && ls fx_graph_cache_* | tr '\n' ' ' | sed 's/ $//')"
check_eq "compile_directory.json: keys sorted, cache markers, number, name" \
	'["[0/0]", "[1/0]"] ✅ 20 fx_graph_cache_hit_20.json -_1_0_0/fx_graph_cache_hit_20.json' \
	"$($PY -c 'import json,sys; d=json.load(open(sys.argv[1])); a=[x for x in d["[1/0]"]["artifacts"] if "hit" in x["url"]][0]
print(json.dumps(list(d)), a["suffix"], a["number"], a["name"], a["url"])' "$T/chm/compile_directory.json")"
# A payload file is the payload, byte for byte (its md5 is the declared one).
decl=$(grep -a '^V.*"name": "fx_graph_cache_hit"' "$F/inputs/cache_hit_miss.log" | head -1 | sed -E 's/.*"has_payload": "([0-9a-f]+)".*/\1/')
check_eq "payload byte-exact" "$decl" "$(md5sum <"$T/chm/-_1_0_0/fx_graph_cache_hit_20.json" | cut -d' ' -f1)"
"$P" import --name mr "$F/inputs/multi_rank_logs" >/dev/null
check_rc "multi-rank --out" 0 "$P" artifact mr --out "$T/mr"
check_eq "one tree per rank" "rank_0 rank_1 rank_2 rank_3" "$(ls "$T/mr" | tr '\n' ' ' | sed 's/ $//')"
check_eq "numbers restart per rank" "$(cd "$T/mr/rank_0" && find . -name 'dynamo_output_graph_*' | sort)" \
	"$(cd "$T/mr/rank_2" && find . -name 'dynamo_output_graph_*' | sort)"
check_eq "one compile_directory.json per rank" 4 "$(ls "$T"/mr/rank_*/compile_directory.json | wc -l)"
# Records without compile id: -_-_-_-/ and the key [-/-], also on the command line.
"$P" import --name links "$F/inputs/links.log" >/dev/null
check_rc "--out of links.log" 0 "$P" artifact links --out "$T/links"
check_eq "link records listed with their number" "$(grep -a -c '{"link"' "$F/inputs/links.log")" \
	"$($PY -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for v in d.values() for a in v["artifacts"] if a["url"].startswith("http")))' "$T/links/compile_directory.json")"
"$P" import --name prov "$F/inputs/inductor_provenance_aot_log.txt" >/dev/null
check_rc "-/- accepted" 0 "$P" artifact prov -/- before_pre_grad_graph
check_rc "-/- with --out" 0 "$P" artifact prov -/- --out "$T/prov"
check_eq "-_-_-_-/ directory" "-_-_-_-" "$(ls "$T/prov" | grep -v json)"
check_contains "[-/-] key" '"[-/-]"' "$(cat "$T/prov/compile_directory.json")"
# Names cannot lead out of DIR.
printf 'V0101 00:00:00.000000 1 x.py:1] {"graph_dump": {"name": "../../evil"}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0, "has_payload": "%s"}\n\tx\n' \
	"$(printf x | md5sum | cut -d' ' -f1)" >"$T/evil.log"
"$P" import --name evil "$T/evil.log" >/dev/null
check_rc "hostile name" 0 "$P" artifact evil --out "$T/evil/out"
check_eq "written inside DIR" "-_0_0_0/.._.._evil_0.txt" "$(cd "$T/evil/out" && find . -name '*evil*' | sed 's|^\./||')"
# Several payloads for one compile and kind ([0/0] of cache_hit_miss.log was
# compiled three times: miss, hit, miss): each ends with a newline, stderr says where each came from,
# --nth picks one byte for byte.
check_rc "two payloads" 0 "$P" artifact chm 0/0 dynamo_output_graph
check_contains "each named" "3 payloads matched" "$(cat "$T/.err")"
check_eq "no payload runs into the next" 3 "$(grep -c '^class GraphModule' "$T/.out")"
decl=$(grep -a '^V.*{"dynamo_output_graph".*"frame_id": 0,' "$F/inputs/cache_hit_miss.log" | sed -n 3p | sed -E 's/.*"has_payload": "([0-9a-f]+)".*/\1/')
"$P" artifact chm 0/0 dynamo_output_graph --nth 3 >"$T/nth.txt"
check_eq "--nth 3 byte-exact" "$decl" "$(md5sum <"$T/nth.txt" | cut -d' ' -f1)"
check_rc "--nth past the end" 1 "$P" artifact chm 0/0 dynamo_output_graph --nth 4
finish
