#!/usr/bin/env bash
# ptinspect on a torch-sized wheel (issue 31): Debian's real torch 2.6 files
# (the torch 2.x bed's dist-packages/torch, symlinks followed) packed by
# python3-wheel's `wheel pack`, read warm, beside `unzip -l` (the central
# directory only) and `unzip -p >/dev/null` (every member inflated: the floor
# for a reader that has to inflate each ELF member through its .dynamic, near
# its end) in the same invocation; peak RSS from /usr/bin/time. Also the same
# files as a conda .tar.bz2.
#
#   bench/package_speed.sh [BUILD] [RUNS] [PAD_MB]
#
# PAD_MB (default 0) adds a member of that many MB of random bytes (stored
# incompressible: the wheel's size grows by as much) to reach a 1 GB wheel.
# PT_BENCH_LIBS="libtorch_cuda.so.2.6.0 ..." copies those libraries of the bed's
# /usr/lib/x86_64-linux-gnu into torch/lib too (the CUDA bed's libtorch_cuda.so:
# PT_TORCH2_CACHE=/var/tmp/ptools-torch2-cuda, a 1 GB wheel of real ELF members).
# PT_BENCH_NO_CONDA=1 skips the .tar.bz2 (bzip2 takes minutes on 1 GB).
#
# The rows without "facts cache" run with PT_CACHE_DIR=off (every member read,
# as before the cache); the "facts cache" rows with a cache of their own in the
# scratch directory: "cold" is the first run (read, then stored), "warm" the best
# of RUNS after it (issue 31's "< 1 s warm and < 32 MB").
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
RUNS=${2:-${PT_BENCH_RUNS:-3}}
PAD=${3:-0}
P=$BUILD/inspect/ptinspect
ROOT=${PT_TORCH2_CACHE:-/var/tmp/ptools-torch2}/root
TORCH=$ROOT/usr/lib/python3/dist-packages/torch
[ -x "$P" ] || { echo "bench: build $BUILD first" >&2; exit 2; }
[ -d "$TORCH" ] || { echo "bench: no torch 2.x bed ($TORCH): tests/torch2/testbed create" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/lay" "$W/dist"
cp -rL "$TORCH" "$W/lay/" 2>/dev/null || true
rm -rf "$W/lay/torch/__pycache__"
mkdir -p "$W/lay/torch-2.6.0.dist-info"
printf 'Wheel-Version: 1.0\nGenerator: ptools-bench\nRoot-Is-Purelib: false\nTag: cp313-cp313-linux_x86_64\n' \
	>"$W/lay/torch-2.6.0.dist-info/WHEEL"
printf 'Metadata-Version: 2.1\nName: torch\nVersion: 2.6.0\nRequires-Dist: filelock\n' \
	>"$W/lay/torch-2.6.0.dist-info/METADATA"
[ "$PAD" -gt 0 ] && head -c "$((PAD << 20))" /dev/urandom >"$W/lay/torch/pad.bin"
for l in ${PT_BENCH_LIBS:-}; do cp -L "$ROOT/usr/lib/x86_64-linux-gnu/$l" "$W/lay/torch/lib/"; done
t0=$(date +%s.%N)
/usr/bin/python3 -m wheel pack "$W/lay" -d "$W/dist" >/dev/null
WHL=$(ls "$W"/dist/*.whl)
printf 'packed %s: %s MB in %.0f s\n' "$(basename "$WHL")" "$(( $(stat -c %s "$WHL") >> 20 ))" \
	"$(echo "$(date +%s.%N) - $t0" | bc)"
TARPID=
if [ -z "${PT_BENCH_NO_CONDA:-}" ]; then
	tar -C "$W/lay" -cjf "$W/dist/torch-2.6.0-0.tar.bz2" torch 2>/dev/null &
	TARPID=$!
fi
export PT_CACHE_DIR=off
best() {	# best WALL of RUNS runs of "$@" (warm: one run first, not counted)
	local b=999999 s e
	"$@" >/dev/null 2>&1 || true
	for _ in $(seq "$RUNS"); do
		s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
		[ $(( (e - s) / 1000000 )) -lt $b ] && b=$(( (e - s) / 1000000 ))
	done
	echo "$b"
}
rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
a=$(best "$P" --root "$ROOT" "$WHL")
b=$(best unzip -l "$WHL")
c=$(best sh -c "unzip -p '$WHL' >/dev/null")
printf 'ptinspect WHEEL             %6d ms  peak RSS %s KB\n' "$a" "$(rss "$P" --root "$ROOT" "$WHL")"
printf 'unzip -l WHEEL              %6d ms\n' "$b"
printf 'unzip -p WHEEL >/dev/null   %6d ms  (every member inflated)\n' "$c"
# The facts cache: cold (the first run, which stores), then warm.
cold() {	# WALL of one run, the first with an empty cache
	local s e
	rm -rf "$W/cache"
	s=$(date +%s%N); PT_CACHE_DIR=$W/cache "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
	echo $(( (e - s) / 1000000 ))
}
f=$(cold "$P" --root "$ROOT" "$WHL")
g=$(PT_CACHE_DIR=$W/cache best "$P" --root "$ROOT" "$WHL")
printf 'ptinspect WHEEL cold cache  %6d ms  (facts cache: read, then stored: %s KB)\n' "$f" \
	"$(du -sk "$W/cache" | cut -f1)"
printf 'ptinspect WHEEL warm cache  %6d ms  peak RSS %s KB  (facts cache: no member read)\n' "$g" \
	"$(PT_CACHE_DIR=$W/cache rss "$P" --root "$ROOT" "$WHL")"
PT_CACHE_DIR=$W/cache "$P" --root "$ROOT" "$WHL" >"$W/warm.txt" 2>&1 || true
"$P" --root "$ROOT" "$WHL" >"$W/off.txt" 2>&1 || true
cmp -s "$W/warm.txt" "$W/off.txt" && echo 'warm output = uncached output' ||
	{ echo 'bench: the warm output differs from the uncached one' >&2; exit 1; }
[ -n "$TARPID" ] || exit 0
wait $TARPID
d=$(best "$P" --root "$ROOT" "$W/dist/torch-2.6.0-0.tar.bz2")
e=$(best sh -c "bzip2 -dc '$W/dist/torch-2.6.0-0.tar.bz2' >/dev/null")
printf 'ptinspect TAR.BZ2           %6d ms  peak RSS %s KB\n' "$d" "$(rss "$P" --root "$ROOT" "$W/dist/torch-2.6.0-0.tar.bz2")"
printf 'bzip2 -dc TAR.BZ2           %6d ms\n' "$e"
