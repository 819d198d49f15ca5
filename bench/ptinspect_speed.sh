#!/usr/bin/env bash
# ptinspect's default report and `ptinspect deps` beside libtree (the anchor)
# and ldd, on the same library, warm and cold page cache, in one invocation:
# median wall and CPU time of interleaved runs, peak RSS, and the ratios.
# Goals: default report <= 1.0x libtree, deps <= 0.8x libtree, any
# single file < 16 MB peak RSS, warm and cold.
# Cold: before every run the library, its whole dependency tree and
# /etc/ld.so.cache are dropped from the page cache (posix_fadvise DONTNEED;
# pages some running process maps, such as libc's, stay resident).
#   bench/ptinspect_speed.sh [BUILD_DIR] [RUNS] [LIBRARY] [OLD_BUILD_DIR]
# OLD_BUILD_DIR: another build's ptinspect (the tree before a change) run
# in the same rounds, so before and after meet the same load.
# Needs libtree (apt-get install libtree) and /usr/bin/python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
runs=${2:-11}
lib=${3:-/usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13}
P=$build/inspect/ptinspect
[ -x "$P" ] || { echo "no ptinspect at $P (build first)" >&2; exit 2; }
old=()
if [ -n "${4:-}" ]; then
	O=$4/inspect/ptinspect
	[ -x "$O" ] || { echo "no ptinspect at $O" >&2; exit 2; }
	old=(-- "before: ptinspect FILE" "$O" --color=never "$lib"
	     -- "before: ptinspect deps FILE" "$O" deps --color=never "$lib")
fi
[ -r "$lib" ] || { echo "no library $lib" >&2; exit 2; }
command -v libtree >/dev/null || { echo "needs libtree (apt-get install libtree)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ptbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
{ echo "$lib"; echo /etc/ld.so.cache; ldd "$lib" | awk '$3 ~ /^\// { print $3 }'; } >"$work/files"
R=$here/runstat.py

echo "library: $lib ($(du -mL "$lib" | cut -f1) MB, $(($(wc -l <"$work/files") - 2)) dependencies)"
echo "ptinspect: $P${O:+ (before: $O)}; $(libtree --version 2>&1 | head -1); $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg); median of $runs interleaved runs"
for mode in warm cold; do
	cold=()
	[ "$mode" = cold ] && cold=(--cold "$work/files")
	echo "$mode page cache:"
	"$R" --runs "$runs" "${cold[@]}" --anchor libtree \
		-- "ptinspect FILE (default)" "$P" --color=never "$lib" \
		-- "ptinspect deps FILE" "$P" deps --color=never "$lib" \
		"${old[@]}" \
		-- "ldd" ldd "$lib" \
		-- libtree libtree "$lib"
	echo "  (load after: $(cut -d' ' -f1 /proc/loadavg))"
done
# Any single file: the largest libraries here, every per-file section.
echo "peak RSS of the default report on the largest libraries (goal < 16 MB whatever the size):"
for f in $(ls -S /usr/local/cuda/lib64/*.so.* /usr/lib/x86_64-linux-gnu/*.so.* 2>/dev/null | head -3); do
	/usr/bin/time -f "%M" -o "$work/rss" "$P" --color=never "$f" >/dev/null 2>&1 || true
	printf '  %-50s %5d MB  %6.1f MB peak RSS\n' "$f" "$(du -mL "$f" | cut -f1)" "$(awk '{ print $1 / 1024 }' "$work/rss")"
done
