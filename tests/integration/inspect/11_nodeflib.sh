# DF_1_NODEFLIB on the requester skips the system directories and rejects
# cache results inside them (§7). GNU ld ignores -z nodeflib for executables
# ("warning: -z nodeflib ignored"), so the flag sits on a library here: libN
# cannot find libm.so.6, which nothing else loads. The flag is set by
# tests/lib/set_flags1.py.
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
mkdir -p "$T/d" "$T/mylibm"
build_so "$T/d/libN.so" "double cos(double); double n(double x) { return cos(x); }" -Wl,-soname,libN.so -lm -Wl,-z,now
/usr/bin/python3 "$PT_TESTLIB/set_flags1.py" "$T/d/libN.so" 0x800 || fail "cannot set DF_1_NODEFLIB"
build_exe "$T/exe" "double n(double); int main(void){ return (int)n(0); }" -L"$T/d" -lN -Wl,-rpath,"$T/d" -Wl,--allow-shlib-undefined
check_eq "the flag is set on libN" 1 "$(readelf -d "$T/d/libN.so" | grep -c 'Flags:.*NODEFLIB')"
same_as_loader "nodeflib rejects the cache's libm" "$T/exe"
check_eq "libm missing" not_found "$(found_by "$T/exe" libm.so.6)"
"$PTINSPECT" deps "$T/exe" >"$T/out" 2>&1
check_contains "the reason is shown" "cached in a system directory, and the requester has DF_1_NODEFLIB" "$(cat "$T/out")"
# With a path of its own (the executable's RPATH serves libN's NEEDED), it works.
cp /lib/x86_64-linux-gnu/libm.so.6 "$T/mylibm/"
build_exe "$T/exe2" "double n(double); int main(void){ return (int)n(0); }" -L"$T/d" -lN -Wl,--disable-new-dtags,-rpath,"$T/d:$T/mylibm" -Wl,--allow-shlib-undefined
same_as_loader "nodeflib with a path of its own" "$T/exe2"
check_eq "libm via the executable's rpath" rpath_of_loader "$(found_by "$T/exe2" libm.so.6)"
finish
