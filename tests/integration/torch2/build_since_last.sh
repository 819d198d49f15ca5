. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1800
# `ptinspect build --since-last` on the real PyTorch build tree
# (tests/torch2/buildtree): one header touched, ninja's own explanation of
# what is dirty (`ninja -n -d explain`, the bed's ninja, inside the bed), a
# real rebuild of those objects, then --since-last must name that header with
# the objects ninja named. ATen's core/Range.h: two of the tree's three ATen
# objects include it (Range.cpp and native/Resize.cpp, about 15 s with -j2),
# no c10 object does, and torch_cpu is not linked here, so no library becomes
# older than its objects. The tree is left as the other tests know it: its
# .ninja_log and .ninja_deps put back byte for byte and the header's mtime
# restored, so ninja sees nothing to do (checked) and the last build is still
# buildtree's typeid.cpp rebuild (build_tree.sh).
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
need flock
BT=$PT_SRC/tests/torch2/buildtree
BCACHE=${PT_TORCH2_BUILD_CACHE:-/var/tmp/ptools-torch2-build}
"$BT" create >"$T/create.out" 2>"$T/create.err"
rc=$?
[ $rc = 77 ] && skip "torch 2.x build bed unavailable: $(grep 'cannot run here' "$T/create.err")"
check_eq "buildtree create" 0 $rc
[ $rc = 0 ] || { tail -20 "$T/create.err"; finish; }
TREE=$("$BT" path)
SRC=$(dirname "$TREE")
H=aten/src/ATen/core/Range.h
# No other user of the tree meanwhile (buildtree's own steps take this lock).
exec 7>"$BCACHE/buildtree.lock"
flock -x 7
mkdir "$T/save"
cp -p "$TREE/.ninja_log" "$TREE/.ninja_deps" "$T/save/"
touch -r "$SRC/$H" "$T/save/h.ref"
# The objects' mtimes too: .ninja_deps holds each output's mtime, and ninja
# rebuilds an output whose mtime is not the one its deps were recorded with.
restore() {
	cp -p "$T/save/.ninja_log" "$T/save/.ninja_deps" "$TREE/"
	touch -r "$T/save/h.ref" "$SRC/$H"
	i=0
	while read -r o; do
		i=$((i + 1))
		touch -r "$T/save/o$i.ref" "$TREE/$o"
	done <"$T/save/objects" 2>/dev/null
}
trap 'restore; rm -rf "$T"' EXIT

touch "$SRC/$H"
"$BT" bed run -- sh -c 'cd /build/pytorch/build && ninja -n -d explain' >"$T/explain.txt" 2>&1
# The edges ninja calls dirty because of the header (its most recent input).
grep -E "^ninja explain: (recorded mtime of|output) [^ ]+ older than most recent input /build/pytorch/$H " "$T/explain.txt" |
	sed -E 's/^ninja explain: (recorded mtime of|output) ([^ ]+) .*/\2/' | sort -u >"$T/ninja.set"
n=$(wc -l <"$T/ninja.set")
check_eq "ninja explains two objects by $H" 2 "$n"
i=0
while read -r o; do
	i=$((i + 1))
	touch -r "$TREE/$o" "$T/save/o$i.ref"
done <"$T/ninja.set"
cp "$T/ninja.set" "$T/save/objects"
# The real rebuild of what ninja named, and nothing else.
# shellcheck disable=SC2046
"$BT" bed run -- sh -c "cd /build/pytorch/build && ninja -j2 $(tr '\n' ' ' <"$T/ninja.set")" >"$T/rebuild.txt" 2>&1
check_eq "ninja rebuild" 0 $?
check_eq "ninja ran two edges" 2 "$(grep -c '^\[[0-9]*/[0-9]*\]' "$T/rebuild.txt")"

MAX_JOBS=2 "$PTINSPECT" build --json --since-last "$TREE" >"$T/since.json" 2>"$T/since.err"
check_eq "--since-last --json exit" 0 $?
cat >"$T/check.py" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
want = sorted(open(sys.argv[2]).read().split())
h = sys.argv[3]
c = j["since_last_causes"]
fails = []
src = [k for k in c["changed_inputs"] if not k["rebuilt_by_this_run"]]
if [k["shown"] for k in src] != [h]:
    fails.append(f"changed inputs: want [{h!r}], have {[k['shown'] for k in src]!r}")
elif src[0]["outputs"] != want or src[0]["count"] != len(want):
    fails.append(f"{h} rebuilt {src[0]['outputs']!r}, ninja named {want!r}")
if sorted(x["output"] for x in j["since_last"]) != want:
    fails.append(f"last run: {sorted(x['output'] for x in j['since_last'])!r}")
if c["deps_log"] is None or c["deps_log"]["version"] != 4 or c["deps_log"]["damaged"]:
    fails.append(f"deps log: {c['deps_log']!r}")
if c["paths_mapped"] != {"from": "", "to": sys.argv[4]}:
    fails.append(f"paths mapped: {c['paths_mapped']!r}")
for k in ("new", "command_changed", "no_newer_input", "from_several_rebuilt_inputs"):
    if c[k]:
        fails.append(f"{k}: {c[k]!r}")
print("\n".join(fails) or "ok")
PY
check_eq "--since-last names $H with ninja's objects" ok "$(python3 "$T/check.py" "$T/since.json" "$T/ninja.set" "$H" "${SRC%/build/pytorch}" 2>&1)"
MAX_JOBS=2 "$PTINSPECT" build --since-last "$TREE" >"$T/since.txt" 2>/dev/null
check_contains "text: the header and its count" "inputs                 $H changed -> 2 objects: $(head -1 "$T/ninja.set"), $(tail -1 "$T/ninja.set")" "$(cat "$T/since.txt")"

restore
trap 'rm -rf "$T"' EXIT
"$BT" bed run -- sh -c "cd /build/pytorch/build && ninja -n -d explain $(tr '\n' ' ' <"$T/ninja.set")" >"$T/after.txt" 2>&1
check_eq "restored: ninja has nothing to do for them" "ninja: no work to do." "$(grep '^ninja\|^\[' "$T/after.txt" | grep -v '^ninja: Entering')"
check_eq "restored: .ninja_log" "" "$(cmp "$T/save/.ninja_log" "$TREE/.ninja_log" 2>&1)"
MAX_JOBS=2 "$PTINSPECT" build --json --since-last "$TREE" >"$T/after.json" 2>/dev/null
check_eq "restored: the last build is buildtree's again" "c10/util/typeid.cpp" \
	"$(python3 -c 'import json,sys; print(" ".join(k["shown"] for k in json.load(open(sys.argv[1]))["since_last_causes"]["changed_inputs"] if not k["rebuilt_by_this_run"]))' "$T/after.json")"
finish
