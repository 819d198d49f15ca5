# Every man page in docs/ formats with no groff warning at the strictest level
# (-ww: a line starting with '.' that is no macro, as pttrace.1's SEE ALSO had,
# is lost from `man` output), and no text follows a .fi without a paragraph
# macro (it would run on into the example above it, as in ptinspect.1).
. "$PT_TESTLIB/common.sh" || exit 2
need groff
n=0
for m in "$PT_SRC"/docs/*.[1-9]; do
	n=$((n + 1))
	name=${m#"$PT_SRC"/}
	check_eq "$name: groff -ww -man -z is silent" "" "$(groff -ww -man -z "$m" 2>&1)"
	check_eq "$name: a paragraph macro after every .fi" "" \
		"$(awk 'prev == ".fi" && $0 !~ /^[.'"'"']/ { print FILENAME ":" NR ": " $0 } { prev = $0 }' "$m")"
	# Every page renders to text with a NAME section.
	check_contains "$name: renders" "NAME" "$(groff -man -Tutf8 -P-cbou "$m" 2>/dev/null)"
done
[ $n -ge 8 ] || fail "only $n man pages in docs/"
finish
