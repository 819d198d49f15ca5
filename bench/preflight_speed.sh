#!/usr/bin/env bash
# `ptinspect preflight` (issue 28: "< 1 s warm and < 16 MB") beside its
# anchor in the same invocation: the same tools asked the same questions by a
# shell script (nvcc --version and --dryrun, the C++ compiler's and gcc's
# --version, python3's probe, cmake and ninja --version), which is the floor
# preflight cannot go below. Interleaved rounds (bench/runstat.py): median
# wall and CPU time, peak RSS of the process tree (a child's, cmake's
# --version being the largest). Then preflight's own peak RSS (VmHWM of the
# ptinspect process alone, read at its exit by a preloaded destructor).
#
# usage: bench/preflight_speed.sh [SOURCE_DIR] [RUNS]
#   SOURCE_DIR: a PyTorch checkout (default: none, the toolchain alone)
#   PTINSPECT=path/to/ptinspect (default: build-release/, else build/)
#   the environment is this shell's (CUDA_HOME, TORCH_CUDA_ARCH_LIST, ...)
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=${1:-}
RUNS=${2:-11}
P=${PTINSPECT:-}
if [ -z "$P" ]; then
	for c in build-release/inspect/ptinspect build/inspect/ptinspect; do
		[ -x "$c" ] && { P=$(realpath "$c"); break; }
	done
fi
[ -n "$P" ] && [ -x "$P" ] || { echo "preflight_speed.sh: no ptinspect binary (set PTINSPECT)" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
[ -n "$SRC" ] || { SRC=$W/empty; mkdir -p "$SRC"; }
NVCC=$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")
cat >"$W/anchor.sh" <<EOS
#!/bin/sh
"$NVCC" --version; "$NVCC" --dryrun -c /dev/null/k.cu -o /dev/null
\${CXX:-c++} --version; gcc --version
python3 -c 'import sys, sysconfig, importlib.util as u; print(sys.version, sysconfig.get_paths()["include"], u.find_spec("yaml"))'
cmake --version; ninja --version
EOS
chmod +x "$W/anchor.sh"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); nvcc: $NVCC; source: $SRC"
/usr/bin/python3 bench/runstat.py --runs "$RUNS" --anchor "the tools alone" \
	-- "ptinspect preflight" sh -c "\"$P\" preflight \"$SRC\" >/dev/null; true" \
	-- "the tools alone" sh -c "\"$W/anchor.sh\" >/dev/null 2>&1"
cat >"$W/hwm.c" <<'EOS'
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static pid_t first;
__attribute__((constructor)) static void start(void) { first = getpid(); }
__attribute__((destructor)) static void hwm(void)
{
	char l[256], *e = getenv("PT_BENCH_HWM_PID");
	FILE *f;

	if (!e || atoi(e) != (int)first || !(f = fopen("/proc/self/status", "r")))
		return;
	while (fgets(l, sizeof(l), f))
		if (!strncmp(l, "VmHWM:", 6))
			fprintf(stderr, "ptinspect preflight, the process alone: peak RSS%s", l + 6);
	fclose(f);
}
EOS
sed -i '1i #include <stdlib.h>' "$W/hwm.c"
cc -shared -fPIC -o "$W/hwm.so" "$W/hwm.c"
# The pid exec keeps: the shell's own, which becomes ptinspect.
sh -c 'PT_BENCH_HWM_PID=$$ LD_PRELOAD=$0 exec "$@"' "$W/hwm.so" "$P" preflight "$SRC" 2>&1 >/dev/null | grep 'peak RSS'
