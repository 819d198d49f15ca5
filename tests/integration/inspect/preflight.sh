# ptinspect preflight on fake checkouts and toolchains made here, compared
# whole with expected/preflight_*.txt: outside a checkout, a good checkout,
# a submodule directory left empty, build/CMakeCache.txt against the
# environment (USE_CUDA=1 exported after a CPU configure; then without
# build.ninja, when setup.py does run CMake again; the real cache of the torch
# 2.6 build tree in tests/fixtures/buildtree), a nvcc printing garbage,
# arch lists nvcc 12.4 or torch 2.6 reject, a GCC newer than CUDA 12.4 takes
# (and -allow-unsupported-compiler), cuDNN 8.2 where torch needs 8.5, misspelt and misread variables, MAX_JOBS
# past the RAM, a submodule at another commit (git), --json, bad input. The tools are shell scripts in $T/bin
# printing real --version texts, and the environment is only what each case
# sets (env -i), so the output does not depend on this machine but for RAM
# and disk. Then the real nvcc 13 in /usr/local/cuda: every arch of
# preflight's table predicted as `nvcc --list-gpu-code` lists it, and each
# prediction confirmed by `nvcc --dryrun -gencode` (the real "Unsupported gpu
# architecture" message for the rejected ones); --try-nvcc compiling for 7.0
# and 8.6 with the real nvcc and /usr/bin/c++.
# Rewrite the expected files: PT_UPDATE_EXPECTED=1 ctest -R inspect_preflight
# ctest-timeout: 120
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
E=$PT_SRC/tests/integration/inspect/expected
NORM=(
	# the machine's RAM (every case runs with MAX_JOBS=1: 2 GB fit anywhere CI runs)
	-e 's/ fit in [0-9.]* GB of RAM$/ fit in <RAM> of RAM/'
	# free disk in $T: the line goes (its status too: a small disk warns)
	-e '/^  \(ok\|warn\) *disk /d'
)
# A disk with less than the 30 GB a CUDA build takes warns: then the verdict's
# warning count is not this test's subject.
avail_kb=$(df -Pk "$T" | awk 'NR == 2 { print $4 }')
if [ "${avail_kb:-0}" -lt $((31 * 1024 * 1024)) ]; then
	NORM+=(-e 's/^\(FAIL: the build would fail ([0-9]* failures\? predicted\), [0-9]* warnings\?)$/\1, <N> warnings)/'
	       -e 's/^\(warn\|ok\): no failure predicted.*/<ok or warn>: no failure predicted/')
fi
cd "$T" || exit 2

# The tools on PATH: scripts printing what the real ones print.
mkdir -p bin bin14 py/include cuda124/bin cuda124/include/crt junkcuda/bin empty
tool() {	# tool FILE TEXT: a program printing TEXT (with the shell's printf: PATH has only these)
	printf '#!/bin/sh\nprintf "%%s\\n" '"'"'%s'"'"'\n' "$2" >"$1" && chmod +x "$1"
}
tool bin/c++ 'c++ (Debian 12.2.0-14+deb12u1) 12.2.0
Copyright (C) 2022 Free Software Foundation, Inc.'
tool bin14/c++ 'c++ (Debian 14.2.0-19) 14.2.0'
# nvcc's own host compiler is gcc on its PATH (torch passes no -ccbin for GCC).
tool bin/gcc 'gcc (Debian 12.2.0-14+deb12u1) 12.2.0'
tool bin14/gcc 'gcc (Debian 14.2.0-19) 14.2.0'
tool bin/cmake 'cmake version 3.25.1

CMake suite maintained and supported by Kitware (kitware.com/cmake).'
tool bin/ninja '1.11.1'
: >py/include/Python.h
tool bin/python3 "3.11.2
$T/py/include
"
tool cuda124/bin/nvcc 'nvcc: NVIDIA (R) Cuda compiler driver
Copyright (c) 2005-2024 NVIDIA Corporation
Built on Thu_Mar_28_02:18:24_PDT_2024
Cuda compilation tools, release 12.4, V12.4.131
Build cuda_12.4.r12.4/compiler.34097967_0'
# CUDA 12.4's host_config.h, its two limits.
printf '#if __GNUC__ > 13\n\n#error -- unsupported GNU version! gcc versions later than 13 are not supported!\n#endif\n#if (__clang_major__ >= 18) || (__clang_major__ < 3)\n#error -- unsupported clang version! clang version must be less than 18 and greater than 3.2 .\n#endif\n' \
	>cuda124/include/crt/host_config.h
# cuDNN 9.1 in the toolkit, where torch's FindCUDNN looks after CUDNN_INCLUDE_DIR / CUDNN_LIB_DIR.
mkdir -p cuda124/lib64
printf '/* cudnn.h */\n#include "cudnn_version.h"\n' >cuda124/include/cudnn.h
printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n' >cuda124/include/cudnn_version.h
: >cuda124/lib64/libcudnn.so
# The same toolkit with cuDNN 8.2: torch 2.6 needs 8.5.
cp -r cuda124 cudaold
printf '#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 2\n#define CUDNN_PATCHLEVEL 4\n' >cudaold/include/cudnn_version.h
tool junkcuda/bin/nvcc 'this is not nvcc
release twelve'
# Debian's way: a toolkit whose nvcc runs with its own bin first on PATH (nvcc.profile,
# the /usr/bin/nvcc wrapper), where gcc is GCC 13; `nvcc --dryrun` says so, as the real one does.
cp -r cuda124 cudadeb
mkdir -p cudadeb/nvbin
tool cudadeb/nvbin/gcc 'gcc-13 (Debian 13.3.0-16) 13.3.0'
cat >cudadeb/bin/nvcc <<EOS
#!/bin/sh
case "\$*" in
*--dryrun*) printf '%s\n' '#\$ _HERE_=$T/cudadeb/bin' '#\$ PATH=$T/cudadeb/nvbin:'"\$PATH" \
	'#\$ gcc -D__CUDA_ARCH_LIST__=520 -E -x c++ -D__CUDACC__ -m64 "k.cu" -o "k.cpp4.ii"' >&2 ;;
*) printf '%s\n' 'Cuda compilation tools, release 12.4, V12.4.131' ;;
esac
EOS
tool bin14/clang++ 'Debian clang version 19.1.7 (3)'

# A checkout: version.txt, setup.py, CMakeLists.txt, two submodules present,
# torch 2.6's select_compute_arch.cmake pattern (no 'f' suffix).
mkdir -p pt/third_party/pybind11 pt/third_party/fbgemm pt/cmake/Modules_CUDA_fix/upstream/FindCUDA
echo 2.6.0 >pt/version.txt
: >pt/setup.py
printf 'cmake_minimum_required(VERSION 3.18 FATAL_ERROR)\noption(USE_CUDA "Use CUDA" ON)\noption(USE_MY_OPTION "x" OFF)\n' >pt/CMakeLists.txt
printf '[submodule "third_party/pybind11"]\n\tpath = third_party/pybind11\n\turl = https://github.com/pybind/pybind11.git\n[submodule "third_party/fbgemm"]\n\tpath = third_party/fbgemm\n\turl = https://github.com/pytorch/fbgemm\n' >pt/.gitmodules
: >pt/third_party/pybind11/CMakeLists.txt
: >pt/third_party/fbgemm/CMakeLists.txt
# torch 2.6 builds NCCL from third_party/nccl/nccl unless USE_SYSTEM_NCCL.
mkdir -p pt/third_party/nccl/nccl && : >pt/third_party/nccl/nccl/Makefile
printf '    if(arch_name MATCHES "^([0-9]+\\\\.[0-9]a?(\\\\([0-9]+\\\\.[0-9]\\\\))?)$")\n' \
	>pt/cmake/Modules_CUDA_fix/upstream/FindCUDA/select_compute_arch.cmake

# pf VAR=VALUE... ptinspect preflight ARGS: with that environment only.
pf() {
	env -i PATH="$T/bin" HOME="$T" LC_ALL=C NO_COLOR=1 \
		${ASAN_OPTIONS+"ASAN_OPTIONS=$ASAN_OPTIONS"} ${UBSAN_OPTIONS+"UBSAN_OPTIONS=$UBSAN_OPTIONS"} \
		${LSAN_OPTIONS+"LSAN_OPTIONS=$LSAN_OPTIONS"} "$@"
}
CUDA=CUDA_HOME=$T/cuda124

check_case preflight_outside 0 pf USE_CUDA=0 MAX_JOBS=1 "$P" preflight empty
check_case preflight_checkout_ok 0 pf $CUDA "TORCH_CUDA_ARCH_LIST=8.0 8.6;9.0a+PTX" MAX_JOBS=1 "$P" preflight pt
check_case preflight_arch_rejected 1 pf $CUDA "TORCH_CUDA_ARCH_LIST=8.6;12.0;Amper;10.0f;5.0(3.5)" MAX_JOBS=1 \
	"$P" preflight pt
check_case preflight_nvcc_garbage 1 pf CUDA_HOME="$T/junkcuda" USE_CUDA=1 MAX_JOBS=1 "$P" preflight pt
check_case preflight_host_too_new 1 pf PATH="$T/bin14:$T/bin" $CUDA TORCH_CUDA_ARCH_LIST=8.6 MAX_JOBS=1 \
	"$P" preflight pt
check_case preflight_host_allowed 0 pf PATH="$T/bin14:$T/bin" $CUDA TORCH_CUDA_ARCH_LIST=8.6 MAX_JOBS=1 \
	NVCC_APPEND_FLAGS=-allow-unsupported-compiler "$P" preflight pt
# CXX=g++ 14 builds the C++ files; nvcc keeps its own gcc 13 (the dry run's PATH): fine.
check_case preflight_host_nvcc_default 0 pf PATH="$T/bin14:$T/bin" CUDA_HOME="$T/cudadeb" TORCH_CUDA_ARCH_LIST=8.6 \
	MAX_JOBS=1 "$P" preflight pt
# Clang as CXX: torch's cuda.cmake makes it nvcc's host compiler (CUDA 12.4 takes Clang up to 17).
check_case preflight_host_clang 1 pf PATH="$T/bin14:$T/bin" CUDA_HOME="$T/cudadeb" CXX=clang++ TORCH_CUDA_ARCH_LIST=8.6 \
	MAX_JOBS=1 "$P" preflight pt
check_case preflight_env_misread 0 pf $CUDA TORCH_CUDA_ARCH_LIST=Ampere MAX_JOBS=1 USE_CUDA=enable USE_CUDDN=1 \
	USE_MY_OPTON=1 USE_KINETO=0 DEBUG=1 REL_WITH_DEB_INFO=1 "$P" preflight pt
# CUDA_HOME without bin/nvcc: the build looks further (PATH here).
mkdir -p nocuda bincuda && cp cuda124/bin/nvcc bincuda/
check_rc "preflight: CUDA_HOME without nvcc" 0 pf PATH="$T/bincuda:$T/bin" CUDA_HOME="$T/nocuda" TORCH_CUDA_ARCH_LIST=8.6 \
	MAX_JOBS=1 "$P" preflight pt
check_contains "preflight: CUDA_HOME without nvcc: said" \
	"warn  nvcc          CUDA_HOME=$T/nocuda has no bin/nvcc: the build looks further and takes $T/bincuda/nvcc" "$(cat "$T/.out")"
check_contains "preflight: CUDA_HOME without nvcc: the one found" "ok    nvcc          $T/bincuda/nvcc (from PATH): CUDA 12.4" \
	"$(cat "$T/.out")"
check_rc "preflight: cuDNN 8.2" 1 pf CUDA_HOME="$T/cudaold" TORCH_CUDA_ARCH_LIST=8.6 MAX_JOBS=1 "$P" preflight pt
check_contains "preflight: cuDNN 8.2: said" "FAIL  cudnn         cuDNN 8.2.4 ($T/cudaold/include/cudnn.h): torch needs 8.5 or newer" \
	"$(cat "$T/.out")"
check_rc "preflight: USE_CUDNN=0" 0 pf CUDA_HOME="$T/cudaold" USE_CUDNN=0 TORCH_CUDA_ARCH_LIST=8.6 MAX_JOBS=1 "$P" preflight pt
check_contains "preflight: USE_CUDNN=0: not looked for" "ok    cudnn         USE_CUDNN=0: built without cuDNN" "$(cat "$T/.out")"
# NCCL: the submodule emptied (torch builds it from there); the system's through NCCL_ROOT.
mv pt/third_party/nccl/nccl pt/nccl.away
check_rc "preflight: third_party/nccl/nccl missing" 1 pf $CUDA TORCH_CUDA_ARCH_LIST=8.6 MAX_JOBS=1 "$P" preflight pt
check_contains "preflight: third_party/nccl/nccl missing: said" \
	"FAIL  nccl          pt/third_party/nccl/nccl is missing or empty: torch builds NCCL from it (USE_SYSTEM_NCCL unset)" \
	"$(cat "$T/.out")"
mv pt/nccl.away pt/third_party/nccl/nccl
mkdir -p nccl/include nccl/lib
printf '#define NCCL_MAJOR 2\n#define NCCL_MINOR 21\n#define NCCL_PATCH 5\n#define NCCL_SUFFIX ""\n' >nccl/include/nccl.h
: >nccl/lib/libnccl.so
check_rc "preflight: USE_SYSTEM_NCCL=1 without one" 1 pf $CUDA TORCH_CUDA_ARCH_LIST=8.6 MAX_JOBS=1 USE_SYSTEM_NCCL=1 \
	"$P" preflight pt
check_contains "preflight: USE_SYSTEM_NCCL=1 without one: said" \
	"FAIL  nccl          USE_SYSTEM_NCCL=1: no nccl.h and no libnccl.so where torch's FindNCCL looks" "$(cat "$T/.out")"
check_rc "preflight: USE_SYSTEM_NCCL=1, NCCL_ROOT" 0 pf $CUDA TORCH_CUDA_ARCH_LIST=8.6 MAX_JOBS=1 USE_SYSTEM_NCCL=1 \
	NCCL_ROOT="$T/nccl" "$P" preflight pt
check_contains "preflight: USE_SYSTEM_NCCL=1, NCCL_ROOT: its version" \
	"ok    nccl          the system's NCCL 2.21.5: $T/nccl/include/nccl.h, $T/nccl/lib/libnccl.so" "$(cat "$T/.out")"
check_rc "preflight: USE_NCCL=0" 0 pf $CUDA TORCH_CUDA_ARCH_LIST=8.6 MAX_JOBS=1 USE_NCCL=0 "$P" preflight pt
check_contains "preflight: USE_NCCL=0: not looked for" "ok    nccl          USE_NCCL=0: built without NCCL" "$(cat "$T/.out")"
# pyproject.toml's build requirements against the real /usr/bin/python3: torch 2.6's
# (tests/fixtures/buildtree), then one asking for what no machine has.
mkdir -p pyreal && ln -s /usr/bin/python3 pyreal/python3
cp -r pt ptreq && cp "$PT_FIXTURES/buildtree/pyproject.toml" ptreq/
check_rc "preflight: torch 2.6's pyproject.toml, the real python3" 0 pf PATH="$T/pyreal:$T/bin" USE_CUDA=0 MAX_JOBS=1 \
	"$P" preflight ptreq
te=$(/usr/bin/python3 -c 'import importlib.metadata as m; print(m.version("typing-extensions"))' 2>/dev/null || echo -)
if [ "$te" = - ]; then
	check_contains "preflight: typing-extensions missing" "$T/pyreal/python3 cannot import typing-extensions" "$(cat "$T/.out")"
elif /usr/bin/python3 -c 'import sys; sys.exit(0 if tuple(map(int, sys.argv[1].split(".")[:3])) < (4, 10, 0) else 1)' "$te"; then
	check_contains "preflight: typing-extensions $te older than torch 2.6 asks" \
		"warn  python        $T/pyreal/python3 has typing-extensions $te, pyproject.toml requires >=4.10.0" "$(cat "$T/.out")"
else
	check_eq "preflight: typing-extensions $te as torch 2.6 asks: no warning" 0 "$(grep -c 'typing-extensions' "$T/.out")"
fi
printf '[build-system]\nrequires = ["setuptools>=999", "ptools-no-such-dist", "cmake>=99.1", "ninja"]\n' >ptreq/pyproject.toml
check_rc "preflight: requirements nobody has (warnings)" 0 pf PATH="$T/pyreal:$T/bin" USE_CUDA=0 MAX_JOBS=1 "$P" preflight ptreq
check_contains "preflight: setuptools too old" "warn  python        $T/pyreal/python3 has setuptools " "$(cat "$T/.out")"
check_contains "preflight: setuptools too old: the bound" ", pyproject.toml requires >=999: pip install --no-build-isolation does not check it" \
	"$(cat "$T/.out")"
check_contains "preflight: a distribution not installed" \
	"warn  python        $T/pyreal/python3 cannot import ptools-no-such-dist (pyproject.toml's build requirements)" "$(cat "$T/.out")"
check_contains "preflight: cmake below pyproject's bound" \
	"warn  cmake         $T/bin/cmake: 3.25.1, pyproject.toml requires cmake>=99.1" "$(cat "$T/.out")"
printf '[build-system]\nrequires = ["pyyaml", "ptools-no-such-dist"]\n' >ptreq/pyproject.toml
/usr/bin/python3 -c 'import yaml' 2>/dev/null && check_eq "preflight: pyyaml found by its module" 0 \
	"$(pf PATH="$T/pyreal:$T/bin" USE_CUDA=0 MAX_JOBS=1 "$P" preflight ptreq | grep -c 'cannot import pyyaml')"

# BLAS as torch's Dependencies.cmake takes it: a name it does not know, MKL asked for and
# absent (no machine here has it in /opt/intel), Generic (libblas: tests/deps' libtorch-dev).
check_rc "preflight: BLAS=Bogus" 1 pf USE_CUDA=0 MAX_JOBS=1 BLAS=Bogus "$P" preflight pt
check_contains "preflight: BLAS=Bogus: CMake's message" "FAIL  blas          BLAS=Bogus: CMake stops with 'Unrecognized BLAS option: Bogus'" \
	"$(cat "$T/.out")"
if [ ! -e /opt/intel ]; then
	check_rc "preflight: BLAS=MKL without MKL" 1 pf USE_CUDA=0 MAX_JOBS=1 BLAS=MKL "$P" preflight pt
	check_contains "preflight: BLAS=MKL without MKL: said" \
		"FAIL  blas          BLAS=MKL: no mkl_cblas.h and no libmkl_intel_lp64.so where torch's FindMKL looks: CMake stops ('Could not find MKL')" \
		"$(cat "$T/.out")"
fi
check_rc "preflight: BLAS=Generic" 0 pf USE_CUDA=0 MAX_JOBS=1 BLAS=Generic "$P" preflight pt
check_contains "preflight: BLAS=Generic: libblas" "ok    blas          BLAS=Generic: /usr/lib/x86_64-linux-gnu/libblas.so (GENERIC_BLAS_LIBRARIES unset: blas)" \
	"$(cat "$T/.out")"

# An arch list whose device code nears the 2 GiB of libtorch_cuda's link.
check_rc "preflight: a list near 2 GiB" 0 pf $CUDA "TORCH_CUDA_ARCH_LIST=5.0;5.2;6.0;6.1;7.0;7.5;8.0+PTX;8.6;8.9;9.0+PTX" \
	MAX_JOBS=1 "$P" preflight pt
check_contains "preflight: a list near 2 GiB: warned" \
	"warn  size          about 1.7 GB of device code in libtorch_cuda (10 SASS targets, 2 PTX): near the 2 GiB where its link fails with 'relocation truncated to fit'" \
	"$(cat "$T/.out")"
check_rc "preflight: MAX_JOBS past the RAM" 1 pf USE_CUDA=0 MAX_JOBS=100000 "$P" preflight pt
check_contains "preflight: MAX_JOBS past the RAM: the fix" "fix: MAX_JOBS=" "$(cat "$T/.out")"
check_contains "preflight: MAX_JOBS past the RAM: the line" "FAIL  memory        100000 jobs (MAX_JOBS) x 2 GB" \
	"$(cat "$T/.out")"

# --json: the same as data.
pf $CUDA "TORCH_CUDA_ARCH_LIST=8.6;12.0" MAX_JOBS=1 "$P" preflight --json pt >pf.json
check_eq "preflight --json: exit" 1 $?
check_eq "preflight --json: fields" "FAIL 1 12.4 sm_86:True sm_120:False FAIL arch" "$(/usr/bin/python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
fails = [i for i in j["items"] if i["status"] == "FAIL"]
print(j["verdict"], j["counts"]["fail"], j["cuda_version"], " ".join("%s:%s" % (a["target"], a["accepted"]) for a in j["archs"]),
      fails[0]["status"], fails[0]["check"])' pf.json)"

# A submodule directory left empty, version.txt with nonsense.
rm pt/third_party/fbgemm/CMakeLists.txt
echo 'not a version' >pt/version.txt
check_case preflight_submodule_missing 1 pf USE_CUDA=0 MAX_JOBS=1 "$P" preflight pt
echo 2.6.0 >pt/version.txt
: >pt/third_party/fbgemm/CMakeLists.txt

# build/CMakeCache.txt of a CPU configure, and USE_CUDA=1 DEBUG=1 exported afterwards.
mkdir -p pt/build
printf '# This is the CMakeCache file.\n//Build type\nCMAKE_BUILD_TYPE:STRING=Release\n//Use CUDA\nUSE_CUDA:BOOL=OFF\nUSE_KINETO:BOOL=ON\n' \
	>pt/build/CMakeCache.txt
: >pt/build/build.ninja
check_case preflight_cache_env 1 pf $CUDA USE_CUDA=1 DEBUG=1 USE_KINETO=1 TORCH_CUDA_ARCH_LIST=8.6 MAX_JOBS=1 \
	"$P" preflight pt
# Without build.ninja setup.py runs CMake again: the environment wins, a warning.
rm pt/build/build.ninja
check_case preflight_cache_rerun 0 pf $CUDA USE_CUDA=1 TORCH_CUDA_ARCH_LIST=8.6 MAX_JOBS=1 "$P" preflight pt
# The real CMakeCache.txt of the torch 2.6 build tree (tests/fixtures/buildtree: DEBUG=1
# USE_CUDA=0 USE_DISTRIBUTED=0 BUILD_TEST=0, /usr/bin/c++) against another environment:
# USE_CUDA and BUILD_TEST agree, USE_DISTRIBUTED, the build type and the C++ compiler do not.
cp "$PT_FIXTURES/buildtree/CMakeCache.txt" pt/build/CMakeCache.txt
: >pt/build/build.ninja
check_case preflight_real_cache 1 pf USE_CUDA=0 USE_DISTRIBUTED=1 BUILD_TEST=0 REL_WITH_DEB_INFO=1 CXX=c++ MAX_JOBS=1 \
	"$P" preflight pt
# The same cache under a checkout moved on to 2.7.0: configured for another version.
echo 2.7.0 >pt/version.txt
check_rc "preflight: the cache of another torch version" 1 pf USE_CUDA=0 MAX_JOBS=1 "$P" preflight pt
check_contains "preflight: the cache of another torch version: said" \
	"FAIL  cache         build/ was configured for torch 2.6.0 (TORCH_BUILD_VERSION, build/CMakeCache.txt line 554), the checkout is 2.7.0 (version.txt): its cache and generated files are another version's" \
	"$(cat "$T/.out")"
echo 2.6.0 >pt/version.txt
rm pt/build/build.ninja
# A cache that is no CMake cache.
printf '\177ELF\0\0\0garbage' >pt/build/CMakeCache.txt
check_rc "preflight: a damaged CMakeCache.txt" 1 pf USE_CUDA=0 MAX_JOBS=1 "$P" preflight pt
check_contains "preflight: a damaged CMakeCache.txt: named" "FAIL  cache         pt/build/CMakeCache.txt cannot be read" \
	"$(cat "$T/.out")"
check_contains "preflight: a damaged CMakeCache.txt: why" "ptinspect: warning: 'pt/build/CMakeCache.txt'" "$(cat "$T/.err")"
# One past the 64 MiB a CMake cache may take (sparse: nothing is written).
rm pt/build/CMakeCache.txt && truncate -s 65M pt/build/CMakeCache.txt
check_rc "preflight: a huge CMakeCache.txt" 1 pf USE_CUDA=0 MAX_JOBS=1 "$P" preflight pt
check_contains "preflight: a huge CMakeCache.txt: why" "ptinspect: 'pt/build/CMakeCache.txt': larger than 64 MiB" \
	"$(cat "$T/.err")"
rm -r pt/build

# A git checkout with a submodule moved to another commit than the superproject records
# ('+' in git submodule status). git runs from /usr/bin here: the other tools stay the fakes.
if command -v git >/dev/null; then
	G() { git -c user.name=t -c user.email=t@example.com -c protocol.file.allow=always -c init.defaultBranch=main "$@"; }
	mkdir gsub && G -C gsub init -q && : >gsub/a && G -C gsub add a && G -C gsub commit -qm a
	cp -r pt gpt && rm -r gpt/third_party gpt/.gitmodules && G -C gpt init -q && G -C gpt add -A &&
		G -C gpt submodule -q add "$T/gsub" third_party/gsub && G -C gpt commit -qm top
	check_rc "preflight: submodules at the recorded commits" 0 pf PATH="$T/bin:/usr/bin" USE_CUDA=0 MAX_JOBS=1 \
		"$P" preflight gpt
	check_contains "preflight: submodules at the recorded commits: said" \
		"ok    submodules    1 submodule at the commits the checkout records (git submodule status)" "$(cat "$T/.out")"
	: >gpt/third_party/gsub/b && G -C gpt/third_party/gsub add b && G -C gpt/third_party/gsub commit -qm b
	check_rc "preflight: a submodule moved" 0 pf PATH="$T/bin:/usr/bin" USE_CUDA=0 MAX_JOBS=1 "$P" preflight gpt
	check_contains "preflight: a submodule moved: said" \
		"warn  submodules    1 submodule at another commit than the checkout records (git submodule status: '+'): third_party/gsub" \
		"$(cat "$T/.out")"
fi

# Usage and input errors.
check_case preflight_usage_no_dir 2 pf "$P" preflight nosuch
check_case preflight_usage_two_dirs 2 pf "$P" preflight pt empty

# The real nvcc 13: the table agrees with what it lists, and each prediction with what it does.
NVCC=/usr/local/cuda/bin/nvcc
if [ ! -x "$NVCC" ]; then
	[ "$PT_FAILS" = 0 ] || finish
	skip "no nvcc at $NVCC: the table is not checked against a real nvcc"
fi
all="3.5;3.7;5.0;5.2;5.3;6.0;6.1;6.2;7.0;7.2;7.5;8.0;8.6;8.7;8.8;8.9;9.0;10.0;10.1;10.3;11.0;12.0;12.1"
pf CUDA_HOME=/usr/local/cuda "TORCH_CUDA_ARCH_LIST=$all" MAX_JOBS=1 "$P" preflight --json empty >real.json
/usr/bin/python3 -c '
import json, sys
for a in json.load(open(sys.argv[1]))["archs"]:
    print(a["target"], "yes" if a["accepted"] else "no")' real.json >predicted
"$NVCC" --list-gpu-code | sort >listed
check_eq "real nvcc: the accepted archs are its --list-gpu-code" "$(cat listed)" \
	"$(awk '$2 == "yes" { print $1 }' predicted | sort)"
printf '__global__ void k() {}\n' >k.cu
while read -r target verdict; do
	n=${target#sm_}
	"$NVCC" -gencode "arch=compute_$n,code=$target" --dryrun -c k.cu -o k.o >nv.out 2>&1
	rc=$?
	if [ "$verdict" = yes ]; then
		check_eq "real nvcc takes $target, as predicted" 0 $rc
	else
		check_contains "real nvcc refuses $target, as predicted" "nvcc fatal   : Unsupported gpu architecture 'compute_$n'" \
			"$(cat nv.out)"
	fi
done <predicted
check_rc "real nvcc: 7.0 predicted to fail" 1 pf CUDA_HOME=/usr/local/cuda TORCH_CUDA_ARCH_LIST=7.0 MAX_JOBS=1 \
	"$P" preflight empty
check_contains "real nvcc: its message shown" "\"nvcc fatal   : Unsupported gpu architecture 'compute_70'\"" \
	"$(cat "$T/.out")"
# --try-nvcc compiles a one-line kernel per arch: the real nvcc refuses 7.0 and takes 8.6, as predicted.
check_rc "real nvcc: --try-nvcc" 1 pf CUDA_HOME=/usr/local/cuda PATH=/usr/bin:/bin "TORCH_CUDA_ARCH_LIST=7.0;8.6" MAX_JOBS=1 \
	"$P" preflight --try-nvcc empty
check_contains "real nvcc: --try-nvcc refuses 7.0" \
	"ok    try-nvcc      sm_70: nvcc refused it, as predicted: 'nvcc fatal   : Unsupported gpu architecture 'compute_70''" \
	"$(cat "$T/.out")"
check_contains "real nvcc: --try-nvcc compiles 8.6" "ok    try-nvcc      sm_86: nvcc compiled a one-line kernel, as predicted" \
	"$(cat "$T/.out")"
finish
