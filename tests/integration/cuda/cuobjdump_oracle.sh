# ctest-timeout: 1800
# ctest-labels: one-tree
# NVIDIA's cuobjdump (12.4, from Debian's nvidia-cuda-toolkit, run inside the CUDA
# test bed) is the oracle: on every shared object of the bed's NVIDIA and torch
# packages, `cuobjdump --list-elf` and `--list-ptx` list exactly the entries, in
# order and target by target, that `ptinspect cuda --json --registered-only
# --verify` reports. cuobjdump runs with -all: without it, it skips NCCL's
# relocatable fat binaries (__nv_relfatbin). It reads no other section, so the
# deep scan's extra finds (cuFFT's embedded fat binaries) are checked apart. A file cuobjdump says has no
# device code has no fat binary for ptinspect. Disagreements are failures.
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/cudabed.sh"
need jq
cudabed_up
P=$PTINSPECT

check_contains "cuobjdump is NVIDIA's 12.4" "Cuda compilation tools, release 12.4" "$(bed_run cuobjdump --version)"

# Every real (non-symlink) shared object of the packages that ship device code or link it.
bed_run sh -c 'dpkg-query -W -f "\${Package}\n" |
	grep -E "^(libcu|libnv|libnccl|libnpp|libtorch-cuda|libgloo-cuda|libtensorpipe-cuda|python3-torch-cuda)" |
	xargs dpkg -L | grep -E "\.so[.0-9]*$" | while read -r f; do [ -L "$f" ] || [ ! -f "$f" ] || echo "$f"; done' |
	sort -u >"$T/files"
check_eq "the bed's NVIDIA and torch libraries are listed" "True" \
	"$([ "$(wc -l <"$T/files")" -ge 30 ] && echo True || echo False)"
grep -q "^$LIBDIR/libtorch_cuda.so.2.6.0$" "$T/files" || fail "libtorch_cuda.so.2.6.0 not among the files"

mkdir -p "$T/co"
with_code=0
total_entries=0
for f in $(cat "$T/files"); do
	b=$(basename "$f")
	# cuobjdump's names: "ELF file 12: libx.12.sm_90a.cubin", "PTX file 3: libx.3.sm_90.ptx".
	bed_run cuobjdump -all --list-elf "$f" >"$T/co/$b.elf" 2>"$T/co/$b.elf.err"
	erc=$?
	bed_run cuobjdump -all --list-ptx "$f" >"$T/co/$b.ptx" 2>"$T/co/$b.ptx.err"
	{
		sed -nE 's/^ELF file +[0-9]+: .*\.(sm_[0-9]+[af]?)\.cubin$/\1/p' "$T/co/$b.elf"
		sed -nE 's/^PTX file +[0-9]+: .*\.sm_([0-9]+[af]?)\.ptx$/compute_\1/p' "$T/co/$b.ptx"
	} >"$T/co/$b.oracle"
	"$P" --json cuda --registered-only --verify "$BED$f" >"$T/co/$b.json" 2>"$T/co/$b.err"
	prc=$?
	if grep -q 'does not contain device code' "$T/co/$b.elf.err"; then
		check_eq "$b: no device code for cuobjdump, no fat binary for ptinspect" 0 \
			"$(jq '.files[0].cuda.fatbins' "$T/co/$b.json")"
		continue
	fi
	check_eq "$b: cuobjdump -all --list-elf succeeds" 0 $erc
	check_eq "$b: ptinspect succeeds" 0 $prc
	with_code=$((with_code + 1))
	# SASS in file order, the cubin's own arch-specific flag as cuobjdump names it; then PTX.
	jq -r '.files[0].cuda.entries as $e |
		($e[] | select(.kind == "sass") | .target + (if .variant == null then (.cubin_variant // "") else "" end)),
		($e[] | select(.kind == "ptx") | .target)' "$T/co/$b.json" >"$T/co/$b.ours"
	n=$(wc -l <"$T/co/$b.oracle")
	total_entries=$((total_entries + n))
	if diff -u "$T/co/$b.oracle" "$T/co/$b.ours" >"$T/co/$b.diff"; then
		pass
	else
		fail "$b: ptinspect's entries differ from cuobjdump's"
		head -20 "$T/co/$b.diff"
	fi
	check_eq "$b: every entry decompresses and matches its header" 0 "$(jq '.files[0].cuda.verify.failed' "$T/co/$b.json")"
	printf '  %-34s %6d entries (cuobjdump = ptinspect): %s\n' "$b" "$n" \
		"$(sort "$T/co/$b.oracle" | uniq -c | awk '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $2, $1 }')"
done
check_eq "libraries with device code in the bed" 9 $with_code

# libtorch_cuda.so: the figures the issue quotes (2,389 cubins + 341 PTX).
check_eq "libtorch_cuda.so: cuobjdump's cubins and PTX" "2389 341" \
	"$(grep -c . "$T/co/libtorch_cuda.so.2.6.0.elf") $(grep -c . "$T/co/libtorch_cuda.so.2.6.0.ptx")"
# The deep scan (default) finds more than cuobjdump in cuFFT: embedded fat binaries.
"$P" --json cuda "$BED$LIBDIR/libcufft.so.11" >"$T/cufft.json"
check_eq "cuFFT: the default scan adds embedded fat binaries cuobjdump does not list" \
	"registered:1 embedded:17607" \
	"$(jq -r '[.files[0].cuda.sections[] | "\(.kind):\(.count)"] | join(" ")' "$T/cufft.json")"
echo "  $with_code libraries with device code, $total_entries entries, all equal to cuobjdump's"
finish
