# The repository is self-contained: every test that reads fixtures also passes
# from a copy of the tracked tree in an empty temporary directory (nothing
# beside it: no sibling folder of shared material, no sibling checkout), and no tracked file refers to
# material outside the repository.
# ctest-timeout: 900
# ctest-labels: one-tree
. "$PT_TESTLIB/common.sh" || exit 2

# Nothing names the reference material the fixtures were copied from.
refs=$(cd "$PT_SRC" && { git ls-files 2>/dev/null || find . -path ./build\* -prune -o -type f -print; } |
	grep -v '^tests/fixtures/' | grep -v '^tests/integration/repo/self_contained.sh$' |
	xargs -d '\n' grep -InE '(\.\./|/work/)shared|shared/(docs|fixtures)|PT_SHARED' 2>/dev/null)
check_eq "no file refers to the shared material beside the project" "" "$refs"

# The copy: tracked files (or, outside git, the tree without build directories).
C=$T/empty/ptools
mkdir -p "$C"
if git -C "$PT_SRC" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$PT_SRC" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$C" 2>/dev/null)
else
	(cd "$PT_SRC" && find . -path './build*' -prune -o -type f -print0 | xargs -0 cp --parents -t "$C")
fi
check_eq "the copy has the fixtures" "$(cd "$PT_SRC/tests/fixtures" && find . -type f | sort | xargs md5sum)" \
	"$(cd "$C/tests/fixtures" 2>/dev/null && find . -type f | sort | xargs md5sum)"
check_eq "nothing beside the copy" "ptools" "$(ls "$T/empty")"

# Every test whose source reads PT_FIXTURES, run from the copy.
n=0
cd "$C" || exit 1
while IFS= read -r src; do
	case $src in
	tests/integration/repo/self_contained.sh | tests/CMakeLists.txt) continue ;;
	tests/integration/*/*.sh)
		n=$((n + 1))
		PT_SRC=$C PT_FIXTURES=$C/tests/fixtures PT_TESTLIB=$C/tests/lib bash "$C/$src" >"$T/out" 2>&1
		r=$? ;;
	tests/unit/*/test_*.c)
		tool=$(basename "$(dirname "$src")")
		bin=$PT_BUILD/tests/unit/${tool}_$(basename "$src" .c)
		[ -x "$bin" ] || { fail "$src: no test program $bin"; continue; }
		n=$((n + 1))
		PT_SRC=$C PT_FIXTURES=$C/tests/fixtures CMOCKA_MESSAGE_OUTPUT=stdout "$bin" >"$T/out" 2>&1
		r=$? ;;
	*) continue ;;
	esac
	check_eq "$src passes from the copy" 0 "$r"
	[ "$r" = 0 ] || tail -20 "$T/out" | sed 's/^/  | /'
done < <(grep -rl PT_FIXTURES tests --include=*.sh --include=*.c | sort)
[ $n -ge 6 ] || fail "only $n fixture-dependent tests found"
finish
