# ctest-timeout: 300
# ptinspect on packages made here (issue 31): a wheel packed by python3-wheel's
# `wheel pack` from objects built with cc, once right ($ORIGIN RUNPATH to its
# bundled library) and once with the classic mistakes (an absolute RPATH into
# the build directory, a library the target lacks, a requirement's library with
# no RUNPATH to its nvidia/*/lib, a symlink member); the same files as a
# conda .tar.bz2 and as an unpacked directory; a dist/ folder; bad archives
# (truncated, not an archive); CUDA 13's wheel layout (nvidia/cu13/lib). Whole outputs against expected/package_*.txt,
# with --root a small sysroot so that the system's answers are the same on every
# machine. The real loader agrees: the wheel unpacked as pip would, a program
# dlopen()s its extension and the libraries in its /proc/self/maps are those
# the report says.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
PY=/usr/bin/python3
E=$PT_SRC/tests/integration/inspect/expected
export NO_COLOR=1
unset LD_LIBRARY_PATH
NORM=()
$PY -c 'import wheel' 2>/dev/null || skip "python3-wheel is not installed (tests/deps)"
cd "$T" || exit 2
cc_so() { cc -shared -fPIC -fdebug-prefix-map="$T"=. "$@" || { echo "FAIL: cannot build: cc $*"; finish; }; }

# The target: a sysroot with the C library only (copies of this machine's), no ld.so.cache.
mkdir -p root/lib/x86_64-linux-gnu
for l in libc.so.6 libm.so.6; do cp -L "/lib/x86_64-linux-gnu/$l" root/lib/x86_64-linux-gnu/; done

# Built in build/: libfoo (bundled), libcudnn stand-in and libbar (only on the build machine).
mkdir -p build/lib
echo 'int foo(void) { return 42; }' >foo.c
cc_so -o build/lib/libfoo.so.1 -Wl,-soname,libfoo.so.1 foo.c
echo 'int bar(void) { return 7; }' >bar.c
cc_so -o build/lib/libbar.so.2 -Wl,-soname,libbar.so.2 bar.c
echo 'int cudnnGetVersion(void) { return 9; }' >cudnn.c
cc_so -o build/lib/libcudnn.so.9 -Wl,-soname,libcudnn.so.9 cudnn.c
printf '#include <stdio.h>\nint foo(void);\nint core(void) { return puts("core") + foo(); }\n' >core.c
printf '#include <stdio.h>\nint bar(void); int cudnnGetVersion(void); int gone(void);\nint core2(void) { return puts("x") + bar() + cudnnGetVersion() + gone(); }\n' >core2.c
echo 'int gone(void) { return 0; }' >gone.c
cc_so -o build/lib/libgone.so.3 -Wl,-soname,libgone.so.3 gone.c

wheel_dir() {	# wheel_dir DIR NAME VERSION REQUIRES...
	local d=$1 n=$2 v=$3
	shift 3
	mkdir -p "$d/$n-$v.dist-info"
	printf 'Wheel-Version: 1.0\nGenerator: ptools-test\nRoot-Is-Purelib: false\nTag: cp313-cp313-linux_x86_64\n' \
		>"$d/$n-$v.dist-info/WHEEL"
	{ printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\n' "$n" "$v"
	  for r in "$@"; do printf 'Requires-Dist: %s\n' "$r"; done; } >"$d/$n-$v.dist-info/METADATA"
}

# Right: the extension finds libfoo through $ORIGIN/../demo_ok.libs (auditwheel's layout).
mkdir -p ok/demo_ok ok/demo_ok.libs
cp build/lib/libfoo.so.1 ok/demo_ok.libs/
cc_so -o ok/demo_ok/_core.so core.c -Lbuild/lib -l:libfoo.so.1 -lm -Wl,--enable-new-dtags,-rpath,'$ORIGIN/../demo_ok.libs'
echo 'from . import _core' >ok/demo_ok/__init__.py
wheel_dir ok demo_ok 1.0
# Wrong: RPATH into the build directory, a library the target lacks, libcudnn with no RUNPATH to
# site-packages/nvidia/cudnn/lib though nvidia-cudnn-cu12 is a requirement, a symlink member.
mkdir -p bad/demo_bad
cc_so -o bad/demo_bad/_core.so core2.c -L"$T/build/lib" -l:libbar.so.2 -l:libcudnn.so.9 -l:libgone.so.3 \
	-Wl,--disable-new-dtags,-rpath,"$T/build/lib"
rm build/lib/libgone.so.3	# gone from the build machine too: missing everywhere
wheel_dir bad demo_bad 0.1 'nvidia-cudnn-cu12==9.1.0.70' 'torch>=2.6'

mkdir -p dist
$PY -m wheel pack ok -d dist >/dev/null || fail "wheel pack ok"
$PY -m wheel pack bad -d dist >/dev/null || fail "wheel pack bad"
OK=dist/demo_ok-1.0-cp313-cp313-linux_x86_64.whl
BAD=dist/demo_bad-0.1-cp313-cp313-linux_x86_64.whl
# A symlink member (wheel pack would follow one; zipfile keeps it, as some build backends do).
$PY - "$BAD" <<'EOF'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1], "a")
i = zipfile.ZipInfo("demo_bad/_core_link.so")
i.external_attr = (0o120777 << 16)
z.writestr(i, "_core.so")
z.close()
EOF

# CUDA 13's wheel layout: the toolkit's wheels are named without -cuNN (nvidia-cuda-runtime
# 13.x) and all install into site-packages/nvidia/cu13/lib. _gpu.so finds libcudart.so.13
# there through RUNPATH; _lost.so has no RUNPATH (missing, with a hint naming that directory).
echo 'int cudaRuntimeGetVersion(int *v) { *v = 13000; return 0; }' >cudart.c
cc_so -o build/lib/libcudart.so.13 -Wl,-soname,libcudart.so.13 cudart.c
echo 'int cudaRuntimeGetVersion(int *); int gpu(void) { int v = 0; cudaRuntimeGetVersion(&v); return v; }' >gpu.c
mkdir -p cu13/demo_cu13
cc_so -o cu13/demo_cu13/_gpu.so gpu.c -Lbuild/lib -l:libcudart.so.13 \
	-Wl,--enable-new-dtags,-rpath,'$ORIGIN/../nvidia/cu13/lib'
cc_so -o cu13/demo_cu13/_lost.so gpu.c -Lbuild/lib -l:libcudart.so.13
wheel_dir cu13 demo_cu13 1.0 'nvidia-cuda-runtime==13.0.96; platform_system == "Linux"'
$PY -m wheel pack cu13 -d . >cu13.log 2>&1 || fail "wheel pack cu13: $(tail -3 cu13.log)"
CU13=demo_cu13-1.0-cp313-cp313-linux_x86_64.whl

# A conda-style .tar.bz2 of the right one: info/index.json, files below the prefix.
mkdir -p conda/info conda/lib/python3.13/site-packages
cp -r ok/demo_ok ok/demo_ok.libs conda/lib/python3.13/site-packages/
printf '{"name": "demo-ok", "version": "1.0", "build": "py313_0", "subdir": "linux-64", "depends": ["python >=3.13"]}\n' \
	>conda/info/index.json
tar -C conda -cjf dist/demo-ok-1.0-py313_0.tar.bz2 info lib

R=(--root "$T/root")
check_case package_ok 0 "$P" "${R[@]}" "$OK"
check_case package_ok_tree 0 "$P" "${R[@]}" --tree "$OK"
check_case package_bad 1 "$P" "${R[@]}" "$BAD"
check_case package_conda 0 "$P" "${R[@]}" dist/demo-ok-1.0-py313_0.tar.bz2
check_case package_dir 0 "$P" "${R[@]}" ok/
check_case package_dist 1 "$P" "${R[@]}" dist/
check_case package_cu13 1 "$P" "${R[@]}" --tree "$CU13"
head -c 300 "$OK" >cut.whl
check_case package_truncated 2 "$P" "${R[@]}" cut.whl
echo 'not an archive' >text.whl
check_case package_not_archive 2 "$P" "${R[@]}" text.whl

# JSON: the contract's keys, and where each NEEDED comes from.
"$P" --json "${R[@]}" "$BAD" >bad.json 2>/dev/null
check_eq "JSON of the wrong wheel: each NEEDED's origin" \
	"libbar.so.2 absolute $T/build/lib/libbar.so.2
libcudnn.so.9 absolute $T/build/lib/libcudnn.so.9
libgone.so.3 missing None
libc.so.6 system /lib/x86_64-linux-gnu/libc.so.6" \
	"$($PY -c 'import json,sys
d = json.load(open(sys.argv[1]))["files"][0]["package"]
for o in d["shared_objects"]:
    if o["member"] == "demo_bad/_core.so":
        for n in o["needed"]: print(n["name"], n["from"], n["where"])' bad.json)"

# The real loader: unpack as pip would, dlopen the extension, read /proc/self/maps.
mkdir -p site
(cd site && $PY -m zipfile -e "../$OK" .) || fail "unzip"
cat >maps.c <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
	char line[4096];
	FILE *f;
	if (!dlopen(argv[1], RTLD_NOW)) { printf("dlopen: %s\n", dlerror()); return 1; }
	f = fopen("/proc/self/maps", "r");
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/');
		if (p && strstr(p, ".so") && strstr(p, argc > 2 ? argv[2] : "")) fputs(p, stdout);
	}
	return 0;
}
EOF
cc -o maps maps.c -ldl || fail "maps.c"
got=$(./maps "$T/site/demo_ok/_core.so" "$T/site" | sort -u)
check_eq "the real loader takes libfoo from the wheel's own demo_ok.libs" \
	"$T/site/demo_ok.libs/libfoo.so.1
$T/site/demo_ok/_core.so" "$got"
# CUDA 13: installed with its requirement's library where that wheel puts it, the loader
# takes libcudart.so.13 from site-packages/nvidia/cu13/lib, as the report says.
mkdir -p site13/nvidia/cu13/lib
(cd site13 && $PY -m zipfile -e "../$CU13" .) || fail "unzip cu13"
cp build/lib/libcudart.so.13 site13/nvidia/cu13/lib/
check_eq "the real loader takes libcudart.so.13 from nvidia/cu13/lib" \
	"$T/site13/demo_cu13/_gpu.so
$T/site13/nvidia/cu13/lib/libcudart.so.13" "$(./maps "$T/site13/demo_cu13/_gpu.so" "$T/site13" | sort -u)"
"$P" --json "${R[@]}" "$CU13" >cu13.json 2>/dev/null
check_eq "... as the report says" "requirement nvidia-cuda-runtime RUNPATH lib/python3/site-packages/nvidia/cu13/lib" \
	"$($PY -c 'import json,sys
d = json.load(open(sys.argv[1]))["files"][0]["package"]
for o in d["shared_objects"]:
    for n in o["needed"]:
        if n["name"] == "libcudart.so.13" and o["member"].endswith("_gpu.so"): print(n["from"], n["where"], n["via"])' cu13.json)"
"$P" --json "${R[@]}" "$OK" >ok.json 2>/dev/null
check_eq "... as the report says" "bundled demo_ok.libs/libfoo.so.1" \
	"$($PY -c 'import json,sys
d = json.load(open(sys.argv[1]))["files"][0]["package"]
for o in d["shared_objects"]:
    for n in o["needed"]:
        if n["name"] == "libfoo.so.1": print(n["from"], n["where"])' ok.json)"
finish
