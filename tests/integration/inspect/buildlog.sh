. "$PT_TESTLIB/common.sh" || exit 2
# `ptinspect buildlog` on small real builds made here (gcc, ninja, pttrace run)
# and on the input corners: CRLF, ANSI colours, a 2 GB line, binary data, a
# log cut in the middle, empty input, a file that is not there; and real
# failures of the tools themselves, each by ninja: ld's relocation truncated
# to fit, gcc's internal compiler error, ld out of memory, a full disk, a
# failed install. The real torch tree's failures are
# tests/integration/torch2/buildlog_real.sh. About 6 s alone (4 s the 2 GB
# line; the tools' failures 2 s, 1.3 s of it the 300,000 symbols ld runs out
# of memory on, 0.5 s the CMake project).
need gcc
need ninja
need cmake
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

# The tools' own failures, real ones, each a ninja edge; the whole text checked.
# gcc's temporary files, its version, the machine's RAM (in the OOM fix) vary.
NORM=(-e 's/cc[A-Za-z0-9]\{6\}\.s/ccXXXXXX.s/g; s|/gcc-[0-9]*/README|/gcc-<V>/README|'
      -e 's/MAX_JOBS=[0-9]*/MAX_JOBS=<N>/; s/ninja -j[0-9]*/ninja -j<N>/; s/has [0-9.]* [KMGT]*B of RAM/has <RAM> of RAM/')
export TMPDIR=$T
# tool DIR RULE-COMMAND DESCRIPTION OUT IN: a one-edge build.ninja in DIR.
tool() {
	mkdir -p "$1"
	printf 'rule r\n  command = %s\n  description = %s $out\nbuild %s: r %s\n' "$2" "$3" "$4" "$5" >"$1/build.ninja"
}
# 1. A static array of 3 GiB in .bss, another object after it: the default
# -mcmodel=small reaches it with a 32-bit PC-relative address the real ld cannot fit.
tool rel 'gcc $in -o $out' 'Linking C executable' big big.o
printf 'char big[3UL << 30];\nchar after;\nint main(void) { big[0] = 1; return after; }\n' >rel/big.c
gcc -O0 -c rel/big.c -o rel/big.o
(cd rel && ninja -j1 >rel.log 2>&1)
check_case buildlog_relocation 1 "$B" buildlog rel/rel.log
# 2. An internal compiler error: cc1 overflows its stack (1 MiB, the hard
# limit too: gcc raises the soft one) on 200,000 nested parentheses, and
# dies of SIGSEGV; the real driver reports it.
tool ice 'gcc -O2 -c $in -o $out' 'Building C object' deep.o deep.c
/usr/bin/python3 -c 'n = 200000; print("int f(int x) { return " + "(" * n + "x" + ")" * n + "; }")' >ice/deep.c
(cd ice && ulimit -s 1024 && ninja -j1 >ice.log 2>&1)
check_case buildlog_ice 1 "$B" buildlog ice/ice.log
# 3. ld out of memory: 300,000 symbols under a 24 MB address space (ld
# itself starts in about 10 MB; adding these symbols needs over 100 MB).
mkdir -p mem
{ printf '.section .note.GNU-stack,"",@progbits\n.text\n.globl _start\n_start: ret\n'
  seq 0 299999 | sed 's/.*/.globl s&\ns&: ret/'; } >mem/n.s
as mem/n.s -o mem/n.o
tool mem 'gcc -nostdlib -static $in -o $out' 'Linking C executable' n n.o
(cd mem && ulimit -v 24000 && ninja -j1 >mem.log 2>&1)
check_case buildlog_ld_memory 1 "$B" buildlog mem/mem.log
# 4. No space left: the assembler writes its object to /dev/full; and, where
# a tmpfs can be mounted (root, a mount namespace of its own), gcc's own
# temporary file on a full 16 KiB tmpfs.
tool full 'gcc -O2 -c $in -o /dev/full' 'Building C object' ok.o ok.c
printf 'int f(void) { return 0; }\n' >full/ok.c
(cd full && ninja -j1 >full.log 2>&1)
check_case buildlog_no_space 1 "$B" buildlog full/full.log
mkdir -p tiny
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	tool tinysrc 'gcc -O2 -c $in -o $out' 'Building C object' ok.o ../full/ok.c
	unshare -m sh -c 'mount -t tmpfs -o size=16k tmpfs tiny && cp tinysrc/build.ninja tiny/ &&
		cd tiny && { head -c 16384 /dev/zero >fill 2>/dev/null; TMPDIR=$PWD ninja -j1 >../tiny.log 2>&1; }'
	check_case buildlog_no_space_tmpfs 1 "$B" buildlog tiny.log
else
	echo "note: not root or no mount namespace: the tmpfs case of a full disk not run"
fi
# 5. The install phase: a CMake project whose install prefix is a file
# (/dev/null: root is refused the same way, and CMake's message, which it
# wraps by width, does not depend on the length of $T), by ninja's install
# edge (console pool: its output comes before FAILED:) and by cmake --install.
mkdir -p inst/src
printf 'cmake_minimum_required(VERSION 3.18)\nproject(inst C)\nadd_library(t STATIC t.c)\ninstall(TARGETS t DESTINATION lib)\n' >inst/src/CMakeLists.txt
printf 'int t(void) { return 0; }\n' >inst/src/t.c
cmake -S inst/src -B inst/b -G Ninja -DCMAKE_INSTALL_PREFIX=/dev/null >inst/configure.log 2>&1 &&
	ninja -C inst/b >/dev/null 2>&1
check_eq "install: the project configures and builds" 0 $?
ninja -C inst/b install >inst/ninja.log 2>&1
check_case buildlog_install_ninja 1 "$B" buildlog inst/ninja.log
(cd inst && cmake --install b >cmake.log 2>&1)
check_case buildlog_install_cmake 1 "$B" buildlog inst/cmake.log
"$B" buildlog --json inst/ninja.log >inst.json
check_eq "install: JSON phase, cause" "install install" \
	"$(/usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["phase"], j["cause"])' inst.json)"
finish
