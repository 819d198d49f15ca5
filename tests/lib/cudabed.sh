# The CUDA test bed for the cuda tier (tests/torch2/testbed --flavour cuda):
# Debian 13's CUDA build of torch 2.6, NVIDIA's runtime libraries and
# cuobjdump 12.4, libcudnn.so.9 missing. Source after common.sh:
#   . "$PT_TESTLIB/cudabed.sh"; cudabed_up
# sets BED (the chroot, read on the host with --root) and LIBDIR; bed_run CMD...
# runs CMD inside (stdout only). Skips (77) only when the bed cannot be made here.
TB_CUDA=("$PT_SRC/tests/torch2/testbed" --flavour cuda)
LIBDIR=/usr/lib/x86_64-linux-gnu

cudabed_up() {
	local rc
	"${TB_CUDA[@]}" create 2>"$T/bed.err"
	rc=$?
	[ $rc = 77 ] && skip "the CUDA test bed cannot be made here: $(grep 'cannot run here' "$T/bed.err")"
	if [ $rc != 0 ]; then
		cat "$T/bed.err"
		echo "FAIL: creating the CUDA test bed (exit $rc)"
		exit 1
	fi
	grep -q 'ready: cold' "$T/bed.err" && cat "$T/bed.err"
	BED=$(PT_TORCH2_RECHECK=999999999 "${TB_CUDA[@]}" info 2>/dev/null | awk '$1 == "root:" { print $2 }')
	[ -d "$BED$LIBDIR" ] || { echo "FAIL: no $BED$LIBDIR"; exit 1; }
}

# bed_run CMD...: CMD inside the bed; the bed's own "ready" line is dropped.
bed_run() {
	PT_TORCH2_RECHECK=999999999 "${TB_CUDA[@]}" run "$@" 2> >(grep -v '^testbed: ready' >&2)
}
