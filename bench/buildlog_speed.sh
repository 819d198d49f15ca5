#!/usr/bin/env bash
# ptinspect buildlog on a 100 MB build log (issue 29: < 1 s, < 32 MB RSS),
# beside `grep -c error:` and `wc -l` on the same file in the same run.
# The log: the real torch 2.6 build log of the build-tree bed
# (tests/torch2/buildtree: ninja's status lines and gcc's warnings), repeated
# to MB megabytes, then a real failure made here (gcc on a missing header).
#   bench/buildlog_speed.sh [BUILD] [MB] [RUNS]
set -euo pipefail
BUILD=${1:-build}
MB=${2:-100}
RUNS=${3:-5}
SRC=${PT_TORCH2_BUILD_CACHE:-/var/tmp/ptools-torch2-build}/build.log
P=$BUILD/inspect/ptinspect
[ -x "$P" ] || { echo "no $P: build first" >&2; exit 2; }
[ -s "$SRC" ] || { echo "no real build log at $SRC (tests/torch2/buildtree create)" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
printf 'rule cc\n  command = gcc -c $in -o $out\n  description = Building C object $out\nbuild a.o: cc a.c\n' >build.ninja
printf '#include "gone.h"\n' >a.c
ninja >fail.log 2>&1 || true
while [ "$(stat -c %s big.log 2>/dev/null || echo 0)" -lt $((MB * 1024 * 1024)) ]; do
	for _ in $(seq 1 200); do cat "$SRC"; done >>big.log
done
cat fail.log >>big.log
echo "log: $(stat -c %s big.log) bytes, $(wc -l <big.log) lines (real build log x $(( $(wc -l <big.log) / $(wc -l <"$SRC") )))"
cd - >/dev/null
for what in "buildlog" "grep -c error:" "wc -l"; do
	best=
	for _ in $(seq 1 "$RUNS"); do
		case $what in
		buildlog) /usr/bin/time -f '%e %M' -o "$W/t" "$P" buildlog "$W/big.log" >"$W/out" || true ;;
		grep*) /usr/bin/time -f '%e %M' -o "$W/t" grep -c error: "$W/big.log" >/dev/null || true ;;
		wc*) /usr/bin/time -f '%e %M' -o "$W/t" wc -l "$W/big.log" >/dev/null ;;
		esac
		t=$(tail -1 "$W/t" | cut -d' ' -f1)
		if [ -z "$best" ] || awk -v a="$t" -v b="${best%% *}" 'BEGIN{exit !(a<b)}'; then best=$(tail -1 "$W/t"); fi
	done
	printf '%-16s best of %s: %s s, peak RSS %s KB\n' "$what" "$RUNS" "${best%% *}" "${best##* }"
done
echo "verdict: $(head -1 "$W/out")"
