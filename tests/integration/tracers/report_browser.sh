#!/usr/bin/env bash
# pttrace report in a real browser: Debian's chromium, headless, driven by
# playwright-core (npm, pinned in tests/browser/package-lock.json; no browser
# download). Reports of tlparse's multi-rank job, torch 2.6 graph breaks and a hostile
# trace: every page loads from file:// with no console error and no request leaving
# file://, every link resolves, the trie folds, a table sorts, payload text never runs.
# Screenshots: $PT_BUILD/report-screenshots/<name>/.
# ctest-timeout: 600
. "$PT_TESTLIB/common.sh"
F=$PT_SRC/tests/fixtures/traces
export PTTRACE_DB=$T/db/pttrace.db

# In the sanitizer tree the reports are written (pttrace under ASan+UBSan) but not
# browsed: what chromium checks does not depend on how pttrace was compiled, and
# the browser pass runs in the normal tree (tests/run).
BROWSE=1
[ "${PT_SANITIZE:-OFF}" = ON ] && BROWSE=0 && echo "note: sanitizer tree: reports written, browsed in the normal tree"
if [ $BROWSE = 1 ]; then
	[ -x /usr/bin/chromium ] || skip "Debian's chromium is not installed (tests/deps installs it)"
	command -v node >/dev/null || skip "node is not installed"
	major=$(node -p 'process.versions.node.split(".")[0]')
	[ "$major" -ge 20 ] || skip "node $major: playwright-core needs node >= 20"
	W=$PT_BUILD/browser-tests
	mkdir -p "$W"
	cp "$PT_SRC/tests/browser/package.json" "$PT_SRC/tests/browser/package-lock.json" \
		"$PT_SRC/tests/browser/check_report.mjs" "$W/"
	if ! cmp -s "$W/package-lock.json" "$W/node_modules/.package-lock.json" 2>/dev/null &&
	   ! [ -d "$W/node_modules/playwright-core" ]; then
		(cd "$W" && npm ci --no-audit --no-fund >"$T/npm.log" 2>&1) ||
			skip "npm ci of playwright-core failed (no npm registry?): $(tail -3 "$T/npm.log")"
	fi
fi
# Debian's highlight.js when installed (tests/deps): the pages then highlight code.
[ -f /usr/share/javascript/highlight.js/highlight.min.js ] || echo "note: libjs-highlight.js missing: code shown plain"

report() {	# report NAME INPUT... : import, report, browse
	local name=$1; shift
	"$PTTRACE" import "$@" >/dev/null 2>&1 || [ $? = 1 ] || { fail "import $*"; return; }
	"$PTTRACE" report last "${RARGS[@]}" --out "$T/$name" >/dev/null 2>"$T/err" || { fail "report $name: $(cat "$T/err")"; return; }
	[ -s "$T/$name/index.html" ] || { fail "report $name: no index.html"; return; }
	[ $BROWSE = 1 ] || { pass; return; }
	mkdir -p "$PT_BUILD/report-screenshots/$name"
	if node "$W/check_report.mjs" "$T/$name" "$PT_BUILD/report-screenshots/$name" "${XSS[@]}" >"$T/out" 2>&1; then
		pass
	else
		fail "browser checks of $name:"
		sed 's/^/  | /' "$T/out"
	fi
	tail -1 "$T/out"
}

XSS=() RARGS=()
report multi_rank "$F/tlparse-tests/inputs/multi_rank_logs"
report breaks "$F/generated/torch-2.6.0/breaks_recompile/trace"
report autograd_ca "$F/generated/torch-2.6.0/autograd_ca/trace"
RARGS=(--diff 2)	# the diff page: autograd_ca's run against breaks_recompile's
report diff "$F/generated/torch-2.6.0/autograd_ca/trace"
[ -f "$T/diff/diff.html" ] || fail "no diff.html with --diff"
RARGS=()
report provenance "$F/tlparse-tests/inputs/inductor_provenance_jit_log.txt"
needle=$(python3 "$PT_TESTLIB/mktrace.py" "$T/xss.log" xss)
XSS=(--xss "$needle")
report xss "$T/xss.log"
finish
