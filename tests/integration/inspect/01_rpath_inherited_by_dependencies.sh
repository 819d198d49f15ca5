# DT_RPATH serves the NEEDED of everything loaded below the object (§3 step 1):
# libA (no paths) finds libB through the executable's RPATH.
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
mkdir -p "$T/d1"
build_so "$T/d1/libB.so" "$(lib_src b)" -Wl,-soname,libB.so
build_so "$T/d1/libA.so" "int b(void); int a(void) { return b(); }" -Wl,-soname,libA.so -L"$T/d1" -lB
build_exe "$T/exe" "$(exe_src a)" -L"$T/d1" -lA -Wl,--disable-new-dtags,-rpath,"$T/d1"
same_as_loader "rpath inherited" "$T/exe"
check_eq "libB via the loader's rpath" rpath_of_loader "$(found_by "$T/exe" libB.so)"
check_eq "libA via its own rpath" rpath "$(found_by "$T/exe" libA.so)"
finish
