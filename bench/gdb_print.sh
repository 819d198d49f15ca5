#!/usr/bin/env bash
# How long ptgdb takes to print a tensor of 10^8 elements (float32, 10000 x 10000,
# and its transpose) in a live process: the printer reads only the edge elements,
# so the goal is under 200 ms per print. Prints the first (cold: type and symbol
# look-ups) and the median of 20 warm prints, in milliseconds.
# Needs g++, gdb and libtorch-dev (1.13 headers in /usr/include); override with
# PTGDB_CXX, PTGDB_TORCH_INCLUDE, PTGDB_TORCH_LIBDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
CXX=${PTGDB_CXX:-g++}
INC=${PTGDB_TORCH_INCLUDE:-/usr/include}
LIBDIR=${PTGDB_TORCH_LIBDIR:-/usr/lib/x86_64-linux-gnu}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
"$CXX" -g -O0 -std=c++17 -I"$INC" -I"$INC/torch/csrc/api/include" bench/gdb_big.cpp \
	-o "$W/big" -L"$LIBDIR" -Wl,-rpath,"$LIBDIR" -ltorch -ltorch_cpu -lc10
cat >"$W/bench.gdb" <<GDB
source gdbext/load.py
break stop_here
run
up
pt-types --headers $INC --compiler $CXX
python
import statistics, time
for name in ("big", "bigt"):
    t0 = time.perf_counter()
    text = gdb.execute("output " + name, to_string=True)
    first = (time.perf_counter() - t0) * 1000
    warm = []
    for _ in range(20):
        t0 = time.perf_counter()
        gdb.execute("output " + name, to_string=True)
        warm.append((time.perf_counter() - t0) * 1000)
    print("%-5s %s" % (name, text[:150] + ("..." if len(text) > 150 else "")))
    print("%-5s first %.1f ms, median of 20 %.1f ms, max %.1f ms (goal < 200 ms)"
          % (name, first, statistics.median(warm), max(warm)))
end
kill
GDB
XDG_CACHE_HOME=$W/cache gdb -nx -q -batch -x "$W/bench.gdb" "$W/big" 2>&1 |
	grep -E '^(big|bigt) |pt-types'
