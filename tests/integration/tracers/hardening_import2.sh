#!/usr/bin/env bash
# pttrace import, reindex, rm and database paths, round 3 (docs/internals/fault-matrix.md,
# issue 34): N6 an over-cap line is not held in memory; N7 an import killed mid-way
# is completed by a new one; N9 two imports of one file at once import it once;
# N17 reindex of a trace/ directory changed by hand; N18 --db through a symbolic
# link; N22 the messages (a newer schema part, a payload over the cap, a full disk,
# rm of a run being imported).
# ctest-timeout: 900
. "$PT_TESTLIB/common.sh"
cd "$T" || exit 2
export PTTRACE_DB=$T/db/pt.db
F=$PT_FIXTURES/traces/tlparse-tests/inputs
records() { "$PTTRACE" sql "$1" 'SELECT count(*) FROM trace_records WHERE run_id = :run' | tail -1; }
envelopes() { grep -avc $'^\t' "$1"; }
# N compiles of `per` payloads each (as the review's gen_many.py).
gen() {
	python3 - "$@" <<'PYEOF'
import hashlib, json, sys
out, n, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(out, "w") as w:
    t = 0
    def rec(env, payload=None):
        global t
        t += 1
        if payload is not None:
            env["has_payload"] = hashlib.md5(payload.encode()).hexdigest()
        w.write("V1206 15:18:10.%06d 1500233 torch/_dynamo/utils.py:1] " % (t % 1000000) + json.dumps(env) + "\n")
        if payload is not None:
            w.write("".join("\t" + l + "\n" for l in payload.split("\n")))
    for i in range(n):
        cid = {"frame_id": i, "frame_compile_id": 0, "attempt": 0}
        rec(dict({"dynamo_start": {"stack": [{"line": i, "name": "f%d" % i, "filename": 0}]}}, **cid))
        for j in range(per):
            rec(dict({"artifact": {"name": "a%d" % j, "encoding": "string"}}, **cid), "payload %d %d" % (i, j))
        rec(dict({"compilation_metrics": {"co_name": "f%d" % i, "graph_op_count": 1}}, **cid))
PYEOF
}

# N6: a 512 MB tail of NUL bytes without a newline (what a crash can leave) is
# skipped as it is read: the import fits in 400 MB of address space (it needed
# the whole line before), the records before it are all there, one warning names
# the file and the line.
# ASan's shadow memory does not fit a 400 MB address space: the bound is checked in the plain build.
if [ "${PT_SANITIZE:-OFF}" != ON ]; then lim="ulimit -v 400000;"; else lim=; fi
cp "$F/comp_metrics.log" nul.log
echo >>nul.log
truncate -s +512M nul.log
out=$( (eval "$lim"; PT_JOBS=2 timeout 120 "$PTTRACE" import --name nul nul.log) 2>&1); rc=$?
check_eq "N6 a NUL tail: exit 1 (a damaged line)" 1 "$rc"
check_contains "N6 a NUL tail: a warning naming file and line" \
	"pttrace: warning: 'trace/nul.log': line 67: last line (no newline) of 536870912 bytes, over the cap of 67108864: skipped" "$out"
check_eq "N6 a NUL tail: the records before it" "$(envelopes "$F/comp_metrics.log")" "$(records nul)"
check_eq "N6 a NUL tail: its bytes counted" "$(stat -c %s nul.log)" \
	"$("$PTTRACE" sql nul 'SELECT size FROM trace_files WHERE run_id = :run' | tail -1)"
"$PTTRACE" rm nul >/dev/null
rm -f nul.log
# An over-cap envelope line in the middle: skipped, what follows it imported.
{ cat "$F/comp_metrics.log"; head -c $((70 << 20)) /dev/zero | tr '\0' x; echo; cat "$F/simple.log"; } >mid.log
out=$( (eval "$lim"; PT_JOBS=2 timeout 120 "$PTTRACE" import --name midline mid.log) 2>&1); rc=$?
check_eq "N6 a long line in the middle: exit 1" 1 "$rc"
check_contains "N6 a long line in the middle: said with its size" \
	"line $(($(wc -l <"$F/comp_metrics.log") + 1)): envelope line of 73400320 bytes, over the cap of 67108864: skipped" "$out"
check_eq "N6 a long line in the middle: every record around it" \
	"$(($(envelopes "$F/simple.log") + $(envelopes "$F/comp_metrics.log")))" "$(records midline)"
"$PTTRACE" rm midline >/dev/null
rm -f mid.log

# N7: an import SIGKILLed while it copies. The partial copy has a hidden name
# (trace/.rank0.log.part) until it is complete; the process is stopped once it
# is there (so the kill lands mid-copy), then killed. reindex says the import did
# not complete; a new import of the same directory completes it with every
# record, and the run is no longer "interrupted".
mkdir job
gen job/rank0.log 12000 10
want=$(envelopes job/rank0.log)
hit=0
for try in 1 2 3 4 5; do
	"$PTTRACE" rm big >/dev/null 2>&1
	"$PTTRACE" import --name big job >/dev/null 2>&1 &
	p=$!
	part=
	for _ in $(seq 6000); do
		part=$(ls "$T"/db/runs/*/trace/.rank0.log.part 2>/dev/null | head -1)
		[ -n "$part" ] && [ -s "$part" ] && break
		kill -0 $p 2>/dev/null || break
		sleep 0.01
	done
	kill -STOP $p 2>/dev/null
	if [ -n "$part" ] && [ -s "$part" ] && [ -e "$part" ]; then
		kill -9 $p
		wait $p 2>/dev/null
		hit=1
		break
	fi
	kill -9 $p 2>/dev/null
	wait $p 2>/dev/null
done
check_eq "N7 the import was killed mid-copy" 1 "$hit"
check_eq "N7 no file under the copy's own name yet" no "$([ -e "${part%/.rank0.log.part}/rank0.log" ] && echo yes || echo no)"
check_contains "N7 show: interrupted, with the way out" "(the pttrace import died before it ended; 'pttrace import --into" \
	"$("$PTTRACE" show big)"
out=$("$PTTRACE" reindex big 2>&1)
check_contains "N7 reindex: the import did not complete" "'trace/rank0.log': its import from '$T/job/rank0.log' did not complete" "$out"
check_eq "N7 reindex: the partial records are not counted" 0 "$(records big)"
out=$("$PTTRACE" import --into big job 2>&1); rc=$?
check_eq "N7 import again: exit" 0 "$rc"
check_contains "N7 import again: completes it" "did not complete (pttrace import pid" "$out"
check_eq "N7 import again: every record" "$want" "$(records big)"
check_eq "N7 import again: the copy is the source" "$(md5sum <job/rank0.log)" "$(md5sum <"${part%/.rank0.log.part}/rank0.log")"
check_contains "N7 the run is complete again" "status:   exit 0" "$("$PTTRACE" show big)"
out=$("$PTTRACE" import --into big job 2>&1)
check_contains "N7 a third import: already imported" "already imported into run" "$out"
check_eq "N7 a third import: not twice" "$want" "$(records big)"
"$PTTRACE" reindex big >/dev/null 2>&1
check_eq "N7 reindex after: every record" "$want" "$(records big)"
# A copy cut short afterwards (by hand, a full disk elsewhere): reindex says so.
copy=${part%/.rank0.log.part}/rank0.log
truncate -s -1000 "$copy"
out=$("$PTTRACE" reindex big 2>&1)
check_contains "N7 reindex of a copy shorter than its source: said" \
	"'trace/rank0.log': $(stat -c %s "$copy") bytes, shorter than its source '$T/job/rank0.log' was when imported ($(stat -c %s job/rank0.log) bytes)" "$out"
cp job/rank0.log "$copy"

# N22 (d): rm of a run an import is writing (the importer stopped there, so it is
# still writing): refused, saying it is an import; --into the same.
gen job2.log 3000 10
"$PTTRACE" import --name busy job2.log >/dev/null 2>&1 &
p=$!
for _ in $(seq 6000); do
	[ -s "$(ls "$T"/db/runs/*/trace/.job2.log.part 2>/dev/null | head -1)" ] && break
	sleep 0.01
done
kill -STOP $p
out=$("$PTTRACE" rm busy 2>&1); rc=$?
check_eq "N22d rm of a run being imported: refused" 2 "$rc"
check_contains "N22d rm of a run being imported: said so" "is being imported by pttrace import (pid $p on" "$out"
kill -CONT $p
wait $p
"$PTTRACE" import --into big job2.log >/dev/null 2>&1 &
p=$!
for _ in $(seq 6000); do
	[ -s "$(ls "$T"/db/runs/*/trace/.job2.log.part 2>/dev/null | head -1)" ] && break
	sleep 0.01
done
kill -STOP $p
out=$("$PTTRACE" rm big 2>&1); rc=$?
check_eq "N22d rm of a run imported --into: refused" 2 "$rc"
check_contains "N22d rm of a run imported --into: said so" "run $("$PTTRACE" sql big 'SELECT :run' | tail -1) is being imported by pttrace import (pid $p on" "$out"
kill -CONT $p
wait $p
"$PTTRACE" rm busy big >/dev/null

# N9: two imports --into of the same file at once: once, never twice (8 trials).
mkdir race
cp "$F/simple.log" race/r0.log
dup=0
for t in 1 2 3 4 5 6 7 8; do
	export PTTRACE_DB=$T/race$t/pt.db
	"$PTTRACE" import --name base "$F/comp_metrics.log" >/dev/null 2>&1
	"$PTTRACE" import --into base race >"race$t.a" 2>&1 &
	"$PTTRACE" import --into base race >"race$t.b" 2>&1 &
	wait
	n=$("$PTTRACE" sql "SELECT count(*) FROM trace_files WHERE path LIKE 'trace/r0.log%'" | tail -1)
	[ "$n" = 1 ] || dup=$((dup + 1))
	grep -qE 'already imported|being imported' "race$t.a" "race$t.b" || dup=$((dup + 1))
done
check_eq "N9 two imports at once: one copy, one note, in 8 of 8 trials" 0 "$dup"
export PTTRACE_DB=$T/db/pt.db

# N17: reindex after trace/ was changed by hand: a file deleted and one renamed
# to .bak. Warnings name them; their rows go; the .bak is not indexed; no double count.
"$PTTRACE" import --name r "$F/simple.log" >/dev/null 2>&1
"$PTTRACE" import --into r "$F/comp_metrics.log" >/dev/null 2>&1
d=$T/db/runs/$("$PTTRACE" sql r 'SELECT :run' | tail -1)/trace
mv "$d/simple.log" "$d/simple.log.bak"
out=$("$PTTRACE" reindex r 2>&1)
check_contains "N17 a renamed file: warned" "'trace/simple.log': a file of run" "$out"
check_contains "N17 the .bak: warned, not indexed" "'trace/simple.log.bak': in '$d' but not a file of run" "$out"
check_eq "N17 one file left, its records once" "1 $(envelopes "$F/comp_metrics.log")" \
	"$("$PTTRACE" sql r 'SELECT count(*) FROM trace_files WHERE run_id = :run' | tail -1) $(records r)"
rm "$d/comp_metrics.log"
out=$("$PTTRACE" reindex r 2>&1)
check_contains "N17 a deleted file: warned" "'trace/comp_metrics.log': a file of run" "$out"
check_eq "N17 nothing left" "0 0" "$("$PTTRACE" sql r 'SELECT count(*) FROM trace_files WHERE run_id = :run' | tail -1) $(records r)"
out=$("$PTTRACE" import --into r "$F/comp_metrics.log" 2>&1)
check_eq "N17 a forgotten file can be imported again" "$(envelopes "$F/comp_metrics.log")" "$(records r)"

# N18: --db through a symbolic link: one runs/ beside the real database.
mkdir -p A B
"$PTTRACE" --db A/pt.db import --name r1 "$F/comp_metrics.log" >/dev/null 2>&1
ln -s ../A/pt.db B/pt.db
"$PTTRACE" --db B/pt.db import --name r2 "$F/comp_metrics.log" >/dev/null 2>&1
check_eq "N18 runs/ beside the real database" "1 2|none" "$(ls A/runs | tr '\n' ' ' | sed 's/ $//')|$(ls B/runs 2>/dev/null || echo none)"
"$PTTRACE" --db B/pt.db rm r1 >/dev/null
check_eq "N18 rm through the link removes the real run directory" "2" "$(ls A/runs)"
out=$("$PTTRACE" --db B/pt.db show nosuch 2>&1)
check_contains "N18 messages keep the path given" "B/pt.db" "$out"

# N22 (a): a schema part newer than this pttrace: read commands say so.
if command -v sqlite3 >/dev/null; then
	sqlite3 A/pt.db "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
	cp A/pt.db newer.db
	sqlite3 newer.db "UPDATE schema_parts SET version = version + 1 WHERE name = 'core'"
	out=$("$PTTRACE" --db newer.db ls 2>&1 >/dev/null)
	check_contains "N22a a newer part: said by a read command" "schema part 'core' is version 4, newer than this pttrace (3)" "$out"
	check_eq "N22a a newer part: not called out of date" 0 "$(printf '%s\n' "$out" | grep -c 'out of date')"
else
	echo "SKIP: N22a needs sqlite3"
fi

# N22 (b): a payload over the 256 MiB cap: skipped, said with its size, no md5 of nothing.
python3 - <<'PYEOF'
import hashlib
p = b"y" * (257 << 20)
with open("onepay.log", "wb") as w:
    w.write(b'V1206 15:18:10.000000 1 a.py:1] {"artifact": {"name": "big", "encoding": "string"}, "has_payload": "%s"}\n\t'
            % hashlib.md5(p).hexdigest().encode())
    w.write(p)
    w.write(b"\n")
PYEOF
out=$("$PTTRACE" import --name onepay onepay.log 2>&1); rc=$?
check_eq "N22b a payload over the cap: exit 1" 1 "$rc"
check_contains "N22b a payload over the cap: said as skipped, with its size" \
	"line 1: payload of 269484032 bytes, over the cap of 268435456: skipped (not stored)" "$out"
check_eq "N22b no md5 of an empty payload" 0 "$(printf '%s\n' "$out" | grep -c d41d8cd9)"
check_eq "N22b the record kept, no payload stored" "1 0" \
	"$(records onepay) $("$PTTRACE" sql onepay 'SELECT count(*) FROM trace_records WHERE run_id = :run AND payload_md5 IS NOT NULL' | tail -1)"
"$PTTRACE" rm onepay >/dev/null
rm -f onepay.log

# N22 (c): an import onto a full disk (a 3 MB tmpfs in a mount namespace): the run
# says it failed and why, not "interrupted"; no partial copy is left.
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "SKIP: not applicable: N22c needs root and a mount namespace for a 3 MB tmpfs"
	finish
fi
gen full.log 2000 10
cat >"$T/full.sh" <<'SHEOF'
set -u
mkdir -p "$T/full"
mount -t tmpfs -o size=3m tmpfs "$T/full" || exit 99
mkdir "$T/full/db"
PTTRACE_DB=$T/full/db/pt.db "$PTTRACE" import --name mid "$T/full.log" >"$T/full.out" 2>&1
echo $? >"$T/full.rc"
PTTRACE_DB=$T/full/db/pt.db "$PTTRACE" show mid >"$T/full.show" 2>&1
ls -a "$T"/full/db/runs/*/trace >"$T/full.ls" 2>&1
SHEOF
T=$T PTTRACE=$PTTRACE unshare -m bash "$T/full.sh"
if [ $? = 99 ]; then
	echo "SKIP: not applicable: N22c: mounting a tmpfs is not allowed here"
	finish
fi
check_eq "N22c disk full: exit 2" 2 "$(cat full.rc)"
check_contains "N22c disk full: the error" "No space left on device" "$(cat full.out)"
check_contains "N22c disk full: show says failed" "status:   failed" "$(cat full.show)"
check_contains "N22c disk full: show says why" "warning:  import failed: " "$(cat full.show)"
check_eq "N22c disk full: not interrupted" 0 "$(grep -c interrupted full.show)"
check_eq "N22c disk full: no partial copy left" "" "$(grep -v '^\.\.\?$' full.ls)"
finish
