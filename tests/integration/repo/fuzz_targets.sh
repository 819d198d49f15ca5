# ctest-labels: one-tree
# The fuzzing set-up (docs/internals/fuzzing.md): every target in tests/fuzz
# has a seed corpus, every corpus folder a target, the corpus stays small; and
# tests/fuzz/run (normally over a clang build-fuzz tree) is checked here with
# stand-in targets that behave as libFuzzer does: the table, the exit status,
# the crash input kept where the table says.
. "$PT_TESTLIB/common.sh" || exit 2
F=$PT_SRC/tests/fuzz

targets=$(cd "$F" && ls fuzz_*.c | sed 's/\.c$//' | sort)
corpora=$(cd "$F/corpus" && ls -d fuzz_* | sort)
check_eq "one seed folder per target" "$targets" "$corpora"
for t in $targets; do
	n=$(find "$F/corpus/$t" -type f | wc -l)
	[ "$n" -ge 1 ] && pass || fail "$t: empty seed corpus"
	grep -q "^/\* fuzz-links: " "$F/$t.c" && pass || fail "$t.c: no fuzz-links line"
done
kb=$(du -sk "$F/corpus" | cut -f1)
[ "$kb" -le 4096 ] && pass || fail "tests/fuzz/corpus is $kb KB (keep it under 4 MB)"
# Every target is described in the fuzzing page.
for t in $targets; do
	grep -q "\`$t\`" "$PT_SRC/docs/internals/fuzzing.md" && pass || fail "$t missing from docs/internals/fuzzing.md"
done

# tests/fuzz/run over stand-ins: a fake tree whose targets print libFuzzer's
# final statistics; fuzz_glog "crashes" (writes crash-<sha> under the
# -artifact_prefix and exits 1) when SECONDS is 2; fuzz_symver prints a UBSan
# report and exits 0 when SECONDS is 3.
B=$T/build-fuzz
mkdir -p "$B/tests/fuzz"
for t in $targets; do
	cat >"$B/tests/fuzz/$t" <<EOF
#!/bin/sh
secs= pre= dirs=
for a in "\$@"; do
	case \$a in
	-max_total_time=*) secs=\${a#*=} ;;
	-artifact_prefix=*) pre=\${a#*=} ;;
	-*) ;;
	*) dirs="\$dirs \$a" ;;
	esac
done
echo "INFO: dirs:\$dirs"
if [ "$t" = fuzz_glog ] && [ "\$secs" = 2 ]; then
	echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1"
	printf 'boom' >"\${pre}crash-0123abcd"
	exit 1
fi
if [ "$t" = fuzz_symver ] && [ "\$secs" = 3 ]; then
	echo "x.c:1:2: runtime error: shift exponent 38 is too large for 32-bit type"
fi
echo "stat::number_of_executed_units: 1234"
echo "stat::new_units_added: 7"
EOF
	chmod +x "$B/tests/fuzz/$t"
done
cd "$PT_SRC" || exit 2
check_rc "run: clean targets exit 0" 0 tests/fuzz/run 1 --build "$B" --jobs 3
out=$(tests/fuzz/run 1 --build "$B" --jobs 3 2>&1)
row() { printf '%-22s %12s %8s  %s' "$@"; }
check_contains "run: one row per target" "$(row fuzz_unpack 1234 7 ok)" "$out"
check_eq "run: rows" "$(echo "$targets" | wc -l)" "$(grep -c ' ok$' <<<"$out")"
check_contains "run: summary" "no findings in $(echo "$targets" | wc -l) targets x 1 s" "$out"
check_contains "run: seeds given after the corpus" "$B/fuzz-run/corpus/fuzz_unpack tests/fuzz/corpus/fuzz_unpack" \
	"$(cat "$B/fuzz-run/logs/fuzz_unpack.log")"
check_rc "run: a finding exits 1" 1 tests/fuzz/run 2 --build "$B" fuzz_glog fuzz_ldcache
out=$(tests/fuzz/run 2 --build "$B" fuzz_glog fuzz_ldcache 2>&1)
check_contains "run: the finding named" "$(row fuzz_glog '?' '?' 'FINDING (exit 1: ERROR: AddressSanitizer: heap-buffer-overflow)')" "$out"
check_contains "run: the input kept" "-> $B/fuzz-run/crashes/fuzz_glog/crash-0123abcd" "$out"
check_eq "run: the input's bytes" "boom" "$(cat "$B/fuzz-run/crashes/fuzz_glog/crash-0123abcd")"
check_contains "run: the other target fine" "$(row fuzz_ldcache 1234 7 ok)" "$out"
check_contains "run: stderr summary" "1 of 2 targets found something" "$out"
# A later clean run clears the old finding of that target.
check_rc "run: clean again" 0 tests/fuzz/run 1 --build "$B" fuzz_glog
[ ! -e "$B/fuzz-run/crashes/fuzz_glog/crash-0123abcd" ] && pass || fail "old crash input left in place"
# A UBSan report that did not stop the target (a tree built to recover) is a finding too.
check_rc "run: a runtime error with exit 0 is a finding" 1 tests/fuzz/run 3 --build "$B" fuzz_symver
check_contains "run: the runtime error named" "FINDING (exit 0: runtime error: shift exponent 38" \
	"$(tests/fuzz/run 3 --build "$B" fuzz_symver 2>&1)"
check_contains "run: UBSan told to stop" "UBSAN_OPTIONS:-halt_on_error=1" "$(cat "$PT_SRC/tests/fuzz/run")"
check_rc "run: no SECONDS is a usage error" 2 tests/fuzz/run --build "$B"
check_rc "run: a missing target" 2 tests/fuzz/run 1 --build "$B" fuzz_nosuch
check_rc "run: no tree" 2 tests/fuzz/run 1 --build "$T/none"
finish
