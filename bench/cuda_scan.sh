#!/usr/bin/env bash
# Median wall time and peak RSS of `ptinspect cuda` on a large CUDA library,
# default (walk .nv_fatbin, scan the other data sections) and --registered-only.
# Goals on the 2-core dev VM: default < 60 ms and < 16 MB RSS;
# --registered-only < 20 ms and < 8 MB. Warm page cache: one untimed run first.
#
# usage: bench/cuda_scan.sh [LIBRARY] [RUNS]
#   PTINSPECT=path/to/ptinspect (default: build-rel/, else build/)
#   Build a Release tree for figures worth quoting:
#     cmake -S . -B build-rel -DCMAKE_BUILD_TYPE=Release -DPT_TESTS=OFF && cmake --build build-rel -j2
set -euo pipefail
cd "$(dirname "$0")/.."
LIB=${1:-/usr/local/cuda/lib64/libcublasLt.so.13}
RUNS=${2:-11}
P=${PTINSPECT:-}
if [ -z "$P" ]; then
	for c in build-rel/inspect/ptinspect build/inspect/ptinspect; do
		[ -x "$c" ] && { P=$c; break; }
	done
fi
[ -n "$P" ] && [ -x "$P" ] || { echo "cuda_scan.sh: no ptinspect binary (set PTINSPECT)" >&2; exit 2; }
[ -f "$LIB" ] || { echo "cuda_scan.sh: no such library: $LIB" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "cuda_scan.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

bench() {	# label args...
	local label=$1 t0 t1 rss ms=() kb=() cpu=()
	shift
	"$P" cuda "$@" "$LIB" >/dev/null	# warm the page cache
	# Timed runs without GNU time in between (it adds its own fork and wait); RSS runs apart.
	for _ in $(seq "$RUNS"); do
		t0=$(date +%s%N)
		"$P" cuda "$@" "$LIB" >/dev/null
		t1=$(date +%s%N)
		ms+=("$(( (t1 - t0) / 1000 ))")
		/usr/bin/time -v -o /tmp/cuda_scan.$$ "$P" cuda "$@" "$LIB" >/dev/null
		rss=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' /tmp/cuda_scan.$$)
		kb+=("$rss")
		# CPU time (user + system) moves less than wall time when other jobs share the cores.
		cpu+=("$(awk -F: '/User time|System time/ { s += $2 } END { printf "%d", s * 1000000 }' /tmp/cuda_scan.$$)")
	done
	rm -f /tmp/cuda_scan.$$
	printf '%-22s median %6.1f ms (cpu %5.1f ms)   peak RSS median %5.1f MB (max %.1f MB)   %d runs\n' "$label" \
		"$(printf '%s\n' "${ms[@]}" | median | awk '{ print $1 / 1000 }')" \
		"$(printf '%s\n' "${cpu[@]}" | median | awk '{ print $1 / 1000 }')" \
		"$(printf '%s\n' "${kb[@]}" | median | awk '{ print $1 / 1024 }')" \
		"$(printf '%s\n' "${kb[@]}" | sort -n | tail -1 | awk '{ print $1 / 1024 }')" "$RUNS"
}

echo "ptinspect: $P"
echo "library:   $LIB ($(du -m "$LIB" | cut -f1) MB)"
"$P" cuda "$LIB" | sed -n '2,/SASS/p' | sed '$d'
# Process start-up alone, for scale on a loaded machine (2 cores shared).
t=(); for _ in $(seq "$RUNS"); do t0=$(date +%s%N); "$P" --version >/dev/null; t1=$(date +%s%N); t+=("$(( (t1 - t0) / 1000 ))"); done
printf '%-22s median %6.1f ms   (load average %s)\n' "start-up (--version)" \
	"$(printf '%s\n' "${t[@]}" | median | awk '{ print $1 / 1000 }')" "$(cut -d' ' -f1 /proc/loadavg)"
bench "default"
bench "--registered-only" --registered-only
