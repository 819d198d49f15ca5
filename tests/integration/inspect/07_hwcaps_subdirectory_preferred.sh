# A copy in dir/glibc-hwcaps/x86-64-v2/ wins over dir/ itself when the CPU
# supports that level (§5); with --hwcaps=none the plain copy is used.
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
mkdir -p "$T/d/glibc-hwcaps/x86-64-v2"
build_so "$T/d/libH.so" "$(lib_src h 1)" -Wl,-soname,libH.so
build_so "$T/d/glibc-hwcaps/x86-64-v2/libH.so" "$(lib_src h 2)" -Wl,-soname,libH.so
build_exe "$T/exe" "$(exe_src h)" -L"$T/d" -lH -Wl,-rpath,"$T/d"
/lib64/ld-linux-x86-64.so.2 --list-diagnostics 2>/dev/null | grep -q 'dl_hwcaps_subdirs_active=0x[0-9a-f]*[2367abef]$' ||
	not_applicable "this CPU does not support x86-64-v2"
same_as_loader "hwcaps subdirectory" "$T/exe"
check_contains "v2 copy chosen" "glibc-hwcaps/x86-64-v2/libH.so" "$(ours "$T/exe")"
check_eq "plain copy with --hwcaps=none" "$T/d/libH.so" "$(ours "$T/exe" --hwcaps=none | grep libH)"
# A private ld.so.cache with a hwcaps entry (ldconfig -C never touches the system's).
printf '%s\n' "$T/d" >"$T/ld.so.conf"
if /sbin/ldconfig -C "$T/ld.so.cache" -f "$T/ld.so.conf" 2>/dev/null; then
	build_exe "$T/exe2" "$(exe_src h)" -L"$T/d" -lH
	check_eq "cache hwcaps entry chosen" "$T/d/glibc-hwcaps/x86-64-v2/libH.so" "$(ours "$T/exe2" --ld-so-cache="$T/ld.so.cache" | grep libH)"
	check_eq "cache plain entry with --hwcaps=none" "$T/d/libH.so" "$(ours "$T/exe2" --ld-so-cache="$T/ld.so.cache" --hwcaps=none | grep libH)"
fi
finish
