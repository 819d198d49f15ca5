. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1200
# The torch 2.x test bed (tests/torch2/testbed) works: it is created or reused,
# entered with a clean environment in a private mount namespace, torch 2.6
# imports with /proc visible, torch.compile's inductor C++ backend compiles,
# and the project builds inside. Prints the times, cold or cached.
# smoke_sid.sh: the same on the sid flavour (Debian unstable's torch 2.14).
TB=$PT_SRC/tests/torch2/testbed
case ${PT_BED:-plain} in
sid) export PT_TORCH2_FLAVOUR=sid TORCH=2.14 PY="3.14" CACHE=${PT_TORCH2_SID_CACHE:-/var/tmp/ptools-torch2-sid} ;;
*) TORCH=2.6 PY="3.13" CACHE=${PT_TORCH2_CACHE:-/var/tmp/ptools-torch2} ;;
esac

# The tier runs once per CI run, from the normal tree: the ASan tree's host
# binaries are not what runs inside the chroot anyway.
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"

t0=$(date +%s)
"$TB" create 2>"$T/create.err"
rc=$?
cat "$T/create.err"
[ $rc = 77 ] && skip "torch 2.x test bed unavailable: $(grep 'cannot run here' "$T/create.err")"
check_eq "testbed create succeeds" 0 $rc
[ $rc = 0 ] || finish
t_bed=$(( $(date +%s) - t0 ))
check_contains "testbed says whether it was cold or cached" "testbed: ready: " "$(cat "$T/create.err")"
state=cached
grep -q 'ready: cold' "$T/create.err" && state=cold

# A second create right after reuses the bed (idempotent, no download).
"$TB" create 2>"$T/again.err"
check_eq "second create succeeds" 0 $?
check_contains "second create reuses the bed" "ready: cached" "$(cat "$T/again.err")"

# Clean environment: only what the testbed sets (PT_CACHE_DIR=off: no package facts kept in the bed), Debian's interpreter.
env_inside=$(PYTHONPATH=/nowhere LD_LIBRARY_PATH=/nowhere "$TB" run env 2>/dev/null | sort | tr '\n' ' ')
check_eq "env -i inside" \
	"DEBIAN_FRONTEND=noninteractive HOME=/root LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin PT_CACHE_DIR=off TERM=${TERM:-dumb} " \
	"$env_inside"
check_eq "python3 inside is the bed's Debian's" "/usr/bin/python3 $PY" \
	"$("$TB" run python3 -c 'import sys; print(sys.executable, "%d.%d" % sys.version_info[:2])' 2>/dev/null)"
check_eq "the source tree is at /src, read-only" "ro" \
	"$("$TB" run sh -c 'touch /src/.pt_probe 2>/dev/null && echo rw || echo ro' 2>/dev/null)"
check_eq "/dev/shm is a private tmpfs" "tmpfs" "$("$TB" run stat -f -c %T /dev/shm 2>/dev/null)"

# No mount leaks onto the host.
root=$(PT_TORCH2_RECHECK=999999999 "$TB" info 2>/dev/null | awk '$1 == "root:" { print $2 }')
check_eq "no mount under the chroot on the host" "" "$(findmnt -rn -o TARGET | grep "^$root" || true)"

# torch 2.x with /proc visible (otherwise cpuinfo falls back to scalar kernels).
cat >"$T/probe.py" <<'EOF'
import time
t0 = time.time()
import torch
t_import = time.time() - t0
print("version", torch.__version__.split("+")[0])
print("capability", torch.backends.cpu.get_cpu_capability())
print("import_s %.1f" % t_import)

def f(x, y):
    return torch.sin(x) * y + torch.cos(y).sum()

x, y = torch.randn(64, 64), torch.randn(64, 64)
t0 = time.time()
cf = torch.compile(f, backend="inductor")
out = cf(x, y)
print("compile_s %.1f" % (time.time() - t0))
print("allclose", torch.allclose(out, f(x, y), atol=1e-5))
import glob
print("cpp_built", bool(glob.glob("/tmp/torchinductor_*/**/*.so", recursive=True)))
EOF
t1=$(date +%s)
"$TB" run -b "$T:/t" python3 /t/probe.py >"$T/probe.out" 2>"$T/probe.err"
check_eq "probe script runs" 0 $?
t_probe=$(( $(date +%s) - t1 ))
sed 's/^/  probe| /' "$T/probe.out"
check_contains "torch is $TORCH" "version $TORCH." "$(cat "$T/probe.out")"
if grep -qw avx2 /proc/cpuinfo; then
	# The host has AVX2, so with /proc mounted torch must pick a vector kernel.
	check_eq "torch sees the CPU's vector units" "" \
		"$(grep '^capability' "$T/probe.out" | grep -E 'capability (DEFAULT|NO AVX)' || true)"
fi
check_contains "torch.compile matches eager" "allclose True" "$(cat "$T/probe.out")"
check_contains "inductor built C++" "cpp_built True" "$(cat "$T/probe.out")"
[ "$PT_FAILS" = 0 ] || sed 's/^/  stderr| /' "$T/probe.err" | tail -20

# The project builds inside, in its own build dir outside the source tree.
t2=$(date +%s)
"$TB" build >"$T/build.out" 2>&1
rc=$?
check_eq "project builds inside the chroot" 0 $rc
[ $rc = 0 ] || tail -30 "$T/build.out"
t_build=$(( $(date +%s) - t2 ))
bd=$("$TB" builddir)
check_eq "ptinspect built inside runs" 0 \
	"$("$TB" run "$bd/inspect/ptinspect" --help >/dev/null 2>&1; echo $?)"

echo "torch2 tier timing ($state): testbed ${t_bed} s, probe (import + compile) ${t_probe} s, project build ${t_build} s;" \
	"$(grep -E '^(import_s|compile_s)' "$T/probe.out" | tr '\n' ' ')"
[ -r "$CACHE/timings" ] && echo "testbed history: $(tr '\n' ';' <"$CACHE/timings")"
finish
