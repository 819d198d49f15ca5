. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1200
# The GDB extension on torch 2.6's layout (std::optional device, pyobj_slot_,
# 2.x refcounts and offsets): tests/integration/gdbext/gdb_tensors.sh, the same
# value checks as on Debian 12's 1.13, run inside the torch 2.x test bed with
# its g++ 14, GDB 16, /usr/include (libtorch-dev 2.6) and python3 -- live, on
# a core file, and in python3 running a torch script. gdbext_sid.sh: the same on
# the sid bed's torch 2.14 (GCC 16, GDB and Python 3.14 of Debian unstable).
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
. "$PT_TESTLIB/testbed.sh"
SCRIPT=tests/integration/gdbext/gdb_tensors.sh
[ -f "$PT_SRC/$SCRIPT" ] || skip "$SCRIPT is not in this tree"

testbed_ready --no-build

hv=$("$TB" run sh -c 'printf "#include <torch/version.h>\nTORCH_VERSION\n" |
	g++ -E -P -I/usr/include/torch/csrc/api/include -x c++ - | tail -1 | tr -d "\""' 2>/dev/null)
check_eq "the headers inside are torch $TB_TORCH's" "$TB_TORCH" "${hv%.*}"

t0=$(date +%s)
"$TB" run env PT_SRC=/src PT_TESTLIB=/src/tests/lib PT_SANITIZE=OFF bash "/src/$SCRIPT" >"$T/out" 2>&1
rc=$?
grep -E '^(FAIL|SKIP)|^  (expected|actual):|checks, [0-9]+ failed$|skipped' "$T/out"
check_eq "gdb_tensors.sh inside the test bed (live, core, python3) passes" 0 $rc
[ $rc = 0 ] || [ $rc = 1 ] || tail -30 "$T/out"
# The test bed has gdb, g++, libtorch-dev and python3-torch: nothing may skip.
check_eq "no part skipped" "" "$(grep -E '^SKIP|skipped' "$T/out" || true)"
echo "gdbext on torch $hv: $(( $(date +%s) - t0 )) s; inside: $(grep -E 'checks, [0-9]+ failed$' "$T/out" | tail -1)"
finish
