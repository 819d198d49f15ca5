# ptinspect build on a small tree built by the real ninja here: three runs
# (everything; an input touched; a command changed), so .ninja_log is ninja's
# own (v5 on Debian 12's ninja 1.11, v6 on 1.12), and --since-last's reasons
# and ninja's own explanations (-n -d explain) are checked against what was
# done. The torch tree is tests/integration/torch2/build_tree.sh.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
need ninja
D=$T/tree
mkdir -p "$D/sub/CMakeFiles/thing.dir"
cd "$D" || exit 1
printf 'CMAKE_BUILD_TYPE:STRING=RelWithDebInfo\nCMAKE_GENERATOR:INTERNAL=Ninja\nUSE_CUDA:BOOL=OFF\nUSE_NUMPY:BOOL=ON\n' >CMakeCache.txt
cat >build.ninja <<'EOF'
flag = -a
rule cp
  command = sleep 0.2 && cat $in > $out && echo $flag >> $out
  description = CP $out
build sub/CMakeFiles/thing.dir/a.c.o: cp a.c
build sub/CMakeFiles/thing.dir/b.c.o: cp b.c
build lib/libthing.so: cp sub/CMakeFiles/thing.dir/a.c.o sub/CMakeFiles/thing.dir/b.c.o
build thing: phony lib/libthing.so
EOF
echo a >a.c
echo b >b.c
mkdir -p lib
ninja -j2 >/dev/null || { echo "FAIL: ninja"; finish; }
sleep 1.1
touch b.c
ninja -j2 >/dev/null
sed -i 's/^build sub\/CMakeFiles\/thing.dir\/a.c.o: cp a.c$/build sub\/CMakeFiles\/thing.dir\/a.c.o: cp a.c\n  flag = -b/' build.ninja
ninja -j2 >/dev/null
sleep 1.1
touch a.c
cd "$PT_SRC" || exit 1

"$P" build --json --since-last "$D" >"$T/b.json"
check_eq "exit (a library that is not ELF is reported, not fatal)" 1 $?
/usr/bin/python3 - "$T/b.json" "$D" >"$T/check.out" <<'EOF'
import json, sys
j, d = json.load(open(sys.argv[1])), sys.argv[2]
log = open(d + "/.ninja_log").read().splitlines()
fails = []
def eq(what, want, have):
    if want != have: fails.append(f"{what}: want {want!r}, have {have!r}")
eq("log version", int(log[0].split("v")[-1]), j["files"]["ninja_log_version"])
eq("records", len(log) - 1, j["profile"]["records"])
eq("runs", 3, len(j["profile"]["runs"]))
eq("run edges", [3, 2, 2], [r["edges"] for r in j["profile"]["runs"]])
since = {x["output"]: x["reason"] for x in j["since_last"]}
eq("since last", {"sub/CMakeFiles/thing.dir/a.c.o": "command changed", "lib/libthing.so": "inputs changed"}, since)
eq("target", ["thing"], [t["name"] for t in j["profile"]["targets"] if t["name"] != "(custom commands)"])
eq("folder of b.c.o", True, any(f["name"] == "sub" for f in j["profile"]["folders"]))
crit = [e["output"] for e in j["profile"]["critical_path"]["edges"]]
eq("critical path", ["sub/CMakeFiles/thing.dir/a.c.o", "lib/libthing.so"], crit)
x = j["ninja_explain"]
eq("ninja would run", 2, x["would_run"])
eq("explains a.c", True, any("a.c" in l and "older than most recent input" in l for l in x["explanations"]))
eq("USE_NUMPY", "ON", j["config"]["USE_NUMPY"]["value"])
print("\n".join(fails) or "ok")
EOF
check_eq "since-last and explain vs what was done" ok "$(cat "$T/check.out")"

"$P" build --since-last "$D" >"$T/b.txt" 2>"$T/b.err"
check_contains "text: reasons" "command changed  sub/CMakeFiles/thing.dir/a.c.o" "$(cat "$T/b.txt")"
check_contains "text: ninja's explanation" "ninja would run now: 2 edges" "$(cat "$T/b.txt")"
check_contains "lib/libthing.so is not ELF: said so" "libthing.so': not an ELF file" "$(cat "$T/b.txt" "$T/b.err")"

# Bad input: a damaged log line and a missing cache.
printf 'garbage line\n' >>"$D/.ninja_log"
"$P" build "$D" >/dev/null 2>"$T/bad.err"
check_eq "damaged log: exit 1" 1 $?
check_contains "damaged log: file and line" ".ninja_log': line $(wc -l <"$D/.ninja_log"): not 5 tab-separated fields" "$(cat "$T/bad.err")"
check_rc "no cache: exit 2" 2 "$P" build "$T"
check_contains "no cache: said so" "not a CMake build tree: no CMakeCache.txt in it or in its build/" "$(cat "$T/.err")"

# --source with a native_functions.yaml over 256 MiB: read up to the limit, with a
# warning naming the file; the operator before the cut is still found.
S=$T/src
mkdir -p "$S/aten/src/ATen/native" "$S/build"
printf 'CMAKE_HOME_DIRECTORY:INTERNAL=%s\nCMAKE_GENERATOR:INTERNAL=Ninja\n' "$S" >"$S/build/CMakeCache.txt"
: >"$S/build/build.ninja"
{
	printf -- '- func: resize_(Tensor(a!) self, SymInt[] size) -> Tensor(a!)\n  dispatch:\n    CPU: resize_\n'
	yes '# padding past the limit: 256 MiB' | head -c $((257 << 20))
} >"$S/aten/src/ATen/native/native_functions.yaml"
"$P" build --source 'at::native::resize_' "$S/build" >"$T/big.out" 2>"$T/big.err"
echo "rc $?" >>"$T/big.out"
check_contains "yaml over 256 MiB: warning naming it" "$S/aten/src/ATen/native/native_functions.yaml': larger than 256 MiB: the rest is not read" "$(cat "$T/big.err")"
check_contains "yaml over 256 MiB: the operator before the cut found" "resize_" "$(cat "$T/big.out")"
rm -f "$S/aten/src/ATen/native/native_functions.yaml"
finish
