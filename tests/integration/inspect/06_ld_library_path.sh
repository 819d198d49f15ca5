# LD_LIBRARY_PATH comes after the RPATH chain and before RUNPATH (§3), splits
# on ':' and ';', and an empty element is the current directory.
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
mkdir -p "$T/d1" "$T/d2" "$T/cwd"
build_so "$T/d1/libA.so" "$(lib_src a 1)" -Wl,-soname,libA.so
build_so "$T/d2/libA.so" "$(lib_src a 2)" -Wl,-soname,libA.so
build_so "$T/cwd/libE.so" "$(lib_src e)" -Wl,-soname,libE.so
build_exe "$T/exe" "$(exe_src a e)" -L"$T/d1" -L"$T/cwd" -lA -lE -Wl,--enable-new-dtags,-rpath,"$T/d1"
cd "$T/cwd"
export LD_LIBRARY_PATH="$T/nonexistent;$T/d2::"
same_as_loader "LD_LIBRARY_PATH before RUNPATH, ';' and empty element" "$T/exe"
check_eq "libA from LD_LIBRARY_PATH" ld_library_path "$(found_by "$T/exe" libA.so)"
check_eq "libE from the cwd (empty element)" ld_library_path "$(found_by "$T/exe" libE.so)"
unset LD_LIBRARY_PATH
check_eq "--ld-library-path overrides the environment" ld_library_path "$(found_by "$T/exe" libA.so --ld-library-path="$T/d2")"
check_eq "without it libA comes from RUNPATH" runpath "$(found_by "$T/exe" libA.so)"
check_eq "--secure ignores LD_LIBRARY_PATH" runpath "$(found_by "$T/exe" libA.so --ld-library-path="$T/d2" --secure)"
finish
