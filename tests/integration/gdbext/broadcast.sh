. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 600
# ctest-labels: one-tree
# Broadcast views in GDB (the reliability review's B10): /usr/bin/python3 with
# Debian's torch 1.13 stopped in at::_ops::atan2::call, its tensor arguments
# printed with pt-tensor. torch.zeros(1).expand([2]*22) has 4 M elements with
# stride 0 and every dimension <= 2*edgeitems, so torch's summary rule alone
# keeps all of them (24 s and 1.8 GB in gdb before the fix). The print must stop
# at summarize.SUMMARY_LIMIT (10000) elements and read memory once per distinct
# element offset shown: gdb.selected_inferior() is wrapped to count the reads.
PY=${PTGDB_PYTHON:-/usr/bin/python3}
GDB=${PTGDB_GDB:-gdb}
LOAD=$PT_SRC/gdbext/load.py
need "$GDB"
need g++
[ -x "$PY" ] || skip "$PY is not installed"
"$PY" -c 'import torch' 2>/dev/null || skip "$PY cannot import torch (python3-torch)"
[ -f /usr/include/c10/core/TensorImpl.h ] || skip "no torch headers for pt-types (libtorch-dev)"
export XDG_CACHE_HOME=$T/cache PYTHONDONTWRITEBYTECODE=1

cat >"$T/expand.py" <<'PYEOF'
import torch
a = torch.zeros(1).expand([2] * 22)              # 4,194,304 elements, strides all 0
b = torch.arange(7.).expand([7] * 9)             # 40,353,607 elements, strides 0 but the last
c = torch.arange(float(1 << 19)).expand(64, 1 << 19)  # shown elements 2 MiB apart
torch.atan2(a, a)
try:
    torch.hypot(b, c)
except RuntimeError:
    pass                                         # b and c do not broadcast together
PYEOF
cat >"$T/expand.gdb" <<GDB
source $LOAD
set breakpoint pending on
break at::_ops::atan2::call
run
delete
pt-types
python
import re
import gdb
_select = gdb.selected_inferior
READS = []
class _Counting:
    def __init__(self, inf):
        self._inf = inf
    def read_memory(self, addr, n):
        READS.append((int(addr), int(n)))
        return self._inf.read_memory(addr, n)
    def __getattr__(self, k):
        return getattr(self._inf, k)
gdb.selected_inferior = lambda: _Counting(_select())
def show(name, expr):
    # Reads of element data (inside [data, data + nbytes)): count and bytes.
    del READS[:]
    text = gdb.execute("pt-tensor " + expr, to_string=True)
    text = "".join(l for l in text.splitlines(True) if not l.startswith("warning: "))
    m = re.search(r" data=0x([0-9a-f]+) nbytes=([0-9]+)", text)
    lo, hi = int(m.group(1), 16), int(m.group(1), 16) + int(m.group(2))
    el = [(a, n) for a, n in READS if lo <= a < hi]
    gdb.write("@@%s\n%s@@%s-reads %d %d\n" % (name, text, name, len(el), sum(n for _, n in el)))
show("a", "*(at::Tensor *)\$rsi")
end
break at::_ops::hypot::call
continue
delete
python
show("b", "*(at::Tensor *)\$rsi")
show("c", "*(at::Tensor *)\$rdx")
show("cfull", "*(at::Tensor *)\$rdx --full")
end
kill
GDB
"$GDB" -nx -q -batch -x "$T/expand.gdb" --args "$PY" "$T/expand.py" >"$T/out" 2>&1
# has WHAT NEEDLE TEXT: check_contains without echoing a 60 KB haystack.
has() { case $3 in *"$2"*) pass ;; *) fail "$1: '$2' not in '${3:0:300} ... ${3: -300}'" ;; esac; }
mark() { awk -v m="@@$1" '$0 == m { getline; print; exit }' "$T/out"; }
reads() { sed -n "s/^@@$1-reads //p" "$T/out"; }

a=$(mark a)
check_eq "a: elements shown" 10000 "$(grep -o '0\.' <<<"$a" | wc -l)"
has "a: print starts row-major" "tensor([[[[[[[[[[[[[[[[[[[[[[0., 0.], [0., 0.]], [[0., 0.], [0., 0.]]], " "$a"
has "a: cut at the limit, every open dimension closed with ..." \
	"[[[0., 0.], [0., 0.]], [[0., 0.], [0., 0.]]]], ...], ...], ...], ...]]]], ...], ...]], ...], ...], ...], ...], ...], ...], ...], ...], dtype=float32, shape=[2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], strides=[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], device=cpu)" "$a"
check_eq "a: brackets balance" "$(tr -cd '[' <<<"$a" | wc -c)" "$(tr -cd ']' <<<"$a" | wc -c)"
# All 10000 shown elements share offset 0: one read of one float.
check_eq "a: memory reads (count, bytes)" "1 4" "$(reads a)"

b=$(mark b)
has "b: values follow the last stride" "tensor([[[[[[[[[0., 1., 2., ..., 4., 5., 6.], [0., 1., 2., ..., 4., 5., 6.], [0., 1., 2., ..., 4., 5., 6.], ..., [0., 1., 2., ..., 4., 5., 6.]," "$b"
check_eq "b: elements shown" 10000 "$(grep -o '[0-6]\.' <<<"$b" | wc -l)"
has "b: shape and strides" "], dtype=float32, shape=[7, 7, 7, 7, 7, 7, 7, 7, 7], strides=[0, 0, 0, 0, 0, 0, 0, 0, 1], device=cpu)" "$b"
check_eq "b: memory reads (one span of 7 floats)" "1 28" "$(reads b)"

# Shown offsets 0-2 and 524285-524287 lie more than SPAN_READ_LIMIT apart: one
# read per distinct offset (6), not per shown element (36).
c_want="tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00, ..., 5.2428e+05, 5.2429e+05, 5.2429e+05], [0.0000e+00, 1.0000e+00, 2.0000e+00, ..., 5.2428e+05, 5.2429e+05, 5.2429e+05], [0.0000e+00, 1.0000e+00, 2.0000e+00, ..., 5.2428e+05, 5.2429e+05, 5.2429e+05], ..., [0.0000e+00, 1.0000e+00, 2.0000e+00, ..., 5.2428e+05, 5.2429e+05, 5.2429e+05], [0.0000e+00, 1.0000e+00, 2.0000e+00, ..., 5.2428e+05, 5.2429e+05, 5.2429e+05], [0.0000e+00, 1.0000e+00, 2.0000e+00, ..., 5.2428e+05, 5.2429e+05, 5.2429e+05]], dtype=float32, shape=[64, 524288], strides=[0, 1], device=cpu)"
check_eq "c: summary of a wide broadcast view" "$c_want" "$(mark c)"
check_eq "c: memory reads (distinct offsets)" "6 24" "$(reads c)"
# --full above FULL_LIMIT (33 M elements) is summarised all the same.
check_eq "c: --full above 100000 elements is summarised" "$c_want" "$(mark cfull)"
if grep -n "Traceback\|Python Exception" "$T/out"; then fail "Python exception in gdb output"; else pass; fi
[ "$PT_FAILS" = 0 ] || cut -c1-300 "$T/out" | tail -40
finish
