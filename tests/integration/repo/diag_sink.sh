# ctest-labels: one-tree
# One error sink per layer (docs/internals/architecture.md, Conventions): a
# tracers/ function that reads the index reports into the connection's diag
# (struct db stores the caller's, db_diag), so it takes no struct pt_diag *
# of its own to ignore; the marker of one taken and ignored, "(void)diag;",
# is in no file of tracers/.
. "$PT_TESTLIB/common.sh" || exit 2
cd "$PT_SRC" || exit 2
pat='^[[:space:]]*\([[:space:]]*void[[:space:]]*\)[[:space:]]*diag[[:space:]]*;'
found=$(grep -rnE --include='*.c' --include='*.h' "$pat" tracers)
check_eq "no tracers/ function takes a diag it ignores ((void)diag;)" "" "$found"
# The check sees one: a file with the marker is found.
mkdir -p "$T/tracers/x" && printf 'int f(struct pt_diag *diag)\n{\n\t(void) diag;\n\treturn 0;\n}\n' >"$T/tracers/x/f.c"
check_eq "the pattern finds the marker" "tracers/x/f.c:3:	(void) diag;" \
	"$(cd "$T" && grep -rnE --include='*.c' "$pat" tracers)"
finish
