# ptinspect config on show_config as people paste it (tests/fixtures/show_config/pasted/,
# each derived from a real paste as its README says): the whole text report of each is the
# report of the paste it came from, with one note on stderr saying how it was read, exit 0.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
F=$PT_FIXTURES/show_config
export NO_COLOR=1

# pasted  original  the note (empty: none)
while IFS='|' read -r pasted orig note; do
	"$P" config "$F/$orig" >"$T/want.txt" 2>"$T/want.err" || fail "$orig: exit $?"
	"$P" config "$F/pasted/$pasted" >"$T/got.txt" 2>"$T/got.err"
	check_eq "$pasted: exit" 0 $?
	check_eq "$pasted: the whole report is that of $orig" "$(cat "$T/want.txt")" "$(cat "$T/got.txt")"
	check_eq "$pasted: stderr" "$note" "$(sed "s|$F/||" "$T/got.err")"
done <<'CASES'
003-wrapped-127.txt|003.txt|
006-wrapped-80.txt|006.txt|
002-repr.txt|002.txt|ptinspect: note: 'pasted/002-repr.txt': read as a Python string (its repr: literal \n between the lines)
013-repr-unquoted.txt|013.txt|ptinspect: note: 'pasted/013-repr-unquoted.txt': read as a Python string (its repr: literal \n between the lines)
003-merged-bullet.txt|003.txt|ptinspect: note: 'pasted/003-merged-bullet.txt': line 14: two entries on one line (a lost line break?): read as two
CASES

# Old spellings (torch 1.x): "CudNN 7.4.2 (built against CUDA 9.2)", "Built with cuDNN 7.1.2".
# The report is 013.txt's (pinned whole in config_whole_output.sh) plus the CUDA it names.
"$P" config "$F/013.txt" >"$T/want.txt"
sed -i 's/^\(cuDNN                    7.4.2\)$/\1\ncuDNN built against CUDA 9.2/' "$T/want.txt"
"$P" config "$F/pasted/013-cudnn-spellings.txt" >"$T/got.txt" 2>"$T/got.err"
check_eq "013-cudnn-spellings: exit" 0 $?
check_eq "013-cudnn-spellings: the whole report" "$(cat "$T/want.txt")" "$(cat "$T/got.txt")"
check_eq "013-cudnn-spellings: stderr" "" "$(cat "$T/got.err")"
check_contains "013-cudnn-spellings: read" "cuDNN built against CUDA 9.2" "$(cat "$T/got.txt")"

# An XPU build's text: "XPU backend" without its line break, then "  - Build settings: ..."
# at the margin. Read as two entries: the report is debian-1.13.1.txt's plus the XPU row,
# build type, BLAS and flags kept (before: the whole line "not part of the configuration").
"$P" config "$F/debian-1.13.1.txt" >"$T/want.txt"
sed -i 's/^build settings$/XPU                      backend\nbuild settings/' "$T/want.txt"
"$P" config "$F/pasted/debian-1.13.1-xpu.txt" >"$T/got.txt" 2>"$T/got.err"
check_eq "debian-1.13.1-xpu: exit" 0 $?
check_eq "debian-1.13.1-xpu: the whole report" "$(cat "$T/want.txt")" "$(cat "$T/got.txt")"
check_eq "debian-1.13.1-xpu: stderr" \
	"ptinspect: note: 'pasted/debian-1.13.1-xpu.txt': line 8: two entries on one line (a lost line break?): read as two" \
	"$(sed "s|$F/||" "$T/got.err")"
a=$("$P" config --json "$F/pasted/debian-1.13.1-xpu.txt" 2>/dev/null | /usr/bin/python3 -c 'import json,sys; c=json.load(sys.stdin)["config"]; s=c["build_settings"]; print(c["xpu"], s["BUILD_TYPE"], s["BLAS_INFO"], len(s["CXX_FLAGS"]) > 100, len(c["unparsed"]))')
check_eq "debian-1.13.1-xpu: --json xpu, build type, BLAS, flags, nothing unparsed" "backend RelWithDebInfo generic True 0" "$a"

# JSON: the same config object as the original's, for every form.
for c in 003-wrapped-127:003 006-wrapped-80:006 002-repr:002 013-repr-unquoted:013 003-merged-bullet:003; do
	a=$("$P" config --json "$F/pasted/${c%%:*}.txt" 2>/dev/null | /usr/bin/python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["config"], sort_keys=True))')
	b=$("$P" config --json "$F/${c#*:}.txt" 2>/dev/null | /usr/bin/python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["config"], sort_keys=True))')
	check_eq "${c%%:*}: --json config equals ${c#*:}.txt's" "$b" "$a"
done
finish
