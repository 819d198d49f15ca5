# ptinspect cuda on shared libraries built here with nvcc, one per way of
# producing device code (docs/formats/cuda-fatbin.md §6, §9): the listing must
# equal the -gencode flags used, --verify must decompress every SASS/PTX
# entry to its header's size, --gpu must follow §11, and damaged copies
# (bad magic in the middle, sizes past the end, zero sizes, a truncated
# section) must give one warning per fat binary and still report the rest.
#
# Recipes (each compiled once, at most 2 nvcc at a time; kernels are one line):
#   nvcc -c -Xcompiler -fPIC <flags> k.cu -o case.o && cc -shared -o libcase.so case.o
#   rdc:    nvcc -shared -rdc=true -Xcompiler -fPIC ... (with --cudart=none nvcc skips the device link)
#   custom: nvcc -fatbin ... then .incbin into section .my_kernels of a C library
# ctest-timeout: 600
. "$PT_TESTLIB/common.sh" || exit 2
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$NVCC" ] || skip "nvcc not found at $NVCC: the CUDA fixtures cannot be built"
P=$PTINSPECT
PY=/usr/bin/python3

cat >"$T/k.cu" <<'EOF'
__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }
EOF
cat >"$T/k2.cu" <<'EOF'
__global__ void add1(int *x) { x[threadIdx.x] += 1; }
EOF
cat >"$T/kn.cu" <<'EOF'
__global__ void NAME(int *x) { x[threadIdx.x] -= 1; }
EOF

# name | nvcc flags (one object, then a host-linker -shared, as CMake/PyTorch do).
# "second" compiles k2.cu: linked with sm75.o it gives two fat binaries in .nv_fatbin.
CASES='second|-gencode arch=compute_80,code=sm_80
sm80_sm90a|-gencode arch=compute_80,code=[sm_80,compute_80] -gencode arch=compute_90a,code=sm_90a
sm75|-gencode arch=compute_75,code=sm_75
sm80_sm90_ptx90|-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=[sm_90,compute_90]
sm90a|-gencode arch=compute_90a,code=sm_90a
sm100f|-gencode arch=compute_100f,code=[sm_100f,compute_100f]
ptx_only|-gencode arch=compute_80,code=compute_80
zstd|-Xfatbin -compress-all -gencode arch=compute_80,code=sm_80
lz4|-Xfatbin -compress-all --compress-mode=speed -gencode arch=compute_80,code=[sm_80,compute_80]
debug|-G -gencode arch=compute_75,code=[sm_75,compute_75]'

build_case() {	# name flags...
	local name=$1 src=k
	shift
	[ "$name" = second ] && src=k2
	case $name in many*) src=kn; set -- -DNAME="$name" "$@" ;; esac
	# shellcheck disable=SC2068
	"$NVCC" -c -Xcompiler -fPIC $@ "$T/$src.cu" -o "$T/$name.o" 2>"$T/$name.log" &&
		cc -shared -o "$T/lib$name.so" "$T/$name.o" 2>>"$T/$name.log"
}

jobs=0
while IFS='|' read -r name flags; do
	build_case "$name" $flags &
	jobs=$((jobs + 1))
	if [ $jobs -ge 2 ]; then wait -n; jobs=$((jobs - 1)); fi
done <<<"$CASES
$(for i in 1 2 3 4 5 6 7 8 9 10; do echo "many$i|-gencode arch=compute_80,code=[sm_80,compute_80]"; done)"
# -rdc: device-linked by nvcc -shared; relocatable copies stay in __nv_relfatbin (§9).
("$NVCC" -shared -rdc=true -Xcompiler -fPIC \
	-gencode arch=compute_80,code=[sm_80,compute_80] "$T/k.cu" "$T/k2.cu" -o "$T/librdc.so" \
	>"$T/rdc.log" 2>&1) &
# A fat binary as plain data in a custom section, the way vendor libraries keep theirs.
("$NVCC" -fatbin -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90 \
	"$T/k2.cu" -o "$T/k2.fatbin" >"$T/custom.log" 2>&1 &&
	printf '__asm__(".section .my_kernels,\\"a\\"\\n.balign 8\\n.incbin \\"%s\\"\\n.previous");\nint marker;\n' \
		"$T/k2.fatbin" >"$T/custom.c" &&
	cc -shared -fPIC -o "$T/libcustom.so" "$T/custom.c" >>"$T/custom.log" 2>&1) &
wait
for f in sm75 sm80_sm90_ptx90 sm90a sm100f ptx_only zstd lz4 debug rdc custom; do
	[ -f "$T/lib$f.so" ] || { echo "FAIL: cannot build lib$f.so:"; cat "$T/$f.log"; exit 1; }
done

# q FILE.json PYTHON-EXPR: evaluate with c = the first file's "cuda" object.
q() {
	$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["files"][0]["cuda"]; print(eval(sys.argv[2]))' "$1" "$2"
}

# expect NAME SASS PTX ARCH_LIST: the listing equals the flags used.
expect() {
	local name=$1 lib="$T/lib$1.so" rc
	"$P" --json cuda --verify "$lib" >"$T/$name.json" 2>"$T/$name.err"
	rc=$?
	check_eq "$name: exit code (--verify)" 0 "$rc"
	check_eq "$name: no warnings" "" "$(cat "$T/$name.err")"
	check_eq "$name: SASS" "$2" "$(q "$T/$name.json" '" ".join(c["sass"])')"
	check_eq "$name: PTX" "$3" "$(q "$T/$name.json" '" ".join(c["ptx"])')"
	check_eq "$name: TORCH_CUDA_ARCH_LIST" "$4" "$(q "$T/$name.json" 'c["arch_list"]')"
	# --verify: every SASS/PTX entry decompressed (or read) to its header's size, none failed.
	check_eq "$name: --verify checked every SASS/PTX entry" \
		"$(q "$T/$name.json" 'sum(e["kind"] in ("sass","ptx") for e in c["entries"])') 0" \
		"$(q "$T/$name.json" '"%d %d" % (c["verify"]["checked"], c["verify"]["failed"])')"
}

expect sm75 "sm_75" "" "7.5"
expect sm80_sm90_ptx90 "sm_80 sm_90" "compute_90" "8.0;9.0+PTX"
expect sm90a "sm_90a" "" "9.0a"
expect sm100f "sm_100f" "compute_100f" "10.0f+PTX"
expect ptx_only "" "compute_80" ""
expect zstd "sm_80" "" "8.0"
expect lz4 "sm_80" "compute_80" "8.0+PTX"
expect debug "sm_75" "compute_75" "7.5+PTX"
expect rdc "sm_80" "compute_80" "8.0+PTX"
expect custom "sm_80" "compute_90" "8.0"

J=$T/sm80_sm90_ptx90.json
check_eq "-gencode flags equal the ones used" \
	"-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90" \
	"$(q "$J" 'c["gencode"]')"
check_eq "registered section, one wrapper" ".nv_fatbin registered 1 1" \
	"$(q "$J" '" ".join(str(x) for s in c["sections"] for x in (s["name"], s["kind"], s["count"])) + " " + str(c["wrappers"])')"
check_eq "PTX ISA of nvcc 13 PTX" "9.0" "$(q "$J" '[e["ptx_isa"] for e in c["entries"] if e["kind"]=="ptx"][0]')"
check_eq "PTX-only: no TORCH_CUDA_ARCH_LIST spelling" "False" "$(q "$T/ptx_only.json" 'c["arch_list_complete"]')"

# Compression as §6 says nvcc 13.0 does it.
check_eq "default: SASS stored, PTX zstd" "none zstd" \
	"$(q "$J" '" ".join(sorted({e["compression"] for e in c["entries"]}))')"
check_eq "-compress-all: zstd SASS" "zstd" "$(q "$T/zstd.json" '" ".join({e["compression"] for e in c["entries"]})')"
check_eq "--compress-mode=speed: LZ4" "lz4" "$(q "$T/lz4.json" '" ".join({e["compression"] for e in c["entries"]})')"
check_eq "uncompressed sizes bigger than stored (lz4)" "True" \
	"$(q "$T/lz4.json" 'all(e["uncompressed_size"] > e["stored_size"] - 64 for e in c["entries"])')"
check_eq "-G: every entry debug, identifier set" "True True" \
	"$(q "$T/debug.json" '"%s %s" % (all(e["debug"] for e in c["entries"]), all(e["identifier"] for e in c["entries"]))')"
check_contains "--entries: -G entry with debug flag and identifier" " debug id=$T/k.cu" \
	"$("$P" cuda --entries "$T/libdebug.so" | grep sm_75 | grep ' ELF ')"
check_eq "-G: zstd everywhere" "zstd" "$(q "$T/debug.json" '" ".join({e["compression"] for e in c["entries"]})')"

# -rdc: relocatable fat binaries with ET_REL cubins, linked image without PTX.
check_eq "-rdc: sections" ".nv_fatbin:registered __nv_relfatbin:relocatable" \
	"$(q "$T/rdc.json" '" ".join(s["name"] + ":" + s["kind"] for s in c["sections"])')"
check_eq "-rdc: ET_REL cubins found by --verify" "2" "$(q "$T/rdc.json" 'c["verify"]["relocatable_cubins"]')"
check_eq "-rdc: linked image has no PTX" "sm_80" \
	"$(q "$T/rdc.json" '" ".join(sorted({e["target"] for e in c["entries"] if e["section"]==".nv_fatbin"}))')"

# A custom data section: found by the scan, embedded, and not with --registered-only.
check_eq "custom section found" ".my_kernels embedded 1" \
	"$(q "$T/custom.json" '" ".join(str(x) for s in c["sections"] for x in (s["name"], s["kind"], s["count"]))')"
"$P" --json cuda --registered-only "$T/libcustom.so" >"$T/custom-reg.json"
check_eq "--registered-only skips the data scan" "0" "$(q "$T/custom-reg.json" 'c["fatbins"]')"

# --gpu verdicts (§11) in JSON: name, CC spellings, each way of running.
"$P" --json cuda --gpu 8.6 --gpu h100 --gpu rtx5090 --gpu t4 "$T/libsm80_sm90_ptx90.so" >"$T/g.json"
check_eq "verdicts for 8.6 / h100 / rtx5090 / t4" \
	"sass_compatible:sm_80 sass_exact:sm_90 ptx_jit:None none:None" \
	"$(q "$T/g.json" '" ".join("%s:%s" % (v["verdict"], v["sass"]) for v in c["gpu_verdict"])')"
check_eq "PTX JIT on 12.0 needs a CUDA 13.0 driver; torch warns falsely" "9.0 13.0 capability_range,no_cubin_for_major" \
	"$(q "$T/g.json" '"%s %s %s" % tuple(c["gpu_verdict"][2][k] if k != "w" else ",".join(c["gpu_verdict"][2]["torch_false_warnings"]) for k in ("ptx_isa", "ptx_min_driver", "w"))')"
"$P" --json cuda --gpu 9.0 --gpu sm_100 "$T/libsm90a.so" >"$T/g.json"
check_eq "sm_90a: exact on 9.0, nothing on 10.0" "sass_exact none" \
	"$(q "$T/g.json" '" ".join(v["verdict"] for v in c["gpu_verdict"])')"
"$P" --json cuda --gpu 103 --gpu 12.0 --gpu 11.0 "$T/libsm100f.so" >"$T/g.json"
check_eq "sm_100f: compatible on 10.3, not on 12.0 or 11.0" "sass_compatible none none" \
	"$(q "$T/g.json" '" ".join(v["verdict"] for v in c["gpu_verdict"])')"
out=$("$P" cuda --gpu t4 "$T/libsm80_sm90_ptx90.so")
check_contains "text: the CUDA error users see" '"no kernel image is available for execution on the device"' "$out"
check_contains "text: TORCH_CUDA_ARCH_LIST line" "TORCH_CUDA_ARCH_LIST  8.0;9.0+PTX" "$out"
check_rc "unknown GPU is a usage error" 2 "$P" cuda --gpu rtx9999 "$T/libsm75.so"
check_rc "a --gpu that cannot run the code: exit 1" 1 "$P" cuda --gpu h100 --gpu t4 "$T/libsm80_sm90_ptx90.so"
check_rc "every --gpu can run it: exit 0" 0 "$P" cuda --gpu h100 --gpu a10 "$T/libsm80_sm90_ptx90.so"
check_rc "--gpu is for the CUDA report" 2 "$P" deps --gpu h100 "$T/libsm75.so"

# Bare `ptinspect FILE` includes the CUDA section; a file without CUDA code shows none.
check_contains "bare ptinspect has the CUDA section" "SASS      sm_75" "$("$P" "$T/libsm75.so")"
case "$("$P" /bin/true)" in *CUDA*) fail "CUDA section shown for /bin/true" ;; *) pass ;; esac
check_contains "ptinspect cuda: one line without CUDA code" "no fat binaries" "$("$P" cuda /bin/true)"

# ---- --cuda-deps: every CUDA library of the tree, dlopen edges from the table included.
# libtop NEEDs two CUDA libraries and a stand-in libcudnn.so.9, whose known dlopen of
# libcudnn_ops.so.9 (here: the sm_90a library) is resolved through libtop's DT_RPATH.
# --no-cache keeps the real cuDNN in /usr/local/cuda (in ld.so.cache) out of it.
build_so "$T/libcudnn.so.9" 'int cudnnGetVersion(void) { return 91900; }' -Wl,-soname,libcudnn.so.9
cp "$T/libsm90a.so" "$T/libcudnn_ops.so.9"
build_so "$T/libtop.so" 'int top(void) { return 0; }' -L"$T" -Wl,--no-as-needed -l:libsm80_sm90_ptx90.so -l:libdebug.so \
	-l:libcudnn.so.9 -Wl,--disable-new-dtags,-rpath,"$T"
"$P" --json cuda --cuda-deps --no-cache --gpu h100 --gpu 8.6 "$T/libtop.so" >"$T/deps.json" 2>"$T/deps.err"
check_eq "--cuda-deps: a GPU the weakest link cannot serve: exit 1" 1 $?
check_eq "--cuda-deps: libraries with device code, load order, dlopen marked" \
	"libsm80_sm90_ptx90.so:False libdebug.so:False libcudnn_ops.so.9:True" \
	"$($PY -c 'import json,sys,os; d=json.load(open(sys.argv[1]))["files"][0]["cuda_deps"]; print(" ".join("%s:%s" % (os.path.basename(l["path"]), l["via_dlopen"]) for l in d["libraries"]))' "$T/deps.json")"
check_eq "--cuda-deps: weakest link per GPU" \
	"libdebug.so:ptx_jit:13.0 libcudnn_ops.so.9:none:None" \
	"$($PY -c 'import json,sys,os; d=json.load(open(sys.argv[1]))["files"][0]["cuda_deps"]; print(" ".join("%s:%s:%s" % (os.path.basename(w["library"]), w["verdict"], w["ptx_min_driver"]) for w in d["weakest"]))' "$T/deps.json")"
check_eq "--cuda-deps: dlopen targets not present are notes, not warnings" "" \
	"$(grep warning "$T/deps.err")"
out=$("$P" cuda --cuda-deps --no-cache --gpu h100 "$T/libtop.so")
check_eq "--cuda-deps: exit 0 when every library runs" 0 $?
check_contains "--cuda-deps text: weakest link" "weakest link for h100 (9.0): libdebug.so: PTX JIT only (ISA 9.0: needs a driver for CUDA 13.0)" "$out"
check_contains "--cuda-deps text: dlopen marked" "libcudnn_ops.so.9                        (dlopen)" "$out"

# ---- Damaged copies. Two fat binaries in .nv_fatbin: two objects linked together.
cc -shared -o "$T/libtwo.so" "$T/sm75.o" "$T/second.o"
"$P" --json cuda "$T/libtwo.so" >"$T/two.json"
check_eq "two objects: two registered fat binaries" "2" "$(q "$T/two.json" 'c["fatbins"]')"
# patch FILE PYTHON: run with b = bytearray of the file, sec(name) -> (offset, size, shdr offset).
patch() {
	$PY - "$1" "$2" <<'EOF'
import struct, sys
path, code = sys.argv[1], sys.argv[2]
b = bytearray(open(path, 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
def sh(i): return shoff + i * shentsize
stroff, = struct.unpack_from('<Q', b, sh(shstrndx) + 0x18)
def sec(name):
    for i in range(shnum):
        n, = struct.unpack_from('<I', b, sh(i))
        end = b.index(0, stroff + n)
        if b[stroff + n:end].decode() == name:
            off, size = struct.unpack_from('<QQ', b, sh(i) + 0x18)
            return off, size, sh(i)
exec(code)
open(path, 'wb').write(b)
EOF
}
damaged() {	# name python-patch expected-warning-substring [warnings, default 1]
	cp "$T/libtwo.so" "$T/$1.so"
	patch "$T/$1.so" "$2"
	"$P" --json cuda "$T/$1.so" >"$T/$1.json" 2>"$T/$1.err"
	check_eq "$1: exit 1" 1 $?
	check_contains "$1: warning" "$3" "$(cat "$T/$1.err")"
	check_eq "$1: warnings" "${4:-1}" "$(grep -c warning "$T/$1.err")"
}
# The first fat binary's magic destroyed: the second is still found.
damaged bad_magic 'o,s,h = sec(".nv_fatbin"); b[o] ^= 0xff' "bad fat binary magic"
check_eq "bad magic: the other fat binary is reported" "1 sm_80" \
	"$(q "$T/bad_magic.json" '"%d %s" % (c["fatbins"], " ".join(c["sass"]))')"
# The second fat binary's magic destroyed: the first is kept.
damaged bad_magic_2nd 'o,s,h = sec(".nv_fatbin"); f = struct.unpack_from("<Q", b, o + 8)[0]; b[o + 16 + f] ^= 0xff' \
	"bad fat binary magic"
check_eq "bad magic in the middle: the first is reported" "sm_75" "$(q "$T/bad_magic_2nd.json" '" ".join(c["sass"])')"
# fat_size pointing past the end of the section.
damaged fat_size_past_end 'o,s,h = sec(".nv_fatbin"); struct.pack_into("<Q", b, o + 8, 1 << 40)' \
	"points past the end of the section"
check_eq "fat size past the end: the other is reported" "sm_80" "$(q "$T/fat_size_past_end.json" '" ".join(c["sass"])')"
# An entry's payload_size past the end of its fat binary.
damaged payload_past_end 'o,s,h = sec(".nv_fatbin"); struct.pack_into("<Q", b, o + 16 + 8, 1 << 50)' \
	"entry size fields point past the end of the fat binary"
check_eq "payload past the end: the other is reported" "sm_80" "$(q "$T/payload_past_end.json" '" ".join(c["sass"])')"
# Zero sizes: an entry header of size 0.
damaged zero_header_size 'o,s,h = sec(".nv_fatbin"); struct.pack_into("<I", b, o + 16 + 4, 0)' \
	"bad entry header size"
check_eq "zero header size: damaged count" "1" "$(q "$T/zero_header_size.json" 'c["sections"][0]["damaged"]')"
# A truncated section: the section table says .nv_fatbin ends inside the second fat binary.
damaged truncated_section 'o,s,h = sec(".nv_fatbin"); struct.pack_into("<Q", b, h + 0x20, s - 40)' \
	"points past the end of the section"
check_eq "truncated section: the first is reported" "sm_75" "$(q "$T/truncated_section.json" '" ".join(c["sass"])')"
# A section that runs past the end of the file.
# (A second warning follows: the walk reads on into whatever follows the real section.)
damaged section_past_eof 'o,s,h = sec(".nv_fatbin"); struct.pack_into("<Q", b, h + 0x20, 1 << 40)' \
	"extends past the end of the file" 2
check_eq "section past EOF: both fat binaries reported" "2" "$(q "$T/section_past_eof.json" 'c["fatbins"]')"
# --verify on a corrupted compressed payload: a decompression warning, exit 1.
cp "$T/libzstd.so" "$T/badz.so"
patch "$T/badz.so" 'o,s,h = sec(".nv_fatbin"); hs = struct.unpack_from("<I", b, o + 16 + 4)[0]; b[o + 16 + hs + 8] ^= 0x55; b[o + 16 + hs + 20] ^= 0x55'
"$P" cuda --verify "$T/badz.so" >"$T/badz.out" 2>"$T/badz.err"
check_eq "--verify: corrupt zstd exits 1" 1 $?
check_contains "--verify: corrupt zstd warning" "zstd decompression failed" "$(cat "$T/badz.err")"
# --verify checks entries on several threads: the report and the warnings, in
# entry order, are the same as on one (PT_JOBS=1), also with a failing entry.
for f in badz libzstd; do
	PT_JOBS=1 "$P" cuda --verify "$T/$f.so" >"$T/$f.one" 2>&1
	PT_JOBS=3 "$P" cuda --verify "$T/$f.so" >"$T/$f.three" 2>&1
	check_eq "--verify $f: 3 threads report as 1" "$(cat "$T/$f.one")" "$(cat "$T/$f.three")"
done

# TORCH_CUDA_ARCH_LIST is what all but a few fat binaries hold (issue 32, item 7):
# eleven kernels' fat binaries in one library, one with its own extra sm_90a (as
# libtorch_cuda's sm_90a is in 2 of its 341): the list is 8.0+PTX, sm_90a said apart.
cc -shared -o "$T/libmost.so" "$T"/many*.o "$T/sm80_sm90a.o" 2>"$T/most.log" ||
	{ cat "$T/most.log"; fail "cannot link libmost.so"; }
"$P" cuda "$T/libmost.so" >"$T/most.txt"
check_contains "most: the list all but a few fat binaries hold" "  TORCH_CUDA_ARCH_LIST  8.0+PTX  (in all but a few of the 11 fat binaries)" "$(cat "$T/most.txt")"
check_contains "most: the extra target and how many hold it" "    also, in under a tenth of them: sm_90a (1)" "$(cat "$T/most.txt")"
check_contains "most: SASS still lists every target" "  SASS      sm_80 sm_90a" "$(cat "$T/most.txt")"
"$P" cuda --json "$T/libmost.so" >"$T/most.json"
check_eq "most --json: list, extra, union" "8.0+PTX|sm_90a (1)|8.0+PTX;9.0a|11" \
	"$(q "$T/most.json" '"|".join([c["arch_list"], c["arch_list_extra"], c["arch_list_union"], str(c["fatbins_with_code"])])')"
finish
