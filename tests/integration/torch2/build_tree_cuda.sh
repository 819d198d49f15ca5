. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 2400
# The CUDA flavour of the real torch 2.6 build tree (`tests/torch2/buildtree
# cuda`): Debian 13's nvidia-cuda-toolkit 12.4 and its cuda-g++ (g++ 13),
# configured with USE_CUDA=1 and TORCH_CUDA_ARCH_LIST=8.0;9.0+PTX, one CUDA
# object (ATen's Sleep.cu) compiled by that nvcc. `ptinspect build` must read
# the CUDA configuration and find exactly that list in the object's fat binary,
# as cuobjdump does.
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
BT=$PT_SRC/tests/torch2/buildtree
"$BT" cuda >"$T/cuda.out" 2>"$T/cuda.err"
rc=$?
[ $rc = 77 ] && skip "torch 2.x build bed unavailable: $(grep 'cannot run here' "$T/cuda.err")"
grep -h 'buildtree: ' "$T/cuda.err"
check_eq "buildtree cuda" 0 $rc
[ $rc = 0 ] || { tail -20 "$T/cuda.err"; finish; }
TREE=$(tail -1 "$T/cuda.out")

"$PTINSPECT" build --json --compdb "$TREE" >"$T/b.json" 2>"$T/b.err"
check_eq "exit 0 (the object holds the list)" 0 $?
/usr/bin/python3 - "$T/b.json" "$TREE" >"$T/check.out" <<'EOF'
import json, re, sys
j, tree = json.load(open(sys.argv[1])), sys.argv[2]
cfg = j["config"]
fails = []
def eq(what, want, have):
    if want != have: fails.append(f"{what}: want {want!r}, have {have!r}")
eq("USE_CUDA", "1", cfg["USE_CUDA"]["value"])
eq("TORCH_CUDA_ARCH_LIST", "8.0;9.0+PTX", cfg["TORCH_CUDA_ARCH_LIST"]["value"])
eq("nvcc", "/usr/bin/nvcc", cfg["nvcc"]["value"])
ver = open([l for l in __import__("glob").glob(tree + "/CMakeFiles/*/CMakeCUDACompiler.cmake")][0]).read()
eq("nvcc version", re.search(r'CMAKE_CUDA_COMPILER_VERSION "([^"]+)"', ver).group(1), cfg["nvcc version"]["value"])
eq("gencode", "-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90",
   cfg.get("nvcc gencode", {}).get("value"))
objs = [l for l in j["libraries"] if l["object"]]
eq("CUDA objects", 1, len(objs))
eq("object", True, objs[0]["path"].endswith("Sleep.cu.o"))
eq("its fat binary as a list", "8.0;9.0+PTX", objs[0]["cuda_arch_list"])
eq("agreement noted", True, any("exactly TORCH_CUDA_ARCH_LIST=8.0;9.0+PTX" in f["message"] for f in j["findings"]))
print("\n".join(fails) or "ok")
print(objs[0]["path"] if objs else "", file=sys.stderr)
EOF
check_eq "CUDA configuration and arch list vs the files" ok "$(cat "$T/check.out")"
OBJ=$(/usr/bin/python3 -c 'import json,sys; print([l["path"] for l in json.load(open(sys.argv[1]))["libraries"] if l["object"]][0])' "$T/b.json")
# cuobjdump of the same toolkit, inside the bed (the object's path there).
BCACHE=${PT_TORCH2_BUILD_CACHE:-/var/tmp/ptools-torch2-build}
IN=${OBJ#"$BCACHE/root"}
cuob() { "$BT" bed run -- cuobjdump "$@" 2>/dev/null; }
check_eq "cuobjdump: SASS" "sm_80 sm_90" "$(cuob -lelf "$IN" | grep -o 'sm_[0-9]*' | sort -u | paste -sd ' ' -)"
check_eq "cuobjdump: PTX" "sm_90" "$(cuob -lptx "$IN" | grep -o 'sm_[0-9]*' | sort -u | paste -sd ' ' -)"
finish
