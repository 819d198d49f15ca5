# ptinspect build: TORCH_CUDA_ARCH_LIST of the cache against the SASS/PTX that
# nvcc really put in the CUDA objects the log says were built. Objects made
# here with nvcc, once with the gencode flags the list asks for and once with
# a list that lost an arch (the usual "no kernel image" build). The torch
# tree's CUDA flavour is `tests/torch2/buildtree cuda`.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$NVCC" ] || skip "nvcc not found at $NVCC"
D=$T/tree
mkdir -p "$D/caffe2/CMakeFiles/torch_cuda.dir"
printf 'CMAKE_BUILD_TYPE:STRING=Release\nCMAKE_GENERATOR:INTERNAL=Ninja\nUSE_CUDA:BOOL=ON\nTORCH_CUDA_ARCH_LIST:STRING=9.0+PTX 8.0\n' >"$D/CMakeCache.txt"
echo '__global__ void k(float *x) { x[threadIdx.x] *= 2; }' >"$T/k.cu"
O=caffe2/CMakeFiles/torch_cuda.dir/k.cu.o
"$NVCC" -c -Xcompiler -fPIC -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
	-gencode arch=compute_90,code=compute_90 "$T/k.cu" -o "$D/$O" || { echo "FAIL: nvcc"; finish; }
printf '# ninja log v5\n0\t900\t1\t%s\tabc\n' "$O" >"$D/.ninja_log"

"$P" build --json "$D" >"$T/ok.json"
check_eq "list matches: exit 0" 0 $?
check_eq "found as the list (sorted, ';')" "8.0;9.0+PTX" "$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["libraries"][0]["cuda_arch_list"])' "$T/ok.json")"
check_contains "agreement noted" "its fat binaries hold exactly TORCH_CUDA_ARCH_LIST=9.0+PTX 8.0" "$(cat "$T/ok.json")"
# cuobjdump (when here) lists the same targets.
CUOBJDUMP=$(dirname "$NVCC")/cuobjdump
if [ -x "$CUOBJDUMP" ]; then
	check_eq "cuobjdump agrees" "sm_80 sm_90" "$("$CUOBJDUMP" -lelf "$D/$O" | grep -o 'sm_[0-9]*' | sort -u | paste -sd ' ' -)"
fi

# A build whose objects lost 9.0 (made for 8.0 only) against the same cache.
"$NVCC" -c -Xcompiler -fPIC -gencode arch=compute_80,code=sm_80 "$T/k.cu" -o "$D/$O"
"$P" build "$D" >"$T/bad.txt" 2>&1
check_eq "list mismatch: exit 1" 1 $?
check_contains "mismatch named" "k.cu.o': its fat binaries hold 8.0, but TORCH_CUDA_ARCH_LIST is 9.0+PTX 8.0" "$(cat "$T/bad.txt")"
check_contains "text shows the object's list" "CUDA 8.0" "$(cat "$T/bad.txt")"
finish
