#!/usr/bin/env bash
# `ptinspect cuda --verify` on one thread (PT_JOBS=1, the anchor) and on all
# CPUs (the default), interleaved in one invocation: median wall and CPU time,
# peak RSS and the speed-up; the two reports must be identical (checked).
#   bench/cuda_verify.sh [BUILD_DIR] [RUNS] [LIBRARY]
# LIBRARY defaults to Debian's libtorch_cuda.so.2.6 in the CUDA test bed
# (tests/torch2/testbed --flavour cuda, /var/tmp/ptools-torch2-cuda), else the
# largest library in /usr/local/cuda/lib64.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
runs=${2:-5}
lib=${3:-}
P=$build/inspect/ptinspect
[ -x "$P" ] || { echo "no ptinspect at $P (build first)" >&2; exit 2; }
if [ -z "$lib" ]; then
	lib=/var/tmp/ptools-torch2-cuda/root/usr/lib/x86_64-linux-gnu/libtorch_cuda.so.2.6.0
	[ -r "$lib" ] || lib=$(ls -S /usr/local/cuda/lib64/*.so.* 2>/dev/null | head -1)
fi
[ -r "$lib" ] || { echo "no library to verify" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ptbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
PT_JOBS=1 "$P" cuda --verify --color=never "$lib" >"$work/one" 2>&1 || true
"$P" cuda --verify --color=never "$lib" >"$work/all" 2>&1 || true
if cmp -s "$work/one" "$work/all"; then same="identical"; else same="DIFFERENT (bug)"; fi
echo "library: $lib ($(du -mL "$lib" | cut -f1) MB); $(grep -m1 -iE 'verif' "$work/all" || true)"
echo "reports on 1 thread and on all CPUs: $same; $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg); median of $runs interleaved runs, warm page cache"
"$here/runstat.py" --runs "$runs" --anchor "PT_JOBS=1" \
	-- "all CPUs (default)" "$P" cuda --verify --color=never "$lib" \
	-- "PT_JOBS=1" env PT_JOBS=1 "$P" cuda --verify --color=never "$lib"
