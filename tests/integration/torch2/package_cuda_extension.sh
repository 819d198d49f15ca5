. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1800
# ctest-locks: torch2_cuda_testbed
# ptinspect on a real CUDA extension wheel (issue 31), in the torch 2.6 bed: two extension
# modules in one package, each a C++ binding (torch's c10) and a .cu kernel, compiled by
# torch.utils.cpp_extension's BuildExtension (ninja, nvcc for the .cu) and packed by
# `setup.py bdist_wheel`. nvcc is NVIDIA's CUDA 13.0 of this machine (/usr/local/cuda, bound
# at the same path inside the bed; the bed's torch is Debian's CPU build, so
# setup.py sets cpp_extension.CUDA_HOME itself: torch sets it only when built with CUDA, and
# skips the nvcc/torch CUDA version check when torch.version.cuda is None). ptx_cu._C is
# built for sm_80, sm_90 and compute_90 PTX; ptx_cu._weak, the planted mistake, for sm_80
# only: the package's arch list is the weakest member's, and that member is named. Both link
# libcudart.so.13 (shared) with RUNPATH $ORIGIN/../nvidia/cuda_runtime/lib and the wheel
# requires nvidia-cuda-runtime-cu13; a copy repacked (`wheel unpack`/`wheel pack`) without
# that Requires-Dist has libcudart.so.13 missing, with the hint.
# That RUNPATH is the CUDA 12 wheels' layout (nvidia/cuda_runtime/lib); NVIDIA's CUDA 13
# wheels (nvidia-cuda-runtime 13.x, the -cu13 name withdrawn) install into nvidia/cu13/lib,
# which inspect/package_wheel.sh checks.
# Checked: the whole text reports (expected/package_cuda_*.txt) with --gpu for 8.0, 8.6, 9.0,
# 7.5 and 12.0; each member's arch list against cuobjdump --list-elf/--list-ptx on the member
# unzipped (the host's cuobjdump, else the CUDA bed's 12.4, which reads CUDA 13's fat
# binaries: hence the lock on that bed too; CI's cuda tier has made it before this runs);
# the package verdict for each GPU is the conjunction of `ptinspect cuda --gpu`
# on each member (exact SASS / compatible SASS / PTX JIT / no image); --against the bed's
# torch passes; the real loader: pip install --no-deps into a venv, import fails on
# libcudart.so.13 as the report without the requirement says, and with the runtime put
# where the requirement installs it (ptinspect's layout) the import maps it from there and
# cudaRuntimeGetVersion answers 13000; auditwheel show (the sid bed's) agrees on the floor
# and the tag. No GPU is needed. Cost: 35-70 s warm on 2 shared cores (the two extensions
# built in 12-25 s), plus the bed's own build of this project.
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
. "$PT_TESTLIB/testbed.sh"
PY=/usr/bin/python3
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}	# as inspect/cuda_whole_output.sh; its toolkit is bound inside
CUDA=$(dirname "$(dirname "$NVCC")")
[ -x "$NVCC" ] || skip "nvcc not found at $NVCC: the CUDA extension cannot be built"
rel=$("$NVCC" --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
[ "$rel" = 13.0 ] || skip "nvcc $rel at $NVCC: the expected reports were recorded with nvcc 13.0"
[ -e "$CUDA/lib64/libcudart.so.13" ] || skip "no $CUDA/lib64/libcudart.so.13 beside nvcc"
E=$PT_SRC/tests/integration/torch2/expected
export NO_COLOR=1

testbed_ready
P=$TB_BUILD/inspect/ptinspect
mkdir -p "$T/cu/ptx_cu"
echo "" >"$T/cu/ptx_cu/__init__.py"
for m in _C _weak; do
	cat >"$T/cu/kernel$m.cu" <<EOF
#include <cuda_runtime.h>
__global__ void add_one(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1.0f; }
extern "C" int ptx${m}_launch(float *x, int n) { add_one<<<(n + 255) / 256, 256>>>(x, n); return (int)cudaGetLastError(); }
extern "C" int ptx${m}_runtime(void) { int v = 0; cudaRuntimeGetVersion(&v); return v; }
EOF
	cat >"$T/cu/ext$m.cpp" <<EOF
#include <Python.h>
#include <c10/core/Device.h>
extern "C" int ptx${m}_runtime(void);
static PyObject *runtime(PyObject *, PyObject *) {
	c10::Device d("cpu");
	return PyLong_FromLong((long)d.type() + ptx${m}_runtime());
}
static PyMethodDef methods[] = { { "runtime", runtime, METH_NOARGS, "" }, { nullptr, nullptr, 0, nullptr } };
static PyModuleDef mod = { PyModuleDef_HEAD_INIT, "$m", nullptr, -1, methods };
PyMODINIT_FUNC PyInit_$m(void) { return PyModule_Create(&mod); }
EOF
done
cp -L "$CUDA/lib64/libcudart.so.13" "$T/"
cat >"$T/cu/setup.py" <<'EOF'
import os
from setuptools import setup
import torch.utils.cpp_extension as ce
from torch.utils.cpp_extension import BuildExtension, CppExtension
# Debian's torch here is a CPU build: cpp_extension finds CUDA_HOME only when torch has CUDA.
ce.CUDA_HOME = os.environ["CUDA_HOME"]
full = ["-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=[sm_90,compute_90]"]
weak = ["-gencode", "arch=compute_80,code=sm_80"]
def ext(name, srcs, archs):
    return CppExtension(name, srcs, library_dirs=[ce.CUDA_HOME + "/lib64"], libraries=["cudart"],
                        extra_compile_args={"cxx": [], "nvcc": archs},
                        extra_link_args=["-Wl,--enable-new-dtags,-rpath,$ORIGIN/../nvidia/cuda_runtime/lib"])
setup(name="ptx_cu", version="0.1", packages=["ptx_cu"], install_requires=["nvidia-cuda-runtime-cu13"],
      ext_modules=[ext("ptx_cu._C", ["ext_C.cpp", "kernel_C.cu"], full),
                   ext("ptx_cu._weak", ["ext_weak.cpp", "kernel_weak.cu"], weak)],
      cmdclass={"build_ext": BuildExtension})
EOF
t0=$(date +%s)
"$TB" run -b "$T:/t" -b "$CUDA:$CUDA" sh -c "set -e
	cd /t/cu && (CUDA_HOME=$CUDA MAX_JOBS=2 python3 setup.py -q bdist_wheel >/t/build.log 2>&1) || { tail -30 /t/build.log; exit 1; }
	# The same wheel without its Requires-Dist on the CUDA runtime.
	mkdir -p /t/noreq/dist && cd /t/noreq && python3 -m wheel unpack -d . /t/cu/dist/ptx_cu-0.1-*.whl >/dev/null
	sed -i '/^Requires-Dist: nvidia-cuda-runtime/d' ptx_cu-0.1/ptx_cu-0.1.dist-info/METADATA
	python3 -m wheel pack -d /t/noreq/dist ptx_cu-0.1 >/dev/null" \
	|| { fail "bdist_wheel of the CUDA extension wheel"; finish; }
echo "CUDA extension wheel built in $(( $(date +%s) - t0 )) s"
W=$(cd "$T/cu/dist" && ls ptx_cu-0.1-*.whl)
BT=/usr/lib/python3/dist-packages/torch
GPUS="--gpu 8.0 --gpu 8.6 --gpu 9.0 --gpu 7.5 --gpu 12.0"

# The reports, inside the bed (its system is the target).
"$TB" run -b "$T:/t" sh -c "$P $GPUS /t/cu/dist/$W >/t/req.txt 2>/t/req.err; echo \$? >/t/req.rc
	$P /t/cu/dist/$W >/t/plain.txt 2>/t/plain.err; echo \$? >/t/plain.rc
	$P --json $GPUS /t/cu/dist/$W >/t/req.json 2>/dev/null
	$P $GPUS /t/noreq/dist/$W >/t/noreq.txt 2>/t/noreq.err; echo \$? >/t/noreq.rc
	$P --json /t/noreq/dist/$W >/t/noreq.json 2>/dev/null
	$P --against $BT /t/cu/dist/$W >/t/against.txt 2>&1; echo \$? >/t/against.rc
	mkdir /t/x && cd /t/x && python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(\".\")' /t/cu/dist/$W
	for m in _C _weak; do $P --json cuda $GPUS ptx_cu/\$m.*.so >/t/cuda\$m.json 2>/dev/null
		$P cuda $GPUS ptx_cu/\$m.*.so >/t/cuda\$m.txt 2>&1; echo \$? >/t/cuda\$m.rc; done"
# Sizes of the members depend on the bed's gcc and nvcc's release; the rest is the build's.
NORM=(-e 's/^\(  members   [0-9]* \)([0-9.]* [KM]B)/\1(<SIZE>)/')
check_eq "with the requirement, --gpu 7.5 and others no member runs on: exit 1" 1 "$(cat "$T/req.rc")"
check_stream "with the requirement and --gpu: stdout" "$E/package_cuda_req.stdout.txt" "$T/req.txt"
check_stream "with the requirement and --gpu: stderr" "$E/package_cuda_req.stderr.txt" "$T/req.err"
check_eq "with the requirement, no --gpu: exit 0" 0 "$(cat "$T/plain.rc")"
check_stream "with the requirement, no --gpu: stderr" "$E/package_cuda_plain.stderr.txt" "$T/plain.err"
check_eq "without the requirement: exit 1" 1 "$(cat "$T/noreq.rc")"
check_stream "without the requirement: stdout" "$E/package_cuda_noreq.stdout.txt" "$T/noreq.txt"
check_stream "without the requirement: stderr" "$E/package_cuda_noreq.stderr.txt" "$T/noreq.err"
cat "$T/req.txt" "$T/req.err" "$T/noreq.txt" "$T/noreq.err"

pkg() { $PY -c 'import json, sys
p = json.load(open(sys.argv[1]))["files"][0]["package"]
exec(sys.argv[2])' "$@"; }
MC=ptx_cu/_C.cpython-313-x86_64-linux-gnu.so
MW=ptx_cu/_weak.cpython-313-x86_64-linux-gnu.so
check_eq "the package's arch list: the weakest member's" "8.0 $MW" \
	"$(pkg "$T/req.json" 'print(p["cuda"]["arch_list"], p["cuda"]["weakest"])')"
check_eq "each member's arch list: what was compiled" "$MC 8.0;9.0+PTX|$MW 8.0|" \
	"$(pkg "$T/req.json" 'print("".join("%s %s|" % (o["member"], o["cuda_arch_list"]) for o in p["shared_objects"]))')"
cudart() { pkg "$1" 'print(" ".join(sorted({"%s %s %s" % (n["name"], n["from"], n["where"]) for o in p["shared_objects"] for n in o["needed"] if n["name"].startswith("libcudart")})))'; }
check_eq "libcudart.so.13: from the requirement" "libcudart.so.13 requirement nvidia-cuda-runtime-cu13" "$(cudart "$T/req.json")"
check_eq "without the requirement: missing" "libcudart.so.13 missing None" "$(cudart "$T/noreq.json")"
check_eq "without the requirement: the hint names the wheel its RUNPATH expects" \
	"RUNPATH points at site-packages/nvidia/cuda_runtime/lib, which nvidia-cuda-runtime-* provides, but it is not a requirement" \
	"$(pkg "$T/noreq.json" 'print(sorted({n["hint"] for o in p["shared_objects"] for n in o["needed"] if n["name"] == "libcudart.so.13"}))' | tr -d "[]'")"
check_eq "--against the bed's torch: exit 0" 0 "$(cat "$T/against.rc")"
check_not_contains "--against: no ABI mismatch" "mismatch" "$(cat "$T/against.txt")"

# The oracle for the fat binaries: cuobjdump on each member, unzipped.
CO=$(command -v cuobjdump || true)
[ -z "$CO" ] && [ -x $CUDA/bin/cuobjdump ] && CO=$CUDA/bin/cuobjdump
if [ -n "$CO" ]; then
	cob() { "$CO" "$@"; }
else
	# NVIDIA's 12.4, from Debian's nvidia-cuda-toolkit in the CUDA bed.
	. "$PT_TESTLIB/cudabed.sh"
	cudabed_up
	cob() { local a=("${@:1:$#-1}"); bed_run -b "$T:/t" cuobjdump "${a[@]}" "/t/x/${*: -1}"; }
fi
for m in _C _weak; do
	f=ptx_cu/$m.cpython-313-x86_64-linux-gnu.so
	got=$( { (cd "$T/x" && cob --list-elf "$f") | sed -nE 's/^ELF file +[0-9]+: .*\.(sm_[0-9]+[af]?)\.cubin$/\1/p'
		(cd "$T/x" && cob --list-ptx "$f" 2>/dev/null) | sed -nE 's/^PTX file +[0-9]+: .*\.sm_([0-9]+[af]?)\.ptx$/compute_\1/p'; } | tr '\n' ' ')
	want=$($PY -c 'import json, sys
c = json.load(open(sys.argv[1]))["files"][0]["cuda"]
print(" ".join(c["sass"] + c["ptx"]))' "$T/cuda$m.json" 2>&1)
	check_eq "$m: ptinspect cuda's targets are cuobjdump's" "$want " "$got"
done
check_eq "cuobjdump: _C has sm_80, sm_90 and compute_90" "sm_80 sm_90 compute_90" \
	"$($PY -c 'import json, sys; c = json.load(open(sys.argv[1]))["files"][0]["cuda"]; print(" ".join(c["sass"] + c["ptx"]))' "$T/cuda_C.json")"

check_eq "ptinspect cuda: _C cannot run on 7.5: exit 1" 1 "$(cat "$T/cuda_C.rc")"
check_eq "ptinspect cuda: _weak cannot run on 9.0, 7.5, 12.0: exit 1" 1 "$(cat "$T/cuda_weak.rc")"
check_stream "ptinspect cuda --gpu on _C" "$E/package_cuda_member_C.txt" "$T/cuda_C.txt"
check_stream "ptinspect cuda --gpu on _weak" "$E/package_cuda_member_weak.txt" "$T/cuda_weak.txt"
# The package's verdict per GPU is every member's, as `ptinspect cuda --gpu` says of each.
verdicts() { $PY -c 'import json, sys
for v in json.load(open(sys.argv[1]))["files"][0]["cuda"]["gpu_verdict"]: print(v["gpu"], v["verdict"], v["sass"] or v["ptx"] or "-")' "$1" | tr '\n' ','; }
check_eq "_C: exact, compatible, exact, no image, PTX JIT" \
	"8.0 sass_exact sm_80,8.6 sass_compatible sm_80,9.0 sass_exact sm_90,7.5 none -,12.0 ptx_jit compute_90," \
	"$(verdicts "$T/cuda_C.json")"
check_eq "_weak: only sm_80 and the 8.x it runs on" "true true false false false" \
	"$($PY -c 'import json, sys; print(" ".join(str(v["runs"]).lower() for v in json.load(open(sys.argv[1]))["files"][0]["cuda"]["gpu_verdict"]))' "$T/cuda_weak.json")"
check_eq "the package runs on a GPU where every member runs" \
	"$($PY -c 'import json, sys
a, b = [json.load(open(f))["files"][0]["cuda"]["gpu_verdict"] for f in sys.argv[1:3]]
print(" ".join(str(x["runs"] and y["runs"]).lower() for x, y in zip(a, b)))' "$T/cuda_C.json" "$T/cuda_weak.json")" \
	"$(pkg "$T/req.json" 'print(" ".join(str(g["runs"]).lower() for g in p["cuda"]["gpus"]))')"
check_eq "where it does not, the member named is one that does not" "None None $MW $MC $MW" \
	"$(pkg "$T/req.json" 'print(" ".join(str(g["blocked_by"]) for g in p["cuda"]["gpus"]))')"

# The real loader: pip install (no dependencies) into a venv, import torch then each member.
cat >"$T/imp.py" <<'EOF'
import importlib, os, sys
import torch
before = {l.split(None, 5)[-1].strip() for l in open("/proc/self/maps") if ".so" in l}
try:
    m = importlib.import_module("ptx_cu." + sys.argv[1])
except ImportError as e:
    print("ImportError:", e)
    sys.exit(0)
new = {l.split(None, 5)[-1].strip() for l in open("/proc/self/maps") if ".so" in l} - before
for p in sorted(new):	# what comes from the venv, then the system's (libcudart's own NEEDED)
    if "/site-packages/" in p: print(p.split("/site-packages/")[-1])
print("system", all(p.startswith("/usr/lib/x86_64-linux-gnu/") for p in new if "/site-packages/" not in p))
print("runtime", m.runtime())
EOF
"$TB" run -b "$T:/t" sh -c "set -e; python3 -m venv --system-site-packages /t/venv >/dev/null
	/t/venv/bin/pip install -q --no-index --no-deps /t/cu/dist/$W >/t/pip.log 2>&1 || { cat /t/pip.log; exit 1; }
	cd / && /t/venv/bin/python /t/imp.py _C >/t/C_bare.maps
	SP=\$(/t/venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()[\"platlib\"])')
	mkdir -p \$SP/nvidia/cuda_runtime/lib && cp /t/libcudart.so.13 \$SP/nvidia/cuda_runtime/lib/
	/t/venv/bin/python /t/imp.py _C >/t/C.maps; /t/venv/bin/python /t/imp.py _weak >/t/weak.maps" \
	|| fail "pip install and import in a venv"
check_eq "without the CUDA runtime installed, the import fails on libcudart.so.13" \
	"ImportError: libcudart.so.13: cannot open shared object file: No such file or directory" "$(cat "$T/C_bare.maps")"
for m in C weak; do
	check_eq "_$m with the runtime where the requirement puts it: mapped from there, runtime 13.0" \
		"nvidia/cuda_runtime/lib/libcudart.so.13|ptx_cu/_$m.cpython-313-x86_64-linux-gnu.so|system True|runtime 13000|" \
		"$(tr '\n' '|' <"$T/$m.maps")"
done

# auditwheel (Debian sid's python3-auditwheel 6.7, in the sid bed, which tests/run makes
# beside this one): `auditwheel show`'s constraint is ptinspect's package tag, its policy for
# each member alone (auditwheel_policy.py) ptinspect's member tag, and the claimed tag holds.
# libc10.so.2.6 is not in the sid bed (torch 2.14 there), so auditwheel counts no torch floor.
PT_TORCH2_FLAVOUR=sid "$TB" create 2>"$T/sid.err"
rc=$?
if [ $rc = 77 ] && [ "${PT_STRICT:-0}" != 1 ]; then
	echo "note: auditwheel not compared: the sid bed cannot be made here: $(grep 'cannot run here\|unreachable' "$T/sid.err")"
else
	check_eq "the sid bed (auditwheel) is there" 0 $rc
	PT_TORCH2_FLAVOUR=sid "$TB" run -b "$T:/t" sh -c "auditwheel show /t/cu/dist/$W >/t/aw.txt 2>&1; echo \$? >/t/aw.rc
		cd /t/x && python3 /src/tests/integration/inspect/auditwheel_policy.py ptx_cu/*.so >/t/aw_policy.txt 2>/t/aw_policy.err" \
		2>/dev/null || fail "auditwheel inside the sid bed"
	cat "$T/aw.txt" "$T/aw_policy.txt"
	check_eq "auditwheel show: exit 0" 0 "$(cat "$T/aw.rc")"
	aw=$(tr '\n' ' ' <"$T/aw.txt" | sed -n 's/.*constrains the platform tag to "\([^"]*\)".*/\1/p')
	check_eq "auditwheel show's constraint is ptinspect's package tag" \
		"$(pkg "$T/req.json" 'print(p["floor"]["policy"])')" "$aw"
	check_contains "auditwheel show: the claimed tag holds, as ptinspect says" \
		'consistent with the following platform tag: "linux_x86_64"' "$(tr '\n' ' ' <"$T/aw.txt" | tr -s ' ')"
	check_eq "auditwheel's policy for each member alone is ptinspect's member tag" \
		"$(pkg "$T/req.json" 'print("".join("%s %s|" % (o["member"], o["floor"]["policy"]) for o in p["shared_objects"]))')" \
		"$(tr ' \n' ' |' <"$T/aw_policy.txt")"
fi
finish
