. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1800
# `ptinspect build` on a real PyTorch build tree: Debian 13's torch 2.6 source
# configured by its own setup.py (DEBUG=1 USE_CUDA=0 ...) and partly built with
# ninja by tests/torch2/buildtree (c10, torchgen's sources, three ATen objects,
# then one file touched and c10 rebuilt). Every figure is checked against an
# independent reading of the same files (Python below, readelf), and the
# cross-checks against real damage: a stale libc10 and a stripped one.
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
need readelf
need objcopy
BT=$PT_SRC/tests/torch2/buildtree
"$BT" create >"$T/create.out" 2>"$T/create.err"
rc=$?
[ $rc = 77 ] && skip "torch 2.x build bed unavailable: $(grep 'cannot run here' "$T/create.err")"
grep -h 'buildtree: \|testbed: ' "$T/create.err"
check_eq "buildtree create" 0 $rc
[ $rc = 0 ] || { tail -20 "$T/create.err"; finish; }
TREE=$("$BT" path)

# Exit 0: nothing wrong with this tree. Under a second on it.
MAX_JOBS=2 "$PTINSPECT" build --json --compdb --since-last "$TREE" >"$T/build.json" 2>"$T/build.err"
check_eq "ptinspect build --json exit" 0 $?
check_eq "no diagnostics" "" "$(cat "$T/build.err")"

cat >"$T/ref.py" <<'EOF'
import json, os, re, sys
tree, got = sys.argv[1], json.load(open(sys.argv[2]))
fails = []
def eq(what, want, have):
    if want != have:
        fails.append(f"{what}: want {want!r}, have {have!r}")

# CMakeCache.txt, read by hand.
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
for k, (t, v) in cache.items():
    if k.startswith("USE_") and t not in ("INTERNAL", "STATIC"):
        eq(k, v, cfg.get(k, {}).get("value"))
n_use = sum(1 for k, (t, v) in cache.items() if k.startswith("USE_") and t not in ("INTERNAL", "STATIC"))
eq("USE_* fields", n_use, sum(1 for k, f in cfg.items() if f["group"] == "options" and k.startswith("USE_")))
# USE_FLASH_ATTENTION=0 was set too, but it is a dependent option of USE_CUDA: not cached.
eq("USE_FLASH_ATTENTION not cached", None, cfg.get("USE_FLASH_ATTENTION"))
for k in ("USE_CUDA", "USE_DISTRIBUTED", "USE_MKLDNN", "USE_KINETO"):
    eq(k + " (from setup.py's env)", "0", cfg[k]["value"])
eq("BLAS", cache["BLAS"][1], cfg["BLAS"]["value"])
eq("Python", cache["Python_EXECUTABLE"][1], cfg["Python"]["value"])
ver = open([os.path.join(tree, "CMakeFiles", d, "CMakeCXXCompiler.cmake") for d in os.listdir(os.path.join(tree, "CMakeFiles")) if re.match(r"\d", d)][0]).read()
eq("C++ compiler version", re.search(r'CMAKE_CXX_COMPILER_VERSION "([^"]+)"', ver).group(1), cfg["C++ compiler version"]["value"])

# build.ninja and its include: edges are the "build " lines.
edges = 0
for f in ("build.ninja", "CMakeFiles/rules.ninja"):
    p = os.path.join(tree, f)
    if os.path.exists(p):
        edges += sum(1 for l in open(p, encoding="utf-8") if l.startswith("build "))
eq("ninja edges", edges, got["files"]["ninja_edges"])
eq("compile_commands entries", len(json.load(open(os.path.join(tree, "compile_commands.json")))), got["files"]["compile_commands"])

# .ninja_log v6: runs restart the times, or (a run whose first edge ended
# after the run before it) start later on the wall clock, mtime - start,
# than the edge's duration and 2 s; consecutive records with the same
# start, end and hash are one multi-output edge.
lines = open(os.path.join(tree, ".ninja_log")).read().splitlines()
eq("log header", "# ninja log v6", lines[0])
recs, run, prev_end, omax = [], 0, None, None
for l in lines[1:]:
    s, e, m, out, h = l.split("\t")
    s, e, m = int(s), int(e), int(m)
    o = m - s * 1000000 if m >= 10**18 else None
    if prev_end is not None and (e < prev_end or (o is not None and omax is not None and o - omax > (e - s) * 1000000 + 2 * 10**9)):
        run += 1
        omax = None
    if o is not None and (omax is None or o > omax):
        omax = o
    prev_end = e
    recs.append((s, e, out, h, run))
eq("records", len(recs), got["profile"]["records"])
eq("runs", run + 1, len(got["profile"]["runs"]))
for r in range(run + 1):
    edges_r = [x for i, x in enumerate(recs) if x[4] == r and not (i and recs[i-1][4] == r and recs[i-1][:2] == x[:2] and recs[i-1][3] == x[3])]
    have = got["profile"]["runs"][r]
    eq(f"run {r} edges", len(edges_r), have["edges"])
    eq(f"run {r} sum", sum(e - s for s, e, *_ in edges_r), have["sum_ms"])
    eq(f"run {r} wall", max(e for _, e, *_ in edges_r) - min(s for s, *_ in edges_r), have["wall_ms"])
# The slowest edge (latest record per output).
latest = {}
for x in recs:
    latest[x[2]] = x
top = max(latest.values(), key=lambda x: x[1] - x[0])
eq("slowest ms", top[1] - top[0], got["profile"]["slowest"][0]["ms"])
# The last run rebuilt typeid.cpp.o and relinked libc10, because an input changed.
last = {x[2]: x for x in recs if x[4] == run}
since = {x["output"]: x["reason"] for x in got["since_last"]}
eq("since-last outputs", sorted(last), sorted(since))
eq("typeid.cpp.o reason", "inputs changed", since.get("c10/CMakeFiles/c10.dir/util/typeid.cpp.o"))
crit = [e["output"] for e in got["profile"]["critical_path"]["edges"]]
eq("critical path", ["c10/CMakeFiles/c10.dir/util/typeid.cpp.o", "lib/libc10.so.2.6.0", "lib/libc10.so.2.6"], crit)
c10 = [t for t in got["profile"]["targets"] if t["name"] == "c10"][0]
n_c10 = len({x[2] for x in recs if "/CMakeFiles/c10.dir/" in x[2]})
eq("c10 target: objects (latest per output)", n_c10, c10["edges"])
eq("torch_cpu objects", 3, [t for t in got["profile"]["targets"] if t["name"] == "torch_cpu"][0]["edges"])
eq("MAX_JOBS", 2, got["memory"]["max_jobs"])
eq("observed concurrency", 2, got["memory"]["observed_max_concurrent"])
heavy = sorted(os.path.basename(h["file"]) for h in got["memory"]["heavy_units"])
eq("Operators_0.cpp is heavy", True, "Operators_0.cpp" in heavy)
libs = got["libraries"]
eq("libraries", ["libc10.so.2.6.0"], [os.path.basename(l["path"]) for l in libs])
eq("libc10 DWARF", True, libs[0]["dwarf"])
eq("libc10 stale", False, libs[0]["older_than_inputs"])
print("\n".join(fails) if fails else "ok")
EOF
out=$(python3 "$T/ref.py" "$TREE" "$T/build.json" 2>&1)
check_eq "ptinspect build --json vs an independent reading" ok "$out"
# DWARF and RUNPATH as readelf sees them.
lib=$TREE/lib/libc10.so.2.6.0
readelf -S "$lib" | grep -q '\.debug_info' && want_dwarf=true || want_dwarf=false
check_eq "readelf: libc10 has .debug_info" true $want_dwarf
rp=$(readelf -d "$lib" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
check_eq "RUNPATH" "${rp:-}" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["libraries"][0]["runpath"] or "")' "$T/build.json")"

# The text: one screen (at most 60 lines) holding the facts.
MAX_JOBS=2 "$PTINSPECT" build "$TREE" >"$T/build.txt"
check_eq "text exit" 0 $?
check_contains "text: build type" "build type             Debug" "$(cat "$T/build.txt")"
check_contains "text: DWARF" "lib/libc10.so.2.6.0    DWARF yes" "$(cat "$T/build.txt")"
check_contains "text: critical path" "c10/CMakeFiles/c10.dir/util/typeid.cpp.o" "$(cat "$T/build.txt")"
n=$(wc -l <"$T/build.txt")
[ "$n" -le 60 ] && pass || fail "text is $n lines, not one screen"

# A source checkout as DIR finds its build/.
"$PTINSPECT" build --json "$(dirname "$TREE")" >"$T/src.json"
check_eq "checkout dir exit" 0 $?
check_eq "checkout dir resolves build/" "$TREE" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["dir"])' "$T/src.json")"

# --source: a line of torchgen's RegisterCPU.cpp (as the debugger names it,
# with the path the build used) back to its native_functions.yaml entry; the
# entry's line and func: as grep finds them; a hand-written kernel's symbol.
SRC=$(dirname "$TREE")
YAML=$SRC/aten/src/ATen/native/native_functions.yaml
wl=$(grep -n '^at::Tensor wrapper_CPU_add_Tensor(' "$TREE/aten/src/ATen/RegisterCPU.cpp" | cut -d: -f1)
"$PTINSPECT" build --json --source "/build/pytorch/build/aten/src/ATen/RegisterCPU.cpp:$((wl + 3))" "$TREE" >"$T/src1.json"
check_eq "--source exit" 0 $?
yl=$(grep -n '^- func: add.Tensor(' "$YAML" | cut -d: -f1)
el=$(awk '/^build / { o = $0; sub(/: .*/, "", o); if ((o " ") ~ / aten\/src\/ATen\/RegisterCPU\.cpp /) { print NR; exit } }' "$TREE/build.ninja")
cat >"$T/src.py" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
yl, el, yaml = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
want = {"generated": True, "generated_by": "torchgen", "function": "wrapper_CPU_add_Tensor", "dispatch_key": "CPU",
        "build_ninja_line": el, "native_functions_yaml": yaml, "kernel": "at::native::structured_ufunc_add_CPU::impl"}
fails = [f"{k}: want {v!r}, have {j.get(k)!r}" for k, v in want.items() if j.get(k) != v]
op = j["operator"] or {}
for k, v in {"name": "add.Tensor", "line": yl, "structured_delegate": "add.out", "dispatch_from": "add.out"}.items():
    if op.get(k) != v:
        fails.append(f"operator.{k}: want {v!r}, have {op.get(k)!r}")
print("\n".join(fails) or "ok")
EOF
check_eq "--source RegisterCPU.cpp line" ok "$(python3 "$T/src.py" "$T/src1.json" "$yl" "$el" "$YAML" 2>&1)"
check_contains "func line" "$(sed -n "${yl}p" "$YAML" | sed 's/^- func: //')" "$(cat "$T/src1.json")"
"$PTINSPECT" build --source 'at::native::resize_' "$TREE" >"$T/src2.txt"
check_eq "--source kernel exit" 0 $?
check_contains "kernel row" "forwards to            at::native::resize_  [CPU]" "$(cat "$T/src2.txt")"
check_contains "hand-written" "resize_ is hand-written" "$(cat "$T/src2.txt")"
"$PTINSPECT" build --source "$SRC/aten/src/ATen/native/Resize.cpp" "$TREE" >"$T/src3.txt"
check_contains "hand-written file" "is not generated" "$(cat "$T/src3.txt")"
"$PTINSPECT" build --source no_such_op "$TREE" >/dev/null 2>"$T/src4.err"
check_eq "unknown symbol: exit 1" 1 $?

# diff: the tree against a copy whose cache says Release and USE_CUDA=1.
D=$T/difftree
mkdir -p "$D/lib"
sed 's/^CMAKE_BUILD_TYPE:STRING=Debug$/CMAKE_BUILD_TYPE:STRING=Release/; s/^USE_CUDA:BOOL=0$/USE_CUDA:BOOL=1/' "$TREE/CMakeCache.txt" >"$D/CMakeCache.txt"
cp -p "$lib" "$D/lib/"
cp -r "$TREE/CMakeFiles" "$D/"
"$PTINSPECT" diff --json "$TREE" "$D" >"$T/diff.json"
check_eq "diff of trees: exit 1" 1 $?
check_eq "diff rows" "config C++ flags (build type) -g -O3 -DNDEBUG|config USE_CUDA 0 1|config build type Debug Release" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("|".join(" ".join(str(r[k]) for k in ("section", "key", "a", "b")) for r in d["differences"]))' "$T/diff.json" 2>&1)"
if [ -e /usr/lib/x86_64-linux-gnu/libc10.so ]; then
	"$PTINSPECT" diff /usr/lib/x86_64-linux-gnu/libc10.so "$lib" >"$T/diff113.txt"
	check_eq "Debian 12's libc10 vs this one: exit 1" 1 $?
	check_contains "SONAME row" "SONAME                             libc10.so.1.13  ->  libc10.so.2.6" "$(cat "$T/diff113.txt")"
	check_contains "DWARF row" "DWARF                              no  ->  yes" "$(cat "$T/diff113.txt")"
fi

# Damage, on a copy of the real files: libc10 older than an object of its
# link edge (the last build did not relink), then a stripped libc10.
C=$T/copy
mkdir -p "$C/lib" "$C/CMakeFiles" "$C/c10/CMakeFiles/c10.dir/util"
cp "$TREE/CMakeCache.txt" "$TREE/build.ninja" "$C/"
cp "$TREE/CMakeFiles/rules.ninja" "$C/CMakeFiles/"
cp -p "$lib" "$C/lib/"
touch -d '+1 min' "$C/c10/CMakeFiles/c10.dir/util/typeid.cpp.o"
"$PTINSPECT" build "$C" >"$T/stale.out" 2>&1
check_eq "stale library: exit 1" 1 $?
check_contains "stale library named" "libc10.so.2.6.0': older than its input c10/CMakeFiles/c10.dir/util/typeid.cpp.o: the last build did not relink it" "$(cat "$T/stale.out")"
rm "$C/c10/CMakeFiles/c10.dir/util/typeid.cpp.o"
objcopy --strip-debug "$C/lib/libc10.so.2.6.0"
"$PTINSPECT" build "$C" >"$T/strip.out" 2>&1
check_eq "stripped library: exit 1" 1 $?
check_contains "stripped library" "no DWARF, but CMAKE_BUILD_TYPE=Debug should give it" "$(cat "$T/strip.out")"
finish
