# --root resolves inside a sysroot (its ld.so.cache, its system directories,
# RPATHs under it), and a file without section headers is read through
# PT_DYNAMIC as ld.so does (§1, §16).
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
R=$T/root
mkdir -p "$R/etc" "$R/lib/x86_64-linux-gnu" "$R/opt/app/lib" "$R/usr/lib/x86_64-linux-gnu"
build_so "$R/lib/x86_64-linux-gnu/libsys.so.1" "$(lib_src s)" -Wl,-soname,libsys.so.1
# The sysroot's own cache (ldconfig -r writes it under the root) knows only
# libsys: libdef is put in place after it, so only the default dirs find it.
printf '/lib/x86_64-linux-gnu\n' >"$R/etc/ld.so.conf"
/sbin/ldconfig -r "$R" -X 2>/dev/null || skip "ldconfig -r does not work here"
build_so "$R/usr/lib/x86_64-linux-gnu/libdef.so.1" "$(lib_src d)" -Wl,-soname,libdef.so.1
build_so "$R/opt/app/lib/libapp.so" "#include <stdio.h>
int s(void); int d(void); int a(void){puts(\"x\"); return s()+d();}" -Wl,-soname,libapp.so \
	-L"$R/lib/x86_64-linux-gnu" -L"$R/usr/lib/x86_64-linux-gnu" -l:libsys.so.1 -l:libdef.so.1 -Wl,-rpath,/opt/app/lib
"$PTINSPECT" deps --json --root "$R" "$R/opt/app/lib/libapp.so" >"$T/j" 2>"$T/err"
check_eq "--root: libsys from the sysroot's cache" "ld_so_cache /lib/x86_64-linux-gnu/libsys.so.1" \
	"$(jq -r '.files[0].deps[] | select(.name=="libsys.so.1") | .found_by + " " + .path' "$T/j")"
check_eq "--root: libdef from the sysroot's default dirs" "default /usr/lib/x86_64-linux-gnu/libdef.so.1" \
	"$(jq -r '.files[0].deps[] | select(.name=="libdef.so.1") | .found_by + " " + .path' "$T/j")"
check_eq "--root: libc is not in this sysroot" "not_found" \
	"$(jq -r '.files[0].deps[] | select(.name=="libc.so.6") | .found_by' "$T/j")"
check_rc "--root must be absolute" 2 "$PTINSPECT" deps --root relative/dir /bin/true

# Section headers zeroed: SONAME, NEEDED and RUNPATH still come from PT_DYNAMIC.
mkdir -p "$T/s"
build_so "$T/s/libB.so" "$(lib_src b)" -Wl,-soname,libB.so
build_so "$T/s/libA.so" "int b(void); int a(void){return b();}" -Wl,-soname,libA.so -L"$T/s" -lB -Wl,--enable-new-dtags,-rpath,'$ORIGIN'
build_exe "$T/s/exe" "$(exe_src a)" -L"$T/s" -lA -Wl,-rpath,"$T/s"
/usr/bin/python3 - "$T/s/libA.so" <<'PY'
import struct, sys
p = sys.argv[1]
d = bytearray(open(p, "rb").read())
struct.pack_into("<Q", d, 0x28, 0)      # e_shoff
struct.pack_into("<HH", d, 0x3c, 0, 0)  # e_shnum, e_shstrndx
open(p, "wb").write(d)
PY
check_eq "no section headers: readelf agrees there are none" 0 "$(readelf -S "$T/s/libA.so" 2>/dev/null | grep -c '\] \.')"
same_as_loader "section-stripped library" "$T/s/exe"
check_eq "its RUNPATH \$ORIGIN finds libB" runpath "$(found_by "$T/s/exe" libB.so)"
finish
