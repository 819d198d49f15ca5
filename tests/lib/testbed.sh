# The torch 2.x test bed for the torch2 tier (tests/torch2/testbed). Source
# after common.sh:
#   . "$PT_TESTLIB/testbed.sh"; testbed_ready [--flavour cuda|sid] [--no-build]
# creates the bed (or finds it cached; its "testbed:" lines are printed),
# builds this project inside unless --no-build, and sets TB (the testbed
# script) and TB_BUILD (the build directory inside). Skips (77) only when the
# bed cannot be made here; a failed create or build ends the test failed.
# A test run on another flavour sets PT_BED first (a script of one line that
# sources the plain one, e.g. pttrace_run_sid.sh): testbed_ready then takes that
# flavour and exports it (PT_TORCH2_FLAVOUR), so every later "$TB" call uses it,
# and TB_TORCH says which torch the bed has (2.6 or 2.14).
TB=$PT_SRC/tests/torch2/testbed
TB_FLAVOUR=${PT_BED:-plain}
case $TB_FLAVOUR in
sid) TB_TORCH=2.14 ;;
*) TB_TORCH=2.6 ;;
esac

testbed_ready() {
	local fl=() what="torch 2.x test bed" build=1 rc
	[ "$TB_FLAVOUR" = plain ] || fl=(--flavour "$TB_FLAVOUR")
	while [ $# -gt 0 ]; do
		case $1 in
		--flavour) fl=(--flavour "$2"); shift 2 ;;
		--no-build) build=0; shift ;;
		*) echo "FAIL: testbed_ready: unknown argument $1"; exit 1 ;;
		esac
	done
	case ${fl[1]:-plain} in
	cuda) what="CUDA test bed" ;;
	sid) what="torch 2.14 (Debian sid) test bed" ;;
	esac
	[ "$TB_FLAVOUR" = plain ] || export PT_TORCH2_FLAVOUR=$TB_FLAVOUR
	"$TB" "${fl[@]}" create 2>"$T/create.err"
	rc=$?
	[ $rc = 77 ] && skip "$what unavailable: $(grep 'cannot run here\|unreachable' "$T/create.err")"
	grep -h 'testbed: ' "$T/create.err"	# cold (with each step's time) or cached
	check_eq "testbed ${fl[*]}${fl:+ }create" 0 $rc
	[ $rc = 0 ] || { tail -5 "$T/create.err"; finish; }
	TB_BUILD=$("$TB" "${fl[@]}" builddir)
	[ $build = 1 ] || return 0
	"$TB" "${fl[@]}" build >"$T/build.out" 2>&1
	rc=$?
	check_eq "project builds inside" 0 $rc
	[ $rc = 0 ] || { tail -30 "$T/build.out"; finish; }
}
