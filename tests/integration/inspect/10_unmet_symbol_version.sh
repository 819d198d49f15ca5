# A required symbol version that the resolved provider does not define is
# fatal at start-up (§10); ptinspect predicts it without running anything.
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
mkdir -p "$T/d"
printf 'VER_1 { global: v1; local: *; };\nVER_2 { global: v2; } VER_1;\n' >"$T/new.map"
printf 'VER_1 { global: v1; local: *; };\n' >"$T/old.map"
build_so "$T/d/libV.so" "int v1(void){return 1;} int v2(void){return 2;}" -Wl,-soname,libV.so -Wl,--version-script="$T/new.map"
build_exe "$T/exe" "$(exe_src v1 v2)" -L"$T/d" -lV -Wl,-rpath,"$T/d"
check_rc "versions met: fine" 0 "$PTINSPECT" deps "$T/exe"
build_so "$T/d/libV.so" "int v1(void){return 1;} int v2(void){return 2;}" -Wl,-soname,libV.so -Wl,--version-script="$T/old.map"
"$T/exe" 2>"$T/loader.err"
check_eq "the real loader refuses to start" 1 $?
check_contains "the loader's message" "version \`VER_2' not found" "$(cat "$T/loader.err")"
check_rc "unmet version is a problem (exit 1)" 1 "$PTINSPECT" deps "$T/exe"
check_contains "ptinspect says what the loader says" "$T/d/libV.so: version \`VER_2' not found (required by $T/exe)" "$(cat "$T/.err")"
check_eq "missing_versions in JSON" '["VER_2"]' "$("$PTINSPECT" deps --json "$T/exe" | jq -c '.files[0].deps[] | select(.name=="libV.so") | .missing_versions')"
# Debian's own: everything torch needs from libstdc++ (GLIBCXX_*) is met.
if [ -e /usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13 ]; then
	check_eq "libtorch_cpu: no unmet versions" 0 "$("$PTINSPECT" deps --json /usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13 | jq '[.files[0].deps[].missing_versions[]] | length')"
fi
finish
