# ptinspect cuda on every library of the CUDA 13 tree in /usr/local/cuda/lib64:
# no errors and no warnings on NVIDIA's own files, and the fat binaries kept
# outside .nv_fatbin are found by default (docs/formats/cuda-fatbin.md §1, §15):
# cuFFT's sm_80/sm_90 kernels live only in .ldata, without wrappers.
# ctest-timeout: 300
. "$PT_TESTLIB/common.sh" || exit 2
LIB=${PT_CUDA_LIB64:-/usr/local/cuda/lib64}
[ -f "$LIB/libcufft.so.12" ] || skip "no CUDA 13 libraries in $LIB"
P=$PTINSPECT
PY=/usr/bin/python3
q() {
	$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["files"][0]["cuda"]; print(eval(sys.argv[2]))' "$1" "$2"
}

n=0
for f in "$LIB"/*.so*; do
	[ -L "$f" ] && continue	# each real file once
	n=$((n + 1))
	"$P" --json cuda "$f" >"$T/one.json" 2>"$T/one.err"
	rc=$?
	check_eq "$(basename "$f"): exit code" 0 "$rc"
	check_eq "$(basename "$f"): no diagnostics" "" "$(cat "$T/one.err")"
done
[ "$n" -ge 20 ] || fail "only $n libraries in $LIB"

# cuFFT: one sm_75 cubin in .nv_fatbin, 23,983 fat binaries in .ldata (CUDA 13.0's cuFFT 12).
"$P" --json cuda --gpu h100 "$LIB/libcufft.so.12" >"$T/fft.json"
check_contains "cuFFT: sm_80 found by default" "sm_80" "$(q "$T/fft.json" 'c["sass"]')"
check_contains "cuFFT: sm_90 found by default" "sm_90" "$(q "$T/fft.json" 'c["sass"]')"
check_eq "cuFFT: .ldata holds embedded fat binaries" "embedded" \
	"$(q "$T/fft.json" '[s["kind"] for s in c["sections"] if s["name"]==".ldata"][0]')"
check_eq "cuFFT: sm_90 entries are all outside .nv_fatbin" "True" \
	"$(q "$T/fft.json" 'all(e["section"] != ".nv_fatbin" for e in c["entries"] if e["target"]=="sm_90")')"
check_eq "cuFFT: H100 runs it (exact sm_90)" "sass_exact" "$(q "$T/fft.json" 'c["gpu_verdict"][0]["verdict"]')"
"$P" --json cuda --registered-only "$LIB/libcufft.so.12" >"$T/fft-reg.json"
check_eq "cuFFT --registered-only: .nv_fatbin alone says sm_75" "['sm_75']" "$(q "$T/fft-reg.json" 'c["sass"]')"

# cuBLASLt: .cask_resource beside .nv_fatbin; every registered fat binary has a wrapper.
"$P" --json cuda "$LIB/libcublasLt.so.13" >"$T/lt.json"
check_eq "cuBLASLt: sections" ".nv_fatbin:registered .cask_resource:embedded" \
	"$(q "$T/lt.json" '" ".join(s["name"] + ":" + s["kind"] for s in c["sections"])')"
check_eq "cuBLASLt: wrappers equal registered fat binaries" "True" \
	"$(q "$T/lt.json" 'c["wrappers"] == c["sections"][0]["count"]')"
# NCCL: relocatable fat binaries.
"$P" --json cuda "$LIB/libnccl.so.2" >"$T/nccl.json"
check_contains "NCCL: __nv_relfatbin is relocatable" "__nv_relfatbin:relocatable" \
	"$(q "$T/nccl.json" '" ".join(s["name"] + ":" + s["kind"] for s in c["sections"])')"
# cuDNN 9.19: compute_121 PTX with ISA 9.1 (a CUDA 13.1 driver; §10 item 5). No GPU of
# capability 13.0 exists, so --gpu 13.0 is refused rather than judged.
"$P" --json cuda --gpu 12.1 "$LIB/libcudnn_ops.so.9" >"$T/ops.json"
check_eq "cuDNN ops: compute_121 PTX of ISA 9.1" "9.1" \
	"$(q "$T/ops.json" '[t["max_ptx_isa"] for t in c["per_target"] if t["target"] == "compute_121"][0]')"
check_eq "cuDNN ops on CC 12.1: exact SASS sm_121, PTX needs CUDA 13.1" "sass_exact sm_121 compute_121 13.1" \
	"$(q "$T/ops.json" '" ".join(str(c["gpu_verdict"][0][k]) for k in ("verdict", "sass", "ptx", "ptx_min_driver"))')"
check_rc "cuDNN ops: --gpu 13.0 (no such GPU) is a usage error" 2 "$P" cuda --gpu 13.0 "$LIB/libcudnn_ops.so.9"

# --verify over LZ4 (cuFFT .ldata, cuSPARSE .rodata) and zstd: every SASS/PTX entry decompresses.
for f in libcufft.so.12 libcusparse.so.12; do
	"$P" --json cuda --verify "$LIB/$f" >"$T/v.json" 2>"$T/v.err"
	check_eq "$f --verify: exit 0" 0 $?
	check_eq "$f --verify: no failures" "0" "$(q "$T/v.json" 'c["verify"]["failed"]')"
	check_contains "$f --verify: LZ4 entries checked" "lz4" "$(q "$T/v.json" '{e["compression"] for e in c["entries"]}')"
done
finish
