# An object with DT_RUNPATH uses no RPATH at all, not even its loaders' or the
# executable's (get-dynamic-info.h; §1): libB sits in the executable's RPATH
# directory but libA, which has a RUNPATH, cannot use it.
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
mkdir -p "$T/d1" "$T/d2"
build_so "$T/d1/libB.so" "$(lib_src b)" -Wl,-soname,libB.so
build_so "$T/d1/libA.so" "int b(void); int a(void) { return b(); }" -Wl,-soname,libA.so -L"$T/d1" -lB -Wl,--enable-new-dtags,-rpath,"$T/d2"
build_exe "$T/exe" "$(exe_src a)" -L"$T/d1" -lA -Wl,--disable-new-dtags,-rpath,"$T/d1" -Wl,--allow-shlib-undefined
same_as_loader "runpath disables the rpath chain" "$T/exe"
check_eq "libB missing" not_found "$(found_by "$T/exe" libB.so)"
# The same library without RUNPATH: the executable's RPATH serves libB again.
build_so "$T/d1/libA.so" "int b(void); int a(void) { return b(); }" -Wl,-soname,libA.so -L"$T/d1" -lB
same_as_loader "without runpath the chain is back" "$T/exe"
check_eq "libB via the executable's rpath" rpath_of_loader "$(found_by "$T/exe" libB.so)"
finish
