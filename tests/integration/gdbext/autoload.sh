. "$PT_TESTLIB/common.sh" || exit 2
# ctest-labels: one-tree
# GDB auto-loads ptgdb from where `cmake --install` puts it (GDB's objfile-gdb.py
# rule: <scripts-dir>/<dir of the real libc10>/<real libc10 name>-gdb.py), only
# with the add-auto-load-safe-path line docs/ptgdb.7 gives, and still after the
# installed tree is moved (the hook finds the package relative to itself).
need gdb
need cc
LIBC10=$(find /usr/lib/x86_64-linux-gnu -maxdepth 1 -name 'libc10.so' 2>/dev/null | head -1)
[ -n "$LIBC10" ] || skip "no libc10.so (libtorch-dev)"
cmake --install "$PT_BUILD" --prefix "$T/inst" >"$T/install.log" 2>&1 ||
	{ cat "$T/install.log"; echo "FAIL: cmake --install"; exit 1; }
real=$(readlink -f "$LIBC10")
hook=$T/inst/share/gdb/auto-load$real-gdb.py
check_rc "hook installed as <real libc10>-gdb.py" 0 test -f "$hook"
check_rc "package installed" 0 test -f "$T/inst/share/ptools/gdbext/ptgdb/__init__.py"
check_rc "stub source installed" 0 test -f "$T/inst/share/ptools/gdbext/stubs/tensor_types.cpp"

# Any program that loads libc10 triggers the hook.
build_exe "$T/prog" 'int main(void) { return 0; }' -Wl,--no-as-needed -lc10

run_gdb() {	# run_gdb PREFIX SAFE(yes|no)
	local safe=()
	[ "$2" = yes ] && safe=(-iex "add-auto-load-safe-path $1")
	gdb -nx -q -batch -iex "add-auto-load-scripts-directory $1/share/gdb/auto-load" \
		"${safe[@]}" -ex "break main" -ex run -ex "info pretty-printer" \
		-ex "help pt-tensor" "$T/prog" 2>&1
}
out=$(run_gdb "$T/inst" yes)
check_contains "auto-loaded printers" "ptgdb" "$out"
check_contains "auto-loaded commands" "Usage: pt-tensor EXPR" "$out"
# GDB names the objfile by the path it loaded (/lib/... on merged-/usr Debian).
check_eq "printer registered on libc10's objfile" "  ptgdb" \
	"$(printf '%s\n' "$out" | grep -A1 '^objfile .*/libc10\.so[.0-9]* pretty-printers:$' | sed -n 2p)"
out=$(run_gdb "$T/inst" no)
check_contains "declined outside the safe path" "auto-loading has been declined" "$out"
check_contains "no commands when declined" 'Undefined command: "pt-tensor"' "$out"
mv "$T/inst" "$T/moved"
out=$(run_gdb "$T/moved" yes)
check_contains "relocated tree still loads" "Usage: pt-tensor EXPR" "$out"
finish
