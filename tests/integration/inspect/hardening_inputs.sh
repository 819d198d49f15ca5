#!/usr/bin/env bash
# Hostile inputs that once hung or misled ptinspect (docs/internals/fault-matrix.md):
# B1 FIFOs as the file, as a dependency, in LD_LIBRARY_PATH, as --ld-so-cache;
# B8 a configuration text over the 4 MiB limit; B12 bytes that are not UTF-8 in --json;
# B2 overlapping damaged fat binaries walked again and again; B19 a file truncated while it is
# read (mapped by libelf: SIGBUS); B11 a dependency chain deeper than the C stack; B13 header
# defects ld.so refuses.
. "$PT_TESTLIB/common.sh"
cd "$T" || exit 2
mkfifo fifo

# B1: never blocks; the top-level FIFO is "not a regular file", exit 2.
out=$(timeout 10 "$PTINSPECT" fifo 2>&1); rc=$?
check_eq "FIFO as the file: exit" 2 $rc
check_eq "FIFO as the file: message" "ptinspect: 'fifo': not a regular file" "$out"
for sub in deps cuda; do
	timeout 10 "$PTINSPECT" $sub fifo >/dev/null 2>&1
	check_eq "FIFO with '$sub': exit (124 = hung)" 2 $?
done
python3 -c "import sys; sys.path.insert(0, '$PT_TESTLIB'); from mkelf import mkelf; mkelf('top.so', needed=['libfifo.so'], runpath='\$ORIGIN')"
mkfifo libfifo.so
out=$(timeout 10 "$PTINSPECT" deps top.so 2>&1); rc=$?
check_eq "FIFO found as a dependency: exit (not found, a problem)" 1 $rc
check_contains "FIFO dependency reported missing" "libfifo.so: not found" "$out"
mkdir llp && mkfifo llp/libc.so.6
timeout 10 "$PTINSPECT" deps --ld-library-path="$T/llp" /bin/ls >/dev/null 2>&1
rc=$?; [ $rc = 124 ] && fail "a FIFO in LD_LIBRARY_PATH hangs deps" || pass
out=$(timeout 10 "$PTINSPECT" deps --ld-so-cache="$T/fifo" /bin/ls 2>&1 >/dev/null); rc=$?
[ $rc = 124 ] && fail "--ld-so-cache FIFO hangs" || pass
check_contains "--ld-so-cache FIFO said" "'$T/fifo': not a regular file: not a cache" "$out"

# B8: one byte over the limit is an error naming the file, from a file and from stdin.
python3 -c "open('exact.txt','w').write('  - x\n'*(4*1024*1024//6) + 'y'*((4*1024*1024)%6) + 'zz\n')"
out=$("$PTINSPECT" config exact.txt 2>&1 >/dev/null); rc=$?
check_eq "config over 4 MiB: exit" 2 $rc
check_contains "config over 4 MiB: said" "'exact.txt': 4194305 bytes is too large" "$out"
"$PTINSPECT" config - <exact.txt >/dev/null 2>&1
check_eq "config over 4 MiB on stdin: exit" 2 $?

# B12: names that are not UTF-8 keep their keys in --json (invalid bytes as U+FFFD).
python3 -c "import sys; sys.path.insert(0, '$PT_TESTLIB'); from mkelf import mkelf; mkelf('badutf8.so', needed=[b'lib\xff\xfe.so', b'libok\xc3(.so'], soname=b'\xff\xff', rpath=b'/tmp/\xfe')"
keys=$("$PTINSPECT" deps --json badutf8.so 2>/dev/null | python3 -c '
import json, sys
f = json.load(sys.stdin)["files"][0]
print(sorted(f), [d.get("name") for d in f["deps"]], [d.get("needed_by") for d in f["deps"]], f["deps"][0]["searched"][0].get("path"))')
check_eq "non-UTF-8 names in --json" "['deps', 'elf', 'file', 'problems'] ['lib\ufffd\ufffd.so', 'libok\ufffd(.so'] ['badutf8.so', 'badutf8.so'] /tmp/\ufffd/lib\ufffd\ufffd.so" \
	"$(printf '%s' "$keys" | python3 -c 'import sys; print(sys.stdin.read().encode("ascii", "backslashreplace").decode())' | sed 's/\\\\ufffd/\\ufffd/g')"

# B2: 13,000 fat binary headers 80 bytes apart, each claiming the rest of the section, each
# with one entry whose payload is the next header: every candidate chains to the same damage
# at the end. Walked naively: 84 million entries and ~7 GB for this 1 MB file. Now each entry
# is read once: one fat binary of 12,999 entries, the damage said once, a note for the rest.
echo 'int f(void) { return 0; }' >f.c && cc -shared -fPIC -o base.so f.c || fail "cc"
python3 - <<'PY'
import struct
M, U = 13000, 80
buf = bytearray(M * U + 8)
for k in range(M):
    u = k * U
    struct.pack_into('<IHHQ', buf, u, 0xBA55ED50, 1, 16, (M * U + 8) - (u + 16))
    struct.pack_into('<HHIQIIHHIIIQQQ', buf, u + 16, 2, 0x0101, 64, 16, 0, 0, 0, 8, 80, 0, 0, 0x11, 0, 0)
open('nested.bin', 'wb').write(buf)
PY
objcopy --add-section .mydata=nested.bin --set-section-flags .mydata=alloc,readonly,data \
	base.so nested.so 2>/dev/null || fail "objcopy"
off=$(readelf -SW nested.so | awk '$2 == ".mydata" { print $5 }')
if [ "${PT_SANITIZE:-OFF}" != ON ]; then lim="ulimit -v 400000;"; else lim=; fi	# 400 MB: the 7 GB never fits
for sub in cuda "" --tree; do
	out=$(bash -c "$lim \"\$0\" $sub nested.so" "$PTINSPECT" 2>err); rc=$?
	check_eq "nested fat binaries ($sub): exit (damage is a problem)" 1 $rc
	if [ -z "$sub" ]; then	# the default report's summary: the totals only
		check_contains "nested fat binaries ($sub): counted once" \
			"CUDA      1 fat binary, 12999 entries, 1015.6 KB of device code, 1 damaged" "$out"
	else
		check_contains "nested fat binaries ($sub): counted once" \
			".mydata          embedded    1 fat binary, 12999 entries, 1015.6 KB 1 damaged" "$out"
	fi
	check_eq "nested fat binaries ($sub): the damage once, then one note" \
"ptinspect: warning: 'nested.so': section .mydata, fat binary at offset 0x$(printf %x $((16#$off))), entry at offset 0x$(printf %x $((16#$off + 12999 * 80 + 16))): entry size fields point past the end of the fat binary
ptinspect: note: 'nested.so': section .mydata: 12998 more fat binary headers inside damaged fat binaries lead into entries already read: not walked again, not counted" "$(cat err)"
done

# B11: a dependency chain printed as a tree once recursed a level per library (about 700
# bytes of stack each): 11,400 levels overflowed the default 8 MB stack. A chain of 3000
# under a 1 MB stack crashed the same way (3000 x 700 > 1 MB); now the walk keeps its own
# stack and prints every level.
mkdir chain
python3 -c "
import sys; sys.path.insert(0, '$PT_TESTLIB'); from mkelf import mkelf
N = 3000
for i in range(N):
    mkelf('chain/lib%05d.so' % i, needed=['lib%05d.so' % (i + 1)] if i + 1 < N else [], runpath='\$ORIGIN')"
out=$(ulimit -s 1024; "$PTINSPECT" deps chain/lib00000.so 2>&1); rc=$?
check_eq "3000-deep chain under a 1 MB stack: exit" 0 $rc
check_contains "3000-deep chain: all loaded" "dependencies: 2999 loaded, 0 missing" "$out"
check_eq "3000-deep chain: one line per level" 2999 "$(printf '%s\n' "$out" | grep -c '└── lib0[0-9]*\.so \[runpath\]')"
check_contains "3000-deep chain: the last level" "└── lib02999.so [runpath] $T/chain/lib02999.so" "$out"
out=$(ulimit -s 1024; "$PTINSPECT" deps --depth 3 chain/lib00000.so 2>&1)
check_eq "3000-deep chain, --depth 3: three levels" 3 "$(printf '%s\n' "$out" | grep -c '└── ')"

# B13: header defects glibc's ld.so rejects were reported as a fine file, exit 0. Now a
# warning with ld.so's own reason, once (the file is read twice: report and resolver), exit 1.
python3 - <<'PY'
import struct
b = open('base.so', 'rb').read()
for name, off, fmt, val in [('phnum_big', 56, '<H', 0xffff), ('phentsize_bad', 54, '<H', 1),
                            ('eversion_bad', 20, '<I', 2), ('padding_bad', 9, '<B', 1),
                            ('osabi_bad', 7, '<B', 9)]:
    x = bytearray(b); struct.pack_into(fmt, x, off, val); open(name + '.so', 'wb').write(x)
PY
for c in "phnum_big:cannot read file data (the program headers pass the end of the file)" \
	"phentsize_bad:ELF file's phentsize not the expected size" \
	"eversion_bad:ELF file version does not match current one" \
	"padding_bad:nonzero padding in e_ident" "osabi_bad:ELF file OS ABI invalid"; do
	f=${c%%:*}
	for sub in deps ""; do
		"$PTINSPECT" $sub $f.so >/dev/null 2>err; rc=$?
		check_eq "$f ($sub): exit" 1 $rc
		check_eq "$f ($sub): ld.so's reason, once" \
			"ptinspect: warning: '$f.so': ELF header: ld.so refuses to load this file: ${c#*:}" "$(cat err)"
	done
done

# B24: escape sequences in ELF strings (a NEEDED that sets the window title and colours, a
# SONAME that clears the screen) are shown as \xNN in text output, on stdout and stderr;
# --json keeps the bytes (JSON escapes them).
python3 -c "import sys; sys.path.insert(0, '$PT_TESTLIB'); from mkelf import mkelf; mkelf('esc.so', needed=[b'lib\x1b]0;PWNED-TITLE\x07\x1b[31mRED\x1b[0m.so'], soname=b'\x1b[2Jcleared', rpath=b'/x\ty\rz')"
out=$("$PTINSPECT" deps --no-tree esc.so 2>&1); rc=$?
check_eq "escapes: exit (missing library)" 1 $rc
check_eq "escapes: no control character but newline and tab reaches the output" "" "$(printf '%s' "$out" | tr -d '\n\t' | LC_ALL=C grep -c '[[:cntrl:]]' | grep -v '^0$')"
check_contains "escapes: SONAME" 'SONAME    \x1b[2Jcleared' "$out"
check_contains "escapes: RPATH" 'RPATH     /x	y\x0dz' "$out"
check_contains "escapes: the warning on stderr" \
	"ptinspect: warning: 'esc.so': lib\x1b]0;PWNED-TITLE\x07\x1b[31mRED\x1b[0m.so: not found (needed by esc.so)" "$out"
json=$("$PTINSPECT" deps --json esc.so 2>/dev/null | python3 -c 'import json, sys; f = json.load(sys.stdin)["files"][0]; print(repr(f["elf"]["soname"]), repr(f["deps"][0]["name"]))')
check_eq "escapes: --json keeps the bytes" "'\x1b[2Jcleared' 'lib\x1b]0;PWNED-TITLE\x07\x1b[31mRED\x1b[0m.so'" "$json"

# B9: config --library's limit holds whatever the library does: one that ignores SIGALRM and
# sleeps is killed at --timeout; one that forks a grandchild holding the pipe is answered as
# soon as its child exits, and the grandchild is killed with the child's process group.
printf '#include <signal.h>\n#include <unistd.h>\n__attribute__((constructor)) static void init(void) { signal(SIGALRM, SIG_IGN); sleep(100); }\n' >ign.c
printf '#include <unistd.h>\n__attribute__((constructor)) static void init(void) { if (fork() == 0) { sleep(100); _exit(0); } }\n' >forker.c
cc -shared -fPIC -o libign.so ign.c && cc -shared -fPIC -o libforker.so forker.c || fail "cc"
out=$(timeout 60 "$PTINSPECT" config --timeout=2 --library ./libign.so 2>&1); rc=$?
check_eq "library ignoring SIGALRM: exit (124 = the limit did not hold)" 2 $rc
check_eq "library ignoring SIGALRM: said" "ptinspect: './libign.so': at::show_config(): the child did not finish in 2 s: killed" "$out"
out=$(timeout 60 "$PTINSPECT" config --library ./libforker.so 2>&1); rc=$?
check_eq "library that forks: exit (124 = waited for the grandchild)" 2 $rc
check_contains "library that forks: the child's answer" "'./libforker.so': no exported at::show_config()" "$out"
left=
for p in $(pgrep -x ptinspect); do [ "$(readlink /proc/$p/cwd)" = "$T" ] && left="$left $p"; done
check_eq "library that forks: no process of it left" "" "$left"
"$PTINSPECT" config --timeout=0 --library ./libign.so >/dev/null 2>&1
check_eq "--timeout=0 is a usage error" 2 $?

# A warning about the main file was printed twice (the report and the resolver both read it)
# and more with every reader: once now, whatever the subcommand.
python3 -c "import sys; sys.path.insert(0, '$PT_TESTLIB'); from mkelf import mkelf; mkelf('badoff.so', needed=['libc.so.6'], raw_needed_offsets=[0x100000])"
for sub in "" deps debug cuda; do
	"$PTINSPECT" $sub badoff.so >/dev/null 2>err
	check_eq "a main-file warning once ($sub)" \
		"ptinspect: warning: 'badoff.so': DT_NEEDED string offset 0x100000 is outside the string table" "$(cat err)"
done

# B19: gdb stops ptinspect once libelf has mapped the file, the file is cut to 8 KB (its
# dynamic section is past that), and ptinspect goes on: an error naming the file, exit 2,
# never SIGBUS. The same for deps (its main file is read the same way; dependencies are
# read with pread, where a cut file reads short and goes to libelf's path).
command -v gdb >/dev/null || skip "gdb is not installed (tests/deps)"
lib=$(readlink -f /lib/x86_64-linux-gnu/libstdc++.so.6)
for sub in "" deps; do
	cp "$lib" race.so
	# LeakSanitizer cannot run under ptrace: leaks are not checked in this one run.
	out=$(ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" gdb -q -batch -ex 'handle SIGBUS nostop noprint pass' -ex 'break elfobj_read' -ex run \
		-ex "shell truncate -s 8192 $T/race.so" -ex delete -ex continue \
		--args "$PTINSPECT" $sub race.so 2>&1)
	# "Breakpoint 1, elfobj_read (...)" with debug info, "Breakpoint 1, 0x... in elfobj_read ()" without (Release).
	if printf '%s\n' "$out" | grep -Eq '^Breakpoint 1, (0x[0-9a-f]+ in )?elfobj_read '; then
		pass
	else
		fail "truncated while read ($sub): gdb did not stop in elfobj_read:"
		printf '%s\n' "$out" | sed 's/^/  | /'
	fi
	check_contains "truncated while read ($sub): the error" \
		"ptinspect: 'race.so': the file was truncated while it was read ($(stat -c %s "$lib") bytes, now 8192)" "$out"
	check_contains "truncated while read ($sub): exit 2, no signal" "exited with code 02]" "$out"
done
# B19 for the section scans, which read a chunk at a time (elfobj_read_chunk): cut once the
# first chunk is read. The CUDA scan warns per section, the dispatcher-trace search
# (a file named libtorch_cpu) notes it cannot read; exit 1, never SIGBUS. The library has
# 1 MiB of .rodata, more than one chunk.
printf 'const char big[1 << 20] = { 1 };\n' >big.c
cc -shared -fPIC -o big.so big.c || fail "cannot build big.so"
for sub in cuda debug; do
	f=race.so
	[ "$sub" = debug ] && f=libtorch_cpu.so
	cp big.so "$f"
	out=$(ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" gdb -q -batch -ex 'handle SIGBUS nostop noprint pass' -ex 'break elfobj_read_chunk' -ex run \
		-ex finish -ex "shell truncate -s 8192 $T/$f" -ex delete -ex continue \
		--args "$PTINSPECT" $sub "$f" 2>&1)
	if [ "$sub" = cuda ]; then
		check_contains "window cut while scanned ($sub): the warning" \
			"ptinspect: warning: 'race.so': .rodata: read error at offset 0x" "$out"
		check_contains "window cut while scanned ($sub): says why" \
			"(the file was cut while it was read)" "$out"
	else
		check_contains "window cut while scanned ($sub): the note" \
			"ptinspect: note: 'libtorch_cpu.so': cannot read: Input/output error" "$out"
	fi
	check_contains "window cut while scanned ($sub): exit 1, no signal" "exited with code 01]" "$out"
done
finish
