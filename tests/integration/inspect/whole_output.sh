# Whole renderings of ptinspect's text reports compared with expected/*.txt
# (stdout and stderr, check_case in tests/lib/common.sh): the default report
# (the summary: fine, an unmet version, a library missing two levels down; and --tree),
# deps (tree, --no-tree, unmet version, missing library), undefined, debug
# (DWARF, split DWARF, a .dwo gone, debuglink, none), diff (libraries,
# folders), config --library and --python, env and doctor (also --issue) on a
# stray torch package, doctor and config falling back from a python3 without torch, build on a tree with a CMake cache and a .ninja_log (also
# --details, --since-last), cuda of a library without device code, and usage
# errors. The inputs are built here from one-line C files, with relative names
# and -fdebug-prefix-map so that the bytes (and build-ids) do not depend on $T.
# `config` of a paste is config_whole_output.sh; `cuda` of real device code is
# cuda_whole_output.sh (needs nvcc).
# Rewrite the expected files: PT_UPDATE_EXPECTED=1 ctest -R inspect_whole_output
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
PY=/usr/bin/python3
E=$PT_SRC/tests/integration/inspect/expected
export NO_COLOR=1
unset LD_LIBRARY_PATH PYTHONPATH MAX_JOBS
# What differs between machines that run these tests, and nothing else:
NORM=(
	# the host's CPU, as libtorch's own show_config reports it at run time
	-e 's/^\( *CPU capability *\).*/\1<CPU>/'
	# the host's RAM in the build report's memory line
	-e 's/^\(  jobs *\)[0-9.]* GB RAM\(.*\), [0-9.]* GB per job/\1<RAM> GB RAM\2, <RAM> GB per job/'
	# objects in env's helper process besides the import's: the sanitizer runtimes add theirs in the ASan tree
	-e 's/^\(shared objects loaded by the import ([0-9]*; \)[0-9]* in the process)$/\1<N> in the process)/'
	# ... and what torch's import adds beside them (302 here, 300 where the runtimes brought libm & co. first)
	-e 's/^\(shared objects loaded by the import (\)[0-9][0-9][0-9]*; /\1<N>; /'
	-e 's/^\(  \.\.\. and \)[0-9][0-9][0-9]* more (ptinspect env lists them all)$/\1<N> more (ptinspect env lists them all)/'
	# doctor's bug-report facts (collect_env's fields) that describe the host, not the torch:
	# the field names are kept, their values masked; the pip/conda package lines dropped
	-e '/^PyTorch version: /,/^ptinspect doctor on / {
		s/^\(OS\|GCC version\|Clang version\|CMake version\|Libc version\|Python version\|Python platform\|CUDA runtime version\|GPU models and configuration\|Nvidia driver version\|cuDNN version\|CPU\): .*/\1: <HOST>/
		/^\[\(pip3\|conda\)\] /d
	}'
)
cd "$T" || exit 2
cc_so() { cc -shared -fPIC -fdebug-prefix-map="$T"=. "$@" || { echo "FAIL: cannot build: cc $*"; finish; }; }

# A library built against libcore VER_2, an old libcore with VER_1 only.
mkdir -p old build/lib gone
printf 'VER_1 { global: core_v1; local: *; };\n' >v1.map
printf 'VER_1 { global: core_v1; local: *; };\nVER_2 { global: core_v2; } VER_1;\n' >v2.map
printf 'int core_v1(void) { return 1; }\n' >core1.c
printf 'int core_v1(void) { return 1; }\nint core_v2(void) { return 2; }\n' >core2.c
printf 'int core_v2(void);\nint ext(void) { return core_v2(); }\n' >ext.c
cc_so -Wl,-soname,libcore.so,--version-script=v1.map -o old/libcore.so core1.c
cc_so -Wl,-soname,libcore.so,--version-script=v2.map -o build/lib/libcore.so core2.c
cc_so -Wl,-soname,libext.so,--enable-new-dtags,-rpath,'$ORIGIN' -o build/lib/libext.so ext.c -Lbuild/lib -lcore
cc_so -Wl,-soname,libgone.so -o gone/libgone.so core1.c
cc_so -Wl,-soname,libneedsgone.so,--no-as-needed -o build/libneedsgone.so ext.c -Lgone -lgone -Lbuild/lib -lcore
rm gone/libgone.so

check_case files_default 0 "$P" build/lib/libext.so
# The RPATH lint (rpathlint.c), inside --root "$T" so that the file's bytes do not name $T: a
# RUNPATH into a build tree (/home/me/pytorch/build/lib) that is the only way to libcore.so, an
# entry that does not exist, a relative one; the summary, the details, and a claimed tag.
mkdir -p home/me/pytorch/build/lib home/me/pytorch/dist && cp build/lib/libcore.so home/me/pytorch/build/lib/
cc_so -Wl,-soname,libleaky.so,--enable-new-dtags,-rpath,/home/me/pytorch/build/lib:/nonexistent/lib:lib -o home/me/pytorch/dist/libleaky.so ext.c -Lbuild/lib -lcore
check_case files_rpath_lint 1 "$P" --root "$T" home/me/pytorch/dist/libleaky.so
check_case files_rpath_lint_tree 1 "$P" --root "$T" --tree --tag manylinux_2_17_x86_64.manylinux2014_x86_64 home/me/pytorch/dist/libleaky.so
# The default is a summary; --tree is the whole report as it was before (the tree, the debug details).
check_case files_tree 0 "$P" --tree build/lib/libext.so
check_case files_unmet_version 1 env LD_LIBRARY_PATH="$T/old" "$P" build/lib/libext.so
# A library missing two levels down: the summary names it with the chain that leads to it.
cc_so -Wl,-soname,libtop.so,--no-as-needed,--enable-new-dtags,-rpath,'$ORIGIN' -o build/libtop.so ext.c -Lbuild -lneedsgone -Lbuild/lib -lcore
check_case files_missing_indirect 1 env LD_LIBRARY_PATH="$T/build/lib" "$P" build/libtop.so
check_case deps_tree 0 "$P" deps build/lib/libext.so
check_case deps_no_tree 0 "$P" deps --no-tree build/lib/libext.so
check_case deps_unmet_version 1 env LD_LIBRARY_PATH="$T/old" "$P" deps build/lib/libext.so
check_case deps_missing 1 "$P" deps --ld-library-path="$T/build/lib" build/libneedsgone.so

# undefined: one reference nobody defines.
printf 'int missing_fn(void);\nint u(void) { return missing_fn(); }\n' >u.c
cc_so -o libu.so u.c
check_case undefined 1 "$P" undefined libu.so
check_case undefined_none 0 "$P" undefined build/lib/libext.so

# debug: DWARF in the file, split DWARF (then its .dwo removed), a debuglink, nothing.
echo 'int a(int x) { return x * 2; }' >a.c
cc_so -g -O2 -o liba.so a.c
cc_so -g -O2 -gsplit-dwarf -o libsplit.so a.c
cp liba.so libst.so
objcopy --only-keep-debug libst.so libst.debug && strip -g libst.so && objcopy --add-gnu-debuglink=libst.debug libst.so \
	|| { echo "FAIL: objcopy"; finish; }
check_case debug_dwarf_split_debuglink 0 "$P" debug liba.so libsplit.so libst.so
check_case debug_symbols_only 1 "$P" debug build/lib/libext.so
rm -f libsplit.so-a.dwo a.dwo
check_case debug_dwo_missing 1 "$P" debug libsplit.so
# debuginfod: a stripped library with a build-id and a server configured: gdb downloads
# it; then its debug file (objcopy --only-keep-debug) in the client's cache under the build-id.
cp liba.so libdi.so
objcopy --only-keep-debug libdi.so libdi.debug && strip libdi.so || { echo "FAIL: objcopy"; finish; }
check_case debug_debuginfod 1 env DEBUGINFOD_URLS=https://debuginfod.debian.net DEBUGINFOD_CACHE_PATH="$T/dcache" "$P" debug libdi.so
DI_ID=$(readelf -n libdi.so | sed -n 's/.*Build ID: //p')
mkdir -p "dcache/$DI_ID" && mv libdi.debug "dcache/$DI_ID/debuginfo"
check_case debug_debuginfod_cache 0 env DEBUGINFOD_URLS=https://debuginfod.debian.net DEBUGINFOD_CACHE_PATH="$T/dcache" "$P" debug libdi.so

# diff: two libcores.
check_case diff_libraries 1 "$P" diff old/libcore.so build/lib/libcore.so
# ... and two folders: a library in both, one only in the second.
mkdir -p d1 d2 && cp old/libcore.so d1/ && cp build/lib/libcore.so build/lib/libext.so d2/
check_case diff_directories 1 "$P" diff d1 d2

# config of Debian's libtorch, through its own show_config in a child.
LT=/usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13
[ -r "$LT" ] || skip "Debian's libtorch-dev is not installed ($LT)"
check_case config_library 0 "$P" config --library "$LT"
check_case config_python 0 "$P" config --python "$PY"

# env and doctor on a 'torch' package that is not PyTorch, ahead of Debian's on sys.path.
mkdir -p shadow/torch
echo '__version__ = "0.0+fake"' >shadow/torch/__init__.py
check_case env_shadow 1 env PYTHONPATH="$T/shadow" "$P" env --python "$PY"
check_case doctor_shadow 1 env PYTHONPATH="$T/shadow" "$P" doctor --python "$PY"
check_case doctor_issue_shadow 1 env PYTHONPATH="$T/shadow" "$P" doctor --issue --python "$PY"

# The python3 first on PATH cannot import torch (a stand-in for a pyenv or conda python
# without it): doctor and config (no argument) take /usr/bin/python3 and say so in one line;
# doctor's verdict is fine (a note, exit 0), Debian's five stripped libraries one block.
mkdir -p bin
printf '#!/bin/sh\nexec %s -S "$@"\n' "$PY" >bin/python3
chmod +x bin/python3
check_case doctor_fallback 0 env PATH="$T/bin:$PATH" "$P" doctor
check_case config_default 0 env PATH="$T/bin:$PATH" "$P" config

# build: the torch 2.6 tree's CMake cache and a .ninja_log written here (times fixed).
mkdir tree
cp "$PT_FIXTURES/buildtree/CMakeCache.txt" tree/ || fail "no CMakeCache.txt fixture"
printf '# ninja log v5\n0\t1200\t1700000000000000000\tcaffe2/CMakeFiles/torch_cpu.dir/a.cpp.o\t1111111111111111\n10\t3400\t1700000000000000000\tcaffe2/CMakeFiles/torch_cpu.dir/b.cpp.o\t2222222222222222\n3400\t9000\t1700000000000000000\tlib/libtorch_cpu.so\t3333333333333333\n' >tree/.ninja_log
check_case build_tree 0 env MAX_JOBS=2 "$P" build tree
check_case build_details 0 env MAX_JOBS=2 "$P" build --details tree
# A log of two runs: what the last one rebuilt and why.
mkdir tree2
cp tree/CMakeCache.txt tree2/
printf '# ninja log v5\n0\t1000\t1700000000000000000\tc10/CMakeFiles/c10.dir/core/A.cpp.o\t1111\n0\t3000\t1700000000000000000\tc10/CMakeFiles/c10.dir/util/B.cpp.o\t2222\n3000\t4000\t1700000000000000000\tlib/libc10.so\t4444\n0\t500\t1700000000000000001\tc10/CMakeFiles/c10.dir/util/B.cpp.o\tbeef\n500\t1600\t1700000000000000001\tlib/libc10.so\t4444\n' >tree2/.ninja_log
check_case build_since_last 0 env MAX_JOBS=2 "$P" build --since-last tree2

# cuda on a library without device code (cuda_whole_output.sh has the real ones).
check_case cuda_no_device_code 0 "$P" cuda --gpu h100 liba.so

# Usage and input errors: one line each, exit 2.
check_case usage_bad_option 2 "$P" deps --frob build/lib/libext.so
check_case usage_no_such_file 2 "$P" deps nosuch.so
check_case usage_unknown_gpu 2 "$P" cuda --gpu=sm_999 liba.so
check_case help 0 "$P" --help
finish
