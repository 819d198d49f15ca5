. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1800
# `ptinspect build` on the torch 2.14 tree of tests/torch2/buildtree --flavour
# sid (Debian unstable: CMake 4, ninja 1.13, whose .ninja_log is v7). Where
# the archive does not serve pytorch's source (kind "codegen" in `buildtree
# info`) the tree is torchgen's code generation only, configured by CMake and
# built by ninja in three runs: ATen's sources and headers, autograd's code,
# then autograd's again after derivatives.yaml was touched, about a second
# later. Every figure is checked against an independent reading of the same
# files (Python below); a source tree would also have libc10 with DWARF.
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
BT=$PT_SRC/tests/torch2/buildtree
"$BT" --flavour sid create >"$T/create.out" 2>"$T/create.err"
rc=$?
[ $rc = 77 ] && skip "torch 2.14 build bed unavailable: $(grep 'cannot run here' "$T/create.err")"
grep -h 'buildtree: \|testbed: ' "$T/create.err"
check_eq "buildtree --flavour sid create" 0 $rc
[ $rc = 0 ] || { tail -20 "$T/create.err"; finish; }
TREE=$("$BT" --flavour sid path)
KIND=$("$BT" --flavour sid info | sed -n 's/^kind: *//p')
echo "kind: $KIND"

MAX_JOBS=2 "$PTINSPECT" build --json --since-last "$TREE" >"$T/build.json" 2>"$T/build.err"
check_eq "ptinspect build --json exit" 0 $?
check_eq "no diagnostics" "" "$(cat "$T/build.err")"

cat >"$T/ref.py" <<'PYEOF'
import json, os, re, sys
tree, got, kind = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
fails = []
def eq(what, want, have):
    if want != have:
        fails.append(f"{what}: want {want!r}, have {have!r}")

cache = {}
for line in open(os.path.join(tree, "CMakeCache.txt"), encoding="utf-8"):
    line = line.rstrip("\n")
    if not line or line.startswith(("#", "//")):
        continue
    m = re.match(r"([^:=]+)(?::([A-Z_]*))?=(.*)$", line)
    cache[m.group(1)] = (m.group(2) or "", m.group(3))
eq("cache entries", len(cache), got["files"]["cmake_cache_entries"])
cfg = got["config"]
eq("build type", "Debug", cfg["build type"]["value"])
eq("generator", "Ninja", cfg["generator"]["value"])
eq("source", "/build/pytorch", cfg["source"]["value"])
eq("source (cache)", cache["CMAKE_HOME_DIRECTORY"][1], cfg["source"]["value"])

edges = 0
for f in ("build.ninja", "CMakeFiles/rules.ninja"):
    p = os.path.join(tree, f)
    if os.path.exists(p):
        edges += sum(1 for l in open(p, encoding="utf-8") if l.startswith("build "))
eq("ninja edges", edges, got["files"]["ninja_edges"])

# .ninja_log v7 (ninja 1.13): a new run where the times restart, where the
# wall start (mtime - start) moves on by more than the edge and 2 s, or where
# an output comes again (ninja runs an edge once a run).
lines = open(os.path.join(tree, ".ninja_log")).read().splitlines()
eq("log header", "# ninja log v7", lines[0])
eq("log version", 7, got["files"]["ninja_log_version"])
recs, run, prev_end, omax, seen = [], 0, None, None, set()
for l in lines[1:]:
    s, e, m, out, h = l.split("\t")
    s, e, m = int(s), int(e), int(m)
    o = m - s * 1000000
    if prev_end is not None and (e < prev_end or out in seen or
                                 (omax is not None and o - omax > (e - s) * 1000000 + 2 * 10**9)):
        run += 1
        omax, seen = None, set()
    seen.add(out)
    omax = o if omax is None or o > omax else omax
    prev_end = e
    recs.append((s, e, out, h, run))
eq("records", len(recs), got["profile"]["records"])
eq("runs", 3, run + 1)
eq("runs (ptinspect)", run + 1, len(got["profile"]["runs"]))
for r in range(run + 1):
    rr = [x for x in recs if x[4] == r]
    # One edge per (start, end, hash): the outputs of a multi-output edge.
    er = {(x[0], x[1], x[3]) for x in rr}
    have = got["profile"]["runs"][r] if r < len(got["profile"]["runs"]) else {}
    eq(f"run {r} edges", len(er), have.get("edges"))
    eq(f"run {r} sum", sum(e - s for s, e, _ in er), have.get("sum_ms"))
    eq(f"run {r} wall", max(x[1] for x in rr) - min(x[0] for x in rr), have.get("wall_ms"))
last = {x[2] for x in recs if x[4] == run}
since = {x["output"]: x["reason"] for x in got["since_last"]}
eq("since-last outputs", sorted(last), sorted(since))
if kind == "codegen":
    eq("Functions.cpp rebuilt because", "inputs changed", since.get("/build/pytorch/torch/csrc/autograd/generated/Functions.cpp"))
    eq("last run: autograd's codegen only", True, all("/torch/csrc/autograd/generated/" in o for o in last))
    eq("libraries (no c10 in a codegen tree)", [], got["libraries"])
else:
    libs = got["libraries"]
    eq("libraries", ["libc10.so.2.14.1"], [os.path.basename(l["path"]) for l in libs])
    eq("libc10 DWARF", True, bool(libs) and libs[0]["dwarf"])
crit = [e["output"] for e in got["profile"]["critical_path"]["edges"]]
eq("critical path: one edge of the last run", True, len(crit) == 1 and crit[0] in last)
eq("MAX_JOBS", 2, got["memory"]["max_jobs"])
print("\n".join(fails) if fails else "ok")
PYEOF
out=$(python3 "$T/ref.py" "$TREE" "$T/build.json" "$KIND" 2>&1)
check_eq "ptinspect build --json vs an independent reading" ok "$out"

MAX_JOBS=2 "$PTINSPECT" build "$TREE" >"$T/build.txt"
check_eq "text exit" 0 $?
check_contains "text: build type" "build type             Debug" "$(cat "$T/build.txt")"
check_contains "text: three runs of a v7 log" "(.ninja_log v7: " "$(cat "$T/build.txt")"
check_contains "text: three runs" " outputs, 3 runs)" "$(cat "$T/build.txt")"
n=$(wc -l <"$T/build.txt")
[ "$n" -le 60 ] && pass || fail "text is $n lines, not one screen"

"$PTINSPECT" build --json "$(dirname "$TREE")" >"$T/src.json"
check_eq "checkout dir exit" 0 $?
check_eq "checkout dir resolves build/" "$TREE" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["dir"])' "$T/src.json")"
finish
