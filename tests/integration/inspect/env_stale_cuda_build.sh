# ptinspect env: the NVCC architecture flags of the configuration against the
# fat binaries really in the loaded libtorch_cuda (a stale build).
# Fixture: a package "torch" whose __init__ loads lib/libtorch_cuda.so, built
# here with `nvcc -gencode arch=compute_80,code=sm_80`, and whose
# __config__.show() claims sm_80 and sm_90 (as after changing
# TORCH_CUDA_ARCH_LIST without rebuilding libtorch_cuda).
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
PY=/usr/bin/python3
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$NVCC" ] || skip "no nvcc at $NVCC"
[ -x $PY ] || skip "no $PY"
mkdir -p "$T/pkg/torch/lib"
printf '__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\nextern "C" void launch(float *x) { k<<<1, 32>>>(x); }\n' >"$T/k.cu"
"$NVCC" -shared -Xcompiler -fPIC -gencode arch=compute_80,code=sm_80 -o "$T/pkg/torch/lib/libtorch_cuda.so" "$T/k.cu" ||
	skip "nvcc cannot build for sm_80"
cat >"$T/pkg/torch/__init__.py" <<'PYEOF'
import ctypes, os, types
ctypes.CDLL(os.path.join(os.path.dirname(__file__), "lib", "libtorch_cuda.so"))
__version__ = "2.5.0+stale"
version = types.SimpleNamespace(cuda="12.8", hip=None, debug=False, git_version="0" * 40)
__config__ = types.SimpleNamespace(show=lambda: "PyTorch built with:\n"
    "  - GCC 12.2\n  - CUDA Runtime 12.8\n"
    "  - NVCC architecture flags: -gencode;arch=compute_80,code=sm_80;-gencode;arch=compute_90,code=sm_90\n"
    "  - Build settings: BUILD_TYPE=Release, TORCH_VERSION=2.5.0, USE_CUDA=ON, \n")
PYEOF
PYTHONPATH="$T/pkg" "$P" env --json --python $PY >"$T/env.json"
check_eq "stale build: exit" 1 $?
check_eq "fatbin finding" "warning the NVCC architecture flags name sm_90 but \$T/pkg/torch/lib/libtorch_cuda.so holds no code for that: a stale build (the library was built with other flags)" \
	"$($PY -c 'import json,sys; d=json.load(open(sys.argv[1])); print("\n".join(f["severity"] + " " + f["message"].replace(sys.argv[2], "$T") for f in d["findings"] if f["where"] == "fatbin"))' "$T/env.json" "$T")"

# Flags that match the library: no fatbin finding.
sed -i 's/;-gencode;arch=compute_90,code=sm_90//' "$T/pkg/torch/__init__.py"
PYTHONPATH="$T/pkg" "$P" env --json --python $PY >"$T/env2.json"
check_eq "matching flags: no fatbin finding" 0 \
	"$($PY -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for f in d["findings"] if f["where"] == "fatbin"))' "$T/env2.json")"
finish
