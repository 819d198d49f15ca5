# The floor (verfloor.c) and the manylinux tag it implies (mlpolicy.c, auditwheel 6.7.0's
# policy files) equal auditwheel's own answer on tiny libraries built here against chosen
# symbol versions, on Debian's real libtorch (python3-torch) and on glibc/libstdc++
# themselves. Where auditwheel can be imported (python3-auditwheel, or
# PT_AUDITWHEEL_PYTHONPATH at an unpacked python3-auditwheel's dist-packages, with
# python3-pyelftools) its answers are computed now by auditwheel_policy.py; elsewhere the
# answers it gave are the table below, recorded with:
#   PYTHONPATH=<python3-auditwheel_6.7.0+ds1-2>/usr/lib/python3/dist-packages \
#     tests/integration/inspect/auditwheel_policy.py FILE...
# Also: a claimed tag that the floor contradicts fails (exit 1), one that holds passes.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
cd "$T" || exit 2
cc_so() { cc -shared -fPIC "$@" || { echo "FAIL: cannot build: cc $*"; finish; }; }

# GLIBC_2.2.5 only: memcpy pinned to its first version.
printf '#include <string.h>\n__asm__(".symver memcpy,memcpy@GLIBC_2.2.5");\nvoid *cp(void *d, const void *s, size_t n) { return memcpy(d, s, n); }\n' >old.c
# GLIBC_2.36: arc4random is new in glibc 2.36 (Debian 12's glibc).
printf '#include <stdlib.h>\nunsigned r(void) { return arc4random(); }\n' >new.c
# GLIBCXX_3.4.21 (the cxx11 std::string, GCC 5: manylinux_2_24), CXXABI_1.3: a C++ library.
printf '#include <string>\nstd::string s(const char *p) { return std::string(p) + "x"; }\n' >cxx.cc
# GLIBC_PRIVATE: no policy allows it (auditwheel: linux).
printf 'extern int __libc_alloca_cutoff(unsigned long);\nint priv(void) { return __libc_alloca_cutoff(1); }\n' >priv.c
cc_so -o libold.so old.c
cc_so -o libnew.so new.c
cc_so -o libpriv.so priv.c
c++ -shared -fPIC -o libcxx.so cxx.cc || { echo "FAIL: cannot build libcxx.so"; finish; }

files="libold.so libnew.so libcxx.so libpriv.so /lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libstdc++.so.6"
TL=/usr/lib/python3/dist-packages/torch/lib
[ -e "$TL/libtorch_cpu.so" ] || skip "Debian's python3-torch is not installed (tests/deps)"
files="$files $TL/libc10.so $TL/libshm.so $TL/libtorch.so $TL/libtorch_cpu.so $TL/libtorch_global_deps.so $TL/libtorch_python.so"

# auditwheel 6.7.0's answers on Debian 12 (glibc 2.36, GCC 12, python3-torch 1.13.1).
cat >recorded <<REC
libold.so manylinux_2_5_x86_64
libnew.so manylinux_2_36_x86_64
libcxx.so manylinux_2_24_x86_64
libpriv.so linux_x86_64
/lib/x86_64-linux-gnu/libc.so.6 manylinux_2_5_x86_64
/usr/lib/x86_64-linux-gnu/libstdc++.so.6 manylinux_2_36_x86_64
$TL/libc10.so manylinux_2_35_x86_64
$TL/libshm.so manylinux_2_34_x86_64
$TL/libtorch.so manylinux_2_5_x86_64
$TL/libtorch_cpu.so manylinux_2_35_x86_64
$TL/libtorch_global_deps.so manylinux_2_5_x86_64
$TL/libtorch_python.so manylinux_2_35_x86_64
REC
if PYTHONPATH="${PT_AUDITWHEEL_PYTHONPATH:-}" /usr/bin/python3 -c 'import auditwheel.policy' 2>/dev/null; then
	# shellcheck disable=SC2086
	PYTHONPATH="${PT_AUDITWHEEL_PYTHONPATH:-}" /usr/bin/python3 "$PT_SRC/tests/integration/inspect/auditwheel_policy.py" $files >expected ||
		fail "auditwheel_policy.py failed"
	diff -u recorded expected >/dev/null || { echo "note: auditwheel now answers differently from the table:"; diff -u recorded expected; }
else
	cp recorded expected
fi
for f in $files; do
	echo "$f $("$P" --json "$f" 2>/dev/null | jq -r '.files[0].floor.policy')"
done >ours
diff -u expected ours >diff && pass || { fail "ptinspect's tags differ from auditwheel's"; cat diff; }

# The floors themselves (the newest version of each family) on the tiny libraries.
check_eq "libold's floor" "GLIBC_2.2.5 null" "$("$P" --json libold.so | jq -r '.files[0].floor | "\(.glibc) \(.glibcxx)"')"
check_eq "libcxx's floor" "GLIBCXX_3.4.21 CXXABI_1.3" "$("$P" --json libcxx.so | jq -r '.files[0].floor | "\(.glibcxx) \(.cxxabi)"')"
check_eq "libpriv: GLIBC_PRIVATE is no floor, but no policy allows it" "GLIBC_2.2.5 GLIBC_PRIVATE" "$("$P" --json libpriv.so | jq -r '.files[0].floor | "\(.glibc) \(.blocking)"')"
check_eq "libnew: what rules out manylinux_2_35" "GLIBC_2.36" "$("$P" --json libnew.so | jq -r '.files[0].floor.blocking')"
# A claim: manylinux2014 for a library that needs glibc 2.36 is a lie; manylinux_2_36 holds.
check_rc "a tag the floor contradicts" 1 "$P" --tag manylinux_2_17_x86_64.manylinux2014_x86_64 libnew.so
check_contains "the lie is named" "tag       manylinux2014_x86_64 does NOT hold" "$(cat "$T/.out")"
check_rc "a tag that holds" 0 "$P" --tag manylinux_2_36_x86_64 libnew.so
check_rc "PEP 600 tag not in the file, compared by glibc" 0 "$P" --tag manylinux_2_37_x86_64 libnew.so
check_rc "another architecture's tag" 1 "$P" --tag manylinux_2_17_aarch64 libold.so
finish
