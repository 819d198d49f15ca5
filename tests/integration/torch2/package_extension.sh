. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1200
# ptinspect on real torch extension wheels (issue 31), in the torch 2.6 bed
# (package_extension_sid.sh: Debian unstable's 2.14, with auditwheel beside):
# two C++ extensions built with torch.utils.cpp_extension and `setup.py
# bdist_wheel` (Debian's python3-setuptools and python3-wheel), one right and
# one with the classic mistake (linked against a helper library of the build
# directory, found through an absolute RPATH: it works on the build machine
# only). Both are installed with `pip install --no-index --no-deps` into a venv
# and imported after torch: the objects the import maps (/proc/self/maps) are
# the ones the report says each NEEDED comes from (torch's libraries already
# loaded by import torch, the helper from the build directory); with the build
# directory gone, the import fails on the library the report names, and the
# report says it is missing. A fourth wheel is the right source built with the
# other C++ ABI: read --against the bed's torch, every torch symbol it lacks has
# a cxx11 twin there (exit 1, "an ABI mismatch"), and its import fails on one of
# those symbols.
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
. "$PT_TESTLIB/testbed.sh"
PY=/usr/bin/python3

testbed_ready
P=$TB_BUILD/inspect/ptinspect
mkdir -p "$T/ok/ptx_ok" "$T/bad/ptx_bad" "$T/build/lib"
for n in ok bad; do
	echo "" >"$T/$n/ptx_$n/__init__.py"
	cat >"$T/$n/ext.cpp" <<EOF
#include <Python.h>
#include <c10/core/Device.h>
$( [ $n = bad ] && echo 'extern "C" int helper(void);' )
static PyObject *device(PyObject *, PyObject *) {
	c10::Device d("cpu");
	return PyLong_FromLong((long)d.type()$( [ $n = bad ] && echo ' + helper()' ));
}
static PyMethodDef methods[] = { { "device", device, METH_NOARGS, "" }, { nullptr, nullptr, 0, nullptr } };
static PyModuleDef mod = { PyModuleDef_HEAD_INIT, "_C", nullptr, -1, methods };
PyMODINIT_FUNC PyInit__C(void) { return PyModule_Create(&mod); }
EOF
done
cat >"$T/ok/setup.py" <<'EOF'
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension
setup(name="ptx_ok", version="0.1", packages=["ptx_ok"],
      ext_modules=[CppExtension("ptx_ok._C", ["ext.cpp"])], cmdclass={"build_ext": BuildExtension})
EOF
cat >"$T/bad/setup.py" <<'EOF'
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension
setup(name="ptx_bad", version="0.1", packages=["ptx_bad"],
      ext_modules=[CppExtension("ptx_bad._C", ["ext.cpp"],
                                extra_link_args=["-L/t/build/lib", "-lhelper", "-Wl,-rpath,/t/build/lib"])],
      cmdclass={"build_ext": BuildExtension})
EOF
# The right one again as version 0.2, built with the wrong one's mistakes: `ptinspect diff` of
# the two names them (members pair by path: the same package, the same extension).
mkdir -p "$T/ok2/ptx_ok"
echo "" >"$T/ok2/ptx_ok/__init__.py"
cp "$T/bad/ext.cpp" "$T/ok2/ext.cpp"
sed -e 's/name="ptx_bad", version="0.1", packages=\["ptx_bad"\]/name="ptx_ok", version="0.2", packages=["ptx_ok"]/' \
	-e 's/"ptx_bad._C"/"ptx_ok._C"/' "$T/bad/setup.py" >"$T/ok2/setup.py"
# The other classic mistake: the right source built with the other C++ ABI
# (_GLIBCXX_USE_CXX11_ABI=0, forced in after BuildExtension's own -D=1), so
# c10::Device(const std::string &) is named with the old std::string, which torch
# does not export.
mkdir -p "$T/abi/ptx_abi"
echo "" >"$T/abi/ptx_abi/__init__.py"
sed 's/ptx_ok/ptx_abi/' "$T/ok/ext.cpp" >"$T/abi/ext.cpp"
printf '#undef _GLIBCXX_USE_CXX11_ABI\n#define _GLIBCXX_USE_CXX11_ABI 0\n' >"$T/abi/abi0.h"
cat >"$T/abi/setup.py" <<'EOF2'
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension
setup(name="ptx_abi", version="0.1", packages=["ptx_abi"],
      ext_modules=[CppExtension("ptx_abi._C", ["ext.cpp"], extra_compile_args=["-include", "/t/abi/abi0.h"])],
      cmdclass={"build_ext": BuildExtension})
EOF2
echo 'int helper(void) { return 0; }' >"$T/build/helper.c"
t0=$(date +%s)
"$TB" run -b "$T:/t" sh -c 'set -e
	cc -shared -fPIC -o /t/build/lib/libhelper.so /t/build/helper.c
	for n in ok bad ok2 abi; do (cd /t/$n && MAX_JOBS=2 python3 setup.py -q bdist_wheel >/t/$n.build.log 2>&1) || { tail -20 /t/$n.build.log; exit 1; }; done' \
	|| { fail "bdist_wheel of the four extension wheels"; finish; }
echo "four extension wheels built in $(( $(date +%s) - t0 )) s"
OK=$(cd "$T/ok/dist" && ls ptx_ok-0.1-*.whl)
BAD=$(cd "$T/bad/dist" && ls ptx_bad-0.1-*.whl)
OK2=$(cd "$T/ok2/dist" && ls ptx_ok-0.2-*.whl)
ABI=$(cd "$T/abi/dist" && ls ptx_abi-0.1-*.whl)
BT=/usr/lib/python3/dist-packages/torch

# The reports, inside the bed (its system is the target).
"$TB" run -b "$T:/t" sh -c "$P /t/ok/dist/$OK >/t/ok.txt 2>/t/ok.err; echo \$? >/t/ok.rc
	$P --json /t/ok/dist/$OK >/t/ok.json 2>/dev/null
	$P /t/bad/dist/$BAD >/t/bad.txt 2>/t/bad.err; echo \$? >/t/bad.rc
	$P --json /t/bad/dist/$BAD >/t/bad.json 2>/dev/null
	$P diff /t/ok/dist/$OK /t/ok2/dist/$OK2 >/t/diff.txt 2>/t/diff.err; echo \$? >/t/diff.rc
	$P diff --json /t/ok/dist/$OK /t/ok2/dist/$OK2 >/t/diff.json 2>/dev/null
	$P --against $BT /t/ok/dist/$OK >/t/ok_against.txt 2>&1; echo \$? >/t/ok_against.rc
	$P --against $BT /t/abi/dist/$ABI >/t/abi.txt 2>&1; echo \$? >/t/abi.rc
	$P --json --against $BT /t/abi/dist/$ABI >/t/abi.json 2>/dev/null"
cat "$T/ok.txt" "$T/ok.err" "$T/bad.txt" "$T/bad.err"
check_eq "the right wheel: exit 0" 0 "$(cat "$T/ok.rc")"
check_eq "the wrong wheel: exit 1" 1 "$(cat "$T/bad.rc")"
needed() {	# needed JSON: "NAME FROM WHERE" of the extension's NEEDED
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1]))["files"][0]["package"]
for o in d["shared_objects"]:
    if o["member"].endswith(".so") and "/_C" in o["member"]:
        for n in o["needed"]: print(n["name"], n["from"], n["where"] or "-")' "$1" | sort
}
needed "$T/ok.json" >"$T/ok.needed"
needed "$T/bad.json" >"$T/bad.needed"
cat "$T/ok.needed"
# Debian's CppExtension links with --as-needed: of torch's libraries only libc10 stays.
check_eq "the right one's torch library is the one import torch loads" \
	"libc10.so.$TB_TORCH preloaded torch" "$(grep 'libc10\|libtorch' "$T/ok.needed")"
check_eq "the right one needs nothing from the build machine" "" "$(grep -v 'preloaded\|system' "$T/ok.needed")"
check_eq "the wrong one's helper: the build machine's" "libhelper.so absolute /t/build/lib/libhelper.so" \
	"$(grep libhelper "$T/bad.needed")"
check_contains "the RPATH lint names the build directory" "RUNPATH entry '/t/build/lib': build_dir" "$(cat "$T/bad.err")"

# The wheel built with the other C++ ABI, --against the bed's torch: every torch symbol
# it lacks is one torch exports with the cxx11 ABI; the right wheel lacks none.
cat "$T/abi.txt"
check_eq "the right wheel against the bed's torch: exit 0" 0 "$(cat "$T/ok_against.rc")"
check_eq "the other-ABI wheel against the bed's torch: exit 1" 1 "$(cat "$T/abi.rc")"
ext() { $PY -c 'import json, sys
d = json.load(open(sys.argv[1]))["files"][0]["package"]
x = [o["torch_extension"] for o in d["shared_objects"] if "/_C" in o["member"]][0]
exec(sys.argv[2])' "$@"; }
check_eq "the other-ABI wheel's extension: old ABI, that torch's cxx11" "old cxx11" \
	"$(ext "$T/abi.json" 'print(x["abi"], x["against"]["abi"])')"
check_eq "every missing symbol has a cxx11 twin in torch" True \
	"$(ext "$T/abi.json" 'm = x["against"]["missing"]; print(len(m) > 0 and len(m) == x["against"]["abi_twins"])')"
ext "$T/abi.json" 'print("\n".join(s["name"] for s in x["against"]["missing"]))' >"$T/abi.missing"
check_contains "the text names an ABI mismatch" "an ABI mismatch" "$(cat "$T/abi.txt")"

# ptinspect diff of the right wheel and the same one built wrong: the planted mistake is named.
cat "$T/diff.txt" "$T/diff.err"
check_eq "diff of the right and the wrong build: exit 1" 1 "$(cat "$T/diff.rc")"
check_eq "diff: nothing on stderr" "" "$(cat "$T/diff.err")"
EXT=$($PY -c 'import json, sys
for r in json.load(open(sys.argv[1]))["differences"]:
    if r["section"].endswith(": needed") and "/_C" in r["section"]: print(r["section"][:-len(": needed")]); break' "$T/diff.json")
case $EXT in ptx_ok/_C.*.so) pass ;; *) fail "diff: the extension's NEEDED rows, under its path: got '$EXT'" ;; esac
row() { $PY -c 'import json, sys
for r in json.load(open(sys.argv[1]))["differences"]:
    if r["section"] == sys.argv[2] and r["key"] == sys.argv[3]: print(r["a"], "->", r["b"])' "$T/diff.json" "$@"; }
check_eq "diff: the helper, only in B, from the build machine" "None -> absolute /t/build/lib/libhelper.so" \
	"$(row "$EXT: needed" libhelper.so)"
check_eq "diff: the RUNPATH into the build directory" "(none) -> /t/build/lib" "$(row "$EXT: file" RUNPATH)"
check_eq "diff: the lint's build_dir finding" "None -> RUNPATH" "$(row "$EXT: rpath lint" "build_dir /t/build/lib")"
check_eq "diff: the version" "0.1 -> 0.2" "$(row metadata version)"
check_eq "diff: torch's libc10 resolves the same (no row)" "" "$(row "$EXT: needed" "libc10.so.$TB_TORCH")"
check_contains "diff text: the summary names the extension and what differs" \
	"  shared objects  $EXT (file, needed, rpath lint)" "$(cat "$T/diff.txt")"

# auditwheel show (Debian sid's python3-auditwheel) on the same wheels, inside: the symbol
# versions' constraint it names is the tag ptinspect implies. Only the sid bed has auditwheel.
# auditwheel show counts the versions every library it would graft needs, torch's libc10
# among them (not in any policy's whitelist), so its constraint is the newer of the
# extension's own floor and libc10's; auditwheel's policy for the extension alone
# (auditwheel_policy.py, its own versioned_symbols_policy) is ptinspect's member tag.
if [ "$TB_FLAVOUR" = sid ]; then
	C10=/usr/lib/x86_64-linux-gnu/libc10.so.$TB_TORCH
	"$TB" run -b "$T:/t" sh -c "cd /t && for w in ok/dist/$OK bad/dist/$BAD; do
			auditwheel show /t/\$w >/t/\$(basename \$w).aw 2>&1; echo \$? >>/t/aw.rc
			python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \$w /t/x_\$(basename \$w)
		done
		python3 /src/tests/integration/inspect/auditwheel_policy.py x_*/ptx_*/_C*.so $C10 >/t/aw_policy.txt
		$P --json $C10 >/t/c10.json" >"$T/aw.log" 2>&1 || { cat "$T/aw.log"; fail "auditwheel inside the sid bed"; }
	cat "$T/aw_policy.txt"
	check_eq "auditwheel show ran on both wheels" "0 0" "$(tr '\n' ' ' <"$T/aw.rc" | sed 's/ $//')"
	tag() { $PY -c 'import json, sys
d = json.load(open(sys.argv[1]))["files"][0]
p = d.get("package")
if p:	# the extension member: its own tag, the same as the package tag (its only ELF member)
    m = [o["floor"]["policy"] for o in p["shared_objects"] if "/_C" in o["member"]]
    assert m == [p["floor"]["policy"]], (m, p["floor"]["policy"])
    print(m[0])
else:
    print(d["floor"]["policy"])' "$1"; }
	newer() { printf '%s\n' "$@" | sort -t_ -k3,3n | tail -1; }
	c10tag=$(tag "$T/c10.json")
	for n in ok bad; do
		w=$([ $n = ok ] && echo "$OK" || echo "$BAD")
		aw=$(sed -n 's/.*constrains the platform tag to "\([^"]*\)".*/\1/p' "$T/$w.aw" | head -1)
		[ -n "$aw" ] || aw=$(tr '\n' ' ' <"$T/$w.aw" | sed -n 's/.*constrains the platform tag to "\([^"]*\)".*/\1/p')
		mine=$(tag "$T/$n.json")
		check_eq "$n: auditwheel's policy for the extension alone is ptinspect's member tag" "$mine" \
			"$(awk -v m="ptx_$n/_C" 'index($1, m) { print $2 }' "$T/aw_policy.txt")"
		check_eq "$n: auditwheel show's constraint is the newer of that and libc10's ($c10tag)" \
			"$(newer "$mine" "$c10tag")" "$aw"
		check_contains "$n: auditwheel show's tag is the claimed one, which ptinspect says holds" \
			'consistent with the following platform tag: "linux_x86_64"' "$(tr '\n' ' ' <"$T/$w.aw" | tr -s ' ')"
	done
	check_eq "libc10: auditwheel's policy is ptinspect's tag" "$c10tag" \
		"$(awk -v m="$C10" '$1 == m { print $2 }' "$T/aw_policy.txt")"
fi

# The real loader: pip install into a venv, import torch then the extension, /proc/self/maps.
cat >"$T/imp.py" <<'EOF'
import importlib, os, sys
def mapped():
    out = set()
    for line in open("/proc/self/maps"):
        p = line.split(None, 5)
        if len(p) == 6 and ".so" in p[5]:
            out.add(os.path.realpath(p[5].strip()))
    return out
import torch
before = mapped()
try:
    importlib.import_module(sys.argv[1] + "._C")
except ImportError as e:
    print("ImportError:", e)
    sys.exit(0)
for p in sorted(mapped() - before):
    print(os.path.basename(p) if "/site-packages/" in p else p)
EOF
"$TB" run -b "$T:/t" sh -c "set -e; python3 -m venv --system-site-packages /t/venv >/dev/null
	/t/venv/bin/pip install -q --no-index --no-deps /t/ok/dist/$OK /t/bad/dist/$BAD /t/abi/dist/$ABI >/t/pip.log 2>&1 || { cat /t/pip.log; exit 1; }
	cd / && /t/venv/bin/python /t/imp.py ptx_ok >/t/ok.maps && /t/venv/bin/python /t/imp.py ptx_bad >/t/bad.maps
	/t/venv/bin/python /t/imp.py ptx_abi >/t/abi.maps
	rm /t/build/lib/libhelper.so
	/t/venv/bin/python /t/imp.py ptx_bad >/t/bad_gone.maps
	$P /t/bad/dist/$BAD >/t/bad_gone.txt 2>&1 || true" || fail "pip install and import in a venv"
check_eq "import of the right one maps only itself (its NEEDED were loaded by torch or the system)" \
	"$(ls "$T/ok/ptx_ok" >/dev/null; printf '%s' "$(cat "$T/ok.maps")" | grep -c '^_C')" "$(wc -l <"$T/ok.maps")"
check_eq "import of the wrong one maps the helper from the build directory, as the report says" \
	"/t/build/lib/libhelper.so" "$(grep libhelper "$T/bad.maps")"
check_eq "with the build directory gone the import fails on that library" \
	"ImportError: libhelper.so: cannot open shared object file: No such file or directory" "$(cat "$T/bad_gone.maps")"
sym=$(sed -n 's/^ImportError: .*undefined symbol: \([^ ]*\)$/\1/p' "$T/abi.maps")
cat "$T/abi.maps"
check_eq "the other-ABI wheel fails to import on an undefined symbol" true "$([ -n "$sym" ] && echo true)"
check_eq "... one of the symbols the report names as missing from torch" "$sym" "$(grep -Fx -- "$sym" "$T/abi.missing")"
check_contains "... and the report says it is missing" "libhelper.so                 MISSING" "$(cat "$T/bad_gone.txt")"
finish
