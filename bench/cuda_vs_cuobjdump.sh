#!/usr/bin/env bash
# ptinspect beside NVIDIA's cuobjdump on the same library in the same run:
# Debian's libtorch_cuda.so.2.6 (1.1 GB, 341 fat binaries, 2,730 entries) from
# the CUDA test bed, and cuobjdump 12.4 from the same bed (nvidia-cuda-toolkit,
# run from the host: it needs only libc). Both list every SASS and PTX entry:
#   cuobjdump -all --list-elf --list-ptx LIB
#   ptinspect cuda --registered-only LIB   (the same fat binaries; and the default,
#                                           which also scans the other data sections)
# The entry counts are checked equal first. Median wall time and CPU time
# (user + system) over RUNS runs each, warm page cache, and the ratio.
#
# usage: bench/cuda_vs_cuobjdump.sh [LIBRARY] [RUNS]
#   RUNS: 5, or PT_BENCH_RUNS (the guide test sets 1: it checks the run, not the figures)
#   PTINSPECT=path/to/ptinspect (default: build-rel/, else build/)
#   CUOBJDUMP=path/to/cuobjdump (default: the CUDA test bed's)
#   The CUDA test bed is made when absent (tests/torch2/testbed --flavour cuda, a few minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${2:-${PT_BENCH_RUNS:-5}}
P=${PTINSPECT:-}
if [ -z "$P" ]; then
	for c in build-rel/inspect/ptinspect build/inspect/ptinspect; do
		[ -x "$c" ] && { P=$c; break; }
	done
fi
[ -n "$P" ] && [ -x "$P" ] || { echo "cuda_vs_cuobjdump.sh: no ptinspect binary (set PTINSPECT)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "cuda_vs_cuobjdump.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
LIB=${1:-}
CO=${CUOBJDUMP:-}
if [ -z "$LIB" ] || [ -z "$CO" ]; then
	tests/torch2/testbed --flavour cuda create 2>/dev/null || {
		echo "cuda_vs_cuobjdump.sh: the CUDA test bed cannot be made here (tests/torch2/testbed --flavour cuda)" >&2
		exit 2
	}
	BED=$(tests/torch2/testbed --flavour cuda info 2>/dev/null | awk '$1 == "root:" { print $2 }')
	[ -n "$LIB" ] || LIB=$BED/usr/lib/x86_64-linux-gnu/libtorch_cuda.so.2.6
	[ -n "$CO" ] || CO=$(find "$BED/opt/nvidia-cuda-toolkit" -name cuobjdump -type f | head -1)
fi
[ -f "$LIB" ] || { echo "cuda_vs_cuobjdump.sh: no such library: $LIB" >&2; exit 2; }
[ -x "$CO" ] || { echo "cuda_vs_cuobjdump.sh: no cuobjdump (set CUOBJDUMP)" >&2; exit 2; }

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# measure VAR CMD...: median wall ms and cpu ms into VAR_wall, VAR_cpu.
measure() {
	local var=$1 t0 t1 w=() c=()
	shift
	"$@" >/dev/null 2>&1	# warm the page cache
	for _ in $(seq "$RUNS"); do
		t0=$(date +%s%N)
		/usr/bin/time -f '%U %S' -o /tmp/cuda_vs_co.$$ "$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		w+=("$(( (t1 - t0) / 1000 ))")
		c+=("$(awk '{ printf "%d", ($1 + $2) * 1000000 }' /tmp/cuda_vs_co.$$)")
	done
	rm -f /tmp/cuda_vs_co.$$
	printf -v "${var}_wall" '%s' "$(printf '%s\n' "${w[@]}" | median | awk '{ printf "%.1f", $1 / 1000 }')"
	printf -v "${var}_cpu" '%s' "$(printf '%s\n' "${c[@]}" | median | awk '{ printf "%.1f", $1 / 1000 }')"
}

echo "ptinspect: $P"
echo "cuobjdump: $CO ($("$CO" --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p'))"
echo "library:   $LIB ($(du -mL "$LIB" | cut -f1) MB)"
co_elf=$("$CO" -all --list-elf "$LIB" | grep -c '^ELF file' || true)
co_ptx=$("$CO" -all --list-ptx "$LIB" | grep -c '^PTX file' || true)
pt=$("$P" --json cuda --registered-only "$LIB" | python3 -c '
import json, sys
e = json.load(sys.stdin)["files"][0]["cuda"]["entries"]
print(sum(x["kind"] == "sass" for x in e), sum(x["kind"] == "ptx" for x in e))')
echo "entries:   cuobjdump $co_elf ELF + $co_ptx PTX; ptinspect --registered-only ${pt% *} SASS + ${pt#* } PTX"
[ "$co_elf $co_ptx" = "$pt" ] || { echo "cuda_vs_cuobjdump.sh: the counts differ" >&2; exit 1; }
echo "runs:      $RUNS each, load average $(cut -d' ' -f1 /proc/loadavg)"
measure co "$CO" -all --list-elf --list-ptx "$LIB"
measure pr "$P" cuda --registered-only "$LIB"
measure pd "$P" cuda "$LIB"
printf '%-40s median %9s ms (cpu %8s ms)\n' "cuobjdump -all --list-elf --list-ptx" "$co_wall" "$co_cpu"
printf '%-40s median %9s ms (cpu %8s ms)   %6.0fx faster\n' "ptinspect cuda --registered-only" "$pr_wall" "$pr_cpu" \
	"$(awk -v a="$co_wall" -v b="$pr_wall" 'BEGIN { print (b > 0 ? a / b : 0) }')"
printf '%-40s median %9s ms (cpu %8s ms)   %6.0fx faster\n' "ptinspect cuda (default, deep scan)" "$pd_wall" "$pd_cpu" \
	"$(awk -v a="$co_wall" -v b="$pd_wall" 'BEGIN { print (b > 0 ? a / b : 0) }')"
