# One wording for a bad option in every subcommand of both tools
# (common/cli.c): "<tool> <subcommand>: unrecognized option '--frob'" as the
# first line on stderr, exit 2.
. "$PT_TESTLIB/common.sh" || exit 2
export PTTRACE_DB=$T/db/pttrace.db
cd "$T" || exit 2

subcommands() {	# the names in a tool's --help "Subcommands:" list
	"$1" --help | awk '/^Subcommands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'
}
n=0
for tool in "$PTTRACE" "$PTINSPECT"; do
	name=$(basename "$tool")
	for sub in $(subcommands "$tool"); do
		"$tool" "$sub" --frob >"$T/out" 2>"$T/err"
		check_eq "$name $sub --frob: exit status" 2 $?
		check_eq "$name $sub --frob: message" "$name $sub: unrecognized option '--frob'" "$(head -1 "$T/err")"
		n=$((n + 1))
	done
done
# Before any subcommand (pttrace) and among ptinspect's files.
"$PTTRACE" --frob 2>"$T/err"
check_eq "pttrace --frob" "pttrace: unrecognized option '--frob'" "$(head -1 "$T/err")"
"$PTINSPECT" --frob /bin/true 2>"$T/err"
check_eq "ptinspect --frob FILE" "ptinspect: unrecognized option '--frob'" "$(head -1 "$T/err")"
[ "$n" -ge 20 ] || fail "only $n subcommands found in the --help texts"
finish
