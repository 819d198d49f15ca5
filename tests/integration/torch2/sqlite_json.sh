. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 900
# The import's envelope scan on Debian 13's SQLite (3.46, in the torch 2.x
# test bed; sqlite_json_sid.sh: Debian unstable's 3.53), where the host has
# Debian 12's 3.40. From 3.42 on SQLite's
# json_each also reads JSON5 (unquoted keys, single quotes, trailing commas,
# comments, hex), which jansson refuses: the scan must leave such an
# envelope to jansson there too (db_jscan_strict), or a damaged line would be
# indexed as a record. The unit tests of the scan (test_tt_envscan: every
# corner, and the reader over them with and without the scan) and of db_jscan.c's
# JSON scanner (test_db) are built and run inside, against that SQLite.
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
. "$PT_TESTLIB/testbed.sh"
testbed_ready --no-build
bd=${TB_BUILD}_unit	# beside the bed's own build, which has no tests
"$TB" run sh -c "cmake -S /src -B '$bd' -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPT_TESTS=ON >/dev/null &&
	cmake --build '$bd' -j2 --target tracers_test_tt_envscan tracers_test_db" >"$T/build.out" 2>&1
rc=$?
check_eq "the two unit tests build inside" 0 $rc
[ $rc = 0 ] || { tail -30 "$T/build.out"; finish; }
"$TB" run sh -c "sqlite3 --version | cut -d' ' -f1" >"$T/version" 2>/dev/null
IFS=. read -r major minor _ <"$T/version"
check_eq "the bed's SQLite reads JSON5: 3.42 or later ($(cat "$T/version"))" 1 \
	"$(( ${major:-0} > 3 || (${major:-0} == 3 && ${minor:-0} >= 42) ))"
for t in tracers_test_tt_envscan tracers_test_db; do
	"$TB" run sh -c "cd '$bd' && ./tests/unit/$t" >"$T/$t.out" 2>&1
	rc=$?
	check_eq "$t passes on SQLite $(cat "$T/version")" 0 $rc
	[ $rc = 0 ] || grep -E 'FAILED|Failure|error' "$T/$t.out" | head -20
done
finish
