. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1800
# ptinspect doctor on the CUDA test bed's real torch 2.6 (Debian's
# python3-torch-cuda: CUDA_VERSION=12.4, CUDNN_VERSION=9.0.0, libcudart.so.12.4.127,
# libnccl.so.2.22.3), with the cuDNN this machine has, NVIDIA's cuDNN 9 for CUDA
# 13 (libcudnn.so.9 and libcudnn_graph.so.9 from /usr/local/cuda-13.0/lib, its
# nvidia_cudnn_cu13 dist-info beside), on LD_LIBRARY_PATH: torch imports and
# torch.backends.cudnn.version() answers, but that cuDNN is the build for
# another CUDA major (issue 32 item 11). Then, on the same real libcudart, a
# cuda-compat libcuda ahead of the driver's and CUDA_VISIBLE_DEVICES="" (item 14).
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
. "$PT_TESTLIB/testbed.sh"
PY=/usr/bin/python3
CU13=/usr/local/cuda-13.0
[ -f $CU13/lib/libcudnn.so.9 ] && [ -f $CU13/lib/libcudnn_graph.so.9 ] || skip "no cuDNN for CUDA 13 in $CU13/lib"
DIST=$(cd $CU13/dist-info 2>/dev/null && ls -d nvidia_cudnn_cu13-*.dist-info | head -1)
[ -n "$DIST" ] || skip "no nvidia_cudnn_cu13 dist-info in $CU13/dist-info"
CUDNN_VER=${DIST#nvidia_cudnn_cu13-}
CUDNN_VER=${CUDNN_VER%.dist-info}

testbed_ready --flavour cuda
P=$TB_BUILD/inspect/ptinspect
run() { "$TB" --flavour cuda run -b "$T:/t" "$@"; }

mkdir -p "$T/cudnn/lib" "$T/cudnn/dist-info"
cp $CU13/lib/libcudnn.so.9 $CU13/lib/libcudnn_graph.so.9 "$T/cudnn/lib/"
cp -r "$CU13/dist-info/$DIST" "$T/cudnn/dist-info/"

# What torch itself says with that cuDNN.
run sh -c "LD_LIBRARY_PATH=/t/cudnn/lib $PY -c 'import torch; print(torch.version.cuda, torch.backends.cudnn.version())' >/t/py.out 2>&1"
V=$(echo "$CUDNN_VER" | awk -F. '{ printf "%d%02d%02d", $1, $2, $3 }')
check_eq "python: torch imports, cuDNN answers" "12.4 $V" "$(cat "$T/py.out")"

run sh -c "LD_LIBRARY_PATH=/t/cudnn/lib $P doctor --python $PY >/t/doctor.txt 2>&1; echo \$? >/t/rc"
check_eq "doctor: exit" 1 "$(cat "$T/rc")"
MSG="cuDNN: the cuDNN loaded, /t/cudnn/lib/libcudnn.so.9, is the build for CUDA 13 ($DIST), torch is built for CUDA 12.4 (CUDA_VERSION build setting): cuDNN supports only the CUDA major it is built for; install the cuDNN for CUDA 12 (nvidia-cudnn-cu12)"
check_eq "doctor: first line" "ptinspect doctor: $PY: $MSG" "$(head -1 "$T/doctor.txt")"
check_contains "doctor: cuDNN versions" \
	"note: [cudastack] cuDNN: built with 9.0.0 (CUDNN_VERSION build setting), loads ${CUDNN_VER%.*} (/t/cudnn/lib/libcudnn.so.9, version from torch.backends.cudnn.version()): versions compatible" \
	"$(cat "$T/doctor.txt")"
RT=$(run sh -c 'readlink -f /usr/lib/x86_64-linux-gnu/libcudart.so.12')
check_contains "doctor: CUDA runtime" \
	"note: [cudastack] CUDA runtime: built with 12.4 (CUDA_VERSION build setting), loads ${RT##*libcudart.so.} ($RT, version from the file name): versions compatible" \
	"$(cat "$T/doctor.txt")"
NC=$(run sh -c 'readlink -f /usr/lib/x86_64-linux-gnu/libnccl.so.2')
check_contains "doctor: NCCL" "note: [cudastack] NCCL: loads ${NC##*libnccl.so.} ($NC, version from the file name); USE_NCCL=ON" \
	"$(cat "$T/doctor.txt")"
# Without that cuDNN the import fails on libcudnn.so.9 (doctor_cuda.sh): no version claims then.
run sh -c "$P doctor --python $PY >/t/plain.txt 2>&1"
check_not_contains "no cuDNN: no cuDNN comparison" "[cudastack] cuDNN" "$(cat "$T/plain.txt")"

# A cuda-compat libcuda (made here: soname libcuda.so.1, named as cuda-compat 12.8 ships it) first.
mkdir -p "$T/cuda-12.8/compat"
printf 'int cuDriverGetVersion(int *v) { *v = 12080; return 0; }\n' >"$T/cuda-12.8/compat/cuda.c"
cc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$T/cuda-12.8/compat/libcuda.so.570.124.06" "$T/cuda-12.8/compat/cuda.c" || fail "cannot build libcuda"
ln -s libcuda.so.570.124.06 "$T/cuda-12.8/compat/libcuda.so.1"
run sh -c "LD_LIBRARY_PATH=/t/cuda-12.8/compat:/t/cudnn/lib $P doctor --python $PY >/t/compat.txt 2>&1"
check_contains "compat libcuda named" \
	"PROBLEM libcuda.so.1 resolves to cuda-compat's /t/cuda-12.8/compat/libcuda.so.570.124.06 (driver API 570.124.06) ahead of the driver's own libcuda" \
	"$(cat "$T/compat.txt")"
run sh -c "CUDA_VISIBLE_DEVICES= LD_LIBRARY_PATH=/t/cudnn/lib $P doctor --python $PY >/t/vis.txt 2>&1"
check_contains "CUDA_VISIBLE_DEVICES named" \
	"PROBLEM CUDA_VISIBLE_DEVICES=\"\" hides every GPU: torch.cuda.is_available() is False and torch.cuda.device_count() 0 in this environment; unset it" \
	"$(cat "$T/vis.txt")"
finish
