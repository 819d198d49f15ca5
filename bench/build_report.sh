#!/usr/bin/env bash
# `ptinspect build` on a synthetic build tree scaled to a full CPU+CUDA torch
# build ("well under a second" is the goal): the real CMakeCache.txt of the test
# tree (tests/fixtures/buildtree), a build.ninja of EDGES compile edges with
# CMake's bindings plus torchgen's edge with 14,000 outputs (about 60 MB),
# a .ninja_log v6 of three runs (a full build, the torchgen outputs, a partial
# rebuild: about 60,000 lines), a compile_commands.json of EDGES entries
# (about 40 MB). Beside it, in the same invocation, the anchors: ninja reading
# the same manifest and log (`ninja -t targets all`, `ninja -t recompact` on a
# copy) and jq reading the same compile_commands.json.
#
# usage: bench/build_report.sh [EDGES] [RUNS]      (default 25000, 5)
#   PTINSPECT=path/to/ptinspect (default: build-rel/, else build/)
#   The synthetic tree is not a real build: the figures are the readers' and
#   the analyses' cost at full scale, not a claim about any real tree's content.
set -euo pipefail
cd "$(dirname "$0")/.."
EDGES=${1:-25000}
RUNS=${2:-5}
P=${PTINSPECT:-}
if [ -z "$P" ]; then
	for c in build-rel/inspect/ptinspect build/inspect/ptinspect; do
		[ -x "$c" ] && { P=$c; break; }
	done
fi
[ -n "$P" ] && [ -x "$P" ] || { echo "build_report.sh: no ptinspect binary (set PTINSPECT)" >&2; exit 2; }
D=$(mktemp -d /tmp/build_report.XXXXXX)
trap 'rm -rf "$D" "$D.time" "$D.c"' EXIT
cp tests/fixtures/buildtree/CMakeCache.txt "$D/"

python3 - "$D" "$EDGES" <<'EOF'
import json, os, random, sys
d, n = sys.argv[1], int(sys.argv[2])
random.seed(16)
src = "/build/pytorch"
folders = ["aten/src/ATen/native", "aten/src/ATen/native/cpu", "aten/src/ATen/native/cuda",
           "aten/src/ATen/core", "torch/csrc/autograd", "torch/csrc/jit/runtime", "c10/core", "c10/util",
           "aten/src/ATen/native/transformers/cuda/flash_attn/kernels"]
targets = {"aten": "torch_cpu", "torch": "torch_cpu", "c10": "c10"}
flags = " ".join(f"-I{src}/third_party/lib{i}/include" for i in range(40)) + " -DUSE_CUDA -DNDEBUG -O3 -g -fPIC -std=gnu++17"
objs = []
with open(os.path.join(d, "build.ninja"), "w") as bn, open(os.path.join(d, "compile_commands.json"), "w") as cc:
    bn.write("ninja_required_version = 1.5\ncmake_ninja_workdir = /build/pytorch/build/\n"
             "rule CXX_COMPILER__torch_cpu_Release\n  command = true\n  description = Building CXX object $out\n"
             "rule CUSTOM_COMMAND\n  command = true\n"
             "rule CXX_SHARED_LIBRARY_LINKER__torch_cpu_Release\n  command = true\n")
    gen = [f"aten/src/ATen/ops/op_{i}.h" for i in range(14000)]
    bn.write("build " + " ".join(gen) + f": CUSTOM_COMMAND {src}/torchgen/gen.py {src}/aten/src/ATen/native/native_functions.yaml\n")
    cc.write("[\n")
    for i in range(n):
        f = random.choice(folders)
        t = targets[f.split("/")[0]]
        name = f"file_{i}.cpp" if "flash" not in f else f"flash_fwd_hdim{i % 8 * 32}_bf16_sm80_{i}.cu"
        obj = f"caffe2/CMakeFiles/{t}.dir/__/{f}/{name}.o"
        objs.append(obj)
        bn.write(f"build {obj}: CXX_COMPILER__torch_cpu_Release {src}/{f}/{name} || {gen[i % 100]}\n"
                 f"  DEFINES = -DUSE_CUDA -DNDEBUG\n  DEP_FILE = {obj}.d\n  FLAGS = {flags}\n"
                 f"  INCLUDES = -I{src}/build/aten/src -I{src}/aten/src\n  OBJECT_DIR = caffe2/CMakeFiles/{t}.dir\n")
        cc.write(("," if i else "") + json.dumps({"directory": f"{src}/build", "command": f"/usr/bin/c++ {flags} -o {obj} -c {src}/{f}/{name}",
                                                "file": f"{src}/{f}/{name}", "output": obj}) + "\n")
    cc.write("]\n")
    bn.write("build lib/libtorch_cpu.so: CXX_SHARED_LIBRARY_LINKER__torch_cpu_Release " + " ".join(objs) + "\n")
with open(os.path.join(d, ".ninja_log"), "w") as log:
    log.write("# ninja log v6\n")
    # Run 1: torchgen, then every object on 16 jobs, then the link; lines in completion order.
    recs = [(0, 95000, o) for o in gen]
    slots = [95000] * 16
    for o in objs:
        k = min(range(16), key=lambda j: slots[j])
        s = slots[k]; e = s + random.randint(2000, 120000); slots[k] = e
        recs.append((s, e, o))
    last = max(slots)
    recs.append((last, last + 180000, "lib/libtorch_cpu.so"))
    recs.sort(key=lambda r: r[1])
    for s, e, o in recs:
        log.write(f"{s}\t{e}\t{1700000000000000000 + e}\t{o}\t{hash(o) & 0xffffffffffffffff:x}\n")
    # Run 2: torchgen again (a yaml edit). Run 3: 2,000 objects and the link.
    for o in gen:
        log.write(f"0\t90000\t1700000100000000000\t{o}\t{hash(o) & 0xffffffffffffffff:x}\n")
    recs = []
    slots = [0] * 16
    for o in random.sample(objs, min(2000, len(objs))):
        k = min(range(16), key=lambda j: slots[j])
        s = slots[k]; e = s + random.randint(2000, 120000); slots[k] = e
        recs.append((s, e, o))
    recs.sort(key=lambda r: r[1])
    for s, e, o in recs:
        log.write(f"{s}\t{e}\t1700000200000000000\t{o}\t{hash(o) & 0xffffffffffffffff:x}\n")
    last = max(slots)
    log.write(f"{last}\t{last + 170000}\t1700000200000000000\tlib/libtorch_cpu.so\t1\n")
EOF
printf 'synthetic tree (%s compile edges): build.ninja %s, .ninja_log %s lines, compile_commands.json %s\n' "$EDGES" \
	"$(du -h "$D/build.ninja" | cut -f1)" "$(wc -l <"$D/.ninja_log")" "$(du -h "$D/compile_commands.json" | cut -f1)"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
time_ms() {	# label command...: median wall and CPU ms of RUNS runs after one warm-up
	local label=$1 ms=() cpu=()
	shift
	"$@" >/dev/null 2>&1 || true
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f '%e %U %S' -o "$D.time" "$@" >/dev/null 2>&1 || true
		read -r w u s <"$D.time"
		ms+=("$(awk -v w="$w" 'BEGIN { printf "%d", w * 1000 }')")
		cpu+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }')")
	done
	printf '  %-44s %6s ms (cpu %5s ms; median of %s)\n' "$label" "$(printf '%s\n' "${ms[@]}" | median)" \
		"$(printf '%s\n' "${cpu[@]}" | median)" "$RUNS"
}
time_ms "ptinspect build --json --since-last --compdb" "$P" build --json --since-last --compdb "$D"
time_ms "ptinspect build (text)" "$P" build "$D"
time_ms "ptinspect build --json --since-last" "$P" build --json --since-last "$D"
if command -v ninja >/dev/null; then
	time_ms "anchor: ninja -t targets all (manifest)" ninja -C "$D" -t targets all
	cp -r "$D" "$D.c"
	time_ms "anchor: ninja -t recompact (manifest + log)" ninja -C "$D.c" -t recompact
	rm -rf "$D.c"
fi
command -v jq >/dev/null && time_ms "anchor: jq length compile_commands.json" jq length "$D/compile_commands.json"
