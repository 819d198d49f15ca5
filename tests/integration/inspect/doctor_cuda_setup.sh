# ptinspect doctor names what makes a working CUDA torch see no GPU or the wrong
# driver (issue 32 item 14), each set up here for real:
#   a cuda-compat libcuda (DIR/compat/libcuda.so.VER, soname libcuda.so.1, as the
#   cuda-compat package lays it out) found through LD_LIBRARY_PATH ahead of the driver's;
#   CUDA_VISIBLE_DEVICES="" (and "-1", "NoDevFiles"; "0" and a GPU- UUID are fine);
#   Debian's CPU-only torch 1.13 imported where a build tree is configured with
#   USE_CUDA=ON (--expect; the torch 2.6 tree's real CMake cache with USE_CUDA flipped),
#   or where a CUDA torch (the CUDA test bed's python3-torch-cuda package) is later
#   on sys.path.
# Python really imports what doctor says it imports.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
PY=/usr/bin/python3
[ -x $PY ] || skip "no $PY"
$PY -c 'import torch' 2>/dev/null || skip "$PY cannot import torch (python3-torch not installed)"
PYINC=$($PY -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
[ -f "$PYINC/Python.h" ] || skip "no Python.h in $PYINC (python3-dev)"
EXT=$($PY -c 'import importlib.machinery as m; print(m.EXTENSION_SUFFIXES[0])')
first() { head -1 "$1"; }

# A torch whose _C needs a CUDA runtime 12.8 (torch/lib, RUNPATH $ORIGIN/lib).
mkdir -p "$T/site/torch/lib" "$T/cuda-12.8/compat"
build_so "$T/site/torch/lib/libcudart.so.12.8.90" 'int cudaRuntimeGetVersion(int *v) { *v = 12080; return 0; }' -Wl,-soname,libcudart.so.12
ln -s libcudart.so.12.8.90 "$T/site/torch/lib/libcudart.so.12"
printf 'from torch._C import *\n__version__ = "2.7.0+fake"\n' >"$T/site/torch/__init__.py"
printf '#include <Python.h>\nint cudaRuntimeGetVersion(int *);\nstatic struct PyModuleDef m = { PyModuleDef_HEAD_INIT, "_C", NULL, -1, NULL };\nPyMODINIT_FUNC PyInit__C(void) { return PyModule_Create(&m); }\nint r(int *v) { return cudaRuntimeGetVersion(v); }\n' >"$T/site/torch/_C.c"
cc -shared -fPIC -I"$PYINC" -o "$T/site/torch/_C$EXT" "$T/site/torch/_C.c" -L"$T/site/torch/lib" -l:libcudart.so.12 \
	-Wl,--enable-new-dtags,-rpath,'$ORIGIN/lib' || fail "cannot build _C"
# cuda-compat 12.8's libcuda: driver API 570.124.06.
build_so "$T/cuda-12.8/compat/libcuda.so.570.124.06" 'int cuDriverGetVersion(int *v) { *v = 12080; return 0; }' -Wl,-soname,libcuda.so.1
ln -s libcuda.so.570.124.06 "$T/cuda-12.8/compat/libcuda.so.1"
PYTHONPATH=$T/site $PY -c 'import torch; print(torch.__file__)' >"$T/py.out" 2>&1
check_eq "python imports the torch" "$T/site/torch/__init__.py" "$(cat "$T/py.out")"

# 1. The compat libcuda first on LD_LIBRARY_PATH.
LD_LIBRARY_PATH=$T/cuda-12.8/compat PYTHONPATH=$T/site "$P" doctor --python $PY >"$T/compat.txt" 2>&1
check_eq "compat: exit" 1 $?
check_contains "compat: named, with its driver API version" \
	"PROBLEM libcuda.so.1 resolves to cuda-compat's $T/cuda-12.8/compat/libcuda.so.570.124.06 (driver API 570.124.06) ahead of the driver's own libcuda" \
	"$(cat "$T/compat.txt")"
check_contains "compat: error 804 explained" "error 804 (cudaErrorCompatNotSupportedOnDevice" "$(cat "$T/compat.txt")"
"$P" doctor --json --python $PY >"$T/compat.json" 2>/dev/null
# Without it on the path, no such finding.
PYTHONPATH=$T/site "$P" doctor --python $PY >"$T/nocompat.txt" 2>&1
check_not_contains "no compat: nothing said" "cuda-compat" "$(cat "$T/nocompat.txt")"

# 2. CUDA_VISIBLE_DEVICES hiding every GPU: a problem for this CUDA torch.
for v in "" "-1" "NoDevFiles"; do
	CUDA_VISIBLE_DEVICES=$v PYTHONPATH=$T/site "$P" doctor --python $PY >"$T/vis.txt" 2>&1
	check_eq "visible '$v': exit" 1 $?
	check_contains "visible '$v': named" \
		"PROBLEM CUDA_VISIBLE_DEVICES=\"$v\" hides every GPU: torch.cuda.is_available() is False" "$(cat "$T/vis.txt")"
done
for v in 0 "GPU-8c1f2b4e-5a3d-4e27-9f0b-1d2c3e4f5a6b"; do
	CUDA_VISIBLE_DEVICES=$v PYTHONPATH=$T/site "$P" doctor --python $PY >"$T/vis.txt" 2>&1
	check_not_contains "visible '$v': nothing said" "CUDA_VISIBLE_DEVICES" "$(cat "$T/vis.txt")"
done
# ... and only a note for Debian's CPU torch (exit 0).
CUDA_VISIBLE_DEVICES= "$P" doctor --python $PY >"$T/vis-cpu.txt" 2>&1
check_eq "visible, CPU torch: exit" 0 $?
check_contains "visible, CPU torch: a note" "note: [visible-devices] CUDA_VISIBLE_DEVICES=\"\" hides every GPU" "$(cat "$T/vis-cpu.txt")"
check_contains "visible, CPU torch: says why it does not matter" "(this torch is a CPU build anyway)" "$(cat "$T/vis-cpu.txt")"

# 3. The CPU torch where the build tree says USE_CUDA=ON.
mkdir -p "$T/pytorch/build"
sed 's/^USE_CUDA:BOOL=0$/USE_CUDA:BOOL=1/' "$PT_FIXTURES/buildtree/CMakeCache.txt" >"$T/pytorch/build/CMakeCache.txt"
grep -q '^USE_CUDA:BOOL=1$' "$T/pytorch/build/CMakeCache.txt" || fail "no USE_CUDA in the fixture"
"$P" doctor --python $PY --expect "$T/pytorch" >"$T/tree.txt" 2>&1
check_eq "cpu torch, CUDA tree: exit" 1 $?
check_contains "cpu torch, CUDA tree: named" \
	"PROBLEM a CPU-only torch is imported (/usr/lib/python3/dist-packages/torch/__init__.py, torch.version.cuda is None), but the build tree $T/pytorch is configured with USE_CUDA=ON ($T/pytorch/build/CMakeCache.txt)" \
	"$(cat "$T/tree.txt")"
# The same tree configured without CUDA: no such finding.
cp "$PT_FIXTURES/buildtree/CMakeCache.txt" "$T/pytorch/build/CMakeCache.txt"
"$P" doctor --python $PY --expect "$T/pytorch" >"$T/tree0.txt" 2>&1
check_not_contains "cpu torch, CPU tree: nothing said" "CPU-only torch" "$(cat "$T/tree0.txt")"

# 4. A CUDA torch later on sys.path (the CUDA bed's real package), shadowed by Debian's CPU one.
CUDA_PKG=${PT_TORCH2_CUDA_CACHE:-/var/tmp/ptools-torch2-cuda}/root/usr/lib/python3/dist-packages
if [ -f "$CUDA_PKG/torch/version.py" ]; then
	PYTHONPATH=/usr/lib/python3/dist-packages:$CUDA_PKG $PY -c 'import torch; print(torch.__file__, torch.version.cuda)' >"$T/py2.out" 2>&1
	check_eq "python imports the CPU torch" "/usr/lib/python3/dist-packages/torch/__init__.py None" "$(cat "$T/py2.out")"
	PYTHONPATH=/usr/lib/python3/dist-packages:$CUDA_PKG "$P" doctor --python $PY >"$T/shadow.txt" 2>&1
	check_eq "cpu torch, CUDA torch later: exit" 1 $?
	check_contains "cpu torch, CUDA torch later: named" \
		"PROBLEM a CPU-only torch is imported from /usr/lib/python3/dist-packages (torch.version.cuda is None) while a CUDA torch (torch.version.cuda '$(sed -n "s/^cuda.*= '\(.*\)'/\1/p" "$CUDA_PKG/torch/version.py")', $CUDA_PKG/torch/version.py) is in $CUDA_PKG" \
		"$(cat "$T/shadow.txt")"
else
	echo "note: no CUDA test bed ($CUDA_PKG): the shadowed CUDA torch case is not run"
fi
finish
