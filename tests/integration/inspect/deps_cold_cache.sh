# With the page cache cold (every file of the tree dropped, dd iflag=nocache)
# the resolver reads ahead in worker threads (inspect/elf/prefetch.h) and
# the default report reads ahead the sections it scans (elfobj_read_ahead):
# the output stays byte-identical to a warm run and to a cold run without
# the workers (PT_JOBS=1). On a tree with RPATH, RUNPATH, $ORIGIN,
# LD_LIBRARY_PATH, a wrong-class candidate and a missing library, and on
# Debian's libtorch_cpu (283 dependencies). strace shows the workers start
# cold and only then (on the private tree only: other tests read, and
# benchmarks drop, the system's libraries meanwhile).
# ctest-timeout: 600
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
need strace

# drop FILE...: out of the page cache (pages some process maps stay).
drop() {
	local f
	for f in "$@"; do
		dd if="$f" iflag=nocache count=0 status=none 2>/dev/null || true
	done
}

# same_cold WHAT FILELIST PTINSPECT_ARGS...: stdout, stderr and exit status
# of a cold run, with and without the workers, equal those of a warm run.
same_cold() {
	local what=$1 list=$2 mode rc
	shift 2
	"$PTINSPECT" "$@" >/dev/null 2>&1
	PT_JOBS=1 "$PTINSPECT" "$@" >"$T/warm.out" 2>"$T/warm.err"
	echo "rc $?" >>"$T/warm.err"
	for mode in workers PT_JOBS=1; do
		mapfile -t files <"$list"
		drop "${files[@]}"
		if [ $mode = workers ]; then
			"$PTINSPECT" "$@" >"$T/cold.out" 2>"$T/cold.err"
		else
			PT_JOBS=1 "$PTINSPECT" "$@" >"$T/cold.out" 2>"$T/cold.err"
		fi
		rc=$?
		echo "rc $rc" >>"$T/cold.err"
		PT_CHECKS=$((PT_CHECKS + 1))
		if ! cmp -s "$T/warm.out" "$T/cold.out" || ! cmp -s "$T/warm.err" "$T/cold.err"; then
			fail "$what, cold ($mode): differs from the warm run (- warm, + cold)"
			diff -u "$T/warm.out" "$T/cold.out" | head -20
			diff -u "$T/warm.err" "$T/cold.err" | head -20
		fi
	done
}

# threads WHAT WANT FILELIST PTINSPECT_ARGS...: whether threads start (yes/no), cold when FILELIST is given.
# Dropping is advice the kernel may not take at once (a page still under
# writeback, or read meanwhile): a cold run that found its files cached (no
# thread) is dropped and tried again, three times at most. Seen once in the
# ASan tree of a strict run (2026-11-29), then 5 of 5 passes on the same tree.
threads() {
	local what=$1 want=$2 list=$3 n got try
	shift 3
	for try in 1 2 3; do
		if [ -n "$list" ]; then
			mapfile -t files <"$list"
			drop "${files[@]}"
		fi
		# LeakSanitizer (the ASan tree) cannot work under ptrace, and starts a thread of its own.
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -f -qq -e trace=clone,clone3 -o "$T/strace" "$PTINSPECT" "$@" >/dev/null 2>&1
		n=$(grep -c 'clone' "$T/strace")
		got=$([ "$n" -gt 0 ] && echo yes || echo no)
		if [ "$got" = "$want" ] || [ -z "$list" ] || [ "$want" = no ]; then
			break
		fi
		[ "$try" -lt 3 ] && echo "note: $what: no thread on try $try (the drop did not take); again"
	done
	check_eq "$what" "$want" "$got"
}

# A tree: RPATH with $ORIGIN, RUNPATH, a NEEDED with a '/', LD_LIBRARY_PATH,
# a 32-bit library of the same name first on the path, one name missing.
mkdir -p "$T/app/bin" "$T/app/lib" "$T/app/lib2" "$T/app/lib/sub" "$T/llp" "$T/lib32"
build_so "$T/app/lib/sub/libS.so" "$(lib_src s)" -Wl,-soname,'$ORIGIN/sub/libS.so'
build_so "$T/app/lib2/libC.so" "$(lib_src c)" -Wl,-soname,libC.so
build_so "$T/llp/libL.so" "$(lib_src l)" -Wl,-soname,libL.so
build_so "$T/app/lib/libA.so" "int s(void); int c(void); int l(void); int a(void) { return s() + c() + l(); }" \
	-Wl,-soname,libA.so "$T/app/lib/sub/libS.so" -L"$T/app/lib2" -lC -L"$T/llp" -lL \
	-Wl,--enable-new-dtags,-rpath,'${ORIGIN}/../lib2'
build_so "$T/app/lib/libM.so" "$(lib_src m)" -Wl,-soname,libM.so
build_exe "$T/app/bin/exe" "$(exe_src a m c)" -L"$T/app/lib" -lA -lM -L"$T/app/lib2" -lC \
	-Wl,--disable-new-dtags,-rpath,"\$ORIGIN/../lib:$T/lib32" -Wl,--allow-shlib-undefined
rm "$T/app/lib/libM.so"	# missing: every place tried is in the report
cp "$T/app/lib2/libC.so" "$T/lib32/libC.so"
printf '\001' | dd of="$T/lib32/libC.so" bs=1 seek=4 conv=notrunc 2>/dev/null	# EI_CLASS = ELFCLASS32
find "$T/app" "$T/llp" "$T/lib32" -type f >"$T/tree.list"
mapfile -t files <"$T/tree.list"
sync "${files[@]}"
export LD_LIBRARY_PATH="$T/llp"
same_cold "fixture tree, deps --json -v" "$T/tree.list" deps --json -v "$T/app/bin/exe"
same_cold "fixture tree, default report" "$T/tree.list" --color=never "$T/app/bin/exe"
threads "fixture tree, cold: the workers start" yes "$T/tree.list" deps "$T/app/bin/exe"
threads "fixture tree, warm: no thread" no "" deps "$T/app/bin/exe"
unset LD_LIBRARY_PATH

lib=/usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13
[ -e "$lib" ] || skip "Debian's libtorch-dev is not installed"
{
	echo "$lib"
	echo /etc/ld.so.cache
	/lib64/ld-linux-x86-64.so.2 --list "$lib" | awk '/=>/ && $3 ~ /^\// { print $3 }'
} >"$T/torch.list"
same_cold "libtorch_cpu, deps --json -v" "$T/torch.list" deps --json -v "$lib"
same_cold "libtorch_cpu, default report" "$T/torch.list" --color=never "$lib"
same_cold "libtorch_cpu, default report --json" "$T/torch.list" --json "$lib"
finish
