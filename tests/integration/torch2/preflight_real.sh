. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 2400
# ptinspect preflight against the real toolchain and the real torch 2.6
# source tree of the build bed (tests/torch2/buildtree cuda: Debian 13's
# nvidia-cuda-toolkit 12.4 with its cuda-gcc/cuda-g++ 13 and GCC 14 as the
# system's compiler; the tree configured for the CPU). Each prediction is
# checked against what the real tool does:
# - the environment against build/CMakeCache.txt: USE_CUDA=1 exported after
#   the CPU configure is predicted to be ignored, and the real `setup.py build
#   --cmake-only` leaves the cache as it was;
# - nvcc's host compiler as torch's CMake gives it: CXX=g++ (GCC 14) is not
#   nvcc's host compiler (torch passes no -ccbin for GCC; Debian's nvcc takes
#   its own gcc, GCC 13): predicted fine, and CMake's real CUDA configure finds
#   GCC 13; CUDAHOSTCXX=g++ is predicted refused, and the real CMake configure
#   fails with nvcc's "unsupported GNU version"; CUDAHOSTCXX=cuda-g++ is
#   fine; --try-nvcc agrees each time;
# - every arch of preflight's table against nvcc 12.4's --list-gpu-code and
#   its --dryrun (the real "Unsupported gpu architecture" for the rejected);
# - NCCL (USE_SYSTEM_LIBS: the system's), cuSPARSELt and BLAS, absent and found,
#   against torch's own FindNCCL / FindCUSPARSELT / FindOpenBLAS run by the real CMake;
# - the device code an arch list implies, against Debian's libtorch_cuda 2.6
#   built with that list (the CUDA bed);
# - a Debian source tree (no .gitmodules, third_party stripped).
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
BT=$PT_SRC/tests/torch2/buildtree
"$BT" cuda >"$T/cuda.out" 2>"$T/cuda.err"
rc=$?
[ $rc = 77 ] && skip "torch 2.x build bed unavailable: $(grep 'cannot run here' "$T/cuda.err")"
check_eq "buildtree cuda" 0 $rc
[ $rc = 0 ] || { tail -20 "$T/cuda.err"; finish; }
"$BT" bed build >"$T/build.out" 2>&1
rc=$?
check_eq "project builds inside the build bed" 0 $rc
[ $rc = 0 ] || { tail -30 "$T/build.out"; finish; }
P=$("$BT" bed builddir)/inspect/ptinspect
SRC=/build/pytorch
mapfile -t CONF < <("$BT" env)
# inside CMD...: in the build bed, scratch at /t, stdout and stderr to $T/in.out / in.err.
inside() { "$BT" bed run -b "$T:/t" -- "$@" >"$T/in.out" 2>"$T/in.err"; }
# pf VAR=VALUE...: ptinspect preflight ARGS... inside, with the configure's environment and those.
PF_ENV=(env -i PATH=/usr/bin:/bin HOME=/root LC_ALL=C NO_COLOR=1)
pf() {
	local vars=() a
	while [ $# -gt 0 ] && [[ $1 == *=* ]]; do vars+=("$1"); shift; done
	"$BT" bed run -b "$T:/t" -- "${PF_ENV[@]}" "${CONF[@]}" "${vars[@]}" "$P" preflight "$@" >"$T/pf.out" 2>"$T/pf.err"
	echo $? >"$T/pf.rc"
}
line() { grep -m1 "^  [a-zA-Z]* *$1 " "$T/pf.out"; }

# The configure's own environment: the cache agrees.
pf USE_CUDA=0 $SRC
check_contains "as configured: the cache agrees" "ok    cache         build/CMakeCache.txt agrees with the environment" \
	"$(line cache)"
check_contains "the checkout" "ok    checkout      torch 2.6.0 source tree (version.txt)" "$(cat "$T/pf.out")"
check_contains "a Debian tree: no submodules" "ok    submodules    no .gitmodules (a release tarball or a stripped tree)" \
	"$(cat "$T/pf.out")"

# A MAX_JOBS no RAM holds: the memory item fails, with a MAX_JOBS that fits.
pf USE_CUDA=0 MAX_JOBS=100000 $SRC
check_eq "MAX_JOBS=100000: exit" 1 "$(cat "$T/pf.rc")"
check_contains "MAX_JOBS=100000: predicted" "FAIL  memory        100000 jobs (MAX_JOBS) x 2 GB" "$(line memory)"
check_contains "MAX_JOBS=100000: the fix" "fix: MAX_JOBS=" "$(grep -A1 '^  FAIL  memory' "$T/pf.out")"

# USE_CUDA=1 exported after the CPU configure: setup.py will not run CMake again.
pf USE_CUDA=1 CUDA_HOME=/usr TORCH_CUDA_ARCH_LIST=8.0 CUDAHOSTCXX=cuda-g++ $SRC
check_eq "USE_CUDA=1 after a CPU configure: exit" 1 "$(cat "$T/pf.rc")"
check_contains "USE_CUDA=1 after a CPU configure: predicted ignored" \
	"FAIL  cache         USE_CUDA=1 in your environment, 0 in build/CMakeCache.txt (line " "$(cat "$T/pf.out")"
check_contains "the arch list: a CPU configuration" \
	"FAIL  cache         TORCH_CUDA_ARCH_LIST=8.0 in your environment, and build/CMakeCache.txt is a CPU configuration (USE_CUDA=0, line " \
	"$(cat "$T/pf.out")"
CACHE=$("$BT" path)/CMakeCache.txt
before=$(md5sum <"$CACHE")
inside sh -c "cd $SRC && ${PF_ENV[*]} ${CONF[*]} USE_CUDA=1 CUDA_HOME=/usr TORCH_CUDA_ARCH_LIST=8.0 CUDAHOSTCXX=cuda-g++ \
	python3 setup.py build --cmake-only"
check_eq "the real setup.py --cmake-only: exit" 0 $?
check_contains "the real setup.py: it says it ran cmake" "Finished running cmake" "$(cat "$T/in.out")"
check_eq "the real setup.py: the cache is untouched, as predicted" "$before" "$(md5sum <"$CACHE")"
check_contains "the real setup.py: USE_CUDA still off" "USE_CUDA:BOOL=0" "$(grep '^USE_CUDA:' "$CACHE")"

# nvcc's host compiler. A one-file CUDA project configured by the real CMake
# with the same compilers: what it finds, or how it fails.
mkdir -p "$T/cu"
printf 'cmake_minimum_required(VERSION 3.18)\nproject(k CXX CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 80)\nadd_library(k k.cu)\n' \
	>"$T/cu/CMakeLists.txt"
printf '__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n' >"$T/cu/k.cu"
cmake_cuda() {	# cmake_cuda VAR=VALUE...: configure /t/cu in /t/cub-N
	local b=/t/cub-$RANDOM
	inside "${PF_ENV[@]}" "$@" cmake -S /t/cu -B "$b" -G Ninja
	echo "$T/${b#/t/}"
}
CUDA=(USE_CUDA=1 CUDA_HOME=/usr TORCH_CUDA_ARCH_LIST=8.0 CMAKE_FRESH=1)

pf "${CUDA[@]}" CXX=g++ --try-nvcc $SRC
check_contains "CXX=g++ 14: nvcc keeps its own gcc 13" \
	"ok    host compiler /usr/lib/nvidia-cuda-toolkit/bin/gcc (nvcc's default: gcc on its PATH; torch passes no -ccbin for GCC): GCC 13." \
	"$(line 'host compiler')"
check_contains "CXX=g++ 14: the C++ files' compiler named" "; C++ files: /usr/bin/g++ (CXX): GCC 14." "$(line 'host compiler')"
check_contains "CXX=g++ 14: --try-nvcc compiles" "ok    try-nvcc      sm_80: nvcc compiled a one-line kernel, as predicted" \
	"$(cat "$T/pf.out")"
b=$(cmake_cuda CXX=g++)
check_contains "CXX=g++ 14: the real CMake's CUDA host compiler is GCC 13" 'CMAKE_CUDA_HOST_COMPILER_VERSION "13.' \
	"$(cat "$b"/CMakeFiles/*/CMakeCUDACompiler.cmake 2>/dev/null)"

pf "${CUDA[@]}" CXX=g++ CUDAHOSTCXX=g++ --try-nvcc $SRC
check_eq "CUDAHOSTCXX=g++ 14: exit" 1 "$(cat "$T/pf.rc")"
check_contains "CUDAHOSTCXX=g++ 14: predicted refused" \
	"FAIL  host compiler /usr/bin/g++ (CUDAHOSTCXX, passed to nvcc with -ccbin): GCC 14.2, CUDA 12.4 takes GCC up to 13 (/usr/include/crt/host_config.h): 'unsupported GNU version!'" \
	"$(line 'host compiler')"
check_contains "CUDAHOSTCXX=g++ 14: --try-nvcc: the real refusal" \
	"ok    try-nvcc      sm_80: nvcc refused the host compiler /usr/bin/g++, as predicted: 'unsupported GNU version! gcc versions later than 13 are not supported!" \
	"$(cat "$T/pf.out")"
cmake_cuda CXX=g++ CUDAHOSTCXX=g++ >/dev/null
check_contains "CUDAHOSTCXX=g++ 14: the real CMake configure fails so" "unsupported GNU version" "$(cat "$T/in.out" "$T/in.err")"

pf "${CUDA[@]}" CUDAHOSTCXX=cuda-g++ --try-nvcc $SRC
check_contains "CUDAHOSTCXX=cuda-g++: fine" \
	"ok    host compiler /usr/bin/cuda-g++ (CUDAHOSTCXX, passed to nvcc with -ccbin): GCC 13." "$(line 'host compiler')"
check_contains "CUDAHOSTCXX=cuda-g++: --try-nvcc compiles" \
	"ok    try-nvcc      sm_80: nvcc compiled a one-line kernel, as predicted" "$(cat "$T/pf.out")"
b=$(cmake_cuda CUDAHOSTCXX=cuda-g++)
check_contains "CUDAHOSTCXX=cuda-g++: the real CMake takes it" 'CMAKE_CUDA_HOST_COMPILER_VERSION "13.' \
	"$(cat "$b"/CMakeFiles/*/CMakeCUDACompiler.cmake 2>/dev/null)"

# NCCL and cuSPARSELt where torch's own Find modules (the tree's cmake/Modules) look,
# with the real CMake. The bed has neither; then NVIDIA's NCCL of /usr/local/cuda
# (the host's CUDA 13 toolkit, bound at /opt/cuda) through NCCL_ROOT.
mkdir -p "$T/find"
printf '%s\n' 'cmake_minimum_required(VERSION 3.18)' 'project(f CXX)' \
	"list(APPEND CMAKE_MODULE_PATH $SRC/cmake/Modules)" 'set(CUDA_TOOLKIT_ROOT_DIR /usr)' \
	'find_package(NCCL)' 'message(STATUS "NCCL_FOUND=${NCCL_FOUND}")' \
	'find_package(CUSPARSELT)' 'message(STATUS "CUSPARSELT_FOUND=${CUSPARSELT_FOUND}")' \
	'find_package(OpenBLAS)' 'message(STATUS "OpenBLAS_FOUND=${OpenBLAS_FOUND}")' \
	'find_library(BLAS_LIBRARIES NAMES blas)' 'message(STATUS "generic BLAS=${BLAS_LIBRARIES}")' >"$T/find/CMakeLists.txt"
pf "${CUDA[@]}" CUDAHOSTCXX=cuda-g++ $SRC
check_contains "no NCCL, USE_SYSTEM_LIBS: predicted to stop CMake" \
	"FAIL  nccl          USE_SYSTEM_LIBS=ON (so the system's NCCL): no nccl.h and no libnccl.so where torch's FindNCCL looks (NCCL_INCLUDE_DIR, NCCL_LIB_DIR, NCCL_ROOT, /usr, the system's): CMake stops with 'Could NOT find NCCL (missing: NCCL_INCLUDE_DIRS NCCL_LIBRARIES)'" \
	"$(line nccl)"
check_contains "no cuSPARSELt: predicted turned off" \
	"ok    cusparselt    no cusparseLt.h and no libcusparseLt.so where torch's FindCUSPARSELT looks" "$(line cusparselt)"
inside "${PF_ENV[@]}" cmake -S /t/find -B /t/find-b1
check_contains "no NCCL: the real FindNCCL says so" "Could NOT find NCCL (missing: NCCL_INCLUDE_DIRS NCCL_LIBRARIES)" \
	"$(cat "$T/in.out" "$T/in.err")"
check_contains "no cuSPARSELt: the real FindCUSPARSELT agrees" "CUSPARSELT_FOUND=FALSE" "$(cat "$T/in.out")"
# BLAS: the configure's BLAS=Generic (libblas), and BLAS=OpenBLAS where the bed has none.
gen=$(sed -n 's/^-- generic BLAS=//p' "$T/in.out")
check_contains "no OpenBLAS: the real FindOpenBLAS agrees (netlib's cblas.h, no libopenblas)" \
	"Could not find OpenBLAS lib. Turning OpenBLAS_FOUND off" "$(cat "$T/in.out")"
pf USE_CUDA=0 $SRC
check_contains "BLAS=Generic: the library CMake's find_library finds" "ok    blas          BLAS=Generic: $(realpath -s "$gen" 2>/dev/null || echo "$gen")" \
	"$(line blas)"
pf USE_CUDA=0 BLAS=OpenBLAS $SRC
check_contains "BLAS=OpenBLAS without it: predicted to stop CMake" \
	"FAIL  blas          BLAS=OpenBLAS: no libopenblas.so where torch's FindOpenBLAS looks: CMake stops ('Could not find OpenBLAS')" "$(line blas)"
if [ -e /usr/local/cuda/include/nccl.h ]; then
	CU=$(realpath /usr/local/cuda)
	# pfb: pf with /usr/local/cuda bound at /opt/cuda.
	"$BT" bed run -b "$T:/t" -b "$CU:/opt/cuda" -- "${PF_ENV[@]}" "${CONF[@]}" "${CUDA[@]}" CUDAHOSTCXX=cuda-g++ \
		NCCL_ROOT=/opt/cuda "$P" preflight $SRC >"$T/pf.out" 2>"$T/pf.err"
	nv=$(sed -n 's/^#define NCCL_\(MAJOR\|MINOR\|PATCH\) *\([0-9]*\).*/\2/p' /usr/local/cuda/include/nccl.h | paste -sd. -)
	check_contains "NCCL_ROOT: the system's NCCL found, its version" \
		"ok    nccl          the system's NCCL $nv: /opt/cuda/include/nccl.h, /opt/cuda/lib" "$(line nccl)"
	"$BT" bed run -b "$T:/t" -b "$CU:/opt/cuda" -- "${PF_ENV[@]}" NCCL_ROOT=/opt/cuda cmake -S /t/find -B /t/find-b2 \
		>"$T/in.out" 2>"$T/in.err"
	check_contains "NCCL_ROOT: the real FindNCCL finds it there" "Found NCCL: /opt/cuda/include" "$(cat "$T/in.out")"
	check_contains "NCCL_ROOT: the real FindNCCL's version" "NCCL_FOUND=TRUE" "$(cat "$T/in.out")"
else
	echo "note: no NCCL in /usr/local/cuda here: the found case is not checked"
	[ "${PT_STRICT:-0}" = 1 ] && check_eq "NCCL in /usr/local/cuda (strict)" present absent
fi

# The device code the list implies, against the real library built with it:
# Debian's libtorch_cuda 2.6 of the CUDA bed (5.0;6.0;7.0;7.5;8.0;8.6;9.0+PTX).
pf "${CUDA[@]}" CUDAHOSTCXX=cuda-g++ "TORCH_CUDA_ARCH_LIST=5.0;6.0;7.0;7.5;8.0;8.6;9.0+PTX" --json $SRC
est=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["device_code_bytes"])' "$T/pf.out")
if "$PT_SRC/tests/torch2/testbed" --flavour cuda create 2>"$T/cbed.err"; then
	CROOT=${PT_TORCH2_CUDA_CACHE:-/var/tmp/ptools-torch2-cuda}/root
	"$PTINSPECT" cuda --json "$CROOT"/usr/lib/x86_64-linux-gnu/libtorch_cuda.so.2.6.0 >"$T/tc.json"
	real=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["files"][0]["cuda"]["device_code_bytes"])' \
		"$T/tc.json")
	check_eq "the estimate within 5% of Debian's libtorch_cuda ($est vs $real bytes)" 1 \
		"$(/usr/bin/python3 -c 'import sys; e, r = map(int, sys.argv[1:]); print(int(abs(e - r) <= r / 20))' "$est" "$real")"
else
	check_eq "the CUDA bed for the real libtorch_cuda" 0 1
	tail -3 "$T/cbed.err"
fi

# Every arch of the table against nvcc 12.4 itself.
all="3.5;3.7;5.0;5.2;5.3;6.0;6.1;6.2;7.0;7.2;7.5;8.0;8.6;8.7;8.9;9.0;10.0;10.1;12.0"
pf "${CUDA[@]}" CUDAHOSTCXX=cuda-g++ "TORCH_CUDA_ARCH_LIST=$all" --json /t
/usr/bin/python3 -c '
import json, sys
for a in json.load(open(sys.argv[1]))["archs"]:
    print(a["target"], "yes" if a["accepted"] else "no")' "$T/pf.out" >"$T/predicted"
inside sh -c 'nvcc --list-gpu-code | sort'
sort "$T/in.out" >"$T/listed"
check_eq "nvcc 12.4: the accepted archs are its --list-gpu-code" "$(cat "$T/listed")" \
	"$(awk '$2 == "yes" { print $1 }' "$T/predicted" | sort)"
while read -r target verdict; do
	n=${target#sm_}
	inside sh -c "nvcc -ccbin cuda-g++ -gencode arch=compute_$n,code=$target --dryrun -c /t/cu/k.cu -o /t/k.o 2>&1"
	rc=$?
	if [ "$verdict" = yes ]; then
		check_eq "nvcc 12.4 takes $target, as predicted" 0 $rc
	else
		check_contains "nvcc 12.4 refuses $target, as predicted" "nvcc fatal   : Unsupported gpu architecture 'compute_$n'" \
			"$(cat "$T/in.out")"
	fi
done <"$T/predicted"
check_eq "nvcc 12.4: some refused (10.0 and later)" 1 "$(grep -c '^sm_100 no' "$T/predicted")"
finish
