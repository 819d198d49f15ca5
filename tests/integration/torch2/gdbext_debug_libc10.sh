. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1800
# The GDB extension on a real DEBUG=1 libc10 (torch 2.6 built from Debian's
# source by tests/torch2/buildtree): c10::TensorImpl's DWARF is in libc10
# itself, so pt-tensor reads a tensor with no pt-types step. The same program
# against a copy of that libc10 with its DWARF stripped shows the difference:
# "no type information ... run pt-types". Runs inside the build bed (the
# library needs trixie's glibc), with its gdb 16.
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
BT=$PT_SRC/tests/torch2/buildtree
"$BT" create >"$T/create.out" 2>"$T/create.err"
rc=$?
[ $rc = 77 ] && skip "torch 2.x build bed unavailable: $(grep 'cannot run here' "$T/create.err")"
check_eq "buildtree create" 0 $rc
[ $rc = 0 ] || { tail -20 "$T/create.err"; finish; }
BED() { PT_TORCH2_CACHE=${PT_TORCH2_BUILD_CACHE:-/var/tmp/ptools-torch2-build} "$PT_SRC/tests/torch2/testbed" run -b "$T:/t" -- "$@"; }
cp "$PT_SRC/tests/integration/gdbext/c10only.cpp" "$T/"
cat >"$T/run.sh" <<'EOF'
set -e
cd /t
g++ -g -O0 -std=c++17 -I/build/pytorch -I/build/pytorch/build c10only.cpp -L/build/pytorch/build/lib \
	-Wl,-rpath,/build/pytorch/build/lib -lc10 -o c10only
readelf -S /build/pytorch/build/lib/libc10.so | grep -c '\.debug_info' >dwarf.count
mkdir -p stripped && objcopy --strip-debug /build/pytorch/build/lib/libc10.so.2.6.0 stripped/libc10.so.2.6
for v in debug stripped; do
	lp=; [ $v = stripped ] && lp=/t/stripped
	LD_LIBRARY_PATH=$lp gdb -batch -nx -ex "source /src/gdbext/load.py" -ex "break stop_here" -ex run -ex up \
		-ex "echo @@value\n" -ex "pt-tensor impl" -ex "echo @@raw\n" -ex "pt-tensor impl --raw --full" \
		-ex "info sharedlibrary libc10" ./c10only >$v.out 2>&1 || true
done
EOF
BED sh /t/run.sh >"$T/bed.out" 2>&1
check_eq "build and gdb inside the bed" 0 $?
check_eq "the real libc10 has DWARF" 1 "$(cat "$T/dwarf.count" 2>/dev/null)"
after() { awk -v m="$1" '$0 == m { getline; print; exit }' "$2"; }
check_eq "DEBUG=1 libc10: pt-tensor with no pt-types" \
	"tensor([[0., 1., 2.], [3., 4., 5.]], dtype=float32, shape=[2, 3], strides=[3, 1], device=cpu)" \
	"$(after @@value "$T/debug.out")"
check_eq "DEBUG=1 libc10: the element bytes (0.0 to 5.0 as IEEE floats)" \
	"tensor([[0x0, 0x3f800000, 0x40000000], [0x40400000, 0x40800000, 0x40a00000]], dtype=float32, shape=[2, 3], strides=[3, 1], device=cpu)" \
	"$(after @@raw "$T/debug.out")"
check_contains "DEBUG=1 libc10: the TensorImpl line" "(c10::TensorImpl) refcount=1 weakcount=1" "$(cat "$T/debug.out")"
check_contains "stripped copy loaded" "/t/stripped/libc10.so.2.6" "$(cat "$T/stripped.out")"
check_eq "stripped libc10: no types, says so" \
	"<unreadable tensor: no type information for c10::TensorImpl; run pt-types>" "$(after @@value "$T/stripped.out")"
finish
