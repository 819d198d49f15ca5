. "$PT_TESTLIB/common.sh" || exit 2
# `ptinspect build --since-last` on a small real ninja project made here:
# four C files compiled through ccache with gcc -MD (deps = gcc, so ninja
# keeps their headers in .ninja_deps), two links. Between the two builds a
# header changes (two objects include it, and a third whose flags change
# too), an object is deleted, a new edge appears. The whole text and the
# JSON's since-last part are compared; the groups are checked against
# `ninja -n -d explain` run before the second build; ccache's figures are
# those of the second build alone (its own cache, zeroed before).
need ninja
need gcc
need ccache
E=$PT_SRC/tests/integration/inspect/expected
export NO_COLOR=1
unset LD_LIBRARY_PATH MAX_JOBS
for v in $(env | sed -n 's/^\(CCACHE_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
export CCACHE_DIR=$T/ccache CCACHE_CONFIGPATH=$T/ccache.conf
: >"$CCACHE_CONFIGPATH"
NORM=(
	# the host's RAM in the build report's memory line
	-e 's/^\(  jobs *\)[0-9.]* GB RAM\(.*\), [0-9.]* GB per job/\1<RAM> GB RAM\2, <RAM> GB per job/'
	# what ccache stores for gcc's objects: its size and file count follow the compiler and ccache versions
	-e 's/, cache [0-9.]* [KMG]*B in [0-9]* files$/, cache <SIZE> in <N> files/'
)
S=$T/p
mkdir -p "$S/src" "$S/inc" "$S/build"
echo '#define COMMON 1' >"$S/inc/common.h"
echo '#define A 1' >"$S/inc/a.h"
echo '#define C 1' >"$S/inc/c.h"
printf '#include "common.h"\n#include "a.h"\nint a(void) { return COMMON + A; }\n' >"$S/src/a.c"
printf '#include "common.h"\nint b(void) { return COMMON; }\nint main(void) { return 0; }\n' >"$S/src/b.c"
printf '#include "c.h"\nint main(void) { return C; }\n' >"$S/src/c.c"
printf '#include "common.h"\nint d(void) { return COMMON; }\n' >"$S/src/d.c"
# Sources an hour old: ccache's direct mode takes no include file newer than the compile.
touch -d '1 hour ago' "$S"/src/*.c "$S"/inc/*.h
cat >"$S/build/CMakeCache.txt" <<EOC
CMAKE_HOME_DIRECTORY:INTERNAL=$S
CMAKE_CACHEFILE_DIR:INTERNAL=$S/build
CMAKE_GENERATOR:INTERNAL=Ninja
CMAKE_BUILD_TYPE:STRING=Debug
CMAKE_C_COMPILER_LAUNCHER:STRING=ccache
EOC
# $1: bindings of d.c.o's edge; $2: more edges; $3, $4: bindings of a.c.o's and b.c.o's.
manifest() {
	cat <<EON
cflags = -O0 -DLEVEL=1
rule cc
  command = ccache gcc \$cflags -I$S/inc -MD -MF \$out.d -c \$in -o \$out
  depfile = \$out.d
  deps = gcc
rule link
  command = gcc \$in -o \$out
build app/CMakeFiles/app.dir/a.c.o: cc $S/src/a.c
${3-}
build app/CMakeFiles/app.dir/b.c.o: cc $S/src/b.c
${4-}
build app/CMakeFiles/app.dir/d.c.o: cc $S/src/d.c
$1
build app/app: link app/CMakeFiles/app.dir/a.c.o app/CMakeFiles/app.dir/b.c.o app/CMakeFiles/app.dir/d.c.o
build tool/CMakeFiles/tool.dir/c.c.o: cc $S/src/c.c
build tool/tool: link tool/CMakeFiles/tool.dir/c.c.o
$2
EON
}
manifest "" "" >"$S/build/build.ninja"
ninja -C "$S/build" >"$T/build1.out" 2>&1 || { cat "$T/build1.out"; fail "first build"; finish; }
# A plain `ptinspect build` records the commands (ninja -t compdb) in the
# cache outside the tree ($XDG_CACHE_HOME: this test's own, common.sh), each
# with the hash ninja wrote in .ninja_log for it.
"$PTINSPECT" build "$S/build" >"$T/record.out" 2>&1
check_eq "recording run: exit 0" 0 $?
rec=$(ls "$XDG_CACHE_HOME"/ptools/build-commands/*.json 2>/dev/null)
check_eq "one cache file, outside the tree" 1 "$(printf '%s\n' "$rec" | grep -c '\.json$')"
cat >"$T/hashes.py" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
log = {}
for l in open(sys.argv[2]).read().splitlines()[1:]:
    f = l.split("\t")
    log[f[3]] = int(f[4], 16)  # ninja writes it unpadded
rec = {c["output"]: int(c["hash"], 16) for c in j["commands"]}
print(len(rec), "ok" if rec == log and oct(__import__("os").stat(sys.argv[1]).st_mode & 0o777) == "0o600" else f"{rec} != {log}")
PY
check_eq "recorded hashes are ninja's (.ninja_log)" "6 ok" "$(python3 "$T/hashes.py" "$rec" "$S/build/.ninja_log" 2>&1)"
ccache -z >/dev/null
# A second past the zeroing: the stats' time (whole seconds) is before the run's.
sleep 1
n1=$(($(wc -l <"$S/build/.ninja_log") - 1))
# What changes: common.h's content, c.c.o deleted, d.c.o's flags, a new edge.
echo '#define COMMON 2' >"$S/inc/common.h"
rm "$S/build/tool/CMakeFiles/tool.dir/c.c.o"
# a.c.o and d.c.o: -O and a -D changed; b.c.o: a -D added; e.c.o: new.
manifest "  cflags = -O1 -DLEVEL=2" "build extra/CMakeFiles/extra.dir/e.c.o: cc $S/src/d.c" \
	"  cflags = -O1 -DLEVEL=2" "  cflags = -O0 -DLEVEL=1 -DEXTRA" >"$S/build/build.ninja"
ninja -C "$S/build" -n -d explain >"$T/explain.txt" 2>&1
ninja -C "$S/build" >"$T/build2.out" 2>&1 || { cat "$T/build2.out"; fail "second build"; finish; }
# The measured times replaced by fixed ones (each run's restarting at 0) and
# each run's records in the order of their outputs (jobs end in any order),
# the mtimes and hashes kept: what --since-last reads of the log is unchanged.
{
	head -1 "$S/build/.ninja_log"
	for run in 1 2; do
		if [ $run = 1 ]; then sed -n "2,$((n1 + 1))p" "$S/build/.ninja_log"; else sed -n "$((n1 + 2)),\$p" "$S/build/.ninja_log"; fi |
			sort -t "$(printf '\t')" -k4,4 | awk -F'\t' -v OFS='\t' '{ $1 = 100 * (NR - 1); $2 = 100 * NR; print }'
	done
} >"$T/log" && cat "$T/log" >"$S/build/.ninja_log"
cd "$S/build" || exit 2
check_case build_since_small 0 env MAX_JOBS=2 "$PTINSPECT" build --since-last .
check_case build_since_small_details 0 env MAX_JOBS=2 "$PTINSPECT" build --since-last --details .
cat >"$T/part.py" <<'PY'
import json, sys
j = json.load(sys.stdin)
c = j["since_last_causes"]
for k in c["changed_inputs"]:
    k["mtime_ns"] = "<ns>"
c["ccache"]["size_kib"] = c["ccache"]["files"] = c["ccache"]["zeroed_s"] = "<N>"
print(json.dumps({"since_last": j["since_last"], "since_last_causes": c}, indent=1, sort_keys=True))
PY
MAX_JOBS=2 "$PTINSPECT" build --since-last --json . >"$T/since.json"
check_eq "--json exit" 0 $?
check_case build_since_small_json 0 python3 "$T/part.py" <"$T/since.json"
# ninja's own explanation before the second build: the objects it calls
# older than common.h are the header's group; "doesn't exist" is the output
# with no newer input.
cat >"$T/vs.py" <<'PY'
import json, re, sys
c = json.load(open(sys.argv[1]))["since_last_causes"]
ex = open(sys.argv[2]).read()
older = sorted(set(re.findall(r"^ninja explain: output (\S+) older than most recent input \S+/inc/common\.h ", ex, re.M)))
gone = sorted(set(re.findall(r"^ninja explain: output (\S+) doesn't exist", ex, re.M)))
grp = [k for k in c["changed_inputs"] if k["shown"] == "inc/common.h"]
fails = []
if not grp or grp[0]["outputs"] != older or len(older) != 3:
    fails.append(f"inc/common.h: ninja {older!r}, ptinspect {grp[0]['outputs'] if grp else None!r}")
if c["no_newer_input"] != gone or len(gone) != 1:
    fails.append(f"missing: ninja {gone!r}, ptinspect {c['no_newer_input']!r}")
print("\n".join(fails) or "ok")
PY
check_eq "the groups against ninja -n -d explain" ok "$(python3 "$T/vs.py" "$T/since.json" "$T/explain.txt" 2>&1)"
# Run again: the old commands are still there (the cache keeps an output's
# earlier command), the same groups.
MAX_JOBS=2 "$PTINSPECT" build --since-last . 2>/dev/null | grep -A2 '^  command changed' >"$T/again.txt"
check_eq "a second --since-last: the same flag diff" "$(grep -A2 '^  command changed' "$E/build_since_small.stdout.txt")" "$(cat "$T/again.txt")"
# Nothing recorded before (another cache dir): it says so; PTOOLS_NO_CACHE=1
# and --no-record: recording is off, and --no-record writes nothing.
XDG_CACHE_HOME=$T/cache2 MAX_JOBS=2 "$PTINSPECT" build --since-last --no-record . >"$T/norec.txt" 2>&1
check_contains "--no-record, nothing recorded" "the old command is not known: recording is off (--no-record or PTOOLS_NO_CACHE=1): 3 objects" "$(cat "$T/norec.txt")"
check_eq "--no-record writes nothing" "" "$(ls "$T/cache2" 2>&1 | grep -v 'No such file')"
XDG_CACHE_HOME=$T/cache2 MAX_JOBS=2 "$PTINSPECT" build --since-last . >"$T/first.txt" 2>&1
check_contains "first run with a cache" "the old command is not known: ptinspect build records commands from this run on: 3 objects" "$(cat "$T/first.txt")"
PTOOLS_NO_CACHE=1 MAX_JOBS=2 "$PTINSPECT" build --since-last . >"$T/nocache.txt" 2>&1
check_contains "PTOOLS_NO_CACHE=1" "recording is off (--no-record or PTOOLS_NO_CACHE=1): 3 objects" "$(cat "$T/nocache.txt")"
# A damaged cache file: a note, the run goes on (exit as before).
for f in "$XDG_CACHE_HOME"/ptools/build-commands/*.json; do printf '{"format": 1' >"$f"; done
MAX_JOBS=2 "$PTINSPECT" build --since-last . >"$T/damaged.txt" 2>&1
check_eq "damaged cache: exit 0" 0 $?
check_contains "damaged cache: said" "not a ptools build-commands file (version 1): ignored" "$(cat "$T/damaged.txt")"
check_contains "damaged cache: old commands not known" "the old command is not known: ptinspect build records commands from this run on" "$(cat "$T/damaged.txt")"
# ccache's own figures for the second build: one direct hit (c.c), four misses.
check_eq "ccache --print-stats" "1 0 4" "$(ccache --print-stats | awk -F'\t' '$1 == "direct_cache_hit" { d = $2 } $1 == "preprocessed_cache_hit" { p = $2 } $1 == "cache_miss" { m = $2 } END { print d, p, m }')"
# Stats zeroed after the last run began are not its figures; a build
# before the zeroing and another after it: not the last one's alone.
sleep 1
ccache -z >/dev/null
MAX_JOBS=2 "$PTINSPECT" build --since-last . >"$T/zeroed.txt" 2>&1
check_contains "ccache zeroed after the run" "not the last run's: the stats were zeroed after it began" "$(cat "$T/zeroed.txt")"
# Without .ninja_deps: build.ninja's inputs only, and it says so.
mv .ninja_deps "$T/deps.saved"
MAX_JOBS=2 "$PTINSPECT" build --since-last . >"$T/nodeps.txt" 2>&1
check_contains "no deps log" "no .ninja_deps: only build.ninja's inputs looked at, not the depfiles' headers" "$(cat "$T/nodeps.txt")"
check_not_contains "no deps log: the header is not known" "inc/common.h" "$(cat "$T/nodeps.txt")"
# A damaged deps log: cut in its last record; what came before still counts.
head -c -3 "$T/deps.saved" >.ninja_deps
MAX_JOBS=2 "$PTINSPECT" build --since-last . >"$T/cut.txt" 2>"$T/cut.err"
check_eq "cut deps log: exit 1" 1 $?
check_contains "cut deps log: the warning" "ninja truncates the log at this point" "$(cat "$T/cut.err")"
# build.ninja changed after the last run, nothing rebuilt: the command now
# against the recorded one the latest record hashed (recorded by the runs above).
sed -i '/^build tool\/CMakeFiles\/tool.dir\/c.c.o: /a\  cflags = -O0 -DLEVEL=1 -DTOOL=1' build.ninja
MAX_JOBS=2 "$PTINSPECT" build --since-last . 2>/dev/null | grep -A1 '^  command now' >"$T/pending.txt"
check_eq "command changed after the last run" "  command now            1 output whose build.ninja command changed after the last run (ninja rebuilds them next)
                         added -DTOOL=1: 1 object: tool/CMakeFiles/tool.dir/c.c.o" "$(cat "$T/pending.txt")"
MAX_JOBS=2 "$PTINSPECT" build --since-last --json . 2>/dev/null |
	python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["since_last_causes"]["command_pending"], sort_keys=True))' >"$T/pending.json"
check_eq "command_pending (JSON)" '[{"changes": [{"from": null, "to": "-DTOOL=1"}], "count": 1, "outputs": ["tool/CMakeFiles/tool.dir/c.c.o"], "state": "diff", "text": "added -DTOOL=1"}]' "$(cat "$T/pending.json")"
finish
