# $ORIGIN and ${ORIGIN} expand to the directory an object was opened from,
# in RPATH, in RUNPATH, and inside a NEEDED name containing '/' (§4).
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
mkdir -p "$T/app/bin" "$T/app/lib" "$T/app/lib2" "$T/app/lib/sub"
build_so "$T/app/lib/sub/libS.so" "$(lib_src s)" -Wl,-soname,'$ORIGIN/sub/libS.so'
build_so "$T/app/lib2/libC.so" "$(lib_src c)" -Wl,-soname,libC.so
build_so "$T/app/lib/libA.so" "int s(void); int c(void); int a(void) { return s() + c(); }" -Wl,-soname,libA.so 	"$T/app/lib/sub/libS.so" -L"$T/app/lib2" -lC -Wl,--enable-new-dtags,-rpath,'${ORIGIN}/../lib2'
build_exe "$T/app/bin/exe" "$(exe_src a)" -L"$T/app/lib" -lA -Wl,--disable-new-dtags,-rpath,'$ORIGIN/../lib' -Wl,--allow-shlib-undefined
check_contains "NEEDED keeps the token" '$ORIGIN/sub/libS.so' "$("$PTINSPECT" deps "$T/app/lib/libA.so" 2>&1)"
same_as_loader "origin everywhere" "$T/app/bin/exe"
check_eq "libA via \$ORIGIN rpath" rpath "$(found_by "$T/app/bin/exe" libA.so)"
check_eq "libC via \${ORIGIN} runpath" runpath "$(found_by "$T/app/bin/exe" libC.so)"
check_eq "libS via \$ORIGIN in NEEDED" direct "$(found_by "$T/app/bin/exe" '$ORIGIN/sub/libS.so')"
# The executable reached through a symlink: $ORIGIN comes from /proc/self/exe (resolved).
mkdir -p "$T/elsewhere"
ln -s "$T/app/bin/exe" "$T/elsewhere/exe"
same_as_loader "origin of a symlinked executable" "$T/elsewhere/exe"
check_contains "expanded RPATH shown" "$T/app/bin/../lib" "$("$PTINSPECT" deps "$T/app/bin/exe" 2>&1)"
finish
