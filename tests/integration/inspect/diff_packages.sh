# ptinspect diff on two packages (issue 31): wheels written here with python3's
# zipfile, their shared objects built here with cc. demo 1.0 and demo 1.1 differ
# in exactly four ways: the version, one NEEDED (B's _core.so links libm too), its
# RUNPATH ($ORIGIN added), and one member added (demo/py.typed). Whole text and
# JSON outputs against expected/diff_packages*.txt, with --root a sysroot of
# this machine's libc and libm so that "system" answers are the same everywhere.
# Then: a third wheel whose _core.so needs a newer glibc (the floor, the tag it
# implies and the claimed tag's verdict change), the wheel against its own
# unpacked directory, the wheel against itself (exit 0), two conda .tar.bz2 of
# the same files, where nvcc is two wheels of a CUDA library built for other
# arch lists (the member's and the package's TORCH_CUDA_ARCH_LIST), and bad
# input: a missing side, a truncated zip on either side and a package against
# a library (exit 2, the file named).
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
PY=/usr/bin/python3
E=$PT_SRC/tests/integration/inspect/expected
export NO_COLOR=1
unset LD_LIBRARY_PATH
NORM=()
cd "$T" || exit 2
cc_so() { cc -shared -fPIC -fdebug-prefix-map="$T"=. "$@" || { echo "FAIL: cannot build: cc $*"; finish; }; }

mkdir -p root/lib/x86_64-linux-gnu
for l in libc.so.6 libm.so.6; do cp -L "/lib/x86_64-linux-gnu/$l" root/lib/x86_64-linux-gnu/; done
echo 'int foo(void) { return 42; }' >foo.c
cc_so -o libfoo.so.1 -Wl,-soname,libfoo.so.1 foo.c
printf '#include <stdio.h>\nint foo(void);\nint core(void) { return puts("core") + foo(); }\n' >core.c
cc_so -o core-a.so core.c -L. -l:libfoo.so.1 -Wl,--enable-new-dtags,-rpath,'$ORIGIN/../demo.libs'
cc_so -o core-b.so core.c -L. -l:libfoo.so.1 -Wl,--no-as-needed -lm -Wl,--enable-new-dtags,-rpath,'$ORIGIN/../demo.libs:$ORIGIN'
# C: B's with a call that needs glibc 2.26 (reallocarray), above the claimed manylinux_2_17.
printf '#define _GNU_SOURCE\n#include <stdio.h>\n#include <stdlib.h>\nint foo(void);\nint core(void) { free(reallocarray(NULL, 2, 8)); return puts("core") + foo(); }\n' >core-c.c
cc_so -o core-c.so core-c.c -L. -l:libfoo.so.1 -Wl,--no-as-needed -lm -Wl,--enable-new-dtags,-rpath,'$ORIGIN/../demo.libs:$ORIGIN'
$PY - <<'EOF' || fail "writing the wheels"
import zipfile
def wheel(path, version, core, extra):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("demo/__init__.py", "from . import _core\n")
        z.write(core, "demo/_core.so")
        z.write("libfoo.so.1", "demo.libs/libfoo.so.1")
        for n in extra:
            z.writestr(n, "")
        di = "demo-%s.dist-info/" % version
        z.writestr(di + "WHEEL", "Wheel-Version: 1.0\nGenerator: ptools-test\nRoot-Is-Purelib: false\n"
                   "Tag: cp313-cp313-manylinux_2_17_x86_64\n")
        z.writestr(di + "METADATA", "Metadata-Version: 2.1\nName: demo\nVersion: %s\n"
                   "Requires-Dist: numpy>=1.26\n" % version)
        z.writestr(di + "RECORD", "")
wheel("demo-1.0-cp313-cp313-manylinux_2_17_x86_64.whl", "1.0", "core-a.so", [])
wheel("demo-1.1-cp313-cp313-manylinux_2_17_x86_64.whl", "1.1", "core-b.so", ["demo/py.typed"])
wheel("demo-1.2-cp313-cp313-manylinux_2_17_x86_64.whl", "1.2", "core-c.so", ["demo/py.typed"])
EOF
A=demo-1.0-cp313-cp313-manylinux_2_17_x86_64.whl
B=demo-1.1-cp313-cp313-manylinux_2_17_x86_64.whl
C=demo-1.2-cp313-cp313-manylinux_2_17_x86_64.whl
R=(--root "$T/root")

check_case diff_packages 1 "$P" diff "${R[@]}" "$A" "$B"
check_case diff_packages_json 1 "$P" diff --json "${R[@]}" "$A" "$B"
check_case diff_packages_floor 1 "$P" diff "${R[@]}" "$B" "$C"

# The facts are the package report's: B's libm row says what `ptinspect B.whl` says.
"$P" --json "${R[@]}" "$B" >b.json 2>/dev/null
"$P" diff --json "${R[@]}" "$A" "$B" >d.json
check_eq "libm: the diff's row is the package report's from and where" \
	"$($PY -c 'import json,sys
d = json.load(open(sys.argv[1]))["files"][0]["package"]
for o in d["shared_objects"]:
    for n in o["needed"]:
        if n["name"] == "libm.so.6": print(n["from"], n["where"])' b.json)" \
	"$($PY -c 'import json,sys
for r in json.load(open(sys.argv[1]))["differences"]:
    if r["section"] == "demo/_core.so: needed" and r["key"] == "libm.so.6": print(r["b"])' d.json)"
check_eq "C's floor as readelf sees it: reallocarray@GLIBC_2.26" "GLIBC_2.26" \
	"$(readelf -VW core-c.so | grep -o 'GLIBC_2\.26' | head -1)"

# The same wheel: exit 0. Its unpacked directory: a package too, members paired by path.
check_case diff_packages_same 0 "$P" diff "${R[@]}" "$A" "$A"
mkdir -p unpacked
(cd unpacked && $PY -m zipfile -e "../$A" .) || fail "unzip"
check_case diff_packages_unpacked 1 "$P" diff "${R[@]}" unpacked "$A"

# Conda packages (.tar.bz2) of the same files: paired by their path below the prefix.
for v in 1.0 1.1; do
	c=conda-$v/lib/python3.13/site-packages
	mkdir -p "conda-$v/info" "$c/demo" "$c/demo.libs"
	printf '{"name": "demo", "version": "%s", "build": "py313_0", "subdir": "linux-64", "depends": ["python >=3.13"]}\n' \
		"$v" >"conda-$v/info/index.json"
	cp libfoo.so.1 "$c/demo.libs/"
	[ $v = 1.0 ] && cp core-a.so "$c/demo/_core.so" || cp core-b.so "$c/demo/_core.so"
	tar -C "conda-$v" -cjf "demo-$v-py313_0.tar.bz2" info lib
done
"$P" diff --json "${R[@]}" demo-1.0-py313_0.tar.bz2 demo-1.1-py313_0.tar.bz2 >conda.json
check_eq "conda: exit 1" 1 $?
check_eq "conda: the kinds, and the three differences (no member added there)" \
	"conda package conda package
lib/python3.13/site-packages/demo/_core.so: file | RUNPATH | \$ORIGIN/../demo.libs -> \$ORIGIN/../demo.libs:\$ORIGIN
lib/python3.13/site-packages/demo/_core.so: needed | libm.so.6 | None -> system /lib/x86_64-linux-gnu/libm.so.6
metadata | version | 1.0 -> 1.1" \
	"$($PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["a"]["kind"], d["b"]["kind"])
for r in d["differences"]: print(r["section"], "|", r["key"], "|", r["a"], "->", r["b"])' conda.json)"

# CUDA (where nvcc is): docs/examples/my_ext.cu built for sm_80 + sm_90/compute_90, then for
# sm_80 only; the member's arch list and the package's differ.
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
if [ -x "$NVCC" ]; then
	cp "$PT_SRC/docs/examples/my_ext.cu" .
	"$NVCC" -c -Xcompiler -fPIC -gencode arch=compute_80,code=sm_80 -gencode 'arch=compute_90,code=[sm_90,compute_90]' \
		my_ext.cu -o cu1.o && cc -shared -o libcu1.so cu1.o &&
	"$NVCC" -c -Xcompiler -fPIC -gencode arch=compute_80,code=sm_80 my_ext.cu -o cu2.o && cc -shared -o libcu2.so cu2.o ||
		fail "nvcc: cannot build my_ext.cu"
	$PY - <<'EOF' || fail "writing the CUDA wheels"
import zipfile
for v, so in (("1.0", "libcu1.so"), ("1.1", "libcu2.so")):
    with zipfile.ZipFile("cu-%s-cp313-cp313-linux_x86_64.whl" % v, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(so, "cu/_ext.so")
        z.writestr("cu-%s.dist-info/WHEEL" % v, "Wheel-Version: 1.0\nGenerator: t\nRoot-Is-Purelib: false\n"
                   "Tag: cp313-cp313-linux_x86_64\n")
        z.writestr("cu-%s.dist-info/METADATA" % v, "Metadata-Version: 2.1\nName: cu\nVersion: %s\n" % v)
EOF
	"$P" diff --json "${R[@]}" cu-1.0-cp313-cp313-linux_x86_64.whl cu-1.1-cp313-cp313-linux_x86_64.whl >cu.json
	check_eq "CUDA: exit 1" 1 $?
	check_eq "CUDA: the package's and the member's arch lists, as ptinspect cuda spells them" \
		"CUDA | arch list | 8.0;9.0+PTX -> 8.0
cu/_ext.so: CUDA | arch list | 8.0;9.0+PTX -> 8.0" \
		"$($PY -c 'import json, sys
for r in json.load(open(sys.argv[1]))["differences"]:
    if "CUDA" in r["section"]: print(r["section"], "|", r["key"], "|", r["a"], "->", r["b"])' cu.json)"
	check_contains "CUDA: the summary line" "  CUDA            arch list 8.0;9.0+PTX -> 8.0" \
		"$("$P" diff "${R[@]}" cu-1.0-cp313-cp313-linux_x86_64.whl cu-1.1-cp313-cp313-linux_x86_64.whl)"
	check_contains "... the arch list ptinspect cuda gives the sm_80+sm_90 library" "8.0;9.0+PTX" "$("$P" cuda libcu1.so)"
else
	echo "nvcc not found at $NVCC: the CUDA part is not run"
fi

# Bad input: a missing side, a truncated zip on either side, a package against a library, a plain directory.
head -c 300 "$A" >cut.whl
check_case diff_packages_truncated_a 2 "$P" diff "${R[@]}" cut.whl "$B"
check_case diff_packages_truncated_b 2 "$P" diff "${R[@]}" "$A" cut.whl
$PY -c 'import sys; d = open(sys.argv[1], "rb").read(); open("cut-end.whl", "wb").write(d[:len(d) // 2])' "$A"
check_rc "a zip cut in the middle of a member: exit 2" 2 "$P" diff "${R[@]}" "$A" cut-end.whl
check_contains "... naming the file" "'cut-end.whl'" "$("$P" diff "${R[@]}" "$A" cut-end.whl 2>&1)"
check_rc "a missing side: exit 2" 2 "$P" diff "${R[@]}" "$A" nothing.whl
check_eq "... naming it" "ptinspect: 'nothing.whl': no such file or directory" "$("$P" diff "$A" nothing.whl 2>&1)"
check_case diff_packages_mixed 2 "$P" diff "${R[@]}" "$A" libfoo.so.1
mkdir -p libs && cp libfoo.so.1 libs/
check_rc "a package against a plain directory of libraries: exit 2" 2 "$P" diff "${R[@]}" libs "$A"
check_rc "--root must be absolute" 2 "$P" diff --root root "$A" "$B"
finish
