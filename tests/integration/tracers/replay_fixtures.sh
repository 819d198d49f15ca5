# Rule: every line of real torch 2.6 stderr output is accounted for, and the
# records by level, compile id, artifact and [rankN]: prefix are what the
# text shows. Each fixture is replayed through a child that writes it to its
# stderr (and the stdout fixture to its stdout); the expectations come from
# grep/awk on the same file, not from pttrace's parsers.
# ctest-timeout: 240
. "$PT_TESTLIB/common.sh" || exit 2
FIX="$PT_FIXTURES/traces/generated/torch-2.6.0"
[ -d "$FIX" ] || fail "no trace fixtures in $FIX"
export PTTRACE_DB="$T/db/pttrace.db"
P="$PTTRACE"
sqlv() { "$P" sql "$1" "$2" | tail -n +2; }

# The TORCH_LOGS prefix (Python file), as an ERE.
LOGRE='^(\[rank[0-9]+\]:)?[VIWEC][0-9]{4} [0-9:.]+ +[0-9]+ [^]]*\.py:[0-9]+\]'
ID_SQL="CASE WHEN ca_id IS NOT NULL THEN '!' || ca_id || CASE WHEN frame_id IS NOT NULL THEN '/' || frame_id || '/' || frame_compile_id ELSE '' END ELSE frame_id || '/' || frame_compile_id END || CASE WHEN IFNULL(attempt, 0) <> 0 THEN '_' || attempt ELSE '' END"

n=0
for f in "$FIX"/*/stderr.txt "$FIX"/misc/*_stderr.txt; do
	[ -s "$f" ] || continue
	name=${f#"$FIX"/}
	n=$((n + 1))
	out=${f%stderr.txt}stdout.txt
	[ -f "$out" ] || out=/dev/null
	"$P" run -q --name "r$n" -- sh -c 'cat "$1"; cat "$2" >&2' sh "$out" "$f" >/dev/null 2>"$T/run.err"
	check_eq "$name: exit status" 0 $?

	# Every line in exactly one record; the bytes as they came.
	check_eq "$name: lines" "$(wc -l <"$f")" "$(sqlv r$n "SELECT SUM(nlines) FROM records WHERE run_id = :run AND stream = 2")"
	"$P" logs --stream stderr "r$n" >"$T/back.txt"
	cmp -s "$f" "$T/back.txt"
	check_eq "$name: pttrace logs gives the bytes back" 0 $?
	if [ "$out" != /dev/null ]; then
		check_eq "$name: stdout lines" "$(wc -l <"$out")" "$(sqlv r$n "SELECT IFNULL(SUM(nlines), 0) FROM records WHERE run_id = :run AND stream = 1")"
	fi

	# TORCH_LOGS lines by level letter.
	want=$(grep -E "$LOGRE" "$f" | sed -E 's/^(\[rank[0-9]+\]:)?(.).*/\2/' | sort | uniq -c |
		awk '{ l = ($2 == "V") ? 10 : ($2 == "I") ? 20 : ($2 == "W") ? 30 : ($2 == "E") ? 40 : 50; print l "|" $1 }' | sort)
	got=$(sqlv r$n "SELECT level || '|' || SUM(nlines) FROM records WHERE run_id = :run AND kind = 'log' GROUP BY level" | tr '\t' '|' | sort)
	check_eq "$name: log lines by level" "$want" "$got"

	# Compile ids as printed after the prefix.
	want=$(grep -E "$LOGRE" "$f" | sed -nE 's/^(\[rank[0-9]+\]:)?[^]]*\] \[(!?[0-9]+(\/[0-9]+)*(_[0-9]+)?)\]( .*)?$/\2/p' |
		sort | uniq -c | awk '{ print $2 "|" $1 }' | sort)
	got=$(sqlv r$n "SELECT ($ID_SQL) AS cid, SUM(nlines) FROM records WHERE run_id = :run AND kind = 'log' AND (frame_id IS NOT NULL OR ca_id IS NOT NULL) GROUP BY cid" | tr '\t' '|' | sort)
	check_eq "$name: lines by compile id" "$want" "$got"

	# Artifacts.
	want=$(grep -E "$LOGRE" "$f" | sed -nE 's/^(\[rank[0-9]+\]:)?[^]]*\]( \[!?[0-9][0-9\/_]*\])? \[__([A-Za-z0-9_.]+)\]( .*)?$/\3/p' |
		sort | uniq -c | awk '{ print $2 "|" $1 }' | sort)
	got=$(sqlv r$n "SELECT artifact, SUM(nlines) FROM records WHERE run_id = :run AND artifact IS NOT NULL GROUP BY artifact" | tr '\t' '|' | sort)
	check_eq "$name: lines by artifact" "$want" "$got"

	# [rankN]: prefixes.
	want=$(grep -oE '^\[rank[0-9]+\]:' "$f" | tr -dc '0-9\n' | sort | uniq -c | awk '{ print $2 "|" $1 }' | sort)
	got=$(sqlv r$n "SELECT rank, SUM(nlines) FROM records WHERE run_id = :run AND rank IS NOT NULL GROUP BY rank" | tr '\t' '|' | sort)
	check_eq "$name: lines by rank" "$want" "$got"

	# Records: a TORCH_LOGS record is a run of lines with one prefix (awk's count).
	want=$(sed -E "/$LOGRE/{s/^((\[rank[0-9]+\]:)?[^]]*\]( |\$)(\[!?[0-9][0-9\/_]*\]( |\$))?(\[__[A-Za-z0-9_.]+\]( |\$))?).*/K\1/;b;};s/.*/O/" "$f" |
		awk '/^K/ { if ($0 != prev) n++; prev = $0; next } { prev = "" } END { print n + 0 }')
	check_eq "$name: log records" "$want" "$(sqlv r$n "SELECT COUNT(*) FROM records WHERE run_id = :run AND kind = 'log'")"

	# C++ log lines (c10's bracketed form, glog's).
	want=$(grep -cE '^\[[WIEF][0-9]{4} [0-9:.]+ [^]]+:[0-9]+\]|^[WIEF]([0-9]{4}){1,2} [0-9:.]+ +[0-9]+ [^]]*\.(cpp|cc|h):[0-9]+\]' "$f")
	check_eq "$name: C++ log lines" "$want" "$(sqlv r$n "SELECT IFNULL(SUM(nlines), 0) FROM records WHERE run_id = :run AND kind = 'cpp'")"

	# Python tracebacks: one record per "Traceback (most recent call last):" line.
	check_eq "$name: tracebacks" "$(grep -c '^Traceback (most recent call last):' "$f")" \
		"$(sqlv r$n "SELECT COUNT(*) FROM records WHERE run_id = :run AND kind = 'traceback'")"
done
check_eq "fixtures replayed" 1 $((n >= 10))

# The multi-rank fixture: both ranks' records, each record from one rank.
got=$("$P" sql "SELECT COUNT(DISTINCT rank) FROM records r JOIN runs u ON u.id = r.run_id WHERE u.name = (SELECT name FROM runs WHERE argv LIKE '%multirank%' LIMIT 1)" | tail -1)
check_eq "multirank: two ranks" 2 "$got"
finish
