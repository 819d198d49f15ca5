# Whole renderings of `ptinspect cuda` (and the default report's CUDA part)
# compared with expected/*.txt (check_case, tests/lib/common.sh) on a library
# built here with nvcc from docs/examples/my_ext.cu: the target summary, --gpu
# verdicts (exact SASS, compatible SASS, PTX JIT, cannot run), --verify,
# --entries, and a copy with one entry header zeroed. Sizes of device code
# depend on nvcc's release: the expected files were recorded with nvcc 13.0.
# Rewrite them: PT_UPDATE_EXPECTED=1 ctest -R inspect_cuda_whole_output
. "$PT_TESTLIB/common.sh" || exit 2
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$NVCC" ] || skip "nvcc not found at $NVCC: the CUDA library cannot be built"
rel=$("$NVCC" --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
[ "$rel" = 13.0 ] || skip "nvcc $rel at $NVCC: the expected device-code sizes were recorded with nvcc 13.0"
P=$PTINSPECT
E=$PT_SRC/tests/integration/inspect/expected
export NO_COLOR=1
NORM=()	# nothing varies but the scratch directory
cd "$T" || exit 2
cp "$PT_SRC/docs/examples/my_ext.cu" . || exit 2
"$NVCC" -c -Xcompiler -fPIC -Xfatbin -compress-all -gencode arch=compute_80,code=sm_80 \
	-gencode arch=compute_86,code=sm_86 -gencode 'arch=compute_90,code=[sm_90,compute_90]' my_ext.cu -o my_ext.o \
	&& cc -shared -o libmy_ext.so my_ext.o || { echo "FAIL: cannot build libmy_ext.so"; finish; }

check_case cuda_summary 0 "$P" cuda libmy_ext.so
check_case cuda_gpus 1 "$P" cuda --gpu a100 --gpu rtx4090 --gpu gb10 --gpu t4 libmy_ext.so
check_case cuda_verify 0 "$P" cuda --verify libmy_ext.so
check_case cuda_entries 0 "$P" cuda --entries libmy_ext.so
check_case cuda_files_default 0 "$P" libmy_ext.so
/usr/bin/python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); i = b.find(bytes.fromhex("50ed55ba"))
b[i + 20:i + 24] = bytes(4); open(sys.argv[2], "wb").write(b)' libmy_ext.so libdamaged.so
check_case cuda_damaged 1 "$P" cuda libdamaged.so
finish
