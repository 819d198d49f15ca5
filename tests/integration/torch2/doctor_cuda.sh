. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1800
# ptinspect doctor on the CUDA flavour of the torch 2.x test bed (Debian 13's
# python3-torch-cuda 2.6 with NVIDIA's runtime libraries, and no cuDNN: the
# nvidia-cudnn installer's download never happened there, as on every offline
# machine). `import torch` fails on libcudnn.so.9; doctor's first line must
# say which library, who needs it, and the nvidia-cudnn note, and --issue
# must still print collect_env's facts.
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
. "$PT_TESTLIB/testbed.sh"
PY=/usr/bin/python3

testbed_ready --flavour cuda
P=$TB_BUILD/inspect/ptinspect
run() { "$TB" --flavour cuda run -b "$T:/t" "$@"; }

# Python's own failure, for the record.
run sh -c "$PY -c 'import torch' 2>/t/py.err"
check_contains "python: import torch fails on libcudnn" "libcudnn.so.9: cannot open shared object file" "$(cat "$T/py.err")"
# Which torch libraries need it (objdump), in the loader's order: libtorch_python comes first.
NEEDERS=$(run sh -c 'for f in /usr/lib/x86_64-linux-gnu/libtorch*.so.2.6.0; do objdump -p "$f" 2>/dev/null | grep -q "NEEDED.*libcudnn.so.9" && echo "$f"; done')
check_contains "libtorch_python needs libcudnn.so.9" "/usr/lib/x86_64-linux-gnu/libtorch_python.so.2.6.0" "$NEEDERS"
NEEDER=/usr/lib/x86_64-linux-gnu/libtorch_python.so.2.6.0

run sh -c "$P doctor --python $PY >/t/doctor.txt 2>&1; echo \$? >/t/rc"
check_eq "doctor: exit" 1 "$(cat "$T/rc")"
check_contains "doctor: first line" \
	"ptinspect doctor: $PY: import torch fails: missing library: libcudnn.so.9, needed by $NEEDER (and " \
	"$(head -1 "$T/doctor.txt")"
# Every other object named as needing it really does (objdump).
for n in $(sed -n 's/^ *and by //p' "$T/doctor.txt"); do
	check_contains "doctor: $n needs libcudnn.so.9" "$n" "$NEEDERS"
done
check_contains "doctor: the package located" "torch package  /usr/lib/python3/dist-packages/torch (site-packages" "$(cat "$T/doctor.txt")"
check_contains "doctor: the cache was tried" "/etc/ld.so.cache (ld_so_cache)" "$(cat "$T/doctor.txt")"

run sh -c "$P doctor --python $PY --issue >/t/issue.md 2>/dev/null"
check_eq "--issue: one fenced block" 2 "$(grep -c '^```' "$T/issue.md")"
check_contains "--issue: torch's version though import fails" "PyTorch version: 2.6" "$(cat "$T/issue.md")"
check_contains "--issue: cuDNN" "cuDNN version: libcudnn.so.9 needed but not found" "$(cat "$T/issue.md")"
check_contains "--issue: the verdict" "import torch fails: missing library: libcudnn.so.9" "$(cat "$T/issue.md")"
[ -n "${PT_DOCTOR_CUDA_KEEP:-}" ] && cp "$T/doctor.txt" "$T/issue.md" "$PT_DOCTOR_CUDA_KEEP"
finish
