. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1500
# A real C++ extension built with torch.utils.cpp_extension (BuildExtension, CppExtension) in
# the torch 2.6 bed (torch_extension_sid.sh: Debian unstable's 2.14), once as torch builds it (_GLIBCXX_USE_CXX11_ABI=1) and once with the old
# ABI, read by ptinspect (torchext.c): the C++ ABI each uses, checked --against the bed's torch
# 2.6 (all found; the old-ABI one misses symbols that torch exports with the other ABI: an ABI
# mismatch) and against Debian 12's torch 1.13 on the host (symbols 2.6 added: another torch).
# The compiles run at -O0 (about 25 s of CPU for both).
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
. "$PT_TESTLIB/testbed.sh"
testbed_ready --no-build
P=$PTINSPECT
root=$(PT_TORCH2_RECHECK=999999999 "$TB" info 2>/dev/null | awk '$1 == "root:" { print $2 }')
[ -d "$root/usr/lib/python3/dist-packages/torch/lib" ] || { fail "no torch in the bed ($root)"; finish; }
BT=$root/usr/lib/python3/dist-packages/torch
# The bed's torch as its interpreter says it, and how many libraries torch/lib holds.
TV=$("$TB" run python3 -c 'import torch; print(torch.__version__)' 2>/dev/null)
check_eq "the bed's torch is $TB_TORCH" "$TB_TORCH." "$(printf %s "$TV" | cut -d. -f1,2)."
NLIB=$(find -L "$BT/lib" -maxdepth 1 -name '*.so*' -type f | wc -l)

mkdir -p "$T/ext" && cd "$T/ext" || exit 2
cat >ext.cpp <<'EOF'
#include <ATen/ATen.h>
#include <torch/library.h>
// A custom op, and a c10 call that takes std::string (its mangled name names the C++ ABI).
at::Tensor twice(const at::Tensor &x) { return x * 2 + x.sin(); }
int64_t sym(const std::string &s) { return (int64_t)(uint32_t)c10::Symbol::fromQualString(s); }
TORCH_LIBRARY(TORCH_EXTENSION_NAME, m) { m.def("twice", &twice); m.def("sym", &sym); }
EOF
printf '#undef _GLIBCXX_USE_CXX11_ABI\n#define _GLIBCXX_USE_CXX11_ABI 0\n' >abi0.h
cat >setup.py <<'EOF'
import os
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension
# BuildExtension appends torch's own -D_GLIBCXX_USE_CXX11_ABI=1 after extra_compile_args, so the
# old ABI comes through a forced include (read after every -D of the command line).
fast = ["-O0", "-g0"]
abi0 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "abi0.h")
setup(name="ptext", ext_modules=[
    CppExtension("ptext_cxx11", ["ext.cpp"], extra_compile_args={"cxx": fast}),
    CppExtension("ptext_old", ["ext.cpp"], extra_compile_args={"cxx": fast + ["-include", abi0]}),
], cmdclass={"build_ext": BuildExtension.with_options(use_ninja=False)})
EOF
"$TB" run -b "$T/ext:/work" -- sh -c 'cd /work && python3 setup.py -q build_ext --build-lib out --build-temp tmp' >build.log 2>&1
rc=$?
check_eq "cpp_extension builds both in the bed" 0 $rc
[ $rc = 0 ] || { tail -20 build.log; finish; }
new=$(ls out/ptext_cxx11*.so) old=$(ls out/ptext_old*.so)

q() { jq -r ".files[0].torch_extension | $1"; }
"$P" --json --root "$root" --against "$BT" "$new" >new.json 2>/dev/null
check_eq "cxx11 build: ABI, torch libraries" "cxx11 libc10.so.$TB_TORCH libtorch_cpu.so.$TB_TORCH" "$(q '"\(.abi) \(.torch_needed | join(" "))"' <new.json)"
check_eq "cxx11 build against the bed's torch: all found" "$TV 0" "$(q '"\(.against.version) \(.against.missing | length)"' <new.json)"
check_eq "the torch symbols are counted" true "$(q '.torch_symbols > 5' <new.json)"
check_rc "cxx11 build against its torch: fine" 0 "$P" --root "$root" --against "$BT" "$new"
check_contains "the summary line" "torch ext" "$(cat "$T/.out")"
check_contains "the verdict line" "against   torch $TV ($BT, $NLIB libraries): all " "$(cat "$T/.out")"

"$P" --json --root "$root" --against "$BT" "$old" >old.json 2>/dev/null
check_eq "old-ABI build: ABI" old "$(q .abi <old.json)"
check_eq "old-ABI build against torch $TB_TORCH: every missing symbol has a cxx11 twin" true \
	"$(q '(.against.missing | length) > 0 and (.against.missing | length) == .against.abi_twins' <old.json)"
check_eq "that torch's ABI" cxx11 "$(q .against.abi <old.json)"
check_eq "fromQualString's twin" "libtorch_cpu.so" \
	"$(q '.against.missing[] | select(.demangled | startswith("c10::Symbol::fromQualString")) | .twin_library' <old.json)"
check_rc "old-ABI build against torch $TB_TORCH: a problem" 1 "$P" --root "$root" --against "$BT" "$old"
check_contains "named an ABI mismatch" "exported with the other C++ ABI (that torch: _GLIBCXX_USE_CXX11_ABI=1): an ABI mismatch" "$(cat "$T/.out")"

# Against Debian 12's torch 1.13 on the host: built against another torch.
HT=/usr/lib/python3/dist-packages/torch
[ -e "$HT/lib/libtorch_cpu.so" ] || skip "Debian's python3-torch is not installed on the host (tests/deps)"
"$P" --json --against "$HT" "$new" >host.json 2>/dev/null
check_eq "against torch 1.13: its version, symbols missing without twins" "1.13.0a0 true 0" \
	"$(q '"\(.against.version) \((.against.missing | length) > 0) \(.against.abi_twins)"' <host.json)"
check_rc "against torch 1.13: a problem" 1 "$P" --against "$HT" "$new"
check_contains "named another torch" "missing: built against another torch" "$(cat "$T/.out")"
finish
