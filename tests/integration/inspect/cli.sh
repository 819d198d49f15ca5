# The ptinspect command-line contract: subcommands, "--", usage, exit codes,
# errors that name the file and the place.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT

# No arguments runs doctor (tested in env_debian_torch.sh); --help lists it.
check_contains "--help lists doctor" "doctor" "$("$P" --help)"
for sub in config debug doctor env; do
	check_rc "$sub --help" 0 "$P" $sub --help
	check_rc "$sub: unknown option is a usage error" 2 "$P" $sub --no-such-option
done
check_rc "debug without files is a usage error" 2 "$P" debug
# config without a source asks the interpreter doctor checks (env_debian_torch.sh); two are a usage error.
check_rc "config with two files is a usage error" 2 "$P" config a b
check_rc "config with a file and --python is a usage error" 2 "$P" config --python /usr/bin/python3 a
check_rc "--help" 0 "$P" --help
check_contains "--help lists exit codes" "2  usage error or unreadable input" "$("$P" --help)"
check_rc "unknown option" 2 "$P" deps --no-such-option /bin/true
check_rc "subcommand help" 0 "$P" deps --help

# A file named like a subcommand is inspected after "--".
cp /bin/true "$T/deps"
(cd "$T" && "$P" -- deps >"$T/out" 2>&1)
check_eq "'--' makes 'deps' a file" 0 $?
check_contains "'--' output names the file" "deps" "$(head -1 "$T/out")"

printf 'hello' >"$T/notelf"
check_rc "non-ELF input is unreadable input" 2 "$P" "$T/notelf"
check_contains "non-ELF error names the file" "ptinspect: '$T/notelf': not an ELF file" "$(cat "$T/.err")"

check_rc "missing file" 2 "$P" "$T/nope"
check_contains "missing file error" "'$T/nope': cannot open: No such file or directory" "$(cat "$T/.err")"

# A header cut short inside the program header table.
head -c 100 /bin/true >"$T/trunc"
check_rc "truncated ELF" 2 "$P" "$T/trunc"
check_contains "truncated ELF names the place" "'$T/trunc': program header at offset 0x40: truncated program header table" "$(cat "$T/.err")"

# --json: one document for the whole invocation, even with a bad file in it.
"$P" --json /bin/true "$T/notelf" >"$T/j.json" 2>/dev/null
check_eq "--json exit with an unreadable file" 2 $?
check_eq "--json files" "2" "$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["files"]) + len(d["problems"]))' "$T/j.json")"

# Colour on a terminal: `script` gives the program a pseudo-terminal as stdout,
# so --color=auto really has colour to give, and NO_COLOR really takes it away.
need script
on_tty() { script -qec "$*" /dev/null </dev/null; }
check_contains "a terminal gets colour" $'\033[' "$(on_tty "env -u NO_COLOR '$P' --color=auto /bin/true")"
on_tty "env NO_COLOR=1 '$P' --color=auto /bin/true" | grep -q $'\033\\[' && fail "NO_COLOR still coloured on a terminal" || pass
check_contains "NO_COLOR set but empty is ignored" $'\033[' "$(on_tty "env NO_COLOR= '$P' --color=auto /bin/true")"
NO_COLOR=1 "$P" --color=auto /bin/true | grep -q $'\033' && fail "NO_COLOR still coloured" || pass
"$P" --color=always /bin/true | grep -q $'\033' && pass || fail "--color=always not coloured"
finish
