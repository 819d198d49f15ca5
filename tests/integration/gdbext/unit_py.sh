. "$PT_TESTLIB/common.sh" || exit 2
# ctest-labels: one-tree
# ptgdb's pure-Python modules (dtypes, summarize, classify) under unittest,
# without GDB: tests/unit/gdbext/test_*.py. A failing or erroring test fails this
# script; the counts come from unittest's own summary.
PY=/usr/bin/python3
[ -x "$PY" ] || skip "$PY is not installed"
# ptgdb/__init__.py imports gdb; give the pure modules a package without it.
mkdir -p "$T/pkg/ptgdb"
cp "$PT_SRC"/gdbext/ptgdb/{dtypes,summarize,classify}.py "$T/pkg/ptgdb/"
: >"$T/pkg/ptgdb/__init__.py"
cd "$PT_SRC/tests/unit/gdbext" || exit 2
PYTHONPATH=$T/pkg "$PY" -m unittest discover -v -p 'test_*.py' >"$T/ut.out" 2>&1
rc=$?
cat "$T/ut.out"
# Each unittest case is one check: "Ran N tests", "FAILED (failures=F, errors=E)".
ran=$(sed -n 's/^Ran \([0-9]*\) tests\{0,1\}.*/\1/p' "$T/ut.out")
bad=$(sed -n 's/^FAILED (\(.*\))$/\1/p' "$T/ut.out" | grep -o '\(failures\|errors\)=[0-9]*' |
	awk -F= '{ n += $2 } END { print n + 0 }')
PT_CHECKS=${ran:-0}
PT_FAILS=${bad:-0}
[ "$rc" = 0 ] || [ "$PT_FAILS" != 0 ] || fail "unittest exited with $rc"
[ "$PT_CHECKS" -ge 20 ] || fail "only ${PT_CHECKS} unit tests ran (expected at least 20)"
finish
