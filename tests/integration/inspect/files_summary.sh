# The default report is a summary (issue 32, item 1), on Debian's real libtorch_cpu:
# about a screen (at most 40 lines, against 297 for the whole tree), every direct NEEDED
# entry under the directory and the way it resolved (as `deps --json` has them), the count
# of indirect dependencies with the way to the tree, the debug and dispatch-trace lines;
# --tree is the whole report as it was (the ELF and dependency part equal to `deps`), and
# --json is the same document with or without --tree. A dependency missing two levels down
# (libgfortran.so.5, needed by liblapack.so.3) is named in the summary with its chain, in a
# sysroot of hard links to the real files that leaves it out.
. "$PT_TESTLIB/common.sh" || exit 2
need jq
P=$PTINSPECT
lib=/usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13
[ -r "$lib" ] || skip "Debian's libtorch-dev is not installed ($lib)"
export NO_COLOR=1
unset LD_LIBRARY_PATH

"$P" "$lib" >"$T/sum.txt" 2>"$T/sum.err"
check_eq "summary: exit 0" 0 $?
n=$(wc -l <"$T/sum.txt")
[ "$n" -le 40 ] && pass || fail "the summary is $n lines (at most 40)"
check_contains "summary: the counts" "dependencies: 284 loaded, 0 missing, 0 with unmet versions" "$(cat "$T/sum.txt")"
check_contains "summary: direct and indirect, and how to see the tree" \
	"NEEDED    46 direct, 238 indirect (the tree: --tree)" "$(cat "$T/sum.txt")"
check_contains "summary: the debug line" "  debug     nothing: stripped" "$(cat "$T/sum.txt")"
check_contains "summary: the dispatch-trace line" "TORCH_SHOW_DISPATCH_TRACE prints nothing" "$(cat "$T/sum.txt")"
case "$(cat "$T/sum.txt")" in *"├──"* | *"└──"*) fail "the summary holds tree lines" ;; *) pass ;; esac

# Each direct NEEDED entry: "found_by dir name" from the JSON and from the summary's groups.
"$P" deps --json "$lib" | jq -r --arg f "$lib" '.files[0].deps[] | select(.needed_by == $f) |
	"\(.found_by) \(.path | sub("/[^/]*$"; "")) \(.name)"' | sort >"$T/json_direct"
# A group: "    [how] DIR: names...", then lines of names; how as JSON spells it.
awk '/^  NEEDED/ { on = 1; next }
	on && /^    \[/ { line = $0; how = line; sub(/^    \[/, "", how); sub(/\].*/, "", how)
		sub(/^    \[[^]]*\] /, "", line); dir = line; sub(/: .*/, "", dir); sub(/^[^:]*: /, "", line)
		gsub(/[. ]/, "_", how); if (how == "default_path") how = "default"
		n = split(line, w, " "); for (i = 1; i <= n; i++) print how, dir, w[i]; next }
	on && /^      / { n = split($0, w, " "); for (i = 1; i <= n; i++) print how, dir, w[i]; next }
	on { on = 0 }' "$T/sum.txt" | sort >"$T/sum_direct"
check_eq "summary: 46 direct NEEDED entries" 46 "$(wc -l <"$T/sum_direct")"
if diff -u "$T/json_direct" "$T/sum_direct" >"$T/direct.diff"; then pass; else
	fail "the summary's direct entries differ from deps --json"; cat "$T/direct.diff"; fi

# --tree: the report as it was, its ELF and dependency part equal to `deps` (which adds the
# one-line debug summary of the ELF header in place of the debug section).
"$P" --tree "$lib" >"$T/tree.txt" 2>/dev/null
check_eq "--tree: exit 0" 0 $?
"$P" deps "$lib" | grep -v '^  debug     ' >"$T/deps.txt"
# (the portability lines, floor and rpath, follow the tree, before debug)
sed -n '/^  \(debug\|floor\)     /q; p' "$T/tree.txt" >"$T/tree_deps.txt"
if cmp -s "$T/deps.txt" "$T/tree_deps.txt"; then pass; else
	fail "--tree's dependency part differs from deps"; diff -u "$T/deps.txt" "$T/tree_deps.txt" | head -20; fi
check_eq "--tree: the whole tree (284 edges shown, as deps)" "$(grep -c '── ' "$T/deps.txt")" "$(grep -c '── ' "$T/tree.txt")"
check_contains "--tree: the debug details" "    DWARF in file no, .symtab no" "$(cat "$T/tree.txt")"
# --depth, --no-tree and -v are options of the tree: they imply it.
check_contains "--depth=1 implies the tree" "├── libfmt.so.9 [ld.so.cache]" "$("$P" --depth=1 "$lib")"
# --json does not change with the summary.
"$P" --json "$lib" >"$T/a.json" 2>/dev/null
"$P" --json --tree "$lib" >"$T/b.json" 2>/dev/null
cmp -s "$T/a.json" "$T/b.json" && pass || fail "--json differs with --tree"
check_eq "--json: the whole tree is still there (every edge of deps --json)" \
	"$("$P" deps --json "$lib" | jq -c '.files[0].deps')" "$(jq -c '.files[0].deps' "$T/a.json")"

# A sysroot of hard links to the tree's real files (same file system as $T, else skipped)
# without libgfortran.so.5: the summary shows the chain libtorch_cpu -> liblapack -> libgfortran.
R=$T/root
mkdir -p "$R/usr/lib/x86_64-linux-gnu" "$R/lib/x86_64-linux-gnu" "$R/lib64"
if ln "$(readlink -f "$lib")" "$R/usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13" 2>/dev/null; then
	ln "$(readlink -f /lib64/ld-linux-x86-64.so.2)" "$R/lib64/ld-linux-x86-64.so.2"
	"$P" deps --json "$lib" | jq -r '.files[0].deps[] | select(.loaded_here) | "\(.name) \(.realpath)"' |
		while read -r name real; do
			[ "$name" = libgfortran.so.5 ] && continue
			ln "$real" "$R/lib/x86_64-linux-gnu/$name" 2>/dev/null || cp "$real" "$R/lib/x86_64-linux-gnu/$name"
		done
	"$P" --root="$R" "$R/usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13" >"$T/root.txt" 2>"$T/root.err"
	check_eq "sysroot without libgfortran: exit 1" 1 $?
	check_contains "sysroot: the count (two edges to it: liblapack, libarpack)" ", 2 missing, 0 with unmet versions" "$(cat "$T/root.txt")"
	check_contains "sysroot: the missing indirect dependency with its chain" \
		"libgfortran.so.5 not found: libtorch_cpu.so.1.13 -> liblapack.so.3 -> libgfortran.so.5 (4 places tried; 1 more object needs it: --tree)" "$(cat "$T/root.txt")"
	n=$(wc -l <"$T/root.txt")
	[ "$n" -le 40 ] && pass || fail "the sysroot summary is $n lines (at most 40)"
else
	echo "note: $T is not on the file system of $lib: the sysroot case is not run"
fi
finish
