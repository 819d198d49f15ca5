# ptinspect-pyenv, the environment helper, links libpython: copied to a machine
# without that libpython, the dynamic loader cannot start it. Here a copy of the
# helper whose NEEDED libpython3.X.so.1.0 is renamed in place (same length) to
# libpython9.99.so.1.0, which no machine has: the real loader refuses it (exit
# 127, "error while loading shared libraries"), and env, doctor and config (with
# --python and with no argument) name the missing library and what to do before
# running it, instead of "no report from the environment helper". Behind a
# wrapper script the resolver cannot read ahead, the loader's own failure (exit
# status 127) is named as such.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
PY=/usr/bin/python3
H=$(dirname "$P")/ptinspect-pyenv
[ -x "$H" ] || fail "no helper beside ptinspect ($H)"
unset LD_LIBRARY_PATH

cp "$H" "$T/ptinspect-pyenv"
NEEDED=$(readelf -d "$H" | sed -n 's/.*(NEEDED).*\[\(libpython[^]]*\)\].*/\1/p')
check_contains "the helper links libpython" "libpython" "$NEEDED"
# libpython3.11.so.1.0 -> libpython9.99.so.1.0: the version's digits become 9s.
V=${NEEDED#libpython}
V=${V%%.so*}
FV=$(echo "$V" | tr 0-8 9)
FAKE=libpython$FV${NEEDED#libpython$V}
$PY - "$T/ptinspect-pyenv" "$NEEDED" "$FAKE" <<'EOF'
import sys
path, old, new = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
assert len(old) == len(new)
data = open(path, "rb").read()
assert data.count(old + b"\0") >= 1, "no NEEDED string"
open(path, "wb").write(data.replace(old + b"\0", new + b"\0"))
EOF
check_eq "the copy is patched" 0 $?
check_contains "the copy needs the fake libpython" "[$FAKE]" "$(readelf -d "$T/ptinspect-pyenv")"

# The real loader refuses it.
"$T/ptinspect-pyenv" "$PY" >"$T/direct.out" 2>"$T/direct.err"
check_eq "the loader cannot start the copy: exit" 127 $?
check_contains "the loader's message" "error while loading shared libraries: $FAKE: cannot open shared object file" \
	"$(cat "$T/direct.err")"

MSG="'$T/ptinspect-pyenv': the environment helper cannot start: $FAKE is not found by the loader's rules (ptinspect deps $T/ptinspect-pyenv shows where the loader looks); it was built against Python $FV's shared library: install it (Debian, Ubuntu: apt-get install libpython$FV), or build ptools on this machine, against its own Python (cmake -S . -B build), and use that build's ptinspect and ptinspect-pyenv"
export PTINSPECT_PYENV=$T/ptinspect-pyenv
check_rc "env --python: exit" 2 "$P" env --python "$PY"
check_eq "env --python: the missing library and what to do" "ptinspect: $MSG" "$(cat "$T/.err")"
check_eq "env --python: nothing on stdout" "" "$(cat "$T/.out")"
cp "$T/.err" "$T/env_python.err"
check_rc "doctor: exit" 2 "$P" doctor
check_eq "doctor: the same, once, and nothing else" "ptinspect: $MSG" "$(cat "$T/.err")"
cp "$T/.err" "$T/doctor.err"
check_rc "config --python: exit" 2 "$P" config --python "$PY"
check_eq "config --python: the same" "ptinspect: $MSG" "$(cat "$T/.err")"
cp "$T/.err" "$T/config_python.err"
check_rc "config with no argument: exit" 2 "$P" config
check_eq "config with no argument: the same" "ptinspect: $MSG" "$(cat "$T/.err")"
cp "$T/.err" "$T/config_with_no_argument.err"
check_eq "never 'no report from the environment helper'" "" \
	"$(cat "$T"/*.err | grep 'no report from the environment helper')"

# A wrapper the resolver cannot read ahead (a script): the loader's failure, exit 127.
printf '#!/bin/sh\nexec %s "$@"\n' "$T/ptinspect-pyenv" >"$T/wrapper"
chmod +x "$T/wrapper"
PTINSPECT_PYENV=$T/wrapper "$P" env --python "$PY" >"$T/w.out" 2>"$T/w.err"
check_eq "behind a wrapper: exit" 2 $?
check_eq "behind a wrapper: the loader's line, then ours" \
	"$T/ptinspect-pyenv: error while loading shared libraries: $FAKE: cannot open shared object file: No such file or directory
ptinspect: '$T/wrapper': the environment helper could not start (exit status 127: the dynamic loader's or exec's message is above; ptinspect deps $T/wrapper shows its libraries)" \
	"$(cat "$T/w.err")"

# The helper as built starts (the check reads the real one the same way).
unset PTINSPECT_PYENV
check_rc "the real helper: env --python exits 0" 0 "$P" env --python "$PY"
finish
