# glibc < 2.37 also tries the legacy hwcap subdirectories (§5): every
# combination of tls, the platform ("haswell" or "xeon_phi" on Intel CPUs,
# where glibc replaces AT_PLATFORM; "x86_64" elsewhere), avx512_1 and x86_64,
# in an order that depends on the CPU. Their order is taken from the loader
# itself (LD_DEBUG=libs on a missing library), then a copy of a library is put
# in each of them, the least preferred first: after each one both ld.so and
# ptinspect must pick the copy just added. Found on an Intel CI machine, where
# ptinspect took $PLATFORM for x86_64 and tried the AMD order of subdirectories.
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
unset LD_LIBRARY_PATH
case $(/usr/bin/ldd --version 2>/dev/null | head -1) in
*" 2.3"[0-6]) ;;
*) not_applicable "glibc 2.37 and later have no legacy hwcap subdirectories" ;;
esac
mkdir -p "$T/d"
build_so "$T/libM.so" "$(lib_src m)" -Wl,-soname,libM.so
build_exe "$T/probe" "$(exe_src m)" -L"$T" -lM -Wl,--disable-new-dtags,-rpath,"$T/d"
# The loader's search path for the RPATH dir: its hwcaps and legacy subdirs, then the dir.
LD_DEBUG=libs "$T/probe" 2>&1 >/dev/null |
	sed -n 's/^ *[0-9]*:[[:space:]]*search path=\(.*\)[[:space:]]*(RPATH from file .*$/\1/p' | head -1 |
	tr ':' '\n' | sed -n "s|^$T/d/||p" | grep -v '^glibc-hwcaps/' >"$T/subdirs.txt"
n=$(wc -l <"$T/subdirs.txt")
[ "$n" -ge 5 ] || { echo "FAIL: the loader listed $n legacy subdirectories:"; cat "$T/subdirs.txt"; finish; }
check_contains "the platform is among them (on this CPU: $(sed -n 2p "$T/subdirs.txt"))" "x86_64" "$(cat "$T/subdirs.txt")"
build_exe "$T/exe" "$(exe_src m)" -L"$T" -lM -Wl,--disable-new-dtags,-rpath,"$T/d"
while read -r sub; do
	mkdir -p "$T/d/$sub"
	cp "$T/libM.so" "$T/d/$sub/libM.so"
	same_as_loader "a copy in $sub/ beside the less preferred ones" "$T/exe"
	check_eq "ptinspect chooses $sub/" "$T/d/$sub/libM.so" "$(ours "$T/exe" | grep libM)"
done < <(tac "$T/subdirs.txt")
finish
