#!/usr/bin/env bash
# ctest-timeout: 300
# doctor and env against code they must not run, or that never returns
# (docs/internals/fault-matrix.md):
# N2 a torch/__init__.py (and a json.py) in the current directory is never imported by
#    default, by any interpreter doctor tries (the helper, embedded or as a child, the
#    fallback, the `import torch` check of the other interpreters); the checkout a run here
#    would import is still named, found by reading files; --here imports it, once.
# N3 an `import torch` that never returns is killed at --timeout with its process group
#    (a subprocess it started too), named as such, with the Python stack where it hung,
#    in both helper modes (embedded and PTINSPECT_PYENV_NO_EMBED).
. "$PT_TESTLIB/common.sh"
cd "$T" || exit 2
P=$PTINSPECT
PY=/usr/bin/python3
[ -x $PY ] || skip "no $PY"
$PY -c 'import torch' 2>/dev/null || skip "$PY cannot import torch (python3-torch not installed)"
unset PYTHONPATH PYTHONSAFEPATH PTINSPECT_PYENV_NO_EMBED
export NO_COLOR=1
mkdir marks

# A torch/ (and a json.py) that leave a marker file for every process that runs them.
plant() {	# plant DIR
	mkdir -p "$1/torch"
	cat >"$1/torch/__init__.py" <<EOF
import os, sys
open("$T/marks/torch_%d" % os.getpid(), "w").write(sys.executable + "\n")
raise ImportError("this torch/ refuses to import")
EOF
	cat >"$1/json.py" <<EOF
import os
open("$T/marks/json_%d" % os.getpid(), "w").write("json.py ran\n")
EOF
}
ran() { ls "$T/marks" | grep -c "^$1_"; }
plant co
# The first python3 on PATH cannot import torch (no site-packages): doctor falls back.
mkdir bin
printf '#!/bin/sh\nexec %s -S "$@"\n' "$PY" >bin/python3
chmod +x bin/python3

# N2: the default, with the fallback to another interpreter.
(cd co && PATH="$T/bin:$PATH" timeout 120 "$P" >"$T/d1.txt" 2>&1)
check_eq "doctor in a dir with torch/: exit" 1 $?
check_eq "doctor: torch/__init__.py never ran" 0 "$(ran torch)"
check_eq "doctor: json.py never ran" 0 "$(ran json)"
check_contains "doctor: the fallback was tried" "$T/bin/python3, the python3 first on PATH, cannot import torch" "$(cat "$T/d1.txt")"
check_contains "doctor: the package here is named" \
	"python run here would import ./torch (a torch package in the current directory, not a PyTorch checkout) instead of the installed torch (/usr/lib/python3/dist-packages/torch): $T/co/torch has no _C extension" \
	"$(head -1 "$T/d1.txt")"
# The same with every interpreter run as a child process.
(cd co && PATH="$T/bin:$PATH" PTINSPECT_PYENV_NO_EMBED=1 timeout 120 "$P" doctor >"$T/d2.txt" 2>&1)
check_eq "doctor, child mode: exit" 1 $?
check_eq "doctor, child mode: torch/__init__.py never ran" 0 "$(ran torch)"
check_eq "doctor, child mode: json.py never ran" 0 "$(ran json)"
(cd co && PATH="$T/bin:$PATH" timeout 120 "$P" env >"$T/e1.txt" 2>&1)
check_eq "env: torch/__init__.py never ran" 0 "$(ran torch)"
check_contains "env: the package here is a finding" "warning: [here] python run here would import ./torch" "$(cat "$T/e1.txt")"
check_contains "env: the other interpreters listed (their import checked)" \
	"interpreters on this machine that can import torch:" "$(cat "$T/e1.txt")"

# A PyTorch source checkout without a built _C: the doctor's "source checkout" verdict.
plant pytorch
mkdir pytorch/c10
touch pytorch/setup.py
(cd pytorch && timeout 120 "$P" doctor --python $PY >"$T/co.txt" 2>&1)
check_eq "checkout: exit" 1 $?
check_eq "checkout: first line" \
	"ptinspect doctor: $PY: python run here would import ./torch (the source checkout) instead of the installed torch (/usr/lib/python3/dist-packages/torch): $T/pytorch/torch has no built _C extension, so import torch fails there; leave the directory (cd ..) or finish the in-place build (pip install -e . -v --no-build-isolation; older checkouts: python setup.py develop)" \
	"$(head -1 "$T/co.txt")"
check_eq "checkout: torch/__init__.py never ran" 0 "$(ran torch)"

# --here: as python3 -c run there; one interpreter, the first python3 on PATH, runs it once.
(cd co && PATH="$T/bin:$PATH" timeout 120 "$P" doctor --here >"$T/h.txt" 2>&1)
check_eq "--here: exit" 1 $?
check_eq "--here: torch/__init__.py ran once" 1 "$(ran torch)"
check_eq "--here: ptinspect's own imports never take json.py" 0 "$(ran json)"
check_contains "--here: the import's own error" "this torch/ refuses to import" "$(head -3 "$T/h.txt")"
check_eq "--here: no fallback" "" "$(grep 'using /usr/bin/python3 instead' "$T/h.txt")"
rm -f marks/*

# N3: an import that never returns, and a subprocess it started that would outlive it.
mkdir -p hang/torch
cat >hang/torch/__init__.py <<EOF
import os, subprocess, sys, time
p = subprocess.Popen(["sleep", "100000"])
open("$T/marks/hang_%d" % os.getpid(), "w").write("%d %d\n" % (os.getpid(), p.pid))
time.sleep(100000)
EOF
# alive_after WHAT: the pids the hung import wrote are gone (the group was killed).
alive_after() {
	local pids
	pids=$(cat "$T"/marks/hang_* 2>/dev/null)
	# Two per hung interpreter: the checked one and each other one asked to import torch.
	check_eq "$1: the hung import left its pids" yes "$([ "$(echo $pids | wc -w)" -ge 2 ] && echo yes)"
	for pid in $pids; do
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -0 "$pid" 2>/dev/null && { fail "$1: pid $pid still runs"; kill -9 "$pid"; } || pass
	done
	rm -f "$T"/marks/hang_*
}
WHERE="File \"$T/hang/torch/__init__.py\", line 4 in <module>"
PYTHONPATH=$T/hang timeout 60 "$P" doctor --timeout 2 --python $PY >"$T/n3a.txt" 2>&1
check_eq "hang, doctor (embedded): exit (124 = hung)" 1 $?
check_eq "hang, doctor: the verdict" \
	"ptinspect doctor: $PY: import torch fails: import torch did not finish in 2 s: killed; it was at $WHERE" \
	"$(head -1 "$T/n3a.txt")"
check_contains "hang, doctor: the Python stack" "Python stacks when it was killed" "$(cat "$T/n3a.txt")"
alive_after "hang, doctor"
PYTHONPATH=$T/hang PTINSPECT_PYENV_NO_EMBED=1 timeout 60 "$P" env --timeout 2 --python $PY >"$T/n3b.txt" 2>&1
check_eq "hang, env (child mode): exit (124 = hung)" 1 $?
check_contains "hang, env: killed" "cannot import torch: import torch did not finish in 2 s: killed" "$(cat "$T/n3b.txt")"
check_contains "hang, env: the stack" "    $WHERE" "$(cat "$T/n3b.txt")"
alive_after "hang, env"
(cd hang && timeout 60 "$P" doctor --here --json --timeout 2 --python $PY >"$T/n3c.json" 2>/dev/null)
check_eq "hang, doctor --here --json: exit (124 = hung)" 1 $?
check_eq "hang, --json: cause" timeout "$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["import"]["cause"])' "$T/n3c.json")"
check_contains "hang, --json: the stack" "$WHERE" "$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["env"]["torch"]["stack_when_killed"])' "$T/n3c.json")"
alive_after "hang, --here"
# Without --here, the same directory's torch/ is not imported at all: no hang.
(cd hang && timeout 60 "$P" doctor --timeout 30 --python $PY >"$T/n3d.txt" 2>&1)
check_contains "hang dir, default: the installed torch checked" "torch 1.13" "$(cat "$T/n3d.txt")"
check_eq "hang dir, default: nothing of it ran" "" "$(cat "$T"/marks/hang_* 2>/dev/null)"
check_rc "--timeout 0 is a usage error" 2 "$P" doctor --timeout 0
check_contains "--timeout 0: the message" "--timeout wants whole seconds from 1 to 86400, not '0'" "$(cat "$T/.err")"
finish
