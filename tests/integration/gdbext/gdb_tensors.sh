. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 900
# ctest-labels: one-tree
# The GDB extension against a real libtorch, in three settings that share one
# build of tensors.cpp (about a minute here):
#   live    - gdb runs the program to stop_here(), loads the type stubs with
#             pt-types, prints every variable that has an "// expect NAME: TEXT"
#             line beside it and compares; `pt-tensor NAME --raw --full` must
#             list the same element bytes as the program's own dump (argv[1]);
#   core    - the same on a gcore core file of that stopped process;
#   python  - /usr/bin/python3 running a torch script under gdb, stopped in
#             libtorch's at::_ops::atan2::call (no debug info there), tensors
#             read from the argument registers after pt-types.
# Parameters (the torch 2.x test bed reuses this script):
#   PTGDB_CXX (g++), PTGDB_TORCH_INCLUDE (/usr/include),
#   PTGDB_TORCH_LIBDIR (/usr/lib/x86_64-linux-gnu), PTGDB_CXXFLAGS (extra),
#   PTGDB_PYTHON (/usr/bin/python3; "none" skips the python part), PTGDB_GDB (gdb).
CXX=${PTGDB_CXX:-g++}
INC=${PTGDB_TORCH_INCLUDE:-/usr/include}
LIBDIR=${PTGDB_TORCH_LIBDIR:-/usr/lib/x86_64-linux-gnu}
PY=${PTGDB_PYTHON:-/usr/bin/python3}
GDB=${PTGDB_GDB:-gdb}
SRC=$PT_SRC/tests/integration/gdbext/tensors.cpp
LOAD=$PT_SRC/gdbext/load.py

need "$GDB"
need "$CXX"
[ -f "$INC/ATen/ATen.h" ] || skip "no libtorch headers in $INC (libtorch-dev)"
[ -e "$LIBDIR/libc10.so" ] || skip "no libc10.so in $LIBDIR"
# The stub cache goes to the scratch dir, so pt-types really compiles here.
export XDG_CACHE_HOME=$T/cache

# C++17 (torch 1.13 to 2.9); newer headers refuse it (2.14.1's ATen.h: "#error C++20 or later").
STD=c++17
grep -qs 'C++20 or later' "$INC/ATen/ATen.h" && STD=c++20
# shellcheck disable=SC2086
"$CXX" -g -O0 -std=$STD ${PTGDB_CXXFLAGS:-} -I"$INC" -I"$INC/torch/csrc/api/include" \
	"$SRC" -o "$T/tensors" -L"$LIBDIR" -Wl,-rpath,"$LIBDIR" -ltorch -ltorch_cpu -lc10 \
	2>"$T/build.err" || { cat "$T/build.err"; echo "FAIL: cannot build tensors.cpp"; exit 1; }

# NAME<TAB>TEXT for every "// expect NAME: TEXT" line.
sed -n 's|^[[:space:]]*// expect \([^:]*\): \(.*\)$|\1\t\2|p' "$SRC" >"$T/expect.tsv"
[ "$(wc -l <"$T/expect.tsv")" -ge 40 ] || { echo "FAIL: expectations not found in $SRC"; exit 1; }

# gdb commands that print each expectation and each dumped tensor between markers.
prints() {
	local name text
	while IFS=$'\t' read -r name text; do
		printf 'echo @@%s\\n\noutput %s\necho \\n\n' "$name" "$name"
	done <"$T/expect.tsv"
	for name in $(grep -o '^[[:space:]]*DUMP(.*' "$SRC" | grep -o 'DUMP([a-z0-9_]*)' |
		sed 's/DUMP(\(.*\))/\1/'); do
		printf 'echo @@raw %s\\n\npt-tensor %s --raw --full\n' "$name" "$name"
	done
}
# Names of dumped tensors, from the dump file itself (the program is the oracle).
compare() {	# compare WHAT GDB_OUTPUT
	local what=$1 out=$2 name text got want
	while IFS=$'\t' read -r name text; do
		got=$(awk -v m="@@$name" '$0 == m { getline; print; exit }' "$out")
		check_eq "$what: output $name" "$text" "$got"
	done <"$T/expect.tsv"
	while IFS=: read -r name want; do
		got=$(awk -v m="@@raw $name" '$0 == m { getline; print; exit }' "$out" |
			grep -o '0x[0-9a-f]*' | tr '\n' ' ')
		check_eq "$what: raw elements of $name" "$(echo $want)" "$(echo $got)"
	done <"$T/dump.txt"
}

# --- live ------------------------------------------------------------------
{
	echo "source $LOAD"
	echo "break main"
	echo "break stop_here"
	echo "run $T/dump.txt"
	echo "echo @@=before-types\\n"
	echo "output f32"
	echo "echo \\n"
	# Uninitialised locals (stack garbage) must print as values or <unreadable ...>.
	echo "pt-types --headers $INC --compiler $CXX"
	echo "echo @@=garbage\\n"
	echo "info locals"
	echo "echo @@=garbage-end\\n"
	echo "continue"
	echo "up"
	echo "pt-types --rebuild --headers $INC --compiler $CXX"
	prints
	# No GPU here: make fake_cuda claim cuda:0 (1.13 c10::optional or 2.x std::optional).
	cat <<'GDB'
python
import gdb
for path in ("storage_.value_", "_M_payload._M_payload._M_value"):
    try:
        gdb.execute("set var fake_cuda.impl_.target_->device_opt_.%s.type_ = c10::DeviceType::CUDA" % path)
        gdb.execute("set var fake_cuda.impl_.target_->device_opt_.%s.index_ = 0" % path)
        break
    except gdb.error:
        pass
end
echo @@=fake_cuda\n
output fake_cuda
echo \n
set pt-edgeitems 1
echo @@=edge1\n
output big
echo \n
set pt-edgeitems 3
echo @@=edge2\n
pt-tensor big --edge 2
set pt-threshold 10000
echo @@=threshold\n
output big
echo \n
set pt-threshold 1000
echo @@=storage\n
pt-storage f32
echo @@=keys\n
pt-dispatch-keys qi8
echo @@=help\n
help pt-tensor
help pt-storage
help pt-dispatch-keys
help pt-types
GDB
	echo "gcore $T/core"
	# After gcore: a data pointer into nothing (as on a core file missing the page).
	echo "set var fspecial.impl_.target_->storage_.storage_impl_.target_->data_ptr_.ptr_.data_ = (void *) 0x10"
	echo "echo @@=nopage\\n"
	echo "output fspecial"
	echo "echo \\n"
	# Corrupted metadata (the review's N21): t1..t12, every command on each.
	echo "source $PT_SRC/tests/integration/gdbext/corrupt_cases.py"
	echo "kill"
} >"$T/live.gdb"
"$GDB" -nx -q -batch -x "$T/live.gdb" "$T/tensors" >"$T/live.out" 2>&1
[ -s "$T/dump.txt" ] || { cat "$T/live.out"; echo "FAIL: the program did not reach stop_here"; exit 1; }
compare live "$T/live.out"
mark() { awk -v m="@@$1" '$0 == m { getline; print; exit }' "$2"; }
check_contains "live: without types" "<unreadable tensor: no type information for c10::TensorImpl; run pt-types>" "$(mark =before-types "$T/live.out")"
garbage=$(awk '$0 == "@@=garbage" { on = 1; next } $0 == "@@=garbage-end" { on = 0 } on' "$T/live.out")
check_contains "live: uninitialised locals listed" "bad = " "$garbage"
check_eq "live: CUDA tensor" "tensor(<values in cuda:0 memory, not readable from the host>, dtype=float32, shape=[2], strides=[1], device=cuda:0)" "$(mark =fake_cuda "$T/live.out")"
check_eq "live: data page missing" "<unreadable tensor: Cannot access memory at address 0x10; dtype=float32, shape=[4], device=cpu>" "$(mark =nopage "$T/live.out")"
check_eq "live: set pt-edgeitems 1" "tensor([[0, ..., 49], ..., [1950, ..., 1999]], dtype=int64, shape=[40, 50], strides=[50, 1], device=cpu)" "$(mark =edge1 "$T/live.out")"
check_contains "live: pt-tensor --edge 2" "tensor([[0, 1, ..., 48, 49], [50, 51, ..., 98, 99], ..., [1900, 1901, ..., 1948, 1949], [1950, 1951, ..., 1998, 1999]], dtype=int64" "$(mark =edge2 "$T/live.out")"
check_contains "live: pt-tensor detail line" "impl=0x" "$(awk '$0 == "@@=edge2" { getline; getline; print; exit }' "$T/live.out")"
check_contains "live: set pt-threshold 10000 prints all" "1997, 1998, 1999]]" "$(mark =threshold "$T/live.out")"
check_contains "live: pt-storage" "Storage(data=0x" "$(mark =storage "$T/live.out")"
check_contains "live: pt-storage nbytes" "nbytes=24, device=cpu, refcount=" "$(mark =storage "$T/live.out")"
check_eq "live: pt-dispatch-keys" "DispatchKeySet(QuantizedCPU, ADInplaceOrView, AutogradCPU, AutocastCPU)" "$(mark =keys "$T/live.out")"
check_contains "live: help pt-tensor" "Usage: pt-tensor EXPR [--full | --edge N | --raw]" "$(cat "$T/live.out")"
check_contains "live: help pt-types" "Usage: pt-types [--headers DIR]" "$(cat "$T/live.out")"
if grep -n "Traceback\|Python Exception" "$T/live.out"; then fail "live: Python exception in gdb output"; else pass; fi
# Corrupted tensors: pt-dispatch-keys prints the key set whenever key_set_ itself is
# readable (all twelve: only sizes, strides, dtype, offset or storage are damaged, or
# the keys themselves are all ones), and no command raises or prints without bound.
check_eq "corrupt: cases set up" 12 "$(grep -c '^@@corrupt t[0-9]* | pt-dispatch-keys ' "$T/live.out")"
grep '^@@corrupt-skip' "$T/live.out" && fail "corrupt: a case could not be set up" || pass
for n in $(seq 12); do
	check_contains "corrupt: pt-dispatch-keys t$n" "| DispatchKeySet(" \
		"$(grep "^@@corrupt t$n | pt-dispatch-keys " "$T/live.out")"
done
check_eq "corrupt: every command answered (12 x 5)" 60 "$(grep -c '^@@corrupt-len ' "$T/live.out")"
check_eq "corrupt: no command raised" "" "$(grep '^@@corrupt .* | EXCEPTION' "$T/live.out")"
check_eq "corrupt: no output over 4 KB" "" "$(awk -F' [|] ' '/^@@corrupt-len / && $3 + 0 > 4096' "$T/live.out")"

# --- core file ---------------------------------------------------------------
if [ ! -s "$T/core" ]; then
	fail "gcore wrote no core file"
	sed 's/^/  | /' "$T/live.out" | tail -20
else
	{
		echo "source $LOAD"
		echo "frame function main"
		echo "pt-types --headers $INC --compiler $CXX"
		echo "echo @@=frame-kept\\n"
		echo "output argc"
		echo "echo \\n"
		prints
	} >"$T/core.gdb"
	"$GDB" -nx -q -batch -x "$T/core.gdb" "$T/tensors" "$T/core" >"$T/core.out" 2>&1
	compare core "$T/core.out"
	# add-symbol-file alone would select frame 0 (stop_here, no argc there).
	check_eq "core: pt-types keeps the selected frame" "2" "$(mark =frame-kept "$T/core.out")"
	if grep -n "Traceback\|Python Exception" "$T/core.out"; then fail "core: Python exception"; else pass; fi
fi

# --- python3 running a torch script ------------------------------------------
if [ "$PY" = none ]; then
	echo "python part skipped (PTGDB_PYTHON=none)"
elif ! "$PY" -c 'import torch' 2>/dev/null; then
	echo "python part skipped: $PY cannot import torch"
else
	cat >"$T/script.py" <<'PYEOF'
import struct, sys
import torch
a = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
b = torch.arange(6.).reshape(3, 2).t()      # non-contiguous view
with open(sys.argv[1], "w") as f:           # the script's own element dump
    for name, t in (("a", a), ("b", b)):
        f.write("%s: %s\n" % (name, " ".join(hex(struct.unpack("<I", struct.pack("<f", x))[0])
                                                for x in t.flatten().tolist())))
torch.atan2(a, b)
PYEOF
	cat >"$T/py.gdb" <<GDB
source $LOAD
set breakpoint pending on
break at::_ops::atan2::call
run $T/script.py $T/pydump.txt
delete
pt-types
echo @@=a\\n
pt-tensor *(at::Tensor *)\$rsi
echo @@=b\\n
pt-tensor *(at::Tensor *)\$rdx
echo @@=araw\\n
pt-tensor *(at::Tensor *)\$rsi --raw --full
echo @@=braw\\n
pt-tensor *(at::Tensor *)\$rdx --raw --full
set language c++
echo @@=p\\n
output *(at::Tensor *)\$rdx
echo \\n
echo @@=keys\\n
pt-dispatch-keys *(at::Tensor *)\$rsi
kill
GDB
	"$GDB" -nx -q -batch -x "$T/py.gdb" --args "$PY" "$T/script.py" "$T/pydump.txt" >"$T/py.out" 2>&1
	check_eq "python: self" "tensor([[1., 2., 3.], [4., 5., 6.]], dtype=float32, shape=[2, 3], strides=[3, 1], device=cpu)" "$(mark =a "$T/py.out")"
	check_eq "python: other" "tensor([[0., 2., 4.], [1., 3., 5.]], dtype=float32, shape=[2, 3], strides=[1, 2], device=cpu)" "$(mark =b "$T/py.out")"
	check_eq "python: p with the printer" "tensor([[0., 2., 4.], [1., 3., 5.]], dtype=float32, shape=[2, 3], strides=[1, 2], device=cpu)" "$(mark =p "$T/py.out")"
	check_eq "python: keys" "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)" "$(mark =keys "$T/py.out")"
	want_a=$(sed -n 's/^a: //p' "$T/pydump.txt")
	want_b=$(sed -n 's/^b: //p' "$T/pydump.txt")
	check_eq "python: raw elements of a" "$want_a" "$(mark =araw "$T/py.out" | grep -o '0x[0-9a-f]*' | tr '\n' ' ' | sed 's/ $//')"
	check_eq "python: raw elements of b" "$want_b" "$(mark =braw "$T/py.out" | grep -o '0x[0-9a-f]*' | tr '\n' ' ' | sed 's/ $//')"
	if grep -n "Traceback\|Python Exception" "$T/py.out"; then fail "python: Python exception"; else pass; fi
	[ "$PT_FAILS" = 0 ] || tail -30 "$T/py.out"
fi
# PTGDB_KEEP=DIR keeps the gdb scripts and outputs for a look.
[ -z "${PTGDB_KEEP:-}" ] || cp "$T"/*.out "$T"/*.gdb "$T"/dump.txt "$PTGDB_KEEP"/ 2>/dev/null
finish
