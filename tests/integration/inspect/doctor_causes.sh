# ctest-timeout: 600
# ptinspect doctor names why `import torch` fails in its first line, one broken
# setup per cause, each built here: a missing library (paths tried, the Debian
# package that has it, the pip nvidia-* wheel, Debian's nvidia-cudnn
# installer), an unmet symbol version, undefined symbols (a stray libc10.so.1.13
# on LD_LIBRARY_PATH; a provider that lost a symbol), a stale build/lib
# library among Debian's torch libraries, the PyTorch source checkout in the
# current directory, a CUDA runtime newer than the driver (a fake libcuda.so.1
# of driver 450.80.02). Every case also checks that Python really fails the
# way doctor says (the setups are not imagined), and that --python X means X.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
PY=/usr/bin/python3
[ -x $PY ] || skip "no $PY"
$PY -c 'import torch' 2>/dev/null || skip "$PY cannot import torch (python3-torch not installed)"
[ -f /usr/include/python3.11/Python.h ] || [ -n "$($PY -c 'import sysconfig; print(sysconfig.get_paths()["include"])')" ] || skip "no Python headers"
PYINC=$($PY -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
[ -f "$PYINC/Python.h" ] || skip "no Python.h in $PYINC (python3-dev)"
EXT=$($PY -c 'import importlib.machinery as m; print(m.EXTENSION_SUFFIXES[0])')
LIBDIR=/usr/lib/x86_64-linux-gnu
jq_py() { $PY -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
first() { head -1 "$1"; }

# fake_torch DIR C_SOURCE [cc flags]: DIR/torch/{__init__.py,_C$EXT} built from C_SOURCE.
fake_torch() {
	local dir=$1 src=$2
	shift 2
	mkdir -p "$dir/torch"
	printf 'from torch._C import *\n__version__ = "2.6.0+fake"\n' >"$dir/torch/__init__.py"
	printf '#include <Python.h>\n%s\n' "$src" >"$dir/torch/_C.c"
	cc -shared -fPIC -I"$PYINC" -o "$dir/torch/_C$EXT" "$dir/torch/_C.c" "$@" ||
		{ echo "FAIL: cannot build $dir/torch/_C$EXT"; exit 1; }
}
MODINIT='static struct PyModuleDef m = { PyModuleDef_HEAD_INIT, "_C", NULL, -1, NULL };
PyMODINIT_FUNC PyInit__C(void) { return PyModule_Create(&m); }'

# 1. A missing library: _C needs libmissingdep.so.1 (linked, then deleted).
mkdir -p "$T/m1/lib"
build_so "$T/m1/lib/libmissingdep.so.1" 'int missingdep(void) { return 1; }' -Wl,-soname,libmissingdep.so.1
fake_torch "$T/m1/site" "int missingdep(void);
$MODINIT
int use(void) { return missingdep(); }" -L"$T/m1/lib" -l:libmissingdep.so.1 -Wl,--enable-new-dtags,-rpath,'$ORIGIN/lib'
rm "$T/m1/lib/libmissingdep.so.1"
PYTHONPATH=$T/m1/site $PY -c 'import torch' 2>"$T/m1.py" && fail "missing: python imported torch"
check_contains "missing: python's own error" "libmissingdep.so.1: cannot open shared object file" "$(cat "$T/m1.py")"
PYTHONPATH=$T/m1/site "$P" doctor --python $PY >"$T/m1.txt" 2>&1
check_eq "missing: exit" 1 $?
check_eq "missing: first line" \
	"ptinspect doctor: $PY: import torch fails: missing library: libmissingdep.so.1, needed by $T/m1/site/torch/_C$EXT, is not found by the loader's rules" \
	"$(first "$T/m1.txt")"
check_contains "missing: the package located" "torch package  $T/m1/site/torch (a sys.path entry, sys.path[0])" "$(cat "$T/m1.txt")"
check_contains "missing: RUNPATH tried" "tried $T/m1/site/torch/lib/libmissingdep.so.1 (runpath)" "$(cat "$T/m1.txt")"
check_contains "missing: system dirs tried" "/usr/lib/x86_64-linux-gnu/libmissingdep.so.1 (default)" "$(cat "$T/m1.txt")"
check_contains "missing: no Debian package" "no installed Debian package has a file of that name (dpkg -S); apt-file search libmissingdep.so.1" "$(cat "$T/m1.txt")"

# 1a. The same package as a PEP 660 editable install (a venv; setuptools' finder layout:
#     __editable__.*.pth imports a finder module whose MAPPING names the package).
if $PY -m venv --without-pip "$T/venv" 2>/dev/null; then
	SP=$("$T/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
	cat >"$SP/__editable___torch_2_6_0_finder.py" <<EOF
import sys
from importlib.util import spec_from_file_location
MAPPING: dict[str, str] = {'torch': '$T/m1/site/torch'}
class _EditableFinder:
    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if fullname in MAPPING:
            return spec_from_file_location(fullname, MAPPING[fullname] + '/__init__.py',
                                           submodule_search_locations=[MAPPING[fullname]])
        return None
def install():
    sys.meta_path.append(_EditableFinder)
EOF
	echo 'import __editable___torch_2_6_0_finder; __editable___torch_2_6_0_finder.install()' >"$SP/__editable__.torch-2.6.0.pth"
	"$T/venv/bin/python" -c 'import torch' 2>"$T/ed.py" && fail "editable: python imported torch"
	check_contains "editable: python's own error" "libmissingdep.so.1: cannot open shared object file" "$(cat "$T/ed.py")"
	"$P" doctor --python "$T/venv/bin/python" >"$T/ed.txt" 2>&1
	check_contains "editable: first line" "ptinspect doctor: $T/venv/bin/python: import torch fails: missing library: libmissingdep.so.1, needed by $T/m1/site/torch/_C$EXT" "$(head -1 "$T/ed.txt")"
	check_contains "editable: located through the finder" \
		"torch package  $T/m1/site/torch (an editable install (PEP 660 finder), from $SP/__editable___torch_2_6_0_finder.py)" "$(cat "$T/ed.txt")"
else
	echo "note: python3 -m venv unavailable, the editable case is not run"
fi

# 1b. A library a Debian package installed outside the loader's directories.
fake_torch "$T/m2/site" "$MODINIT" -Wl,--no-as-needed -L/usr/lib/gcc/x86_64-linux-gnu/12 -l:liblto_plugin.so
if [ -f /usr/lib/gcc/x86_64-linux-gnu/12/liblto_plugin.so ]; then
	PYTHONPATH=$T/m2/site "$P" doctor --python $PY >"$T/m2.txt" 2>&1
	check_contains "missing, Debian owner: first line" "import torch fails: missing library: liblto_plugin.so, needed by $T/m2/site/torch/_C$EXT" "$(first "$T/m2.txt")"
	check_contains "missing, Debian owner: package" \
		"installed by the Debian package gcc-12 as /usr/lib/gcc/x86_64-linux-gnu/12/liblto_plugin.so (a directory the loader does not search here)" "$(cat "$T/m2.txt")"
fi

# 1c. A pip wheel layout (RPATH into site-packages/nvidia/...) missing libcudnn.so.8.
mkdir -p "$T/m3/site/nvidia/cudnn/lib" "$T/m3/build"
build_so "$T/m3/build/libcudnn.so.8" 'int cudnnGetVersion(void) { return 8900; }' -Wl,-soname,libcudnn.so.8
fake_torch "$T/m3/site" "int cudnnGetVersion(void);
$MODINIT
int v(void) { return cudnnGetVersion(); }" -L"$T/m3/build" -l:libcudnn.so.8 -Wl,--disable-new-dtags,-rpath,'$ORIGIN/../nvidia/cudnn/lib'
rm "$T/m3/build/libcudnn.so.8"
PYTHONPATH=$T/m3/site "$P" doctor --python $PY >"$T/m3.txt" 2>&1
check_contains "wheel: first line" "import torch fails: missing library: libcudnn.so.8, needed by $T/m3/site/torch/_C$EXT" "$(first "$T/m3.txt")"
check_contains "wheel: tried the wheel's directory" "tried $T/m3/site/torch/../nvidia/cudnn/lib/libcudnn.so.8 (rpath)" "$(cat "$T/m3.txt")"
check_contains "wheel: pip hint" "a pip wheel layout is in use (site-packages/nvidia/...): \`pip install nvidia-cudnn-cu12\` provides libcudnn.so.8" "$(cat "$T/m3.txt")"

# 1d. Debian's nvidia-cudnn installed (a dpkg database made here) but its download never ran.
mkdir -p "$T/dpkg/info" "$T/dpkg/updates"
printf 'Package: nvidia-cudnn\nStatus: install ok installed\nPriority: optional\nSection: contrib/libs\nMaintainer: Debian NVIDIA Maintainers <pkg-nvidia-devel@lists.alioth.debian.org>\nArchitecture: amd64\nVersion: 8.9.2.26~cuda12+3\nDescription: NVIDIA CUDA Deep Neural Network library (install script)\n\n' >"$T/dpkg/status"
printf '/.\n/usr/share/doc/nvidia-cudnn\n' >"$T/dpkg/info/nvidia-cudnn.list"
PTINSPECT_DPKG_ADMINDIR=$T/dpkg PYTHONPATH=$T/m3/site "$P" doctor --python $PY >"$T/m4.txt" 2>&1
check_contains "nvidia-cudnn: installer note" "Debian's nvidia-cudnn is installed, but it is only an installer: it downloads cuDNN from NVIDIA when it is configured, and that download did not happen" "$(cat "$T/m4.txt")"

# 2. An unmet symbol version: _C linked against VERS_2, libverdep.so.1 at run time has VERS_1 only.
mkdir -p "$T/v/new" "$T/v/site/torch/lib"
printf 'VERS_1 { global: f1; local: *; };\nVERS_2 { global: f2; } VERS_1;\n' >"$T/v/new.map"
printf 'VERS_1 { global: f1; local: *; };\n' >"$T/v/old.map"
build_so "$T/v/new/libverdep.so.1" 'int f1(void) { return 1; } int f2(void) { return 2; }' -Wl,-soname,libverdep.so.1 -Wl,--version-script,"$T/v/new.map"
build_so "$T/v/site/torch/lib/libverdep.so.1" 'int f1(void) { return 1; }' -Wl,-soname,libverdep.so.1 -Wl,--version-script,"$T/v/old.map"
fake_torch "$T/v/site" "int f2(void);
$MODINIT
int g(void) { return f2(); }" -L"$T/v/new" -l:libverdep.so.1 -Wl,--enable-new-dtags,-rpath,'$ORIGIN/lib'
PYTHONPATH=$T/v/site $PY -c 'import torch' 2>"$T/v.py" && fail "version: python imported torch"
check_contains "version: python's own error" "version \`VERS_2' not found" "$(cat "$T/v.py")"
PYTHONPATH=$T/v/site "$P" doctor --python $PY >"$T/v.txt" 2>&1
check_eq "version: first line" \
	"ptinspect doctor: $PY: import torch fails: unmet symbol version: libverdep.so.1 ($T/v/site/torch/lib/libverdep.so.1) lacks version VERS_2, needed by $T/v/site/torch/_C$EXT" \
	"$(first "$T/v.txt")"

# 3. Undefined symbols: a stray libc10.so.1.13 (built here, without torch's symbols) on LD_LIBRARY_PATH.
mkdir -p "$T/stray"
build_so "$T/stray/libc10.so.1.13" 'int c10_stray(void) { return 0; }' -Wl,-soname,libc10.so.1.13
LD_LIBRARY_PATH=$T/stray $PY -c 'import torch' 2>"$T/s.py" && fail "stray: python imported torch"
check_contains "stray: python's own error" "undefined symbol: _ZTIN3c1010TensorImplE" "$(cat "$T/s.py")"
LD_LIBRARY_PATH=$T/stray "$P" doctor --python $PY >"$T/s.txt" 2>&1
check_eq "stray: exit" 1 $?
LDD=$(LD_LIBRARY_PATH=$T/stray ldd -r "$(realpath $LIBDIR/libtorch_cpu.so.1.13)" 2>&1 | grep 'undefined symbol' | awk '{print $3}' | sort -u | wc -l)
check_contains "stray: first line names the stray and the count" \
	"import torch fails: undefined symbol: libc10.so.1.13 comes from $T/stray (ld_library_path), not from $LIBDIR with the other torch libraries; " "$(first "$T/s.txt")"
check_contains "stray: libtorch_cpu's count is ldd -r's" "needed by libtorch_cpu.so.1.13.0 ($LDD) and 2 more objects" "$(first "$T/s.txt")"
check_contains "stray: the symbol Python named" "(e.g. _ZTIN3c1010TensorImplE)" "$(first "$T/s.txt")"
check_contains "stray: demangled, per object" "$LIBDIR/libtorch_cpu.so.1.13.0: $LDD undefined symbols" "$(cat "$T/s.txt")"
LD_LIBRARY_PATH=$T/stray "$P" doctor --python $PY --json >"$T/s.json" 2>/dev/null
check_eq "stray: json cause" undefined-symbol "$(jq_py "$T/s.json" 'd["import"]["cause"]')"
check_eq "stray: json demangled" "typeinfo for c10::TensorImpl" \
	"$(jq_py "$T/s.json" '[s["demangled"] for o in d["import"]["binding"]["objects"] for s in o["undefined"] if s["symbol"] == "_ZTIN3c1010TensorImplE"][0]')"
# The same set as ldd -r, symbol for symbol (ptinspect undefined on the library).
LD_LIBRARY_PATH=$T/stray ldd -r "$(realpath $LIBDIR/libtorch_cpu.so.1.13)" 2>&1 | grep 'undefined symbol' | awk '{print $3}' | sort -u >"$T/ldd.syms"
LD_LIBRARY_PATH=$T/stray "$P" undefined --json "$(realpath $LIBDIR/libtorch_cpu.so.1.13)" >"$T/u.json"
check_eq "undefined: exit 1 on the stray tree" 1 $?
jq_py "$T/u.json" '"\n".join(sorted(s["symbol"] for o in d["files"][0]["objects"] for s in o["undefined"]))' >"$T/ours.syms"
check_eq "undefined == ldd -r" "" "$(diff "$T/ldd.syms" "$T/ours.syms")"
check_rc "undefined: Debian's tree binds" 0 "$P" undefined "$(realpath $LIBDIR/libtorch_cpu.so.1.13)"

# --issue: one fenced block with collect_env's fields and the verdict, also when import fails.
LD_LIBRARY_PATH=$T/stray "$P" doctor --python $PY --issue >"$T/issue.md" 2>"$T/issue.err"
check_eq "--issue: opens a fence" '```' "$(head -1 "$T/issue.md")"
check_eq "--issue: closes it" '```' "$(tail -1 "$T/issue.md")"
check_eq "--issue: one block" 2 "$(grep -c '^```' "$T/issue.md")"
check_eq "--issue: short" 1 "$([ "$(wc -l <"$T/issue.md")" -le 60 ] && echo 1)"
for f in "PyTorch version: " "Is debug build: " "CUDA used to build PyTorch: " "OS: " "GCC version: " \
	"Clang version: " "CMake version: " "Libc version: glibc-" "Python version: 3." "Python platform: " \
	"CUDA runtime version: " "GPU models and configuration: " "Nvidia driver version: " "cuDNN version: " \
	"Versions of relevant libraries:" "[pip3] numpy=="; do
	check_contains "--issue: $f" "$f" "$(cat "$T/issue.md")"
done
check_contains "--issue: torch's version though import fails" "[pip3] torch==1.13" "$(cat "$T/issue.md")"
check_contains "--issue: the verdict" "import torch fails: undefined symbol: libc10.so.1.13 comes from $T/stray" "$(cat "$T/issue.md")"
"$P" doctor --python $PY --json >"$T/ok.json" 2>/dev/null
check_eq "collect_env keys in --json" "torch_version gcc_version cuda_runtime_version nvidia_gpu_models cudnn_version pip_packages" \
	"$(jq_py "$T/ok.json" '" ".join(k for k in ["torch_version", "gcc_version", "cuda_runtime_version", "nvidia_gpu_models", "cudnn_version", "pip_packages"] if k in d["collect_env"])')"
check_eq "collect_env torch_version" "$($PY -c 'import torch; print(torch.__version__)')" "$(jq_py "$T/ok.json" 'd["collect_env"]["torch_version"]')"

# 3b. Undefined without mixing: the provider lost the symbol (no versions to catch it).
mkdir -p "$T/u2/new" "$T/u2/site/torch/lib"
build_so "$T/u2/new/libprov.so.1" 'int needed_fn(void) { return 1; }' -Wl,-soname,libprov.so.1
build_so "$T/u2/site/torch/lib/libprov.so.1" 'int other_fn(void) { return 1; }' -Wl,-soname,libprov.so.1
fake_torch "$T/u2/site" "int needed_fn(void);
$MODINIT
int h(void) { return needed_fn(); }" -L"$T/u2/new" -l:libprov.so.1 -Wl,--enable-new-dtags,-rpath,'$ORIGIN/lib'
PYTHONPATH=$T/u2/site $PY -c 'import torch' 2>"$T/u2.py" && fail "undefined: python imported torch"
check_contains "undefined: python's own error" "undefined symbol: needed_fn" "$(cat "$T/u2.py")"
PYTHONPATH=$T/u2/site "$P" doctor --python $PY >"$T/u2.txt" 2>&1
check_eq "undefined: first line" \
	"ptinspect doctor: $PY: import torch fails: undefined symbol: 1 symbol needed by _C$EXT is defined by no loaded object (e.g. needed_fn)" \
	"$(first "$T/u2.txt")"

# 3c. A C++ ABI mismatch: _C built with _GLIBCXX_USE_CXX11_ABI=0 calls f(const std::string&)
#     from torch/lib/libabi.so.1, built with =1 (issue 32 item 10).
if command -v g++ >/dev/null; then
	mkdir -p "$T/abi/site/torch/lib"
	printf '#include <string>\nvoid f(const std::string &s) { (void)s; }\n' >"$T/abi/def.cc"
	g++ -shared -fPIC -D_GLIBCXX_USE_CXX11_ABI=1 -Wl,-soname,libabi.so.1 -o "$T/abi/site/torch/lib/libabi.so.1" "$T/abi/def.cc" || exit 2
	printf 'from torch._C import *\n' >"$T/abi/site/torch/__init__.py"
	printf '#include <Python.h>\n#include <string>\nvoid f(const std::string &s);\nstatic struct PyModuleDef m = { PyModuleDef_HEAD_INIT, "_C", NULL, -1, NULL };\nPyMODINIT_FUNC PyInit__C(void) { f("x"); return PyModule_Create(&m); }\n' >"$T/abi/C.cc"
	g++ -shared -fPIC -D_GLIBCXX_USE_CXX11_ABI=0 -I"$PYINC" -o "$T/abi/site/torch/_C$EXT" "$T/abi/C.cc" \
		-Wl,--no-as-needed -L"$T/abi/site/torch/lib" -l:libabi.so.1 -Wl,--enable-new-dtags,-rpath,'$ORIGIN/lib' || exit 2
	PYTHONPATH=$T/abi/site $PY -c 'import torch' 2>"$T/abi.py" && fail "abi: python imported torch"
	check_contains "abi: python's own error" "undefined symbol: _Z1fRKSs" "$(cat "$T/abi.py")"
	PYTHONPATH=$T/abi/site "$P" doctor --python $PY >"$T/abi.txt" 2>&1
	check_eq "abi: first line" \
		"ptinspect doctor: $PY: import torch fails: undefined symbol: a _GLIBCXX_USE_CXX11_ABI mismatch: _C$EXT was built with _GLIBCXX_USE_CXX11_ABI=0, libabi.so.1 with =1; 1 of the 1 undefined symbols is defined with the other C++ ABI (e.g. _Z1fRKSs, defined as _Z1fRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE)" \
		"$(first "$T/abi.txt")"
	check_contains "abi: per symbol, which side" "_GLIBCXX_USE_CXX11_ABI mismatch: _C$EXT was built with _GLIBCXX_USE_CXX11_ABI=0 (std::string, the old ABI); libabi.so.1 defines it with =1" "$(cat "$T/abi.txt")"

	# 3d. Built against another torch: _C needs a c10 function (torchCheckFail with a
	#     parameter type no torch 1.13 overload has) that Debian's real libc10 does not export.
	mkdir -p "$T/gone/site/torch"
	printf 'from torch._C import *\n' >"$T/gone/site/torch/__init__.py"
	printf '#include <Python.h>\n#include <c10/util/Exception.h>\nnamespace c10 { namespace detail { [[noreturn]] void torchCheckFail(const char *, const char *, unsigned, long); } }\nstatic struct PyModuleDef m = { PyModuleDef_HEAD_INIT, "_C", NULL, -1, NULL };\nPyMODINIT_FUNC PyInit__C(void) { if (!m.m_name) c10::detail::torchCheckFail("f", "g", 1, 2L); return PyModule_Create(&m); }\n' >"$T/gone/C.cc"
	g++ -shared -fPIC -std=c++17 -I"$PYINC" -o "$T/gone/site/torch/_C$EXT" "$T/gone/C.cc" -Wl,--no-as-needed $LIBDIR/libc10.so || exit 2
	PYTHONPATH=$T/gone/site $PY -c 'import torch' 2>"$T/gone.py" && fail "gone: python imported torch"
	check_contains "gone: python's own error" "undefined symbol: _ZN3c106detail14torchCheckFailEPKcS2_jl" "$(cat "$T/gone.py")"
	PYTHONPATH=$T/gone/site "$P" doctor --python $PY >"$T/gone.txt" 2>&1
	check_eq "gone: first line" \
		"ptinspect doctor: $PY: import torch fails: undefined symbol: 1 symbol in torch's namespaces, needed by _C$EXT, is not exported by the loaded torch (built against another torch version?) (e.g. _ZN3c106detail14torchCheckFailEPKcS2_jl)" \
		"$(first "$T/gone.txt")"
fi

# 4. A stale build/lib: a copy of Debian's torch package whose torch/lib holds an old
#    libtorch_python.so.1.13 (found through _C's RUNPATH $ORIGIN/lib) among Debian's libraries.
mkdir -p "$T/st/site"
cp -rs /usr/lib/python3/dist-packages/torch "$T/st/site/"
build_so "$T/st/site/torch/lib/libtorch_python.so.1.13" 'void *initModule(void) { return 0; }' \
	-Wl,-soname,libtorch_python.so.1.13 -Wl,--no-as-needed -L$LIBDIR -l:libtorch_cpu.so.1.13 -l:libc10.so.1.13
PYTHONPATH=$T/st/site $PY -c 'import torch' 2>"$T/st.py" && fail "stale: python imported torch"
PYTHONPATH=$T/st/site "$P" doctor --python $PY >"$T/st.txt" 2>&1
check_eq "stale build/lib: exit" 1 $?
check_eq "stale build/lib: first line" \
	"ptinspect doctor: $PY: import torch fails: mismatched torch libraries: libtorch_python.so.1.13 comes from $T/st/site/torch/lib (runpath), the other torch libraries from $LIBDIR: libraries of two builds in one process" \
	"$(first "$T/st.txt")"

# 5. The source checkout: torch/ without a built _C in the current directory wins.
mkdir -p "$T/pytorch/torch" "$T/pytorch/c10"
touch "$T/pytorch/setup.py"
printf 'from torch._C import *\n' >"$T/pytorch/torch/__init__.py"
(cd "$T/pytorch" && $PY -c 'import torch') 2>"$T/co.py" && fail "checkout: python imported torch"
check_contains "checkout: python's own error" "No module named 'torch._C'" "$(cat "$T/co.py")"
#    By default the checkout is not imported (its code never runs): found by reading files.
(cd "$T/pytorch" && "$P" doctor --python $PY >"$T/co.txt" 2>&1)
check_eq "checkout: exit" 1 $?
check_eq "checkout: first line" \
	"ptinspect doctor: $PY: python run here would import ./torch (the source checkout) instead of the installed torch (/usr/lib/python3/dist-packages/torch): $T/pytorch/torch has no built _C extension, so import torch fails there; leave the directory (cd ..) or finish the in-place build (pip install -e . -v --no-build-isolation; older checkouts: python setup.py develop)" \
	"$(first "$T/co.txt")"
check_eq "checkout: the finding once" 1 "$(grep -c 'PROBLEM python run here would import ./torch' "$T/co.txt")"
(cd "$T/pytorch" && "$P" doctor --json --python $PY >"$T/co.json" 2>/dev/null)
check_eq "checkout: json cause" source-checkout "$(jq_py "$T/co.json" 'd["import"]["cause"]')"
#    --here imports it as python3 -c run there does.
(cd "$T/pytorch" && "$P" doctor --here --python $PY >"$T/co-here.txt" 2>&1)
check_eq "checkout --here: first line" \
	"ptinspect doctor: $PY: import torch fails: a PyTorch source checkout wins: $T/pytorch/torch (the current directory, sys.path[0]) has no built _C extension; leave the directory (cd ..) or finish the in-place build (pip install -e . -v --no-build-isolation; older checkouts: python setup.py develop)" \
	"$(first "$T/co-here.txt")"

# 6. The CUDA runtime newer than the driver: libcudart 12.4 (made here) and a libcuda.so.1 of driver 450.80.02.
mkdir -p "$T/cu/drv" "$T/cu/site/torch/lib"
build_so "$T/cu/site/torch/lib/libcudart.so.12.4.127" 'int cudaRuntimeGetVersion(int *v) { *v = 12040; return 0; }' -Wl,-soname,libcudart.so.12
ln -s libcudart.so.12.4.127 "$T/cu/site/torch/lib/libcudart.so.12"
build_so "$T/cu/drv/libcuda.so.450.80.02" 'int cuDriverGetVersion(int *v) { *v = 11000; return 0; }' -Wl,-soname,libcuda.so.1
ln -s libcuda.so.450.80.02 "$T/cu/drv/libcuda.so.1"
fake_torch "$T/cu/site" "int cudaRuntimeGetVersion(int *);
$MODINIT
int r(int *v) { return cudaRuntimeGetVersion(v); }" -L"$T/cu/site/torch/lib" -l:libcudart.so.12 -Wl,--enable-new-dtags,-rpath,'$ORIGIN/lib'
LD_LIBRARY_PATH=$T/cu/drv PYTHONPATH=$T/cu/site "$P" doctor --python $PY >"$T/cu.txt" 2>&1
check_eq "cuda driver: exit" 1 $?
check_eq "cuda driver: first line" \
	"ptinspect doctor: $PY: CUDA runtime newer than the driver: the CUDA runtime (12.4) is newer than the NVIDIA driver 450.80.02 (CUDA 11.0): CUDA 12 needs driver >= 525.60.13; update the driver, or use a torch built for CUDA 11.0" \
	"$(first "$T/cu.txt")"
check_contains "cuda driver: libcuda named" "libcuda.so.1 -> $T/cu/drv/libcuda.so.450.80.02" "$(cat "$T/cu.txt")"

# 7. --python X means X: no fallback to another interpreter, and "interpreters that can
#    import torch" lists only ones that really did.
mkdir -p "$T/bin"
printf '#!/bin/sh\nexec %s -S "$@"\n' "$PY" >"$T/bin/python3"
chmod +x "$T/bin/python3"
PYTHONPATH=$T/m1/site "$P" doctor --python "$T/bin/python3" >"$T/px.txt" 2>&1
check_eq "--python X: exit" 1 $?
check_contains "--python X: X is checked" "ptinspect doctor: $T/bin/python3: import torch fails" "$(first "$T/px.txt")"
check_eq "--python X: no fallback" "" "$(grep 'using /usr/bin/python3 instead' "$T/px.txt")"
# An interpreter on PATH that finds torch (PYTHONPATH) but cannot import it is not listed.
printf '#!/bin/sh\nPYTHONPATH=%s exec %s "$@"\n' "$T/m1/site" "$PY" >"$T/bin/python3"
PATH="$T/bin:$PATH" "$P" env >"$T/list.txt" 2>&1
check_eq "the list names no interpreter that failed" "" "$(sed -n '/interpreters on this machine that can import torch/,$p' "$T/list.txt" | grep "$T/bin/python3")"
finish
