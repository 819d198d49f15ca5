#!/usr/bin/env bash
# `ptinspect undefined` (the binding check doctor runs when import torch fails)
# beside `ldd -r` on the same tree, in the same invocation: median wall time
# and peak RSS over RUNS runs each, warm page cache, and whether both report
# the same undefined symbols. Two settings: Debian's libtorch_cpu.so.1.13
# (285 objects, nothing undefined) and the same with a stray libc10.so.1.13
# (built here with gcc, without torch's symbols) first on LD_LIBRARY_PATH.
#
# usage: bench/undefined_vs_ldd.sh [LIBRARY] [RUNS]
#   PTINSPECT=path/to/ptinspect (default: build-rel/, else build/)
set -euo pipefail
cd "$(dirname "$0")/.."
LIB=$(realpath "${1:-/usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13}")
RUNS=${2:-11}
P=${PTINSPECT:-}
if [ -z "$P" ]; then
	for c in build-rel/inspect/ptinspect build/inspect/ptinspect; do
		[ -x "$c" ] && { P=$c; break; }
	done
fi
[ -n "$P" ] && [ -x "$P" ] || { echo "undefined_vs_ldd.sh: no ptinspect binary (set PTINSPECT)" >&2; exit 2; }
[ -f "$LIB" ] || { echo "undefined_vs_ldd.sh: no such library: $LIB" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "undefined_vs_ldd.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo 'int c10_stray(void) { return 0; }' >"$W/c.c"
mkdir -p "$W/stray"
cc -shared -fPIC -Wl,-soname,libc10.so.1.13 -o "$W/stray/libc10.so.1.13" "$W/c.c"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

run() {	# label llp command...
	local label=$1 llp=$2 t0 t1 ms=() kb=()
	shift 2
	LD_LIBRARY_PATH=$llp "$@" >/dev/null 2>&1 || true
	for _ in $(seq "$RUNS"); do
		t0=$(date +%s%N)
		LD_LIBRARY_PATH=$llp "$@" >/dev/null 2>&1 || true
		t1=$(date +%s%N)
		ms+=("$(( (t1 - t0) / 1000 ))")
		LD_LIBRARY_PATH=$llp /usr/bin/time -f %M -o "$W/rss" "$@" >/dev/null 2>&1 || true
		kb+=("$(tail -1 "$W/rss")")
	done
	printf '  %-28s %8.1f ms  %7d KB\n' "$label" \
		"$(printf '%s\n' "${ms[@]}" | median | awk '{ print $1 / 1000 }')" \
		"$(printf '%s\n' "${kb[@]}" | median)"
}

for setting in clean stray; do
	llp=
	[ $setting = stray ] && llp=$W/stray
	ours=$(LD_LIBRARY_PATH=$llp "$P" undefined --json "$LIB" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print("\n".join(sorted(s["symbol"] for o in d["files"][0]["objects"] for s in o["undefined"])))' | grep -c . || true)
	theirs=$(LD_LIBRARY_PATH=$llp ldd -r "$LIB" 2>&1 | awk '/undefined symbol/ { print $3 }' | sort -u | grep -c . || true)
	echo "$LIB, $setting (LD_LIBRARY_PATH=${llp:-unset}): undefined symbols: ptinspect $ours, ldd -r $theirs (distinct)"
	run "ptinspect undefined" "$llp" "$P" undefined "$LIB"
	run "ldd -r" "$llp" ldd -r "$LIB"
done
