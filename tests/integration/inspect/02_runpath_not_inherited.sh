# DT_RUNPATH serves only the object's own NEEDED (§3 step 3): libA cannot
# find libB through the executable's RUNPATH, and ld.so agrees.
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
mkdir -p "$T/d1"
build_so "$T/d1/libB.so" "$(lib_src b)" -Wl,-soname,libB.so
build_so "$T/d1/libA.so" "int b(void); int a(void) { return b(); }" -Wl,-soname,libA.so -L"$T/d1" -lB
build_exe "$T/exe" "$(exe_src a)" -L"$T/d1" -lA -Wl,--enable-new-dtags,-rpath,"$T/d1" -Wl,--allow-shlib-undefined
same_as_loader "runpath not inherited" "$T/exe"
check_eq "libA via runpath" runpath "$(found_by "$T/exe" libA.so)"
check_eq "libB missing" not_found "$(found_by "$T/exe" libB.so)"
check_rc "a missing library is a problem (exit 1)" 1 "$PTINSPECT" deps "$T/exe"
check_contains "paths considered are listed" "paths considered, in order:" "$(cat "$T/.out")"
check_contains "the cache is among them" "/etc/ld.so.cache [ld_so_cache]" "$(cat "$T/.out")"
check_contains "stderr names the file and the library" "'$T/exe': libB.so: not found (needed by $T/d1/libA.so)" "$(cat "$T/.err")"
finish
