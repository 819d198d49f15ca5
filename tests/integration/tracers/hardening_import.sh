#!/usr/bin/env bash
# pttrace import and artifact --out against awkward inputs
# (docs/internals/fault-matrix.md): B5 symlinks back to the directory itself;
# B21 non-regular files; B22 the same file twice; B15 an artifact name longer
# than a file name may be.
# ctest-timeout: 300
. "$PT_TESTLIB/common.sh"
cd "$T" || exit 2
export PTTRACE_DB=$T/db/pt.db
F=$PT_FIXTURES/traces/tlparse-tests/inputs
records() { "$PTTRACE" sql "$1" 'SELECT count(*) FROM trace_records WHERE run_id = :run' | tail -1; }
want=$("$PTTRACE" import --name ref "$F/simple.log" >/dev/null 2>&1; records ref)

# B5: a job directory with links to itself (latest -> .) and a dangling link:
# each directory is read once, the bad link is a warning, the rest imported.
mkdir job
cp "$F/simple.log" job/rank0.log
ln -s . job/self
ln -s . job/self2
ln -s ../job job/up
ln -s nowhere job/dangling.log
out=$(timeout 60 "$PTTRACE" import --name loop job 2>&1); rc=$?
check_eq "links to the directory itself: exit (1: a warning)" 1 "$rc"
check_eq "links to the directory itself: one file" "run 2: 1 file" "$(printf '%s\n' "$out" | grep -o '^run 2: 1 file')"
check_eq "links to the directory itself: the records" "$want" "$(records loop)"
check_contains "a dangling link: a warning naming it" "pttrace: warning: 'job/dangling.log': cannot read: No such file or directory; skipped" "$out"
check_eq "links to the directory itself: no other message" 2 "$(printf '%s\n' "$out" | wc -l)"

# B21: a FIFO or a device named explicitly: an error, no run; inside a directory: a warning.
mkfifo fifo.log
out=$(timeout 20 "$PTTRACE" import --name fifo fifo.log 2>&1); rc=$?
check_eq "a FIFO named: exit" 2 "$rc"
check_eq "a FIFO named: said" "pttrace: 'fifo.log': a FIFO, not a TORCH_TRACE file" "$out"
out=$("$PTTRACE" import --name devnull /dev/null 2>&1); rc=$?
check_eq "/dev/null named: exit" 2 "$rc"
check_eq "/dev/null named: said" "pttrace: '/dev/null': a character device, not a TORCH_TRACE file" "$out"
check_rc "no run made for them" 2 "$PTTRACE" show fifo
mkfifo job/pipe.log
out=$(timeout 20 "$PTTRACE" import --name jobfifo job 2>&1); rc=$?
check_eq "a FIFO in a directory: exit" 1 "$rc"
check_contains "a FIFO in a directory: a warning" "pttrace: warning: 'job/pipe.log': a FIFO, not a TORCH_TRACE file; skipped" "$out"
check_eq "a FIFO in a directory: the rest imported" "$want" "$(records jobfifo)"
rm job/pipe.log job/dangling.log

# B22: the same file twice in one call (same path, another path, a hard link,
# inside a directory given too): once, with a note; again --into the run: not again.
ln job/rank0.log hard.log
out=$("$PTTRACE" import --name twice "$F/simple.log" "$F/simple.log" 2>&1); rc=$?
check_eq "the same path twice: exit" 0 "$rc"
check_contains "the same path twice: a note" "pttrace: note: '$F/simple.log': the same file as '$(realpath "$F/simple.log")': imported once" "$out"
check_eq "the same path twice: once" "$want" "$(records twice)"
out=$("$PTTRACE" import --name twice2 job/rank0.log hard.log job ./job/../job/rank0.log 2>&1); rc=$?
check_eq "one file by four names: exit" 0 "$rc"
check_eq "one file by four names: once" "$want" "$(records twice2)"
check_eq "one file by four names: three notes" 3 "$(printf '%s\n' "$out" | grep -c 'imported once')"
out=$("$PTTRACE" import --into twice "$F/simple.log" 2>&1); rc=$?
check_eq "--into a run that has the file: exit" 0 "$rc"
check_contains "--into a run that has the file: a note" "already imported into run" "$out"
check_eq "--into a run that has the file: not again" "$want" "$(records twice)"
check_eq "--into: one trace file" 1 "$("$PTTRACE" sql twice 'SELECT count(*) FROM trace_sources WHERE run_id = :run' | tail -1)"

# B15: an artifact whose name is longer than a file name may be (NAME_MAX 255):
# shortened (kept unique), and everything else and compile_directory.json written.
long=$(printf 'L%.0s' $(seq 600))
long2=$(printf 'L%.0s' $(seq 599))M
{
	grep -m1 -h '"dynamo_start"' "$F/simple.log"
	for n in short "$long" "$long2" after_long; do
		p="payload of $n"
		printf 'V1125 10:00:00.000000 100 torch/x.py:1] {"artifact": {"name": "%s", "encoding": "string"}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0, "has_payload": "%s"}\n\t%s\n' \
			"$n" "$(printf '%s' "$p" | md5sum | cut -d' ' -f1)" "$p"
	done
} >long.log
"$PTTRACE" import --name long long.log >/dev/null 2>&1
out=$("$PTTRACE" artifact long --out "$T/o1" 2>&1); rc=$?
check_eq "a 600-byte artifact name: exit" 0 "$rc"
check_eq "a 600-byte artifact name: compile_directory.json written" yes "$([ -s "$T/o1/compile_directory.json" ] && echo yes || echo no)"
check_eq "every payload written (the long ones shortened, apart)" 4 "$(grep -rl '^payload of' "$T/o1" | wc -l)"
check_eq "the payload after them" "payload of after_long" "$(cat "$T"/o1/*/after_long_*.txt)"
longest=$(find "$T/o1" -type f -printf '%f\n' | awk '{ print length($0) }' | sort -n | tail -1)
[ "$longest" -le 255 ] && pass || fail "a file name of $longest bytes"
check_eq "the shortened names keep the number and extension" 2 "$(find "$T/o1" -name 'LLLL*~*_*.txt' | wc -l)"
check_contains "compile_directory.json lists the shortened name" "$(basename "$(find "$T/o1" -name 'LLLL*~*.txt' | head -1)")" "$(cat "$T/o1/compile_directory.json")"
finish
