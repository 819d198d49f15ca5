# ptinspect debug: the verdict per library, on libraries built here with
#   cc -g            -> DWARF in the file         -> "gdb can show tensor fields here"
#   cc -g -gsplit-dwarf (.dwo kept / removed)     -> full / "symbols only"
#   objcopy --only-keep-debug + --add-gnu-debuglink (debug file kept / removed)
#   no -g (symtab kept / strip --strip-all)       -> "symbols only" / "nothing"
#   cc -g1 (line tables only)                     -> "symbols only"
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
need objcopy
need strip
SRC='struct tensor_impl { long sizes[4]; int dim; }; int dim_of(struct tensor_impl *t) { return t->dim; }'
verdict() { "$P" debug --json "$1" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["files"][0]["debug"]["verdict"])'; }

build_so "$T/libg.so" "$SRC" -g -O2
check_eq "-g: full" full "$(verdict "$T/libg.so")"
check_rc "debug exit, debuggable" 0 "$P" debug "$T/libg.so"
check_contains "-g: text verdict" "gdb can show tensor fields here: DWARF in the file" "$(cat "$T/.out")"
check_contains "-g: flags from DW_AT_producer" "flags     -O2 -g" "$(cat "$T/.out")"

(cd "$T" && build_so "$T/libsplit.so" "$SRC" -g -gsplit-dwarf -O1)
check_eq "-g -gsplit-dwarf with its .dwo: full" full "$(verdict "$T/libsplit.so")"
"$P" debug "$T/libsplit.so" >"$T/split.txt"
check_contains "split units counted" "split: 1 skeleton unit, 1 .dwo found" "$(cat "$T/split.txt")"
check_contains "split flags" "flags     -O1 -g" "$(cat "$T/split.txt")"
rm -f "$T"/*.dwo
check_eq "-g -gsplit-dwarf without its .dwo: symbols only" symbols "$(verdict "$T/libsplit.so")"
check_rc "debug exit, not debuggable" 1 "$P" debug "$T/libsplit.so"
check_contains "missing .dwo named" ".dwo units missing" "$(cat "$T/.out")"

cp "$T/libg.so" "$T/libdl.so"
objcopy --only-keep-debug "$T/libdl.so" "$T/libdl.so.debug"
(cd "$T" && objcopy --strip-debug --add-gnu-debuglink=libdl.so.debug libdl.so)
check_eq "stripped, debuglink file beside it: full" full "$(verdict "$T/libdl.so")"
"$P" debug "$T/libdl.so" >"$T/dl.txt"
check_contains "debuglink named" "debuglink libdl.so.debug" "$(cat "$T/dl.txt")"
check_contains "separate debug file found" "separate debug file $T/libdl.so.debug" "$(cat "$T/dl.txt")"
mv "$T/libdl.so.debug" "$T/elsewhere.debug"
check_eq "stripped, debuglink file gone, .symtab kept: symbols only" symbols "$(verdict "$T/libdl.so")"
strip --strip-all "$T/libdl.so"
check_eq "strip-all, debuglink file gone: nothing" nothing "$(verdict "$T/libdl.so")"

build_so "$T/libnone.so" "$SRC" -O2
check_eq "no -g, .symtab: symbols only" symbols "$(verdict "$T/libnone.so")"
strip --strip-all "$T/libnone.so"
check_eq "no -g, stripped: nothing" nothing "$(verdict "$T/libnone.so")"
check_contains "nothing: text" "nothing: no DWARF, no .symtab" "$("$P" debug "$T/libnone.so")"

build_so "$T/libg1.so" "$SRC" -g1 -O2
check_eq "-g1 (no types): symbols only" symbols "$(verdict "$T/libg1.so")"

# A file named libtorch_cpu also gets the TORCH_SHOW_DISPATCH_TRACE evidence:
# without the trace line's text the printing code is compiled out.
dt() { "$P" debug --json "$1" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["files"][0]["dispatch_trace"]["can_print"])'; }
mkdir -p "$T/with" "$T/without"
build_so "$T/with/libtorch_cpu.so" 'const char *trace_fmt = "[call] op=[%s], key=[%s]";' -g
build_so "$T/without/libtorch_cpu.so" 'const char *other = "nothing here";' -g
check_eq "libtorch_cpu without the trace text: cannot print" False "$(dt "$T/without/libtorch_cpu.so")"
check_eq "libtorch_cpu with the trace text: cannot tell without the configuration" None "$(dt "$T/with/libtorch_cpu.so")"
# Only the read-only data sections are read: the same bytes in a writable array are not the printer's.
mkdir -p "$T/data"
build_so "$T/data/libtorch_cpu.so" 'char trace_buf[] = "[call] op=[%s], key=[%s]";' -g
check_eq "trace text only in .data: not the printer's literal" False "$(dt "$T/data/libtorch_cpu.so")"
check_contains "rebuild command shown" "to enable: DEBUG=1 pip install -e . -v --no-build-isolation" "$("$P" debug "$T/without/libtorch_cpu.so")"

# Bare `ptinspect FILE` includes the debug section.
check_contains "bare ptinspect has the debug line" "debug     gdb can show tensor fields here" "$("$P" "$T/libg.so")"
finish
