# Rule: a run that crashes under Debian's torch 1.13 says so first: pttrace run
# sets PYTHONFAULTHANDLER=1 (unless the caller set it), indexes the Python stack
# faulthandler prints as a crash record (an error) with the crashed thread's
# innermost frame, finds the core (core_pattern; --core raises the child's core
# size limit) and prints the gdb line with ptgdb loaded; show and the report
# put the crash first. Real crashes: a C extension that dereferences NULL and a
# C++ one whose c10::Error (TORCH_CHECK) reaches std::terminate, both built
# here against /usr/bin/python3's headers, with torch imported. Also issue 32
# item 5: with a python3 first on PATH that has no torch, pttrace run runs the
# one that has (the list ptinspect doctor tries), and says so in one line.
# ctest-timeout: 300
. "$PT_TESTLIB/common.sh" || exit 2
PY=/usr/bin/python3
[ -x "$PY" ] || skip "no $PY"
"$PY" -c 'import torch' 2>/dev/null || skip "Debian's python3-torch is not installed"
need gcc
need g++
INC=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
SUF=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
[ -f "$INC/Python.h" ] || skip "no Python.h for $PY (python3-dev)"
[ -f /usr/include/c10/util/Exception.h ] || skip "no c10 headers (libtorch-dev)"
export PTTRACE_DB="$T/db/pttrace.db"
P="$PTTRACE"
E="$PT_SRC/tests/integration/tracers/expected"
sqlv() { "$P" sql "$1" "$2" | tail -n +2; }
unset PYTHONFAULTHANDLER PYTHONUNBUFFERED TORCH_LOGS TORCH_TRACE
mkdir -p "$T/ext" "$T/work"

# The extensions, built now.
cat >"$T/ext/segv.c" <<'CEOF'
#include <Python.h>
static PyObject *crash(PyObject *self, PyObject *args)
{
	volatile int *p = NULL;
	return PyLong_FromLong(*p);
}
static PyMethodDef m[] = { { "crash", crash, METH_NOARGS, NULL }, { NULL, NULL, 0, NULL } };
static struct PyModuleDef d = { PyModuleDef_HEAD_INIT, "segv", NULL, -1, m };
PyMODINIT_FUNC PyInit_segv(void) { return PyModule_Create(&d); }
CEOF
gcc -shared -fPIC -O0 -I"$INC" -o "$T/ext/segv$SUF" "$T/ext/segv.c" || { echo "FAIL: cannot build segv"; exit 1; }
cat >"$T/ext/abrt.cpp" <<'CEOF'
#include <Python.h>
#include <c10/util/Exception.h>
/* A TORCH_CHECK in code that cannot throw: the c10::Error ends in std::terminate. */
static void check(long n) noexcept { TORCH_CHECK(n > 0, "ptools test: n must be positive, got ", n); }
static PyObject *crash(PyObject *, PyObject *) { check(-1); Py_RETURN_NONE; }
static PyMethodDef m[] = { { "crash", crash, METH_NOARGS, NULL }, { NULL, NULL, 0, NULL } };
static struct PyModuleDef d = { PyModuleDef_HEAD_INIT, "abrt", NULL, -1, m };
PyMODINIT_FUNC PyInit_abrt(void) { return PyModule_Create(&d); }
CEOF
g++ -shared -fPIC -O0 -w -I"$INC" -o "$T/ext/abrt$SUF" "$T/ext/abrt.cpp" -lc10 || { echo "FAIL: cannot build abrt"; exit 1; }
export PYTHONPATH="$T/ext"
cat >"$T/work/segv_crash.py" <<'PYEOF'
import torch, segv
print("torch", torch.__version__.split(".")[0])
def f():
    segv.crash()
f()
PYEOF
cat >"$T/work/abrt_crash.py" <<'PYEOF'
import torch, abrt
def g():
    abrt.crash()
g()
PYEOF
cd "$T/work" || exit 2
pattern=$(cat /proc/sys/kernel/core_pattern)

# A NULL dereference, core size limit 0, no --core: the crash, and why there is no core.
( ulimit -S -c 0; "$P" run -q --python "$PY" --name segv "$T/work/segv_crash.py" >"$T/out" 2>"$T/err" )
check_eq "segv: exit 128+11" 139 $?
check_contains "segv: the crash line: signal, Python frame, faulthandler's line" \
	"pttrace: crash: signal 11 (SIGSEGV) at $T/work/segv_crash.py:4: Fatal Python error: Segmentation fault" "$(cat "$T/err")"
case $pattern in
'|'*) check_contains "segv: where the core went (a pipe)" "the kernel passed the core to" "$(cat "$T/err")" ;;
'') check_contains "segv: no core_pattern" "core_pattern is empty" "$(cat "$T/err")" ;;
*) check_contains "segv: why no core" "no core file: the core size limit is 0 (ulimit -c); 'pttrace run --core' raises it for the child" "$(cat "$T/err")" ;;
esac
check_eq "segv: PYTHONFAULTHANDLER=1 set and recorded" "1" \
	"$(sqlv segv "SELECT value FROM run_env WHERE run_id = :run AND name = 'PYTHONFAULTHANDLER'")"
check_eq "segv: one crash record, level CRITICAL, at the crashed frame" "1|50|$T/work/segv_crash.py|4" \
	"$(sqlv segv "SELECT COUNT(*) || '|' || level || '|' || src_file || '|' || src_line FROM records WHERE run_id = :run AND kind = 'crash'")"
check_contains "segv: the record holds faulthandler's stack" "  File \"$T/work/segv_crash.py\", line 5 in <module>" \
	"$(sqlv segv "SELECT text FROM records WHERE run_id = :run AND kind = 'crash'")"
check_eq "segv: run_crash row" "11|0" "$(sqlv segv "SELECT signal || '|' || core_limit FROM run_crash WHERE run_id = :run")"
# show: the crash first (after the run's name), counted as an error.
"$P" show segv >"$T/show.txt"
head -2 "$T/show.txt" >"$T/show_head.txt"
check_output "segv: show's first lines" "$E/crash_segv_show_head.txt" "$T/show_head.txt"
check_contains "segv: show counts the crash as an error" "  errors: 1" "$(cat "$T/show.txt")"
"$P" --json show segv >"$T/show.json"
check_eq "segv: show --json: crash, crashes, errors" "11 $T/work/segv_crash.py 4 1 crash" \
	"$("$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["crashes"][0]; print(d["crash"]["signal"], c["src_file"], c["src_line"], len(d["errors"]), d["errors"][0]["kind"])' "$T/show.json")"
# The report: the crash is its first section.
"$P" report segv --out "$T/rep" >/dev/null 2>&1
check_eq "segv: report's first section is the crash" '<h2 id="crash" class="bad">Crash</h2>' \
	"$(grep -m1 '<h2' "$T/rep/index.html")"
check_contains "segv: report names the frame" "segv_crash.py:4</code>" "$(cat "$T/rep/index.html")"

# A c10::Error reaching std::terminate: SIGABRT, what() in the crash line.
"$P" run -q --python "$PY" --name abrt "$T/work/abrt_crash.py" >"$T/out" 2>"$T/err"
check_eq "abrt: exit 128+6" 134 $?
check_contains "abrt: the crash line names the C++ error" \
	"pttrace: crash: signal 6 (SIGABRT) at $T/work/abrt_crash.py:3: Fatal Python error: Aborted (c10::Error: ptools test: n must be positive, got -1)" \
	"$(cat "$T/err")"
check_eq "abrt: one record from terminate's message to the dump's end" "1|terminate called after throwing an instance of 'c10::Error'" \
	"$(sqlv abrt "SELECT COUNT(*) || '|' || substr(text, 1, instr(text, char(10)) - 1) FROM records WHERE run_id = :run AND kind = 'crash'")"
"$P" show abrt | head -2 >"$T/show_head.txt"
check_output "abrt: show's first lines" "$E/crash_abrt_show_head.txt" "$T/show_head.txt"

# The caller's PYTHONFAULTHANDLER is kept (empty: off): no stack, the crash still first.
PYTHONFAULTHANDLER= "$P" run -q --python "$PY" --name nofh "$T/work/segv_crash.py" >"$T/out" 2>"$T/err"
check_eq "nofh: exit 128+11" 139 $?
check_eq "nofh: the caller's empty PYTHONFAULTHANDLER kept" "|0" \
	"$(sqlv nofh "SELECT (SELECT value FROM run_env WHERE run_id = :run AND name = 'PYTHONFAULTHANDLER') || '|' || (SELECT COUNT(*) FROM records WHERE run_id = :run AND kind = 'crash')")"
check_eq "nofh: show's crash line without a Python place" "  crash:    signal 11 (SIGSEGV)" "$("$P" show nofh | sed -n 2p)"

# Item 5: python3 first on PATH without torch (here: site off, so no dist-packages).
mkdir -p "$T/bin"
printf '#!/bin/sh\nexec %s -S "$@"\n' "$PY" >"$T/bin/python3"
chmod +x "$T/bin/python3"
printf 'import torch\nprint("ok", torch.__version__.split(".")[0])\n' >"$T/work/ok.py"
PATH="$T/bin:$PATH" "$P" run -q --name fallback "$T/work/ok.py" >"$T/out" 2>"$T/err"
check_eq "fallback: the script ran" 0 $?
check_contains "fallback: one line says which and why" \
	"pttrace: python3 on PATH ($T/bin/python3) has no torch; running $PY, which has torch 1." "$(cat "$T/err")"
check_eq "fallback: said once" 1 "$(grep -c 'has no torch; running' "$T/err")"
check_eq "fallback: no 'cannot import torch' warning" 0 "$(grep -c 'cannot import torch' "$T/err")"
check_eq "fallback: the run records the interpreter and its torch" "$PY|1" \
	"$(sqlv fallback "SELECT python || '|' || substr(torch_version, 1, 1) FROM runs WHERE id = :run")"
# --python means that one: no fallback, the warning as before.
PATH="$T/bin:$PATH" "$P" run -q --python "$T/bin/python3" --name asked "$T/work/ok.py" >"$T/out" 2>"$T/err"
check_eq "asked: the script fails (no torch)" 1 $?
check_eq "asked: no fallback line" 0 "$(grep -c 'has no torch; running' "$T/err")"
check_contains "asked: the no-torch warning" "cannot import torch" "$(cat "$T/err")"

# --core: the core is written, found and opens in gdb with ptgdb. Last: where this
# machine's core_pattern or hard limit cannot give a core file here, it does not apply.
( ulimit -S -c 0; "$P" run -q --core --python "$PY" --name core "$T/work/segv_crash.py" >"$T/out" 2>"$T/err" )
check_eq "core: exit 128+11" 139 $?
core=$(sqlv core "SELECT IFNULL(core_path, '') FROM run_crash WHERE run_id = :run")
case $pattern in
'|'*systemd-coredump*)
	check_contains "core: systemd-coredump has it" "the kernel passed the core to systemd-coredump" "$(cat "$T/err")"
	check_contains "core: coredumpctl with ptgdb" "pttrace: gdb: coredumpctl debug --debugger-arguments='-q -ex \"source $PT_SRC/gdbext/load.py\"'" "$(cat "$T/err")"
	;;
'|'*) check_contains "core: the pipe's program has it" "the kernel passed the core to" "$(cat "$T/err")" ;;
*)
	if [ -z "$core" ]; then
		[ "$PT_FAILS" = 0 ] || finish
		not_applicable "no core file here (core_pattern '$pattern', hard limit $(ulimit -H -c)): $(sqlv core "SELECT core_note FROM run_crash WHERE run_id = :run")"
	fi
	check_eq "core: a fresh core file" 1 "$([ -s "$core" ] && echo 1)"
	check_contains "core: where it is" "pttrace: core file $core (core_pattern '$pattern')" "$(cat "$T/err")"
	check_contains "core: the gdb line with ptgdb" "pttrace: gdb: gdb -q -ex 'source $PT_SRC/gdbext/load.py' $PY $core" "$(cat "$T/err")"
	check_contains "core: show has the gdb line" "            gdb -q -ex 'source $PT_SRC/gdbext/load.py' $PY $core" "$("$P" show core | head -4)"
	if command -v gdb >/dev/null 2>&1; then
		timeout 120 gdb -q -batch -ex "source $PT_SRC/gdbext/load.py" -ex 'help pt-tensor' "$PY" "$core" >"$T/gdb" 2>&1
		check_contains "core: gdb opens the core" "Program terminated with signal SIGSEGV" "$(cat "$T/gdb")"
		check_contains "core: with ptgdb loaded" "Usage: pt-tensor" "$(cat "$T/gdb")"
	fi
	rm -f "$core"
	;;
esac
finish
