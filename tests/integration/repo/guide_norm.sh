# The guide test's normalisation (tests/lib/guiderun.py, docs/internals/guides.md)
# on made-up guides: what depends on the machine, its load and the build's own
# timings matches (durations, the indent of a right-aligned column of them that
# they change, '~N' figures, '...' over lines whose set and order follow the
# timings), and a change of the rendering still fails (a word, a label, a fixed
# figure, a line more or less, the order). Issue 27: a cold run under load
# printed `ptinspect build`'s critical path as "   17.4 s  ..." where the guide
# has "    7.4 s  ...", and the guide test failed on the indent alone.
# ctest-labels: one-tree
. "$PT_TESTLIB/common.sh" || exit 2
cd "$T" || exit 2
mkdir -p b

# guide NAME EXPECTED-OUTPUT...: a guide whose one command prints out.txt.
guide() {
	local name=$1
	shift
	{
		echo "# $name"
		echo '```console'
		echo "$ cat $T/out.txt"
		printf '%s\n' "$@"
		echo '```'
	} >"$name.md"
}
# run_guide WHAT WANT_RC NAME
run_guide() {
	(cd "$T" && /usr/bin/python3 "$PT_SRC/tests/lib/guiderun.py" "$3.md" --src "$T" --build "$T/b") \
		>"$T/$3.log" 2>&1
	local rc=$?
	check_eq "$1 (guiderun exit)" "$2" "$rc"
	[ "$rc" = "$2" ] || sed 's/^/  | /' "$T/$3.log"
}

# What a guide shows: ptinspect build's profile and memory lines, as measured
# on an idle machine.
SHOWN=(
	'profile (.ninja_log v6: 14208 records, 14204 outputs, 3 runs)'
	'  last run               3 edges, 9.2 s wall, 9.2 s of work, parallelism 1.00 (at most 1 at once)'
	'  all runs               100 edges, 9 min 38 s of work'
	'...'
	'  critical path          9.2 s in 3 edges (last run)'
	'                              7.4 s  c10/CMakeFiles/c10.dir/util/typeid.cpp.o'
	'                              1.6 s  lib/libc10.so.2.6.0'
	'       3  aten::add.Tensor     AutogradCPU'
	'  jobs                   ~23.54 GB RAM, MAX_JOBS=2, ~11.77 GB per job; the log saw 2 at once'
)
# printed: the same report as a loaded machine prints it.
printed() {
	cat <<'EOF'
profile (.ninja_log v6: 14208 records, 14204 outputs, 3 runs)
  last run               3 edges, 21.9 s wall, 21.9 s of work, parallelism 1.00 (at most 1 at once)
  all runs               100 edges, 19 min 2 s of work
  slowest edges
                           1 min 2 s  aten/src/ATen/native/Resize.cpp.o
                              48.1 s  aten/src/ATen/core/Formatting.cpp.o
  by folder
                           2 min 10 s  aten
  critical path          21.9 s in 3 edges (last run)
                             17.4 s  c10/CMakeFiles/c10.dir/util/typeid.cpp.o
                              4.5 s  lib/libc10.so.2.6.0
          3  aten::add.Tensor     AutogradCPU
  jobs                   15.60 GB RAM, MAX_JOBS=2, 7.80 GB per job; the log saw 2 at once
EOF
}

printed >out.txt
guide timing "${SHOWN[@]}"
run_guide "other durations, their column's indent, other slowest edges, another RAM size" 0 timing

# Each change of the rendering fails.
n=0
while IFS='|' read -r what from to; do
	n=$((n + 1))
	printed | sed "s|$from|$to|" >out.txt
	guide "change$n" "${SHOWN[@]}"
	run_guide "a rendering change fails: $what" 1 "change$n"
done <<'EOF'
a word|of work, parallelism|of work, concurrency
a label|critical path   |longest chain   |
a fixed figure|3 edges (last run)|4 edges (last run)
a file name|lib/libc10.so.2.6.0|lib/libc10.so.2.6.1
a count in a right-aligned column|          3  aten::add|          4  aten::add
the indent of a line that starts with a word|^  jobs|    jobs
EOF
# A line less, a line more, two lines swapped.
for change in '/typeid/d' '/libc10.so.2.6.0/p' '/typeid/{h;d};/libc10.so.2.6.0/G'; do
	n=$((n + 1))
	printed | sed "$change" >out.txt
	guide "change$n" "${SHOWN[@]}"
	run_guide "a rendering change fails: sed '$change'" 1 "change$n"
done
finish
