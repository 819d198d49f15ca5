# One option skeleton in every subcommand of both tools (common/cli.h): a bad
# option reads "<tool> <subcommand>: unrecognized option '--frob'" as the
# first line on stderr, exit 2, wherever it stands; the shared options
# (--json, --color[=WHEN], --no-color, --help; pttrace's --db) are taken by
# every subcommand; a bad --color value, an option without its value and an
# argument too many are worded once for all.
. "$PT_TESTLIB/common.sh" || exit 2
export PTTRACE_DB=$T/db/pttrace.db
cd "$T" || exit 2

subcommands() {	# the names in a tool's --help "Subcommands:" list
	"$1" --help | awk '/^Subcommands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'
}
# first_err CHECK RC LINE CMD...: CMD exits RC and LINE is its first line on stderr.
first_err() {
	local what=$1 rc=$2 line=$3
	shift 3
	"$@" >"$T/out" 2>"$T/err"
	check_eq "$what: exit status" "$rc" $?
	check_eq "$what: message" "$line" "$(head -1 "$T/err")"
}
n=0
for tool in "$PTTRACE" "$PTINSPECT"; do
	name=$(basename "$tool")
	for sub in $(subcommands "$tool"); do
		first_err "$name $sub --frob" 2 "$name $sub: unrecognized option '--frob'" "$tool" "$sub" --frob
		first_err "$name $sub --frob=1" 2 "$name $sub: unrecognized option '--frob=1'" "$tool" "$sub" --frob=1
		# After an argument too, except where options end at the first
		# argument: the script or command of run, the query of sql, import's PATHs.
		case "$name $sub" in
		"pttrace run" | "pttrace sql" | "pttrace import") ;;
		*) first_err "$name $sub ARG --frob" 2 "$name $sub: unrecognized option '--frob'" \
			"$tool" "$sub" ARG --frob ;;
		esac
		first_err "$name $sub --color=bogus" 2 "$name $sub: unknown --color value 'bogus'" \
			"$tool" "$sub" --color=bogus
		# The shared options, each taken: then --help prints the usage on stdout, exit 0.
		for opts in "--json" "--color" "--color=never" "--no-color"; do
			# shellcheck disable=SC2086
			"$tool" "$sub" $opts --help >"$T/out" 2>"$T/err"
			check_eq "$name $sub $opts --help: exit status" 0 $?
			check_eq "$name $sub $opts --help: usage on stdout" "usage: $name $sub" \
				"$(head -1 "$T/out" | cut -d' ' -f1-3)"
			check_eq "$name $sub $opts --help: nothing on stderr" "" "$(cat "$T/err")"
		done
		# --db FILE after the subcommand's name: pttrace's, not ptinspect's.
		if [ "$name" = pttrace ]; then
			"$tool" "$sub" --db "$T/other.db" --help >"$T/out" 2>"$T/err"
			check_eq "$name $sub --db FILE --help: exit status" 0 $?
		else
			first_err "$name $sub --db FILE" 2 "$name $sub: unrecognized option '--db'" \
				"$tool" "$sub" --db "$T/other.db"
		fi
		n=$((n + 1))
	done
done
# The subcommand's --db is the database it opens (a named one that is not there is a mistake).
first_err "pttrace ls --db FILE" 2 "pttrace: '$T/other.db': no pttrace database (--db)" \
	"$PTTRACE" ls --db "$T/other.db"
first_err "pttrace show RUN --db=FILE" 2 "pttrace: '$T/other.db': no pttrace database (No such file or directory)" \
	"$PTTRACE" show 1 --db="$T/other.db"
# Before any subcommand (pttrace) and among ptinspect's files.
"$PTTRACE" --frob 2>"$T/err"
check_eq "pttrace --frob" "pttrace: unrecognized option '--frob'" "$(head -1 "$T/err")"
first_err "ptinspect --frob FILE" 2 "ptinspect: unrecognized option '--frob'" "$PTINSPECT" --frob /bin/true
first_err "ptinspect FILE --frob" 2 "ptinspect: unrecognized option '--frob'" "$PTINSPECT" /bin/true --frob
# An option without its value: getopt's words under the subcommand's name.
first_err "pttrace report RUN --out" 2 "pttrace report: option '--out' requires an argument" \
	"$PTTRACE" report RUN --out
first_err "pttrace timeline RUN --chrome" 2 "pttrace timeline: option '--chrome' requires an argument" \
	"$PTTRACE" timeline RUN --chrome
first_err "ptinspect deps --root" 2 "ptinspect deps: option '--root' requires an argument" \
	"$PTINSPECT" deps --root
# An argument too many, where a subcommand names it.
for sub in compiles graph-breaks recompiles ranks report timeline; do
	first_err "pttrace $sub A B" 2 "pttrace $sub: unexpected argument 'B'" "$PTTRACE" "$sub" A B
done
first_err "pttrace artifact A B C D" 2 "pttrace artifact: unexpected argument 'D'" \
	"$PTTRACE" artifact A B C D
# COMPILE "-/-" (records without a compile id) is an argument, not options.
first_err "pttrace artifact A -/- KIND" 2 "pttrace: '$PTTRACE_DB': no pttrace database (No such file or directory)" \
	"$PTTRACE" artifact A -/- KIND
[ "$n" -ge 20 ] || fail "only $n subcommands found in the --help texts"
finish
