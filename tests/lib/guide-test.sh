# One guide's examples run and compared (CTest test guide_<name>, PT_GUIDE set;
# the convention is in docs/internals/guides.md). Runs in the normal tree only.
. "$PT_TESTLIB/common.sh" || exit 2
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "guides run from the normal tree only (PT_SANITIZE=ON here)"
[ -n "${PT_GUIDE:-}" ] || { echo "FAIL: PT_GUIDE is not set"; exit 1; }
/usr/bin/python3 "$PT_TESTLIB/guiderun.py" "$PT_GUIDE" --src "$PT_SRC" --build "$PT_BUILD" >"$T/out" 2>&1
rc=$?
cat "$T/out"
case $rc in
0) pass ;;
77) skip "$(grep '^SKIP: ' "$T/out" | sed 's/^SKIP: //' | paste -sd ';' -)" ;;
*) fail "the guide's examples differ from what the commands print now (diffs above)" ;;
esac
finish
