# ptinspect config: the whole text report of a real paste (the oldest format,
# torch ~1.1: BLAS=MKL, no C++ Version, a "Built with CuDNN" sub-line), stdin,
# and the exit codes: 0 parsed, 1 lines not understood, 2 unreadable or not a
# configuration at all.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
F=$PT_FIXTURES/show_config/013.txt
[ -r "$F" ] || fail "no fixture $F"
export NO_COLOR=1

check_eq "whole report of 013.txt" "$(cat <<'EXPECTED'
compiler                 GCC 4.8
build type               Release
BLAS                     MKL
MKL                      2019.0.3
MKL-DNN/oneDNN           v0.18.1
OpenMP                   201107 (a.k.a. OpenMP 3.1)
NNPACK                   enabled
CUDA runtime             9.2
SASS                     sm_52
PTX                      none
TORCH_CUDA_ARCH_LIST     5.2
cuDNN                    7.4.2
built with cuDNN         7.1.2
Magma                    2.5.0
build settings
  BLAS=MKL
  BUILD_TYPE=Release
  CXX_FLAGS=  -Wno-deprecated -fvisibility-inlines-hidden -fopenmp -O2 -fPIC -Wno-narrowing -Wall -Wextra -Wno-missing-field-initializers -Wno-type-limits -Wno-array-bounds -Wno-unknown-pragmas -Wno-sign-compare -Wno-unused-parameter -Wno-unused-variable -Wno-unused-function -Wno-unused-result -Wno-strict-overflow -Wno-strict-aliasing -Wno-error=deprecated-declarations -Wno-error=pedantic -Wno-error=redundant-decls -Wno-error=old-style-cast -Wno-unused-but-set-variable -Wno-maybe-uninitialized
  DISABLE_NUMA=1
  PERF_WITH_AVX=1
  PERF_WITH_AVX2=1
  USE_CUDA=True
  USE_EXCEPTION_PTR=1
  USE_GFLAGS=OFF
  USE_GLOG=OFF
  USE_MKL=ON
  USE_MKLDNN=ON
  USE_MPI=OFF
  USE_NCCL=True
  USE_NNPACK=True
  USE_OPENMP=ON
EXPECTED
)" "$("$P" config "$F")"
check_rc "013.txt: exit" 0 "$P" config "$F"

# Standard input, JSON.
printf 'PyTorch built with:\n  - GCC 9.3\n  - CuDNN 90.1.0\n' | "$P" config --json - >"$T/stdin.json"
check_eq "stdin: exit" 0 $?
check_eq "stdin: fields" "GCC 9.3 9.1.0" "$(/usr/bin/python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["config"]; print(c["compiler"], c["cudnn_version"])' "$T/stdin.json")"

# A line that is not part of the configuration is kept and makes the exit 1.
{ echo 'Collecting environment information...'; cat "$F"; } >"$T/with_noise.txt"
check_rc "an unknown line: exit 1" 1 "$P" config "$T/with_noise.txt"
check_contains "unknown line kept in the report" "  Collecting environment information..." "$(cat "$T/.out")"
check_contains "unknown line named with its place" "'$T/with_noise.txt': line 1: not part of the configuration" "$(cat "$T/.err")"

# A text that is not show_config output at all: one line saying so, nothing else, exit 2.
echo 'hello' >"$T/hello.txt"
check_rc "not a configuration: exit 2" 2 "$P" config "$T/hello.txt"
check_eq "not a configuration: one line" "ptinspect: '$T/hello.txt': not a torch configuration text: no 'PyTorch built with:' line and none of the entries torch.__config__.show() prints" "$(cat "$T/.err")"
check_eq "not a configuration: no report" "" "$(cat "$T/.out")"
check_rc "/etc/passwd: exit 2" 2 "$P" config /etc/passwd
check_eq "/etc/passwd: one line" 1 "$(wc -l <"$T/.err")"
check_eq "/etc/passwd: nothing echoed" "" "$(cat "$T/.out")"
check_rc "missing file: exit 2" 2 "$P" config "$T/nope.txt"
check_contains "missing file: message" "ptinspect: '$T/nope.txt': cannot open: No such file or directory" "$(cat "$T/.err")"
finish
