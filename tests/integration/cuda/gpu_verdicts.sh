# ctest-timeout: 1200
# GPU verdicts on Debian's real libtorch_cuda.so (SASS sm_50..sm_90a, PTX compute_90
# of ISA 8.4) in the CUDA test bed: the whole text report and the JSON verdicts for a
# GTX 1080 (6.1), an RTX 4090 (8.9), an H100 (9.0), a B200 (10.0) and an RTX 5090
# (12.0); capabilities no GPU has are refused (exit 2, the nearest that exist named);
# --gpu=auto on this machine (no NVIDIA driver) and on a faked one (the driver's
# /proc files bound over /proc/driver in a private mount namespace, a libcuda.so.1
# built here and found through LD_LIBRARY_PATH, as dlopen would find the real one).
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/cudabed.sh"
need jq
cudabed_up
P=$PTINSPECT
lib=$BED$LIBDIR/libtorch_cuda.so.2.6
# The JIT lines depend on the driver's cache settings: the defaults unless a check sets them.
unset CUDA_CACHE_MAXSIZE CUDA_CACHE_DISABLE

cat >"$T/want.txt" <<'WANT'
BED/usr/lib/x86_64-linux-gnu/libtorch_cuda.so.2.6
  CUDA      341 fat binaries, 2730 entries, 1.03 GB of device code
    .nv_fatbin       registered  341 fat binaries, 2730 entries, 1.03 GB (341 wrappers)
  SASS      sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90 sm_90a
  PTX       compute_90 (ISA 8.4)
  TORCH_CUDA_ARCH_LIST  5.0;6.0;7.0;7.5;8.0;8.6;9.0+PTX  (in all but a few of the 341 fat binaries)
    also, in under a tenth of them: sm_90a (2)
  nvcc      -gencode arch=compute_50,code=sm_50 -gencode arch=compute_60,code=sm_60 -gencode arch=compute_70,code=sm_70 -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_86,code=sm_86 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90,code=compute_90
  per target         entries      stored    unpacked
    sm_50                341    114.1 MB    437.7 MB
    sm_60                341    114.5 MB    438.7 MB
    sm_70                341     86.4 MB    500.7 MB
    sm_75                341     82.3 MB    492.9 MB
    sm_80                341    117.7 MB    574.9 MB
    sm_86                341    116.3 MB    576.0 MB
    sm_90                341    121.2 MB    617.2 MB
    sm_90a                 2    668.6 KB      3.6 MB
    compute_90           341    306.5 MB     1.19 GB
  GPU 6.1: 6.1 (GTX 1080/1070/1060, P40/P4)
    runs: compatible SASS sm_60
  GPU 8.9: 8.9 (L4/L40/RTX 4090)
    runs: compatible SASS sm_86
  GPU 9.0: 9.0 (H100/H200/GH200)
    runs: exact SASS sm_90
  GPU 10.0: 10.0 (B200/GB200)
    runs through PTX JIT of compute_90 (PTX ISA 8.4: the driver must support CUDA >= 12.4), no SASS for it
    JIT: 1.19 GB of PTX in 341 fat binaries, compiled at first use (minutes at this size)
    more than the JIT cache keeps (1.00 GB, CUDA_CACHE_MAXSIZE's default): processes compile part of it again;
    raise CUDA_CACHE_MAXSIZE (4 GiB at most) or add 10.0 to TORCH_CUDA_ARCH_LIST
    torch warns "Minimum and Maximum cuda capability supported by this version of PyTorch is (5.0) - (9.0)" but this GPU can run it
    torch warns "... is not compatible with the current PyTorch installation" (no sm_10* cubin) but PTX JIT runs it
  GPU 12.0: 12.0 (RTX 5090/5080/5070, RTX PRO Blackwell)
    runs through PTX JIT of compute_90 (PTX ISA 8.4: the driver must support CUDA >= 12.4), no SASS for it
    JIT: 1.19 GB of PTX in 341 fat binaries, compiled at first use (minutes at this size)
    more than the JIT cache keeps (1.00 GB, CUDA_CACHE_MAXSIZE's default): processes compile part of it again;
    raise CUDA_CACHE_MAXSIZE (4 GiB at most) or add 12.0 to TORCH_CUDA_ARCH_LIST
    torch warns "Minimum and Maximum cuda capability supported by this version of PyTorch is (5.0) - (9.0)" but this GPU can run it
    torch warns "... is not compatible with the current PyTorch installation" (no sm_12* cubin) but PTX JIT runs it
WANT
"$P" cuda --gpu 6.1 --gpu 8.9 --gpu 9.0 --gpu 10.0 --gpu 12.0 "$lib" >"$T/out.txt" 2>"$T/err"
check_eq "text: exit 0 (every GPU named can run it)" 0 $?
sed "s|$BED|BED|" "$T/out.txt" >"$T/got.txt"
if diff -u "$T/want.txt" "$T/got.txt" >"$T/diff"; then pass; else fail "text report differs"; cat "$T/diff"; fi
check_eq "text: nothing on stderr" "" "$(cat "$T/err")"

"$P" --json cuda --gpu 6.1 --gpu gtx1080 --gpu 8.9 --gpu 9.0 --gpu 10.0 --gpu rtx5090 "$lib" >"$T/v.json"
check_eq "json: exit 0" 0 $?
jq -c '.files[0].cuda.gpu_verdict[]' "$T/v.json" >"$T/got.jsonl"
cat >"$T/want.jsonl" <<'WANT'
{"gpu":"6.1","cc":"6.1","names":"GTX 1080/1070/1060, P40/P4","verdict":"sass_compatible","runs":true,"sass":"sm_60","ptx":null,"ptx_isa":null,"ptx_min_driver":null,"registered_fatbins":341,"fatbins_without_image":0,"jit_fatbins":0,"jit_ptx_bytes":0,"jit_cache_exceeded":false,"torch_false_warnings":[]}
{"gpu":"gtx1080","cc":"6.1","names":"GTX 1080/1070/1060, P40/P4","verdict":"sass_compatible","runs":true,"sass":"sm_60","ptx":null,"ptx_isa":null,"ptx_min_driver":null,"registered_fatbins":341,"fatbins_without_image":0,"jit_fatbins":0,"jit_ptx_bytes":0,"jit_cache_exceeded":false,"torch_false_warnings":[]}
{"gpu":"8.9","cc":"8.9","names":"L4/L40/RTX 4090","verdict":"sass_compatible","runs":true,"sass":"sm_86","ptx":null,"ptx_isa":null,"ptx_min_driver":null,"registered_fatbins":341,"fatbins_without_image":0,"jit_fatbins":0,"jit_ptx_bytes":0,"jit_cache_exceeded":false,"torch_false_warnings":[]}
{"gpu":"9.0","cc":"9.0","names":"H100/H200/GH200","verdict":"sass_exact","runs":true,"sass":"sm_90","ptx":"compute_90","ptx_isa":"8.4","ptx_min_driver":"12.4","registered_fatbins":341,"fatbins_without_image":0,"jit_fatbins":0,"jit_ptx_bytes":0,"jit_cache_exceeded":false,"torch_false_warnings":[]}
{"gpu":"10.0","cc":"10.0","names":"B200/GB200","verdict":"ptx_jit","runs":true,"sass":null,"ptx":"compute_90","ptx_isa":"8.4","ptx_min_driver":"12.4","registered_fatbins":341,"fatbins_without_image":0,"jit_fatbins":341,"jit_ptx_bytes":1275590961,"jit_cache_exceeded":true,"torch_false_warnings":["capability_range","no_cubin_for_major"]}
{"gpu":"rtx5090","cc":"12.0","names":"RTX 5090/5080/5070, RTX PRO Blackwell","verdict":"ptx_jit","runs":true,"sass":null,"ptx":"compute_90","ptx_isa":"8.4","ptx_min_driver":"12.4","registered_fatbins":341,"fatbins_without_image":0,"jit_fatbins":341,"jit_ptx_bytes":1275590961,"jit_cache_exceeded":true,"torch_false_warnings":["capability_range","no_cubin_for_major"]}
WANT
if diff -u "$T/want.jsonl" "$T/got.jsonl" >"$T/diff"; then pass; else fail "json verdicts differ"; cat "$T/diff"; fi

# PTX JIT: 1.19 GB of compute_90 PTX for a Blackwell GPU, more than the driver's JIT cache
# keeps by default (1 GiB); with CUDA_CACHE_MAXSIZE at its 4 GiB maximum it is kept; with
# CUDA_CACHE_DISABLE=1 every process compiles it; a malformed size is a note, the default kept.
out=$(CUDA_CACHE_MAXSIZE=4294967296 "$P" cuda --gpu 12.0 "$lib" 2>&1)
check_contains "JIT cache of 4 GiB: kept" \
	"    JIT: 1.19 GB of PTX in 341 fat binaries, compiled at first use (minutes at this size), then kept in the JIT cache" "$out"
case "$out" in *"more than the JIT cache"*) fail "JIT cache of 4 GiB: still the warning" ;; *) pass ;; esac
out=$(CUDA_CACHE_DISABLE=1 "$P" cuda --gpu 12.0 "$lib" 2>&1)
check_contains "CUDA_CACHE_DISABLE=1: every process" \
	"    the JIT cache is off (CUDA_CACHE_DISABLE=1): every process compiles it again" "$out"
out=$(CUDA_CACHE_MAXSIZE=2G "$P" cuda --gpu 12.0 "$lib" 2>&1)
check_contains "CUDA_CACHE_MAXSIZE=2G: a note" \
	"ptinspect: note: 'CUDA_CACHE_MAXSIZE': not a byte count: the driver's default (1 GiB) assumed" "$out"
check_contains "CUDA_CACHE_MAXSIZE=2G: the default" "(1.00 GB, CUDA_CACHE_MAXSIZE's default)" "$out"
check_eq "--json: a GPU with SASS JITs nothing" "0 0 false" \
	"$(CUDA_CACHE_DISABLE=1 "$P" --json cuda --gpu 9.0 "$lib" | jq -r '.files[0].cuda.gpu_verdict[0] | "\(.jit_fatbins) \(.jit_ptx_bytes) \(.jit_cache_exceeded)"')"

# Capabilities no GPU has: refused before any file is read.
check_rc "--gpu=sm_999: exit 2" 2 "$P" cuda --gpu=sm_999 "$lib"
check_eq "--gpu=sm_999: the message" \
	"ptinspect: --gpu 'sm_999': no GPU has compute capability 99.9; the highest that exists is 12.1 (GB10)" \
	"$(cat "$T/.err")"
check_eq "--gpu=sm_999: no report" "" "$(cat "$T/.out")"
check_rc "--gpu 9.9: exit 2" 2 "$P" cuda --gpu 9.9 "$lib"
check_eq "--gpu 9.9: the message" \
	"ptinspect: --gpu '9.9': no GPU has compute capability 9.9; the nearest that exist are 9.0 (H100/H200/GH200) and 10.0 (B200/GB200)" \
	"$(cat "$T/.err")"
check_rc "--gpu 13.0 --json: exit 2" 2 "$P" --json cuda --gpu 13.0 "$lib"
check_eq "--gpu 13.0: the message" \
	"ptinspect: --gpu '13.0': no GPU has compute capability 13.0; the highest that exists is 12.1 (GB10)" \
	"$(cat "$T/.err")"
check_rc "--gpu rtx9999: exit 2" 2 "$P" cuda --gpu rtx9999 "$lib"
check_eq "--gpu rtx9999: the message" \
	"ptinspect: unknown GPU 'rtx9999' (try 8.6, sm_86, 86, h100, rtx5090, auto)" "$(cat "$T/.err")"

# --gpu=auto here: no NVIDIA driver, no libcuda.so.1 on the host's loader path.
if [ -e /proc/driver/nvidia/version ]; then
	echo "  (this machine has an NVIDIA driver: the no-GPU case is not checked)"
else
	check_rc "--gpu=auto without a GPU: exit 1" 1 env LD_LIBRARY_PATH= "$P" cuda --gpu=auto "$lib"
	check_contains "--gpu=auto without a GPU: said plainly" \
		"ptinspect: --gpu=auto: no NVIDIA GPU on this machine (no /proc/driver/nvidia/version (the NVIDIA kernel driver is not loaded); libcuda.so.1: cannot open shared object file" \
		"$(cat "$T/.err")"
	check_contains "--gpu=auto without a GPU: the report is still there" "TORCH_CUDA_ARCH_LIST  5.0;6.0;7.0;7.5;8.0;8.6;9.0+PTX  (in all but a few of the 341 fat binaries)" "$(cat "$T/.out")"
fi

# A faked machine: a 535 driver (CUDA 12.2) with an RTX 5090 and an H100. libcuda
# answers with exact capabilities; compute_90 PTX of ISA 8.4 needs CUDA 12.4, so the
# RTX 5090 cannot JIT it (error 222) while the H100 runs its SASS.
mkdir -p "$T/cuda" "$T/nv/nvidia/gpus/0000:01:00.0" "$T/nv/nvidia/gpus/0000:41:00.0"
build_so "$T/cuda/libcuda.so.1" '
#include <string.h>
static const char *names[] = { "NVIDIA GeForce RTX 5090", "NVIDIA H100 80GB HBM3" };
static const char *buses[] = { "00000000:01:00.0", "00000000:41:00.0" };
static const int cc[][2] = { { 12, 0 }, { 9, 0 } };
int cuInit(unsigned f) { (void)f; return 0; }
int cuDriverGetVersion(int *v) { *v = 12020; return 0; }
int cuDeviceGetCount(int *n) { *n = 2; return 0; }
int cuDeviceGet(int *d, int i) { *d = i; return 0; }
int cuDeviceGetName(char *s, int n, int d) { strncpy(s, names[d], (size_t)n); return 0; }
int cuDeviceGetPCIBusId(char *s, int n, int d) { strncpy(s, buses[d], (size_t)n); return 0; }
int cuDeviceGetAttribute(int *v, int a, int d) { *v = a == 75 ? cc[d][0] : a == 76 ? cc[d][1] : 0; return 0; }
int cuGetErrorString(int e, const char **s) { (void)e; *s = "x"; return 0; }' -Wl,-soname,libcuda.so.1
printf 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n' >"$T/nv/nvidia/version"
printf 'Model: \t\t NVIDIA GeForce RTX 5090\nBus Location: \t 0000:01:00.0\n' >"$T/nv/nvidia/gpus/0000:01:00.0/information"
printf 'Model: \t\t NVIDIA H100 80GB HBM3\nBus Location: \t 0000:41:00.0\n' >"$T/nv/nvidia/gpus/0000:41:00.0/information"
faked() {
	unshare -m --propagation private sh -c 'mount --bind "$1" /proc/driver && shift && exec "$@"' sh "$T/nv" "$@"
}
if ! faked true 2>/dev/null; then
	echo "  (no mount namespace here: the faked driver is not checked)"
else
	faked env LD_LIBRARY_PATH="$T/cuda" "$P" cuda --gpu=auto "$lib" >"$T/auto.txt" 2>"$T/auto.err"
	check_eq "--gpu=auto, faked: exit 1 (the RTX 5090's driver cannot JIT the PTX)" 1 $?
	check_eq "--gpu=auto, faked: stderr" "" "$(cat "$T/auto.err")"
	cat >"$T/want" <<'WANT'
  GPU NVIDIA GeForce RTX 5090: 12.0 (RTX 5090/5080/5070, RTX PRO Blackwell)
    cannot run: only PTX JIT of compute_90, whose ISA 8.4 needs a driver for CUDA >= 12.4; this driver supports 12.2 (error 222, "the provided PTX was compiled with an unsupported toolchain.")
  GPU NVIDIA H100 80GB HBM3: 9.0 (H100/H200/GH200)
    runs: exact SASS sm_90
WANT
	sed -n '/^  GPU /,$p' "$T/auto.txt" >"$T/got"
	if diff -u "$T/want" "$T/got" >"$T/diff"; then pass; else fail "--gpu=auto, faked: verdicts"; cat "$T/diff"; fi
	faked env LD_LIBRARY_PATH="$T/cuda" "$P" --json cuda --gpu=auto "$lib" >"$T/auto.json" 2>/dev/null
	check_eq "--gpu=auto, faked: json" \
		'"NVIDIA GeForce RTX 5090" 12.0 none 12.2 true|"NVIDIA H100 80GB HBM3" 9.0 sass_exact 12.2 false' \
		"$(jq -r '[.files[0].cuda.gpu_verdict[] | "\(.gpu | tojson) \(.cc) \(.verdict) \(.driver_cuda) \(.ptx_jit_blocked)"] | join("|")' "$T/auto.json")"
	# Without libcuda the /proc files alone: capabilities from the model names, CUDA 12.2 for driver 535.104.05.
	faked env LD_LIBRARY_PATH="$T/nowhere" "$P" --json cuda --gpu=auto "$lib" >"$T/proc.json" 2>"$T/proc.err"
	check_eq "--gpu=auto, /proc only: same verdicts" \
		'"NVIDIA GeForce RTX 5090" 12.0 none 12.2 true|"NVIDIA H100 80GB HBM3" 9.0 sass_exact 12.2 false' \
		"$(jq -r '[.files[0].cuda.gpu_verdict[] | "\(.gpu | tojson) \(.cc) \(.verdict) \(.driver_cuda) \(.ptx_jit_blocked)"] | join("|")' "$T/proc.json")"
fi
finish
