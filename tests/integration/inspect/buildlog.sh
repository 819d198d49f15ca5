. "$PT_TESTLIB/common.sh" || exit 2
# `ptinspect buildlog` on small real builds made here (gcc, ninja, pttrace run)
# and on the input corners: CRLF, ANSI colours, a 2 GB line, binary data, a
# log cut in the middle, empty input, a file that is not there. The real torch
# tree's failures are tests/integration/torch2/buildlog_real.sh. About 4 s
# (most of it the 2 GB line).
need gcc
need ninja
B=$PTINSPECT
E=$PT_SRC/tests/integration/inspect/expected
cd "$T" || exit 2
# A warning that quotes "error:" first (grep error: lands on it), then the
# edge that really fails; a third edge compiles.
cat >build.ninja <<'NINJA'
rule cc
  command = gcc -Wall -std=c11 -O2 -c $in -o $out
  description = Building C object $out
build w.o: cc w.c
build b.o: cc b.c
build ok.o: cc ok.c
NINJA
printf '#warning "error: this is only a warning"\nint w(void) { int unused; return 0; }\n' >w.c
printf 'int b(void) { return undeclared_x; }\n' >b.c
printf 'int ok(void) { return 0; }\n' >ok.c
ninja -j1 -k 0 >log.txt 2>&1
check_eq "grep error: lands on a warning" 1 "$(grep -m1 -n 'error:' log.txt | grep -c 'warning:')"
check_case buildlog_warning_first 1 "$B" buildlog log.txt
# The same log as pip shows it in a terminal: CRLF, colours.
sed 's/$/\r/; s/error:/\x1b[01;31m\x1b[Kerror:\x1b[m\x1b[K/' log.txt >crlf.txt
"$B" buildlog log.txt >plain.out
"$B" buildlog crlf.txt >crlf.out
check_eq "CRLF and ANSI colours read as the plain log" "$(sed 's/^log: .*//' plain.out)" "$(sed 's/^log: .*//' crlf.out)"
"$B" buildlog --json - <log.txt >j.json
check_eq "stdin, --json" "compile-error b.o" "$(/usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["cause"], j["edge"]["outputs"])' j.json)"
check_eq "warnings by kind" '{"-Wcpp": 1, "-Wreturn-type": 1, "-Wunused-variable": 1}' "$(/usr/bin/python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["log"]["warnings_by_kind"], sort_keys=True))' j.json)"

# pttrace run of a failed build points to buildlog; its logs read back.
PTDB=$T/pt.db
"$PTTRACE" --db "$PTDB" run -q -- ninja -j1 -k 0 >/dev/null 2>pt.err
check_contains "pttrace names buildlog" "'pttrace logs 1 | ptinspect buildlog' finds its first error" "$(cat pt.err)"
"$PTTRACE" --db "$PTDB" logs 1 | "$B" buildlog --json >pt.json
check_eq "the run's log through buildlog" "compile-error" "$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cause"])' pt.json)"

# A build that worked: exit 0.
rm -f .ninja_log .ninja_deps *.o
printf 'int b(void) { return 1; }\n' >b.c
ninja -j1 >okbuild.txt 2>&1
check_case buildlog_ok 0 "$B" buildlog okbuild.txt

# Cut in the middle: after a status line, before the end.
head -3 log.txt | grep -v FAILED | head -1 >cut.txt
check_case buildlog_cut 1 "$B" buildlog cut.txt
# A 2 GB line (kept: 64 KiB) inside a failed edge; the error after it is found.
{ printf '[1/1] Building C object big.o\nFAILED: big.o\ngcc -c big.c -o big.o\n'; head -c 2147483648 /dev/zero | tr '\0' 'a'
  printf '\nbig.c:1:1: error: after the long line\nninja: build stopped: subcommand failed.\n'; } | "$B" buildlog --json >big.json
check_eq "2 GB line: exit 1" 1 "${PIPESTATUS[1]:-1}"
check_eq "2 GB line: the error after it" "big.c:1:1: error: after the long line 1" \
	"$(/usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["first_error"]["text"], j["log"]["cut_lines"])' big.json)"
# Binary data, empty input, no such file: exit 2 with a message.
head -c 100000 /dev/urandom >bin.dat
check_case buildlog_binary 2 "$B" buildlog bin.dat
check_case buildlog_empty 2 "$B" buildlog /dev/null
check_case buildlog_nofile 2 "$B" buildlog "$T/nosuch.log"
check_case buildlog_usage 2 "$B" buildlog a b
finish
