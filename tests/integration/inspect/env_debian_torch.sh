# ctest-timeout: 480
# ptinspect env/config/doctor against Debian's python3-torch 1.13 (/usr/bin/python3):
# - doctor and config without an interpreter named take the first python3 on PATH,
#   or /usr/bin/python3 when that one has no torch (a note, said once);
# - the configuration is the same from the embedded interpreter, from a text
#   file written by `python3 -c 'print(torch.__config__.show())'`, and from
#   the C++ at::show_config() called in a child (--library);
# - the loaded-object list holds the real paths of libtorch_cpu and libc10;
# - a planted `torch` package earlier on PYTHONPATH is reported as a shadow;
# - an interpreter that cannot import torch names the ones that can.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
PY=/usr/bin/python3
[ -x $PY ] || skip "no $PY"
$PY -c 'import torch' 2>/dev/null || skip "$PY cannot import torch (python3-torch not installed)"

jq_py() { # jq_py FILE EXPR: evaluate a Python expression over the JSON document d
	$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
same_config() { # same_config A.json B.json: the "config" objects are equal
	$PY -c 'import json,sys; a=json.load(open(sys.argv[1]))["config"]; b=json.load(open(sys.argv[2]))["config"]; print("same" if a == b and a else "differ")' "$1" "$2"
}

# 1. The three sources of the configuration agree.
$PY -c 'import torch; print(torch.__config__.show())' >"$T/config.txt"
"$P" config --json "$T/config.txt" >"$T/file.json"
check_eq "config from a text file: exit" 0 $?
"$P" config --json --python $PY >"$T/embedded.json"
check_eq "config from the embedded interpreter: exit" 0 $?
LIBCPU=$(realpath /usr/lib/x86_64-linux-gnu/libtorch_cpu.so)
"$P" config --json --library "$LIBCPU" >"$T/cxx.json"
check_eq "config from at::show_config() in a child: exit" 0 $?
check_eq "embedded == text file" same "$(same_config "$T/embedded.json" "$T/file.json")"
check_eq "at::show_config() == text file" same "$(same_config "$T/cxx.json" "$T/file.json")"
check_eq "parsed compiler" "GCC 12.2" "$(jq_py "$T/file.json" 'd["config"]["compiler"]')"
check_eq "parsed BUILD_TYPE" "RelWithDebInfo" "$(jq_py "$T/file.json" 'd["config"]["build_settings"]["BUILD_TYPE"]')"

# 2. env: embedded, and the loaded objects are the real files.
"$P" env --json --python $PY >"$T/env.json"
check_eq "env exit (Debian's torch, nothing wrong)" 0 $?
check_eq "env mode" embedded "$(jq_py "$T/env.json" 'd["mode"]')"
check_eq "torch version" 1.13.0a0 "$(jq_py "$T/env.json" 'd["torch"]["version"]')"
check_eq "env config == text file" same "$(same_config "$T/env.json" "$T/file.json")"
LOADED=$(jq_py "$T/env.json" '"\n".join(l["realpath"] or "" for l in d["loaded"] if l["by_import"])')
check_contains "libtorch_cpu loaded (realpath)" "$LIBCPU" "$LOADED"
check_contains "libc10 loaded (realpath)" "$(realpath /usr/lib/x86_64-linux-gnu/libc10.so)" "$LOADED"
# The helper's own libraries are not ptinspect's: no libelf/jansson before the import.
check_eq "ptinspect's libraries are not in the list" 0 \
	"$(jq_py "$T/env.json" 'sum(1 for l in d["loaded"] if not l["by_import"] and "jansson" in l["name"])')"

# The same interpreter run as a child process gives the same torch.
PTINSPECT_PYENV_NO_EMBED=1 "$P" env --json --python $PY >"$T/child.json"
check_eq "child mode" child "$(jq_py "$T/child.json" 'd["mode"]')"
check_eq "child config == embedded config" same "$(same_config "$T/child.json" "$T/embedded.json")"
check_contains "child: libtorch_cpu loaded" "$LIBCPU" \
	"$(jq_py "$T/child.json" '"\n".join(l["realpath"] or "" for l in d["loaded"])')"

# 3. A planted fake torch earlier on sys.path shadows the real one.
mkdir -p "$T/shadow/torch"
echo '__version__ = "0.0+fake"' >"$T/shadow/torch/__init__.py"
PYTHONPATH="$T/shadow" "$P" env --json --python $PY >"$T/shadow.json"
check_eq "shadow: exit" 1 $?
SHADOW=$(jq_py "$T/shadow.json" '"\n".join(f["message"] for f in d["findings"] if f["where"] == "shadow")')
check_contains "shadow names the fake" "torch in $T/shadow (directory) shadows torch in /usr/lib/python3/dist-packages (debian package)" "$SHADOW"
check_contains "shadow: not PyTorch" "loaded no libtorch" "$SHADOW"
PYTHONPATH="$T/shadow" "$P" env --python $PY >"$T/shadow.txt"
check_contains "shadow in the text report" "warning: [shadow]" "$(cat "$T/shadow.txt")"

# 4. --expect: torch is not from the build tree given.
check_rc "--expect elsewhere is a finding" 1 "$P" env --python $PY --expect "$T"
check_contains "--expect message" "not from $T (--expect)" "$(cat "$T/.out")"
check_rc "--expect the right place" 0 "$P" env --python $PY --expect /usr/lib/python3/dist-packages
# Standing in a PyTorch checkout (setup.py, torch/, c10/) makes it the expected place.
mkdir -p "$T/pytorch/torch" "$T/pytorch/c10"
touch "$T/pytorch/setup.py" "$T/pytorch/torch/__init__.py"
# By default the current directory is kept off sys.path (its torch/ is read, never run):
# the installed torch is imported, and the checkout a run here would import is named.
(cd "$T/pytorch" && "$P" env --python $PY >"$T/intree-safe.txt")
check_eq "in a build tree: exit" 1 $?
check_contains "in a build tree: the installed torch is imported" "from /usr/lib/python3/dist-packages/torch/__init__.py" "$(cat "$T/intree-safe.txt")"
check_contains "in a build tree: the checkout is named" \
	"warning: [here] python run here would import ./torch (the source checkout) instead of the installed torch (/usr/lib/python3/dist-packages/torch): $T/pytorch/torch has no built _C extension" \
	"$(cat "$T/intree-safe.txt")"
# --here: as `python3 -c` does, the current directory comes first: its torch/ is the one imported.
(cd "$T/pytorch" && "$P" env --here --python $PY >"$T/intree-cwd.txt")
check_contains "in a build tree, --here: its torch/ wins, as with python3 -c" "from $T/pytorch/torch/__init__.py" "$(cat "$T/intree-cwd.txt")"
# With PYTHONSAFEPATH (python3 -P) it does not, and the system torch is not the build tree's.
(cd "$T/pytorch" && PYTHONSAFEPATH=1 "$P" env --python $PY >"$T/intree.txt")
check_eq "in a build tree, torch from elsewhere: exit" 1 $?
check_contains "build tree finding" "torch is imported from /usr/lib/python3/dist-packages/torch/__init__.py, not from $T/pytorch (the build tree in the current directory)" "$(cat "$T/intree.txt")"

# 5. The default python3 cannot import torch: say so and name /usr/bin/python3.
mkdir -p "$T/bin"
printf '#!/bin/sh\nexec %s -S "$@"\n' "$PY" >"$T/bin/python3"
chmod +x "$T/bin/python3"
PATH="$T/bin:$PATH" "$P" env >"$T/nopy.txt" 2>&1
check_eq "default python without torch: exit" 1 $?
check_contains "says it cannot import" "cannot import torch" "$(cat "$T/nopy.txt")"
check_contains "names /usr/bin/python3" "/usr/bin/python3 (ptinspect env --python /usr/bin/python3)" "$(cat "$T/nopy.txt")"

# 6. doctor (and no arguments) falls back to the interpreter that can, verdict first.
#    The python3 on PATH without torch is a note, said once: the torch checked is fine.
PATH="$T/bin:$PATH" "$P" >"$T/doctor.txt" 2>&1
check_eq "no arguments runs doctor: exit (python3 on PATH has no torch, /usr/bin/python3's is fine)" 0 $?
check_eq "doctor verdict first" "ptinspect doctor: /usr/bin/python3: fine" "$(head -1 "$T/doctor.txt")"
FELL="$T/bin/python3, the python3 first on PATH, cannot import torch (ModuleNotFoundError: No module named 'torch'); using /usr/bin/python3 instead, the first interpreter that can"
check_eq "doctor: the fallback is a note, second line" "  note    $FELL" "$(sed -n 2p "$T/doctor.txt")"
check_eq "doctor: said once" 1 "$(grep -c "$T/bin/python3" "$T/doctor.txt")"
check_contains "doctor: verdict fine" "  verdict: fine" "$(cat "$T/doctor.txt")"
check_contains "doctor dispatch trace" "TORCH_SHOW_DISPATCH_TRACE: prints nothing" "$(cat "$T/doctor.txt")"
# Debian's five stripped torch libraries: one block listing them, its verdict once.
check_eq "doctor: one debug verdict for the five stripped libraries" 1 \
	"$(grep -c '^    debug     nothing: stripped; .gnu_debuglink not found' "$T/doctor.txt")"
check_eq "doctor: the block lists the five" 5 \
	"$(sed -n '/^debug info of the torch libraries/,/^    debug /p' "$T/doctor.txt" | grep -c '^  /usr/lib/x86_64-linux-gnu/lib\(torch\|c10\)')"
PATH="$T/bin:$PATH" "$P" doctor --json >"$T/fell.json"
check_eq "doctor --json after the fallback: exit" 0 $?
check_eq "doctor --json: verdict ok" True "$(jq_py "$T/fell.json" 'd["verdict"]["ok"]')"
check_eq "doctor --json: the interpreter chosen and why" "/usr/bin/python3|True|$FELL" \
	"$(jq_py "$T/fell.json" '"|".join(str(d["interpreter"][k]) for k in ("python", "fallback", "why"))')"
check_eq "doctor --json: still five debug entries" 5 "$(jq_py "$T/fell.json" 'len(d["debug"])')"

# 6b. config with no argument asks the interpreter doctor checks, and says which first.
PATH="$T/bin:$PATH" "$P" config >"$T/config-default.txt" 2>"$T/config-default.err"
check_eq "config, no argument: exit" 0 $?
check_eq "config, no argument: which interpreter and why" "python                   $FELL" "$(head -1 "$T/config-default.txt")"
"$P" config --python $PY >"$T/config-py.txt"
check_eq "config, no argument: the rest is config --python /usr/bin/python3" "$(cat "$T/config-py.txt")" \
	"$(tail -n +2 "$T/config-default.txt")"
check_eq "config, no argument: nothing on stderr" "" "$(cat "$T/config-default.err")"
PATH="$T/bin:$PATH" "$P" config --json >"$T/config-default.json"
check_eq "config --json, no argument: source and interpreter" "/usr/bin/python3|True" \
	"$(jq_py "$T/config-default.json" 'd["source"] + "|" + str(d["interpreter"]["fallback"])')"
check_eq "config --json, no argument: config == text file" same "$(same_config "$T/config-default.json" "$T/file.json")"
# When the python3 first on PATH has torch, that one, and said so.
PATH="/usr/bin:$PATH" "$P" config >"$T/config-usr.txt"
check_eq "config, /usr/bin first on PATH: exit" 0 $?
check_eq "config, /usr/bin first on PATH: the line" "python                   /usr/bin/python3, the python3 first on PATH" \
	"$(head -1 "$T/config-usr.txt")"
# --python X means X: no fallback for config either.
check_rc "config --python without torch: exit" 2 env PATH="$T/bin:$PATH" "$P" config --python python3
check_contains "config --python without torch: its error" "cannot import torch" "$(cat "$T/.err")"
"$P" doctor --json --python $PY >"$T/doctor.json"
check_eq "doctor --python: exit" 0 $?
check_eq "doctor json verdict" True "$(jq_py "$T/doctor.json" 'd["verdict"]["ok"]')"
check_eq "doctor: libtorch_cpu debug verdict" nothing \
	"$(jq_py "$T/doctor.json" '[x["debug"]["verdict"] for x in d["debug"] if "libtorch_cpu" in x["file"]][0]')"
check_eq "doctor: dispatch trace cannot print" False "$(jq_py "$T/doctor.json" 'd["dispatch_trace"]["can_print"]')"

# 7. A venv made from /usr/bin/python3 is embedded with its own sys.executable
#    and site-packages (PyConfig.executable): a torch planted in the venv shadows Debian's.
if $PY -m venv --without-pip --system-site-packages "$T/venv" 2>/dev/null; then
	SP=$("$T/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
	mkdir -p "$SP/torch"
	echo '__version__ = "0.0+venv"' >"$SP/torch/__init__.py"
	"$P" env --json --python "$T/venv/bin/python" >"$T/venv.json"
	check_eq "venv: embedded" embedded "$(jq_py "$T/venv.json" 'd["mode"]')"
	check_eq "venv: sys.executable is the venv's python" "$T/venv/bin/python" "$(jq_py "$T/venv.json" 'd["executable"]')"
	check_eq "venv: its site-packages torch is imported" "$SP/torch/__init__.py" "$(jq_py "$T/venv.json" 'd["torch"]["file"]')"
	check_contains "venv: shadows Debian's torch" "torch in $SP (directory) shadows torch in /usr/lib/python3/dist-packages" \
		"$(jq_py "$T/venv.json" '"\n".join(f["message"] for f in d["findings"])')"
else
	echo "note: python3 -m venv unavailable, venv checks not run"
fi

# 8. The at::show_config() child never takes the tool down.
check_rc "--library on a non-torch library" 2 "$P" config --library "$(realpath /lib/x86_64-linux-gnu/libz.so.1)"
check_contains "no symbol message" "no exported at::show_config()" "$(cat "$T/.err")"
build_so "$T/libcrash.so" '#include <signal.h>
__attribute__((constructor)) static void boom(void) { raise(SIGSEGV); }'
check_rc "--library on a library that crashes in its initialiser" 2 "$P" config --library "$T/libcrash.so"
check_contains "crash reported" "killed by signal 11" "$(cat "$T/.err")"
finish
