# The torch 2.x test bed for the torch2 tier (tests/torch2/testbed). Source
# after common.sh:
#   . "$PT_TESTLIB/testbed.sh"; testbed_ready [--flavour cuda] [--no-build]
# creates the bed (or finds it cached; its "testbed:" lines are printed),
# builds this project inside unless --no-build, and sets TB (the testbed
# script) and TB_BUILD (the build directory inside). Skips (77) only when the
# bed cannot be made here; a failed create or build ends the test failed.
TB=$PT_SRC/tests/torch2/testbed

testbed_ready() {
	local fl=() what="torch 2.x test bed" build=1 rc
	while [ $# -gt 0 ]; do
		case $1 in
		--flavour) fl=(--flavour "$2"); what="CUDA test bed"; shift 2 ;;
		--no-build) build=0; shift ;;
		*) echo "FAIL: testbed_ready: unknown argument $1"; exit 1 ;;
		esac
	done
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
