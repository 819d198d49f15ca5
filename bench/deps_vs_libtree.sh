#!/usr/bin/env bash
# Compares `ptinspect deps` with libtree and lddtree on the largest libraries
# in /usr/local/cuda/lib64 (and Debian's libtorch_cpu): median wall time of N
# runs each, and the ratio to libtree. Goal: no slower than libtree.
#   bench/deps_vs_libtree.sh [BUILD_DIR] [RUNS]
set -euo pipefail
BUILD=${1:-build}
RUNS=${2:-21}
PT=$BUILD/inspect/ptinspect
[ -x "$PT" ] || { echo "build first: $PT is missing" >&2; exit 2; }
command -v libtree >/dev/null || echo "libtree not installed (apt-get install libtree): column left empty"
command -v lddtree >/dev/null || echo "lddtree not installed (apt-get install pax-utils python3-pyelftools): column left empty"

files=()
if [ -d /usr/local/cuda/lib64 ]; then
	while read -r f; do files+=("$f"); done < <(ls -S /usr/local/cuda/lib64/*.so.* | head -5)
else
	echo "no /usr/local/cuda/lib64: CUDA libraries skipped"
fi
[ -e /usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13 ] && files+=(/usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13)

# median_ms CMD...: median wall time of RUNS runs in milliseconds (output discarded).
median_ms() {
	local i t0 t1 times=()
	"$@" >/dev/null 2>&1 || true	# warm the page cache
	for ((i = 0; i < RUNS; i++)); do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1 || true
		t1=$(date +%s%N)
		times+=($(((t1 - t0) / 1000)))
	done
	printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1000}'
}

printf '%-36s %10s %10s %10s %8s\n' library ptinspect libtree lddtree ratio
for f in "${files[@]}"; do
	pt=$(median_ms "$PT" deps --color=never "$f")
	lt=-
	ld=-
	ratio=-
	if command -v libtree >/dev/null; then
		lt=$(median_ms libtree -vvv "$f")
		ratio=$(awk -v a="$pt" -v b="$lt" 'BEGIN {printf "%.2f", a / b}')
	fi
	command -v lddtree >/dev/null && ld=$(median_ms /usr/bin/python3 /usr/bin/lddtree -a "$f")
	printf '%-36s %8s ms %8s ms %8s ms %8s\n' "$(basename "$f")" "$pt" "$lt" "$ld" "$ratio"
done
echo "(median of $RUNS runs, warm page cache; ratio = ptinspect / libtree; libtree -vvv shows every edge, like ptinspect)"
