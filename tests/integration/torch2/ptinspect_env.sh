. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 900
# `ptinspect env` and `doctor`, built inside the torch 2.x test bed, on Debian
# 13's torch 2.6 (ptinspect_env_sid.sh: Debian unstable's 2.14): the parsed
# configuration equals what the interpreter's own torch.__config__.show() says,
# and the loaded-objects list is what importing torch really maps into a
# python3 process.
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
. "$PT_TESTLIB/testbed.sh"
PY=/usr/bin/python3

testbed_ready
P=$TB_BUILD/inspect/ptinspect

# The reference, from the interpreter itself: show() parsed by hand, the
# torch.version facts, and the objects `import torch` adds to /proc/self/maps.
cat >"$T/ref.py" <<'EOF'
import json, os, re

def mapped():
    out = set()
    with open("/proc/self/maps") as fh:
        for line in fh:
            parts = line.split(None, 5)
            if len(parts) == 6 and ".so" in parts[5]:
                out.add(os.path.realpath(parts[5].strip()))
    return out

before = mapped()
import torch
after = mapped()
show = torch.__config__.show()
settings = {}
for line in show.splitlines():
    line = line.strip()
    if line.startswith("- Build settings: "):
        body = line[len("- Build settings: "):].rstrip(",")
        for item in re.split(r", (?=[A-Z0-9_]+=)", body):
            k, v = item.split("=", 1)
            settings[k] = v
first = show.splitlines()
ref = {
    "version": torch.__version__,
    "git_version": torch.version.git_version,
    "debug": torch.version.debug,
    "cuda": torch.version.cuda,
    "cxx11_abi": torch._C._GLIBCXX_USE_CXX11_ABI,
    "file": torch.__file__,
    "compiler": [l.strip()[2:] for l in first if l.strip().startswith("- GCC")][0],
    "cpu_capability": re.search(r"CPU capability usage: (\S+)", show).group(1),
    "cxx_version": re.search(r"C\+\+ Version: (\d+)", show).group(1),
    "mkldnn": re.search(r"MKL-DNN (v[\d.]+)", show).group(1),
    "build_settings": settings,
    "by_import": sorted(after - before),
}
json.dump(ref, open("/t/ref.json", "w"), indent=1, sort_keys=True)
EOF
"$TB" run -b "$T:/t" python3 /t/ref.py 2>/dev/null
check_eq "reference script runs" 0 $?
"$TB" run -b "$T:/t" sh -c "$P env --json --python /usr/bin/python3 >/t/env.json" 2>/dev/null
check_eq "ptinspect env on torch $TB_TORCH exits 0 (no findings)" 0 $?
TV=$($PY -c "import json; print(json.load(open('$T/ref.json'))['version'].split('+')[0])")

# cmp EXPR: the same value from ptinspect (e = env --json) and the reference (r).
cmp_ref() {
	$PY -c "
import json
e = json.load(open('$T/env.json')); r = json.load(open('$T/ref.json'))
a, b = ($1)
print('same' if a == b else 'ptinspect: %r\nreference: %r' % (a, b))"
}
check_eq "torch version" same "$(cmp_ref "e['torch']['version'], r['version']")"
check_eq "git version" same "$(cmp_ref "e['torch']['git_version'], r['git_version']")"
check_eq "debug flag" same "$(cmp_ref "e['torch']['debug'], r['debug']")"
check_eq "CUDA (none)" same "$(cmp_ref "e['torch']['cuda'], r['cuda']")"
check_eq "C++11 ABI" same "$(cmp_ref "e['torch']['cxx11_abi'], r['cxx11_abi']")"
check_eq "torch file" same "$(cmp_ref "e['torch']['file'], r['file']")"
check_eq "config: compiler" same "$(cmp_ref "e['config']['compiler'], r['compiler']")"
check_eq "config: CPU capability" same "$(cmp_ref "e['config']['cpu_capability'], r['cpu_capability']")"
check_eq "config: C++ version" same "$(cmp_ref "e['config']['cxx_version'], r['cxx_version']")"
check_eq "config: oneDNN" same "$(cmp_ref "e['config']['mkldnn'], r['mkldnn']")"
check_eq "config: every build setting" same "$(cmp_ref "e['config']['build_settings'], r['build_settings']")"
check_eq "config: the $TB_TORCH build settings are all there" "True" \
	"$($PY -c "import json; print(len(json.load(open('$T/ref.json'))['build_settings']) >= 20)")"

# Loaded objects: everything ptinspect says the import loaded was mapped by the
# import in a plain python3 too, and the torch libraries are all in its list.
check_eq "loaded by the import: no object python3 did not map" "[]" \
	"$(cmp_ref "sorted(x['realpath'] for x in e['loaded'] if x['by_import'] and x['realpath'] not in r['by_import']), []" |
		sed -n 's/^ptinspect: //p; /^same$/s/.*/[]/p')"
check_eq "loaded by the import: every torch library python3 mapped" "[]" \
	"$(cmp_ref "sorted(p for p in r['by_import'] if ('torch' in p or 'c10' in p) and p not in [x['realpath'] for x in e['loaded'] if x['by_import']]), []" |
		sed -n 's/^ptinspect: //p; /^same$/s/.*/[]/p')"
check_eq "loaded: libtorch_cpu $TV among them" "True" \
	"$($PY -c "import json; print(any(x['realpath'].endswith('libtorch_cpu.so.$TV') for x in json.load(open('$T/env.json'))['loaded'] if x['realpath']))")"
check_eq "loaded: most of the import's objects are listed" "True" \
	"$($PY -c "
import json
e = json.load(open('$T/env.json')); r = json.load(open('$T/ref.json'))
mine = set(x['realpath'] for x in e['loaded'] if x['by_import'])
print(len(mine & set(r['by_import'])) >= 0.9 * len(r['by_import']))")"

# doctor: fine on the clean install, with the dispatch trace verdict of a
# release build; a package shadowing torch on PYTHONPATH is a problem.
"$TB" run -b "$T:/t" sh -c "$P doctor --python /usr/bin/python3 >/t/doctor.txt" 2>/dev/null
check_eq "doctor on torch $TB_TORCH exits 0" 0 $?
check_contains "doctor verdict" "verdict: fine" "$(cat "$T/doctor.txt")"
check_contains "doctor names torch $TB_TORCH" "torch $TV" "$(cat "$T/doctor.txt")"
check_contains "doctor: release build prints no dispatch trace" "TORCH_SHOW_DISPATCH_TRACE: prints nothing" "$(cat "$T/doctor.txt")"
# ... and the interpreter agrees: with the variable set, an operator call prints no
# dispatcher line (Debian's builds define NDEBUG and, 2.7+, not HAS_TORCH_SHOW_DISPATCH_TRACE).
"$TB" run env TORCH_SHOW_DISPATCH_TRACE=1 python3 -c 'import torch; torch.ones(2) + 1' >"$T/dt.out" 2>"$T/dt.err"
check_eq "TORCH_SHOW_DISPATCH_TRACE=1 really prints nothing on torch $TB_TORCH" 0 \
	"$(grep -c 'op=\[aten::' "$T/dt.out" "$T/dt.err" | awk -F: '{ n += $2 } END { print n + 0 }')"
mkdir -p "$T/shadow/torch"
echo 'raise ImportError("a stale torch checkout")' >"$T/shadow/torch/__init__.py"
"$TB" run -b "$T:/t" env PYTHONPATH=/t/shadow sh -c "$P doctor --python /usr/bin/python3 >/t/doctor2.txt" 2>/dev/null
check_eq "doctor with a shadowing torch exits 1" 1 $?
check_contains "doctor names the import error" "ImportError: a stale torch checkout" "$(cat "$T/doctor2.txt")"
check_contains "doctor lists the shadowing directory first" "/t/shadow/torch (directory)" "$(cat "$T/doctor2.txt")"

# The host's helper (Debian 12: libpython3.11.so.1.0) copied onto this Debian 13, which has
# only libpython3.13: the real case of a helper without its libpython. The message names it.
HOSTPY=$(readelf -d "$PT_BUILD/inspect/ptinspect-pyenv" | sed -n 's/.*(NEEDED).*\[\(libpython[^]]*\)\].*/\1/p')
if [ -n "$HOSTPY" ] && ! "$TB" run test -e "/usr/lib/x86_64-linux-gnu/$HOSTPY" 2>/dev/null; then
	cp "$PT_BUILD/inspect/ptinspect-pyenv" "$T/host-pyenv"
	"$TB" run -b "$T:/t" env PTINSPECT_PYENV=/t/host-pyenv sh -c "$P env --python /usr/bin/python3 >/t/hp.out 2>/t/hp.err" 2>/dev/null
	check_eq "the host's helper in the bed: exit" 2 $?
	HV=${HOSTPY#libpython}
	HV=${HV%%.so*}
	check_eq "the host's helper in the bed: the missing libpython and what to do" \
		"ptinspect: '/t/host-pyenv': the environment helper cannot start: $HOSTPY is not found by the loader's rules (ptinspect deps /t/host-pyenv shows where the loader looks); it was built against Python $HV's shared library: install it (Debian, Ubuntu: apt-get install libpython$HV), or build ptools on this machine, against its own Python (cmake -S . -B build), and use that build's ptinspect and ptinspect-pyenv" \
		"$(cat "$T/hp.err")"
else
	echo "note: the host's helper links ${HOSTPY:-no libpython} that the bed has too: not checked"
fi
finish
