# pttrace report's pages compared whole, as whole_output.sh compares the text
# renderings: for real traces (torch 2.6 graph breaks and recompiles, tlparse's
# failed compile, export log, collective-schedule job and provenance log, and a
# --diff of two runs) the pages named below, byte for byte, with
# expected/report/<case>/, and every file of each report (its name and the
# sha256 of its bytes, a .gz's of its content) with expected/report/<case>.sha256, so that a page that
# changes, appears or goes fails here. Only the source tree is normalised
# (<SRC>: the data-health table names the imported files). report.sh checks what
# the pages say, report_browser.sh how they behave.
# Rewrite the expected files: PT_UPDATE_EXPECTED=1 ctest -R tracers_report_whole_output
. "$PT_TESTLIB/common.sh" || exit 2
F=$PT_FIXTURES/traces
E=$PT_SRC/tests/integration/tracers/expected/report
export PTTRACE_DB=$T/db/pttrace.db
export PTTRACE_HLJS=/nonexistent	# highlight.js is the host's; the pages say it is not there

import() { "$PTTRACE" import --name "$1" "$2" >/dev/null 2>"$T/import.err" || [ $? = 1 ] || fail "import $2: $(cat "$T/import.err")"; }
import breaks "$F/generated/torch-2.6.0/breaks_recompile/trace"
import order "$F/generated/torch-2.6.0/compile_order"
import failure "$F/tlparse-tests/inputs/comp_failure.log"
import export "$F/tlparse-tests/inputs/export.log"
import schedule "$F/tlparse-tests/inputs/multi_rank_schedule"
import provenance "$F/tlparse-tests/inputs/inductor_provenance_jit_log.txt"

# report_case CASE 'PAGE...' REPORT-ARGS...: the report, its pages compared whole, its files summed.
report_case() {
	local name=$1 pages=$2 p
	shift 2
	"$PTTRACE" report "$@" --out "$T/$name" >/dev/null 2>"$T/report.err"
	check_eq "$name: report exit" 0 $?
	for p in $pages; do
		[ "${PT_UPDATE_EXPECTED:-0}" = 1 ] && mkdir -p "$(dirname "$E/$name/$p")"
		check_stream "$name: $p" "$E/$name/$p" "$T/$name/$p"
	done
	(cd "$T/$name" && find . -type f | LC_ALL=C sort | while read -r p; do
		# A .gz by its content (zlib's bytes may differ between versions).
		case $p in
		*.gz) printf '%s  %s\n' "$(normalise_case <(gzip -dc "$p") | sha256sum | cut -d' ' -f1)" "${p#./}" ;;
		*) printf '%s  %s\n' "$(normalise_case "$p" | sha256sum | cut -d' ' -f1)" "${p#./}" ;;
		esac
	done) >"$T/$name.sha256"
	check_stream "$name: every file" "$E/$name.sha256" "$T/$name.sha256"
}

report_case breaks "index.html compiles.html frames.html breaks.html c/-_-_0_1_1.html" breaks
report_case failure "index.html compiles.html c/-_-_0_0_0.html" failure
report_case export "export.html records.html compiles.html" export
report_case schedule "index.html" schedule
report_case provenance "" provenance
report_case diff "diff.html" breaks --diff order
finish
