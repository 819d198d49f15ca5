# Rule: every pttrace subcommand answers --help without a database, shows its
# usage and exits 2 when its arguments are missing, and its usage lines are
# the man page's SYNOPSIS (docs/pttrace.1, or docs/pttrace-<sub>.1).
. "$PT_TESTLIB/common.sh" || exit 2
P="$PTTRACE"
export PTTRACE_DB="$T/none/pttrace.db"
subs=$("$P" --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NF >= 2 && $1 != "Subcommands:" { print $1 }')
check_eq "subcommands listed" 1 $(( $(printf '%s\n' $subs | wc -l) >= 9 ))
check_eq "the list is sorted" "$(printf '%s\n' $subs | LC_ALL=C sort)" "$(printf '%s\n' $subs)"
synopsis() {
	for page in "$PT_SRC/docs/pttrace.1" "$PT_SRC/docs/pttrace-$1.1"; do
		[ -f "$page" ] && sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$page" | sed 's/\\-/-/g'
	done
}
for s in $subs; do
	check_rc "$s --help exits 0" 0 "$P" "$s" --help
	out=$(cat "$T/.out")
	check_contains "$s --help: usage" "usage: pttrace $s" "$out"
	check_contains "$s --help: exit status documented" "Exit status" "$out"
	printf '%s\n' "$out" | sed -n 's/^usage: //p; s/^       \(pttrace .*\)/\1/p' >"$T/usage"
	while IFS= read -r u; do
		check_contains "$s: man page SYNOPSIS has '$u'" "$u" "$(synopsis "$s")"
	done <"$T/usage"
	if [ "$s" != ls ] && [ "$s" != reindex ]; then
		check_rc "$s without arguments: exit 2" 2 "$P" "$s"
		check_contains "$s without arguments: usage on stderr" "usage: pttrace $s" "$(cat "$T/.err")"
	fi
done
check_eq "--help created no database" no "$([ -e "$T/none" ] && echo yes || echo no)"
check_rc "ls without a database: nothing, exit 0" 0 "$P" ls
check_rc "show without a database: exit 2" 2 "$P" show last
check_contains "show without a database: says so" "no pttrace database" "$(cat "$T/.err")"
check_rc "unknown subcommand: exit 2" 2 "$P" frobnicate
check_rc "unknown global option: exit 2" 2 "$P" --frob ls
check_rc "--version" 0 "$P" --version
check_rc "--db needs a file" 2 "$P" --db
# A file that is not a pttrace database is refused and left alone.
printf 'not sqlite\n' >"$T/junk.db"
check_rc "a junk file as --db: exit 2" 2 "$P" --db "$T/junk.db" show last
check_eq "junk file untouched" "not sqlite" "$(cat "$T/junk.db")"
finish
