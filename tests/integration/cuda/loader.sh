# ctest-timeout: 1200
# Debian's CUDA build of torch 2.6 in the CUDA test bed: ptinspect --root=BED
# resolves every tree exactly as the bed's own loader does (LD_TRACE_LOADED_OBJECTS
# run inside the chroot: names, paths and load order, "not found" included), and
# libcudnn.so.9, which nothing in the bed provides, is reported missing, needed
# by libtorch_cuda.so. --cuda-deps names every library of the tree with device code.
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/cudabed.sh"
need jq
cudabed_up
P=$PTINSPECT

# The loader's list: "name => path" or "name => not found", in load order.
oracle() {
	bed_run env LD_TRACE_LOADED_OBJECTS=1 /lib64/ld-linux-x86-64.so.2 "$1" |
		awk '$2 == "=>" { print $1, ($3 == "not" ? "not_found" : $3) }'
}
ours() {
	"$P" deps --no-tree --root="$BED" "$BED$1" 2>/dev/null |
		awk '$2 == "=>" { print $1, ($3 == "not" ? "not_found" : $3) }'
}

pyc=$(cd "$BED" && ls usr/lib/python3/dist-packages/torch/_C.cpython-3*-x86_64-linux-gnu.so)
for f in $LIBDIR/libtorch_cuda.so.2.6 $LIBDIR/libc10_cuda.so.2.6 $LIBDIR/libtorch_cuda_linalg.so.2.6 \
	$LIBDIR/libcublasLt.so.12 $LIBDIR/libnccl.so.2 "/$pyc"; do
	oracle "$f" >"$T/oracle"
	ours "$f" >"$T/ours"
	[ -s "$T/oracle" ] || fail "$f: the bed's loader listed nothing"
	if diff -u "$T/oracle" "$T/ours" >"$T/diff"; then
		pass
	else
		fail "$f: ptinspect --root differs from the bed's loader (name, path, order)"
		cat "$T/diff"
	fi
done

lib=$LIBDIR/libtorch_cuda.so.2.6
n=$(oracle "$lib" | grep -vc not_found)
check_eq "libtorch_cuda: the loader finds $n and misses only libcudnn.so.9" "libcudnn.so.9 not_found" \
	"$(oracle "$lib" | grep not_found)"
out=$("$P" deps --root="$BED" "$BED$lib" 2>"$T/err")
check_eq "deps: exit 1 (a library is missing)" 1 $?
# ld.so does not list the loader itself under "=>"; ptinspect counts it.
check_contains "deps: the summary" "dependencies: $((n + 1)) loaded, 1 missing, 0 with unmet versions" "$out"
check_contains "deps: libcudnn.so.9 in the tree, not found" "├── libcudnn.so.9 not found" "$out"
check_eq "deps: the warning names libcudnn.so.9 and libtorch_cuda.so" \
	"ptinspect: warning: '$BED$lib': libcudnn.so.9: not found (needed by $BED$lib)" "$(cat "$T/err")"
"$P" deps --json --root="$BED" "$BED$lib" >"$T/deps.json" 2>/dev/null
check_eq "deps --json: libcudnn.so.9 not found, needed by libtorch_cuda.so.2.6, depth 1" \
	"not_found $BED$lib 1" \
	"$(jq -r '.files[0].deps[] | select(.name == "libcudnn.so.9") | "\(.found_by) \(.needed_by) \(.depth)"' "$T/deps.json")"
check_eq "deps --json: the problem" "warning libcudnn.so.9: not found (needed by $BED$lib)" \
	"$(jq -r '.problems[] | "\(.severity) \(.message)"' "$T/deps.json")"

# Bare ptinspect (every section) on the same file: the same missing library, exit 1.
"$P" --root="$BED" "$BED$lib" >"$T/all.txt" 2>&1
check_eq "ptinspect FILE: exit 1" 1 $?
check_contains "ptinspect FILE: libcudnn.so.9 missing" "libcudnn.so.9 not found" "$(cat "$T/all.txt")"
check_contains "ptinspect FILE: the CUDA section" "TORCH_CUDA_ARCH_LIST  5.0;6.0;7.0;7.5;8.0;8.6;9.0+PTX  (in all but a few of the 341 fat binaries)" "$(cat "$T/all.txt")"

# cuda --cuda-deps: the libraries with device code are the tree's (read inside the root),
# each as the loader found it; libcudnn.so.9 is still the missing one.
"$P" --json cuda --cuda-deps --gpu 9.0 --root="$BED" "$BED$lib" >"$T/cd.json" 2>"$T/cd.err"
check_eq "cuda --cuda-deps: exit 1 (libcudnn.so.9 missing)" 1 $?
check_eq "cuda --cuda-deps: no file it could not open" "" "$(grep 'cannot open' "$T/cd.err")"
check_eq "cuda --cuda-deps: 8 libraries of the tree have device code" \
	"libtorch_cuda.so.2.6 libgloo_cuda.so.0 libcusparse.so.12 libcufft.so.11 libnccl.so.2 libcurand.so.10 libcublas.so.12 libcublasLt.so.12" \
	"$(jq -r '[.files[0].cuda_deps.libraries[].path | split("/")[-1]] | join(" ")' "$T/cd.json")"
# Each of them is in the loader's list at the same path.
jq -r '.files[0].cuda_deps.libraries[1:][] | "\(.path | split("/")[-1]) \(.path)"' "$T/cd.json" | sort >"$T/cd_paths"
oracle "$lib" | sort | join - "$T/cd_paths" | awk '$2 != $3 { print "path differs: " $0 }' >"$T/cd_bad"
check_eq "cuda --cuda-deps: libraries at the loader's paths" "" "$(cat "$T/cd_bad")"
check_eq "cuda --cuda-deps: as many libraries with device code as the loader's paths hold" 7 \
	"$(oracle "$lib" | sort | join - "$T/cd_paths" | wc -l)"
check_contains "cuda --cuda-deps: libcudnn.so.9 missing" "libcudnn.so.9: not found (needed by $BED$lib)" "$(cat "$T/cd.err")"
# The dlopen edges: libcuda.so.1 reached through Debian's alternatives (absolute links
# followed inside the root), NVRTC and its builtins of the same toolkit version (12.4).
check_eq "cuda --cuda-deps: dlopen edges, all found inside the root" \
	"libtorch_cuda.so.2.6>libcuda.so.1:true libtorch_cuda.so.2.6>libnvrtc.so.12:true libcudart.so.12>libcuda.so.1:true libnvrtc.so.12>libnvrtc-builtins.so.12.4:true" \
	"$(jq -r '[.files[0].cuda_deps.dlopen_edges[] | "\(.caller | split("/")[-1])>\(.name):\(.found)"] | join(" ")' "$T/cd.json")"
check_contains "inside the bed, libcuda.so.1 is Debian's driver library through /etc/alternatives" \
	"/usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.5" "$(bed_run readlink -f $LIBDIR/libcuda.so.1)"
# Debian's gloo carries only compute_52 PTX: the weakest link on an H100 is a JIT.
check_eq "cuda --cuda-deps: weakest link for 9.0" "libgloo_cuda.so.0 ptx_jit 12.2" \
	"$(jq -r '.files[0].cuda_deps.weakest[0] | "\(.library | split("/")[-1]) \(.verdict) \(.ptx_min_driver)"' "$T/cd.json")"
finish
