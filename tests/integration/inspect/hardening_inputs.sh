#!/usr/bin/env bash
# Hostile inputs that once hung or misled ptinspect (docs/internals/fault-matrix.md):
# B1 FIFOs as the file, as a dependency, in LD_LIBRARY_PATH, as --ld-so-cache;
# B8 a configuration text over the 4 MiB limit; B12 bytes that are not UTF-8 in --json.
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
finish
