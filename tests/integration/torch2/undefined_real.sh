. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 900
# `ptinspect undefined` beside the real loader's `ldd -r`, both inside the torch 2.x bed on
# Debian's own torch libraries (undefined_real_sid.sh: Debian unstable's 2.14), the same set
# of symbol names each time: libtorch_python (Python's C API is left to the interpreter, so
# hundreds are undefined in a plain load), libtorch_cpu (everything binds), and libtorch_cpu
# with a stray libc10 of the same SONAME first on LD_LIBRARY_PATH (built here: none of c10's
# symbols), where the c10 symbols are marked as not exported by the loaded torch.
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
. "$PT_TESTLIB/testbed.sh"
testbed_ready
PI=$TB_BUILD/inspect/ptinspect
L=/usr/lib/x86_64-linux-gnu
ver=$("$TB" run sh -c "ls $L/libc10.so.$TB_TORCH* 2>/dev/null | head -1" 2>/dev/null)
check_eq "the bed has torch $TB_TORCH's libc10" "$L/libc10.so.$TB_TORCH" "$ver"
cat >"$T/c.c" <<'C'
int c10_stray(void) { return 0; }
C

# case NAME FILE [LD_LIBRARY_PATH]: both tools on FILE inside; their symbol names in $T/NAME.*
case_() {
	local name=$1 file=$2 llp=${3:-}
	"$TB" run -b "$T:/t" -- sh -c "export LD_LIBRARY_PATH='$llp'
		'$PI' undefined --all --json '$file' >/t/$name.json; echo \$? >/t/$name.rc
		ldd -r '$file' >/t/$name.ldd 2>&1" 2>/dev/null
	jq -r '.files[0].objects[].undefined[].symbol' <"$T/$name.json" | sort -u >"$T/$name.ours"
	sed -n 's/^undefined symbol: \([^[:space:]]*\).*/\1/p' "$T/$name.ldd" | sort -u >"$T/$name.theirs"
	check_eq "$name: the same undefined symbols as ldd -r ($(wc -l <"$T/$name.theirs") there)" "" \
		"$(diff "$T/$name.theirs" "$T/$name.ours" | head -5)"
}

case_ python "$L/libtorch_python.so.$TB_TORCH"
check_eq "libtorch_python: Python's C API is undefined in a plain load" true \
	"$([ "$(wc -l <"$T/python.theirs")" -gt 100 ] && grep -qx PyErr_SetNone "$T/python.ours" && echo true)"
check_eq "libtorch_python: exit 1 (symbols defined nowhere)" 1 "$(cat "$T/python.rc")"
check_eq "libtorch_python: no ABI twins, nothing torch's missing" "0 0" \
	"$(jq -r '.files[0] | "\(.abi_mismatches) \(.torch_not_exported)"' <"$T/python.json")"

case_ cpu "$L/libtorch_cpu.so.$TB_TORCH"
check_eq "libtorch_cpu: every symbol binds (ldd -r agrees: no line)" "0 0" \
	"$(wc -l <"$T/cpu.theirs") $(cat "$T/cpu.rc")"

"$TB" run -b "$T:/t" -- sh -c "mkdir -p /t/stray && cc -shared -fPIC -Wl,-soname,libc10.so.$TB_TORCH \
	-o /t/stray/libc10.so.$TB_TORCH /t/c.c" >/dev/null 2>&1
check_eq "a stray libc10.so.$TB_TORCH is built" 0 $?
case_ stray "$L/libtorch_cpu.so.$TB_TORCH" /t/stray
check_eq "stray libc10 first: c10's symbols undefined" true \
	"$([ "$(wc -l <"$T/stray.theirs")" -gt 100 ] && grep -q '^_ZN3c10' "$T/stray.ours" && echo true)"
check_eq "stray libc10 first: marked as not exported by the loaded torch, exit 1" "true 1" \
	"$(jq -r '.files[0].torch_not_exported > 100' <"$T/stray.json") $(cat "$T/stray.rc")"
finish
