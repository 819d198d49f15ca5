# A candidate of the wrong ELF class or machine earlier in the path is
# skipped silently and the search goes on (open_verify, §6).
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
mkdir -p "$T/bad" "$T/badm" "$T/good"
build_so "$T/good/libW.so" "$(lib_src w)" -Wl,-soname,libW.so
cp "$T/good/libW.so" "$T/bad/libW.so"
printf '\001' | dd of="$T/bad/libW.so" bs=1 seek=4 conv=notrunc 2>/dev/null      # EI_CLASS = ELFCLASS32
cp "$T/good/libW.so" "$T/badm/libW.so"
printf '\267\000' | dd of="$T/badm/libW.so" bs=1 seek=18 conv=notrunc 2>/dev/null # e_machine = AArch64
build_exe "$T/exe" "$(exe_src w)" -L"$T/good" -lW -Wl,--disable-new-dtags,-rpath,"$T/bad:$T/badm:$T/good"
same_as_loader "wrong class and machine skipped" "$T/exe"
check_contains "the good copy is found" "$T/good/libW.so" "$(ours "$T/exe")"
rm "$T/good/libW.so"
same_as_loader "only bad copies: not found" "$T/exe"
"$PTINSPECT" deps "$T/exe" >"$T/out" 2>&1
check_contains "skipped candidates are named" "$T/bad/libW.so [rpath]: not a loadable object of this class and machine" "$(cat "$T/out")"
finish
