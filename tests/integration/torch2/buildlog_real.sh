. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 2400
# `ptinspect buildlog` on real failed builds, each log made here once: real
# edges of the real torch 2.6 build tree (tests/torch2/buildtree and its CUDA
# flavour: the tree's own rules, compilers, defines, includes and flags,
# copied by tests/torch2/ninja-edges.py into a scratch ninja file and changed
# on purpose) run by ninja inside the bed; nvcc 13 of this host on the tree's
# Sleep.cu; small real CMake projects; the real torchgen. Each log goes
# through buildlog, its verdict, phase, cause and edge checked, the text
# compared whole where it does not depend on timing (expected-buildlog/).
# Cold cost: about 50 s (Resize.cpp compiled once, 30 s; the real torch
# configure with BLAS=MKL, 10 s; the rest fail in a second or two).
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
need cmake
need ninja
BT=$PT_SRC/tests/torch2/buildtree
E=$PT_SRC/tests/integration/torch2/expected-buildlog
EDGES=$PT_SRC/tests/torch2/ninja-edges.py
"$BT" cuda >"$T/cuda.out" 2>"$T/cuda.err"
rc=$?
[ $rc = 77 ] && skip "torch 2.x build bed unavailable: $(grep 'cannot run here' "$T/cuda.err")"
check_eq "buildtree cuda" 0 $rc
[ $rc = 0 ] || { tail -20 "$T/cuda.err"; finish; }
TREE=$("$BT" path)
ROOT=${TREE%/build/pytorch/build}
NJ=$TREE/build.ninja
NJC=$ROOT/build/pytorch/build-cuda/build.ninja
S=$T/s
mkdir -p "$S/empty"
cp -a "$ROOT/build/pytorch/aten/src/ATen/core" "$S/core" && rm "$S/core/Range.h"
# The machine's RAM is in the OOM fix; cmake's version in its own message.
NORM=(-e 's/MAX_JOBS=[0-9]*/MAX_JOBS=<N>/; s/ninja -j[0-9]*/ninja -j<N>/; s/has [0-9.]* [KMGT]*B of RAM/has <RAM> of RAM/'
      -e 's/running version [0-9.]*/running version <V>/')
# inbed LOG CMD: CMD inside the bed with the scratch dir at /scratch, output to $S/LOG.
# HIDE=1: ATen/core/Range.h removed for that run only: a copy of the tree's
# aten/src/ATen/core without it bound over the real one, and the bed's
# libtorch-dev headers (/usr/include/ATen, c10) hidden, in the run's own
# mount namespace (the tree itself is never changed).
inbed() {
	local log=$1 b=(-b "$S:/scratch")
	shift
	[ "${HIDE:-0}" = 1 ] && b+=(-b "$S/empty:/usr/include/ATen" -b "$S/empty:/usr/include/c10" -b "$S/core:/build/pytorch/aten/src/ATen/core")
	"$BT" bed run "${b[@]}" -- sh -c "$*" >"$S/$log" 2>&1
	sed -i '/^testbed: /d' "$S/$log"
}
field() { /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): d = d[int(k)] if isinstance(d, list) else d[k]
print(d)' "$@"; }
bl() { "$PTINSPECT" buildlog "$@"; }

# 1. A submodule's header gone (third_party/miniz-3.0.2 as an uninitialised
# submodule: an empty directory), alone: the whole text.
"$EDGES" "$NJ" /build/pytorch/build /scratch \
	'sub=caffe2/serialize/inline_container.cc|INCLUDES:-I/build/pytorch/third_party/miniz-3.0.2=>-I/scratch/empty' >"$S/build.ninja"
inbed sub.log 'cd /scratch && ninja -j1'
check_case sub 1 bl "$S/sub.log"

# 2. A header removed: ATen/core/Range.h, which Range.cpp includes first.
"$EDGES" "$NJ" /build/pytorch/build /scratch 'gen=aten/src/ATen/core/Range.cpp' >"$S/build.ninja"
HIDE=1 inbed gen.log 'cd /scratch && ninja -j1'
check_case gen 1 bl "$S/gen.log"

# 3. The submodule case, Range.cpp forced to include a header that is gone
# (-include), and a real compile that succeeds with a warning (Resize.cpp), by
# a real -j2 -k 0 run: the edges finish in an order of their own; each edge's
# diagnostics must stay its own.
"$EDGES" "$NJ" /build/pytorch/build /scratch \
	'sub=caffe2/serialize/inline_container.cc|INCLUDES:-I/build/pytorch/third_party/miniz-3.0.2=>-I/scratch/empty' \
	'gen=aten/src/ATen/core/Range.cpp|FLAGS+=-include /scratch/removed.h' 'warn=aten/src/ATen/native/Resize.cpp' >"$S/build.ninja"
inbed j2.log 'cd /scratch && ninja -j2 -k 0'
bl --json --all "$S/j2.log" >"$S/j2.json"
check_eq "-j2: exit 1" 1 $?
/usr/bin/python3 - "$S/j2.json" >"$T/j2.check" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
fails = []
def eq(what, want, have):
    if want != have: fails.append(f"{what}: want {want!r}, have {have!r}")
eq("verdict", "failed", j["verdict"])
eq("failed edges", 2, j["failed_edges_total"])
by = {e["outputs"]: e for e in j["failed_edges"]}
eq("edges", ["/scratch/gen.o", "/scratch/sub.o"], sorted(by))
eq("sub cause", "missing-header-submodule", by["/scratch/sub.o"]["cause"])
eq("gen cause", "missing-header", by["/scratch/gen.o"]["cause"])
# Each edge's lines name its own source only: nothing of Resize.cpp's warning in them.
for out, src in (("/scratch/sub.o", "inline_container.cc"), ("/scratch/gen.o", "Range")):
    e = by[out]
    eq(out + " first error from its source", True, src in e["first_error"]["text"] or "removed.h" in e["first_error"]["text"])
    eq(out + " no warning lines", [], [l["text"] for l in e["output"] if "warning" in l["text"] or "IListRef_inl" in l["text"]])
eq("the warning counted", True, j["log"]["warnings_by_kind"].get("-Wdangling-reference", 0) >= 1)
eq("first edge is the first FAILED line", min(e["line"] for e in j["failed_edges"]), j["edge"]["line"])
print("\n".join(fails) or "ok")
PY
check_eq "-j2: edges un-interleaved" ok "$(cat "$T/j2.check")"

# 4. A heavy ATen object under a memory limit: the real OOM message.
"$EDGES" "$NJ" /build/pytorch/build /scratch 'oom=aten/src/ATen/native/Resize.cpp' >"$S/build.ninja"
inbed oom.log 'ulimit -v 250000; cd /scratch && ninja -j1'
check_case oom 1 bl "$S/oom.log"

# 5. nvcc 12.4 of the CUDA flavour: an arch it dropped, and trixie's GCC 14 as
# its host compiler, in one -k 0 run (-j1: in order).
"$EDGES" "$NJC" /build/pytorch/build-cuda /scratch \
	'arch=aten/src/ATen/cuda/Sleep.cu|FLAGS:arch=compute_80,code=sm_80=>arch=compute_35,code=sm_35' \
	'host=aten/src/ATen/cuda/Sleep.cu|FLAGS+=-ccbin /usr/bin/g++-14' >"$S/build.ninja"
inbed nvcc.log 'cd /scratch && ninja -j1 -k 0'
check_case nvcc124 1 bl --all "$S/nvcc.log"
bl --json --all "$S/nvcc.log" >"$S/nvcc.json"
check_eq "nvcc 12.4: second edge's cause" host-compiler "$(field "$S/nvcc.json" failed_edges.1.cause)"

# 6. Real link errors: libc10 of the tree called with the old C++ ABI (its
# symbol exists only with std::__cxx11), and a real ATen object linked alone.
# grep error: finds collect2's consequence first; buildlog the reference.
cat >"$S/abi.cpp" <<'CPP'
#include <string>
namespace c10 { namespace detail {
[[noreturn]] void torchCheckFail(const char *func, const char *file, unsigned int line, const std::string &msg);
} }
int main() { c10::detail::torchCheckFail("main", "abi.cpp", 1, std::string("x")); }
CPP
cat >"$S/build.ninja" <<'NINJA'
T = /build/pytorch/build
rule cxx
  command = /usr/bin/c++ -D_GLIBCXX_USE_CXX11_ABI=0 -std=gnu++17 -O0 -c $in -o $out
  description = Building CXX object $out
rule exe
  command = /usr/bin/c++ -O0 -g $in -o $out -Wl,-rpath,$T/lib $T/lib/libc10.so
  description = Linking CXX executable $out
rule so
  command = /usr/bin/c++ -fPIC -O0 -g -shared -Wl,--no-undefined -o $out $in
  description = Linking CXX shared library $out
build abi.o: cxx /scratch/abi.cpp
build abi: exe abi.o
build libformatting.so: so $T/caffe2/CMakeFiles/torch_cpu.dir/__/aten/src/ATen/core/Formatting.cpp.o
NINJA
inbed link.log 'cd /scratch && ninja -j1 -k 0'
check_eq "grep error: lands on collect2" "collect2: error: ld returned 1 exit status" "$(grep -m1 'error:' "$S/link.log")"
# --root: the log's paths are the bed's; the twin is looked up in the libc10 the link names.
check_case link 1 bl --root "$ROOT" "$S/link.log"
bl --json --root "$ROOT" "$S/link.log" >"$S/link.json"
check_eq "the library that defines the twin" /build/pytorch/build/lib/libc10.so "$(field "$S/link.json" details.abi_twin_library)"
twin=$(field "$S/link.json" details.abi_twin)
# The twin is what libc10 really defines.
check_contains "libc10 defines the twin" "$twin" "$(nm -DC --defined-only "$TREE/lib/libc10.so" | grep torchCheckFail)"

# 7. nvcc 13 of this host on the tree's Sleep.cu: an arch it dropped, an option it lacks.
NVCC13=/usr/local/cuda/bin/nvcc
if [ -x "$NVCC13" ]; then
	SLEEP=$ROOT/build/pytorch/aten/src/ATen/cuda/Sleep.cu
	cat >"$S/build.ninja" <<NINJA
rule nvcc
  command = $NVCC13 \$flags -x cu -c \$in -o \$out
  description = Building CUDA object \$out
build arch13.o: nvcc $SLEEP
  flags = -gencode arch=compute_50,code=sm_50
build opt13.o: nvcc $SLEEP
  flags = --frobnicate
NINJA
	(cd "$S" && ninja -j1 -k 0 >"$S/nvcc13.log" 2>&1)
	sed -i "s|$ROOT|<ROOT>|g" "$S/nvcc13.log"
	check_case nvcc13 1 bl --all "$S/nvcc13.log"
else
	skip "nvcc 13 is not at $NVCC13"
fi

# 8. CMake configures: a package missing, cmake too old (small projects).
mkdir -p "$S/pkg" "$S/old"
printf 'cmake_minimum_required(VERSION 3.18)\nproject(p CXX)\nfind_package(ZZTorchDepMissing REQUIRED)\n' >"$S/pkg/CMakeLists.txt"
printf 'cmake_minimum_required(VERSION 99.1)\nproject(p CXX)\n' >"$S/old/CMakeLists.txt"
cmake -S "$S/pkg" -B "$S/pkg/b" -G Ninja >"$S/pkg.log" 2>&1
check_case cmake_package 1 bl "$S/pkg.log"
cmake -S "$S/old" -B "$S/old/b" -G Ninja >"$S/old.log" 2>&1
check_case cmake_version 1 bl "$S/old.log"

# 9. torchgen's own exception (a source path without its yaml files).
inbed torchgen.log 'cd /build/pytorch && python3 -m torchgen.gen -s /scratch/nosuch -d /scratch/out'
check_case torchgen 1 bl "$S/torchgen.log"

# 10. The log of a successful build: exit 0; the same log cut in the middle: incomplete.
"$EDGES" "$NJ" /build/pytorch/build /scratch 'ok=aten/src/ATen/core/Range.cpp' >"$S/build.ninja"
inbed ok.log 'cd /scratch && ninja -j1'
check_eq "a build that worked: exit 0" 0 "$(bl "$S/ok.log" >/dev/null; echo $?)"
head -c 300 "$S/j2.log" | head -1 >"$S/cut.log"
check_eq "a log cut before any failure: incomplete" incomplete "$(bl --json "$S/cut.log" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])')"

# 11. The real torch 2.6 CMake configure, the tree's own options, with
# BLAS=MKL and no MKL in the bed: torch's FindMKL.cmake stops it at
# Dependencies.cmake's BLAS choice (about 10 s), in a scratch build dir.
# The configure's lines before it (compiler checks) may differ in number
# from one machine to another: line numbers are not compared.
inbed mkl.log 'cmake -G Ninja -DBLAS=MKL -DBUILD_PYTHON=True -DBUILD_TEST=False -DCMAKE_BUILD_TYPE=Debug \
	-DONNX_NAMESPACE=onnx -DPython_EXECUTABLE=/usr/bin/python3 -DUSE_CUDA=0 -DUSE_DISTRIBUTED=0 -DUSE_FBGEMM=0 \
	-DUSE_FLASH_ATTENTION=0 -DUSE_GFLAGS=0 -DUSE_GLOG=0 -DUSE_GLOO=0 -DUSE_ITT=0 -DUSE_KINETO=0 -DUSE_MAGMA=0 \
	-DUSE_MEM_EFF_ATTENTION=0 -DUSE_MKLDNN=0 -DUSE_MPI=0 -DUSE_NNPACK=0 -DUSE_NUMPY=True -DUSE_PYTORCH_QNNPACK=0 \
	-DUSE_ROCM=0 -DUSE_SYSTEM_LIBS=ON -DUSE_TENSORPIPE=0 -DUSE_VULKAN=0 -DUSE_XNNPACK=0 \
	-S /build/pytorch -B /scratch/cfg-mkl'
check_contains "BLAS=MKL: torch's own message" "MKL library not found." "$(cat "$S/mkl.log")"
NORM0=("${NORM[@]}")
NORM+=(-e 's/(line [0-9]*)/(line <N>)/; s/^log: [0-9]* lines/log: <N> lines/')
check_case torch_blas_mkl 1 bl "$S/mkl.log"
NORM=("${NORM0[@]}")
bl --json "$S/mkl.log" >"$S/mkl.json"
check_eq "BLAS=MKL: phase, cause" "configure cmake-package" "$(field "$S/mkl.json" phase) $(field "$S/mkl.json" cause)"
finish
