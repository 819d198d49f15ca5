# $LIB is lib/x86_64-linux-gnu on Debian and $PLATFORM is x86_64 (§4, §13);
# an unknown token ($OSNAME) stays literal. libtree gets $LIB wrong.
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
mkdir -p "$T/p/lib/x86_64-linux-gnu" "$T/p/x86_64" "$T/p/lib"
build_so "$T/p/lib/x86_64-linux-gnu/libL.so" "$(lib_src l)" -Wl,-soname,libL.so
cp "$T/p/lib/x86_64-linux-gnu/libL.so" "$T/p/lib/libL.so"   # the wrong $LIB would find this
build_so "$T/p/x86_64/libP.so" "$(lib_src p)" -Wl,-soname,libP.so
build_exe "$T/p/exe" "$(exe_src l p)" -L"$T/p/lib/x86_64-linux-gnu" -L"$T/p/x86_64" -lL -lP 	-Wl,--disable-new-dtags,-rpath,'$ORIGIN/$LIB:$ORIGIN/$PLATFORM:$ORIGIN/$OSNAME'
same_as_loader "\$LIB and \$PLATFORM" "$T/p/exe"
check_contains "\$LIB expands to Debian's multiarch dir" "$T/p/lib/x86_64-linux-gnu/libL.so" "$(ours "$T/p/exe")"
check_contains "unknown token kept literally" "$T/p/\$OSNAME" "$("$PTINSPECT" deps "$T/p/exe" 2>&1)"
finish
