# Helpers for the integration tests (bash). Source it first:
#   . "$PT_TESTLIB/common.sh"
# Every test gets a private scratch directory $T that is removed on exit.
set -u
T=$(mktemp -d "${TMPDIR:-/tmp}/pttest.XXXXXX")
trap 'rm -rf "$T"' EXIT
# What our tools cache (ptinspect build's recorded commands) goes into the
# test's own scratch, never the user's ~/.cache; a test that wants another sets it.
export XDG_CACHE_HOME=$T/cache
PT_FAILS=0
PT_CHECKS=0
# The CUDA driver's JIT cache settings change ptinspect's --gpu verdicts (their JIT lines):
# every test starts from the driver's defaults, and a check that wants others sets them.
unset CUDA_CACHE_MAXSIZE CUDA_CACHE_DISABLE
# A debuginfod server changes debug verdicts ("gdb will download it"), CUDA_VISIBLE_DEVICES
# doctor's: a check that wants them sets them.
unset DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH CUDA_VISIBLE_DEVICES

# In the sanitizer tree every report of our programs lands in $T/sanitizer.*
# and fails the test in finish(), even where a test ignores an exit status.
if [ "${PT_SANITIZE:-OFF}" = ON ]; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$T/sanitizer"
	export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$T/sanitizer"
fi

# skip REASON: this machine lacks something the test needs (a package, nvcc, the
# torch 2.x bed). Under `tests/run --strict` (PT_STRICT=1) that is a failure: CI's
# machine must have it. not_applicable REASON: the test does not apply to this
# tree or this hardware (the ASan tree, a CPU level, no GPU); a skip even in
# strict mode. Both print the reason; tests/run lists every skip at the end.
skip() {
	if [ "${PT_STRICT:-0}" = 1 ]; then
		echo "FAIL: strict mode: would skip: $*"
		exit 1
	fi
	echo "SKIP: $*"
	exit 77
}
not_applicable() { echo "SKIP: not applicable: $*"; exit 77; }
fail() { echo "FAIL: $*"; PT_FAILS=$((PT_FAILS + 1)); }
pass() { PT_CHECKS=$((PT_CHECKS + 1)); }

# check_eq WHAT EXPECTED ACTUAL
check_eq() {
	PT_CHECKS=$((PT_CHECKS + 1))
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1"
		echo "  expected: $2"
		echo "  actual:   $3"
		PT_FAILS=$((PT_FAILS + 1))
	fi
}

# check_contains WHAT NEEDLE HAYSTACK
check_contains() {
	PT_CHECKS=$((PT_CHECKS + 1))
	case "$3" in
	*"$2"*) ;;
	*) echo "FAIL: $1: '$2' not in:"; printf '%s\n' "$3" | sed 's/^/  | /'; PT_FAILS=$((PT_FAILS + 1)) ;;
	esac
}

# check_not_contains WHAT NEEDLE HAYSTACK
check_not_contains() {
	PT_CHECKS=$((PT_CHECKS + 1))
	case "$3" in
	*"$2"*) echo "FAIL: $1: '$2' in:"; printf '%s\n' "$3" | sed 's/^/  | /'; PT_FAILS=$((PT_FAILS + 1)) ;;
	esac
}

# check_rc WHAT EXPECTED_RC COMMAND...
check_rc() {
	local what=$1 want=$2 got
	shift 2
	"$@" >"$T/.out" 2>"$T/.err"
	got=$?
	PT_CHECKS=$((PT_CHECKS + 1))
	if [ "$got" != "$want" ]; then
		echo "FAIL: $what: exit $got, expected $want"
		sed 's/^/  stdout| /' "$T/.out" | head -20
		sed 's/^/  stderr| /' "$T/.err" | head -20
		PT_FAILS=$((PT_FAILS + 1))
	fi
}

# check_output WHAT EXPECTED_FILE ACTUAL_FILE: a whole rendering (stdout or
# stderr) against tests/integration/<tier>/expected/<name>.txt, after
# normalising what changes between runs: the scratch directory ($T -> <T>),
# the source tree (<SRC>), dates, times and durations (<TIME>), pids. With
# PT_UPDATE_EXPECTED=1 the expected file is rewritten instead.
normalise_output() {
	sed -e "s|$T|<T>|g" -e "s|${PT_SRC:-/nonexistent}|<SRC>|g" \
	    -e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9][ T][0-9:.]*/<TIME>/g' \
	    -e 's/[0-9]\+\.[0-9]\+ *s\b/<SECONDS>/g' "$@"
}
check_output() {
	local what=$1 want=$2 got=$3
	PT_CHECKS=$((PT_CHECKS + 1))
	normalise_output "$got" >"$T/.norm"
	if [ "${PT_UPDATE_EXPECTED:-0}" = 1 ]; then
		cp "$T/.norm" "$want"
		return
	fi
	if ! diff -u "$want" "$T/.norm" >"$T/.diff"; then
		echo "FAIL: $what: output differs from $want:"
		sed 's/^/  | /' "$T/.diff"
		PT_FAILS=$((PT_FAILS + 1))
	fi
}

# check_case NAME WANT_RC COMMAND...: one rendering compared whole. Runs
# COMMAND, checks its exit status, and compares its stdout with
# $E/NAME.stdout.txt and its stderr with $E/NAME.stderr.txt (E: the runner's
# expected/ folder; an absent file means that stream must be empty). Before
# comparing, only these are replaced: the scratch directory ($T -> <T>), the
# source tree ($PT_SRC -> <SRC>), and whatever the runner lists in its array
# NORM (sed arguments, e.g. NORM=(-e 's/[0-9a-f]\{40\}/<BUILD-ID>/g')), each
# with a comment saying why it varies. With PT_UPDATE_EXPECTED=1 the expected
# files are rewritten (an empty stream removes its file); the exit is still checked.
normalise_case() {
	sed -e "s|$T|<T>|g" -e "s|${PT_SRC:-/nonexistent}|<SRC>|g" ${NORM[@]+"${NORM[@]}"} "$1"
}
check_stream() {
	local what=$1 want=$2 got=$3
	PT_CHECKS=$((PT_CHECKS + 1))
	normalise_case "$got" >"$T/.norm"
	if [ "${PT_UPDATE_EXPECTED:-0}" = 1 ]; then
		if [ -s "$T/.norm" ]; then cp "$T/.norm" "$want"; else rm -f "$want"; fi
		return
	fi
	if [ -e "$want" ]; then
		diff -u "$want" "$T/.norm" >"$T/.diff"
	else
		diff -u /dev/null "$T/.norm" >"$T/.diff"
	fi
	if [ $? != 0 ]; then
		echo "FAIL: $what: output differs from $want:"
		sed 's/^/  | /' "$T/.diff"
		PT_FAILS=$((PT_FAILS + 1))
	fi
}
check_case() {
	local name=$1 want=$2 got
	shift 2
	"$@" >"$T/.case.out" 2>"$T/.case.err"
	got=$?
	check_eq "$name: exit" "$want" "$got"
	check_stream "$name: stdout" "$E/$name.stdout.txt" "$T/.case.out"
	check_stream "$name: stderr" "$E/$name.stderr.txt" "$T/.case.err"
}

need() { command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed"; }

# build_so OUT C_SOURCE [cc flags...]: a shared object from a C string.
build_so() {
	local out=$1 src=$2
	shift 2
	printf '%s\n' "$src" >"$out.c"
	cc -shared -fPIC -o "$out" "$out.c" "$@" || { echo "FAIL: cannot build $out"; exit 1; }
}

# build_exe OUT C_SOURCE [cc flags...]
build_exe() {
	local out=$1 src=$2
	shift 2
	printf '%s\n' "$src" >"$out.c"
	cc -o "$out" "$out.c" "$@" || { echo "FAIL: cannot build $out"; exit 1; }
}

# The closing line CI reads, and the exit code.
finish() {
	if ls "$T"/sanitizer.* >/dev/null 2>&1; then
		echo "FAIL: sanitizer reports:"
		cat "$T"/sanitizer.*
		PT_FAILS=$((PT_FAILS + 1))
	fi
	echo "$PT_CHECKS checks, $PT_FAILS failed"
	[ "$PT_FAILS" = 0 ]
	exit $?
}
