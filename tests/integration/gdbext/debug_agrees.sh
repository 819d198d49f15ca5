. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 900
# ctest-labels: one-tree
# `ptinspect debug` and the GDB extension agree on whether tensors print as is
# or need pt-types, on the program the gdb tests use (tensors.cpp) built the
# same way: with `g++ -g` GCC emits c10::TensorImpl only as a declaration (its
# key function is in libc10, which Debian ships without DWARF), so debug says
# "gdb needs pt-types for tensors" and gdb prints "<unreadable tensor: no type
# information for c10::TensorImpl; run pt-types>"; with -femit-class-debug-always
# the class is in the program's DWARF, debug says "gdb can show tensor fields
# here" and gdb prints the tensor without pt-types.
CXX=${PTGDB_CXX:-g++}
INC=${PTGDB_TORCH_INCLUDE:-/usr/include}
LIBDIR=${PTGDB_TORCH_LIBDIR:-/usr/lib/x86_64-linux-gnu}
GDB=${PTGDB_GDB:-gdb}
SRC=$PT_SRC/tests/integration/gdbext/tensors.cpp
need "$GDB"
need "$CXX"
[ -f "$INC/ATen/ATen.h" ] || skip "no libtorch headers in $INC (libtorch-dev)"
[ -e "$LIBDIR/libc10.so" ] || skip "no libc10.so in $LIBDIR"

for v in plain full; do
	extra=
	[ $v = full ] && extra=-femit-class-debug-always
	# shellcheck disable=SC2086
	"$CXX" -g -O0 -std=c++17 $extra -I"$INC" -I"$INC/torch/csrc/api/include" "$SRC" -o "$T/$v" \
		-L"$LIBDIR" -Wl,-rpath,"$LIBDIR" -ltorch -ltorch_cpu -lc10 2>"$T/build.err" ||
		{ cat "$T/build.err"; echo "FAIL: cannot build tensors.cpp ($v)"; exit 1; }
	"$PTINSPECT" debug --json "$T/$v" >"$T/$v.json"
	printf '%s\n' "source $PT_SRC/gdbext/load.py" "break stop_here" "run $T/$v.dump" "up" \
		'echo @@=f32\n' "output f32" 'echo \n' "kill" >"$T/$v.gdb"
	"$GDB" -nx -q -batch -x "$T/$v.gdb" "$T/$v" >"$T/$v.out" 2>&1
done
verdict() { /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d["files"][0]["debug"]; print(f["verdict"], f["tensorimpl"])' "$1"; }
printed() { awk '$0 == "@@=f32" { getline; print; exit }' "$1"; }

check_eq "g++ -g: ptinspect debug" "needs_types declared" "$(verdict "$T/plain.json")"
check_eq "g++ -g: gdb extension" "<unreadable tensor: no type information for c10::TensorImpl; run pt-types>" "$(printed "$T/plain.out")"
check_eq "-femit-class-debug-always: ptinspect debug" "full defined" "$(verdict "$T/full.json")"
check_eq "-femit-class-debug-always: gdb extension" \
	"tensor([[1., 2., 3.], [4., 5., 6.]], dtype=float32, shape=[2, 3], strides=[3, 1], device=cpu)" "$(printed "$T/full.out")"
check_rc "debug: needs pt-types is a finding (exit 1)" 1 "$PTINSPECT" debug "$T/plain"
check_rc "debug: full is fine (exit 0)" 0 "$PTINSPECT" debug "$T/full"
check_contains "debug text names pt-types" "gdb needs pt-types for tensors: DWARF in the file" "$("$PTINSPECT" debug "$T/plain")"
finish
