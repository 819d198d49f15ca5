#!/usr/bin/env bash
# pttrace import: throughput, CPU per byte and peak RSS, on TORCH_TRACE input
# made by bench/gen_trace.py from real fixture records (tlparse's
# multi_rank_logs rank 1, 3.56 MB, 810 records, CRLF; every copy after the
# first gets its own payloads and md5s, so the database stores them as it
# would for a long job; --dup: identical copies, whose payloads are stored
# once).
#   single rank: SIZE MB, on one worker (PT_JOBS=1), on every CPU and on
#   4 workers per CPU (peak RSS must not grow with the workers);
#   multi-rank: 1, 2 and N rank files (N = 2 x CPUs, at least 4) of RANK_MB
#   each, one import, every CPU.
# Anchors in the same invocation: cat (reading the bytes) and md5sum (the
# md5 every payload needs) over the same files; ratios are import / anchor
# wall-clock throughput. "per CPU s" = bytes / (user + sys) of the import.
#   bench/pttrace_import.sh [--dup] [BUILD_DIR] [SIZE_MB] [RANK_MB]   (build, 200, 50)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
dup=
[ "${1:-}" = --dup ] && { dup=--dup; shift; }
build=${1:-$src/build}
size=${2:-200}
rank_mb=${3:-50}
P=$build/tracers/pttrace
[ -x "$P" ] || { echo "no pttrace at $P (build first)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
cpus=$(nproc)
nranks=$((2 * cpus < 4 ? 4 : 2 * cpus))
work=$(mktemp -d "${TMPDIR:-/tmp}/ptbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$src"
mkdir -p "$work/single"
bench/gen_trace.py $dup "$size" "$work/single/dedicated_log_torch_trace_rank_0.log"
mkdir -p "$work/ranks"
bench/gen_trace.py $dup "$rank_mb" "$work/ranks/dedicated_log_torch_trace_rank_0.log"
for r in $(seq 1 $((nranks - 1))); do cp "$work/ranks/dedicated_log_torch_trace_rank_0.log" "$work/ranks/dedicated_log_torch_trace_rank_$r.log"; done
echo "pttrace import benchmark: $cpus CPUs, load $(cut -d' ' -f1 /proc/loadavg)${dup:+, identical copies (--dup)}"

# row LABEL ENV FILES...: one import into a fresh database, under GNU time.
row() {
	local label=$1 envs=$2 bytes db=$work/db
	shift 2
	bytes=$(cat "$@" | wc -c)
	sync; rm -rf "$db"
	env $envs /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$P" --json --db "$db/p.db" import "$@" >"$work/j" 2>"$work/err" || true
	read -r wall user sys rss <"$work/t"
	/usr/bin/python3 - "$label" "$bytes" "$wall" "$user" "$sys" "$rss" "$work/j" "$anchor_cat" "$anchor_md5" <<'PY'
import json, sys
label, b, w, u, s, rss, j, acat, amd5 = sys.argv[1:]
b, w, u, s, rss, acat, amd5 = int(b), float(w), float(u), float(s), int(rss), float(acat), float(amd5)
d = json.load(open(j))
c = d["cpu_seconds"]
mb = b / 1e6
print("  %-34s %7.1f MB %6.2f s %6.1f MB/s  per CPU s %6.1f MB/s  RSS %5.1f MB  cpu read %.2f parse %.2f write %.2f s  x cat %.2f  x md5sum %.2f  %s md5 bad"
      % (label, mb, w, mb / w, mb / (u + s), rss / 1024, c["read"], c["parse"], c["write"],
         (mb / w) / acat, (mb / w) / amd5, d["payload_md5_mismatches"]))
PY
}
# anchor rates (MB/s) over the single-rank file
f1=$work/single/dedicated_log_torch_trace_rank_0.log
b1=$(stat -c %s "$f1")
cat "$f1" >/dev/null
t0=$(date +%s%N); cat "$f1" >/dev/null; t1=$(date +%s%N)
anchor_cat=$(awk -v b="$b1" -v t=$((t1 - t0)) 'BEGIN { printf "%.1f", b / 1e6 / (t / 1e9) }')
t0=$(date +%s%N); md5sum "$f1" >/dev/null; t1=$(date +%s%N)
anchor_md5=$(awk -v b="$b1" -v t=$((t1 - t0)) 'BEGIN { printf "%.1f", b / 1e6 / (t / 1e9) }')
echo "  anchors on the single-rank file: cat $anchor_cat MB/s, md5sum $anchor_md5 MB/s"
echo "single rank:"
row "1 worker (PT_JOBS=1)" PT_JOBS=1 "$f1"
row "every CPU ($cpus workers)" "" "$f1"
row "PT_JOBS=$((4 * cpus)) (more than CPUs)" PT_JOBS=$((4 * cpus)) "$f1"
echo "multi-rank, every CPU, one import:"
row "1 rank" "" "$work/ranks/dedicated_log_torch_trace_rank_0.log"
row "2 ranks" "" "$work/ranks/dedicated_log_torch_trace_rank_"{0,1}.log
row "$nranks ranks" "" "$work/ranks/"*.log
row "$nranks ranks, PT_JOBS=1" PT_JOBS=1 "$work/ranks/"*.log
