# The resolver cross-check of `ptinspect env`/`doctor` (envcheck_deps): torch's
# _C extension is resolved by the loader's rules; a dependency the rules do not
# find but the process has anyway (torch preloads it, as pip wheels do with the
# nvidia-* libraries) is named with where it really came from.
# Fixture: a package "torch" whose __init__ preloads lib/libdep.so with
# ctypes (RTLD_GLOBAL) and then imports _C, built with -ldep and no RPATH.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
PY=/usr/bin/python3
[ -x $PY ] || skip "no $PY"
command -v python3-config >/dev/null || [ -x /usr/bin/python3-config ] || skip "no python3-config (python3-dev)"
EXT=$($PY -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
mkdir -p "$T/pkg/torch/lib"
build_so "$T/pkg/torch/lib/libdep.so" 'int dep_value(void) { return 42; }' -Wl,-soname,libdep.so
cat >"$T/pkg/torch/__init__.py" <<'PYEOF'
import ctypes, os
ctypes.CDLL(os.path.join(os.path.dirname(__file__), "lib", "libdep.so"), mode=ctypes.RTLD_GLOBAL)
from . import _C
__version__ = "0.0+preload"
PYEOF
build_so "$T/pkg/torch/_C$EXT" '#include <Python.h>
int dep_value(void);
static struct PyModuleDef m = { PyModuleDef_HEAD_INIT, "_C", NULL, -1, NULL };
PyMODINIT_FUNC PyInit__C(void) { return dep_value() == 42 ? PyModule_Create(&m) : NULL; }' \
	$(/usr/bin/python3-config --includes) -L"$T/pkg/torch/lib" -ldep

PYTHONPATH="$T/pkg" "$P" env --json --python $PY >"$T/env.json"
$PY - "$T/env.json" "$T" <<'PYEOF' >"$T/facts.txt"
import json, sys
d = json.load(open(sys.argv[1]))
print("imported", d["torch"]["imported"])
print("deps root", d["deps"]["root"].replace(sys.argv[2], "$T"))
print("missing", d["deps"]["missing"], "preloaded", d["deps"]["missing_but_preloaded"])
for f in d["findings"]:
    if f["where"] == "deps":
        print(f["severity"], f["message"].replace(sys.argv[2], "$T"))
PYEOF
check_eq "deps cross-check facts" "imported True
deps root \$T/pkg/torch/_C$EXT
missing 1 preloaded 1
note libdep.so, needed by \$T/pkg/torch/_C$EXT, is not found by the loader's rules; the process has it only because it was loaded earlier (\$T/pkg/torch/lib/libdep.so)" "$(cat "$T/facts.txt")"

PYTHONPATH="$T/pkg" "$P" doctor --python $PY >"$T/doctor.txt"
check_contains "doctor's deps line" "deps: 2 objects below torch's _C; 1 not found by the loader's rules (1 loaded earlier by torch), 0 with unmet symbol versions" "$(cat "$T/doctor.txt")"
finish
