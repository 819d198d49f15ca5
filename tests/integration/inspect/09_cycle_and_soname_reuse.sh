# Breadth-first loading with reuse (§2): a cycle loads each library once, and
# a library found only through one parent's RPATH satisfies a later object's
# NEEDED (ptinspect calls that edge fragile).
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
mkdir -p "$T/d" "$T/priv"
build_so "$T/d/libX.so" "int x(void) { return 1; }" -Wl,-soname,libX.so
build_so "$T/d/libY.so" "int x(void); int y(void) { return x(); }" -Wl,-soname,libY.so -L"$T/d" -lX -Wl,--disable-new-dtags,-rpath,"$T/d"
build_so "$T/d/libX.so" "int y(void); int x(void) { return 1; } int xx(void) { return y(); }" -Wl,-soname,libX.so -L"$T/d" -lY
build_so "$T/priv/libC.so" "$(lib_src c)" -Wl,-soname,libC.so
build_so "$T/d/libA.so" "int c(void); int a(void) { return c(); }" -Wl,-soname,libA.so -L"$T/priv" -lC -Wl,--enable-new-dtags,-rpath,"$T/priv"
build_so "$T/d/libB.so" "int c(void); int b(void) { return c(); }" -Wl,-soname,libB.so -L"$T/priv" -lC
build_exe "$T/exe" "$(exe_src y a b)" -L"$T/d" -lY -lA -lB -Wl,--enable-new-dtags,-rpath,"$T/d"
same_as_loader "cycle and reuse" "$T/exe"
n=$("$PTINSPECT" deps --json "$T/exe" | jq '[.files[0].deps[] | select(.loaded_here and (.name == "libX.so" or .name == "libY.so"))] | length')
check_eq "a cycle loads each library once" 2 "$n"
m=$("$PTINSPECT" deps --json "$T/exe" | jq -r '[.files[0].deps[] | select(.name == "libC.so") | .found_by + "/" + (.fragile|tostring)] | join(",")')
check_eq "libC: runpath of libA, then reused by libB (fragile)" "runpath/false,already_loaded/true" "$m"
check_contains "fragile edge explained in text" "fragile: found only because libA.so loaded it first" "$("$PTINSPECT" deps "$T/exe" 2>&1)"
finish
