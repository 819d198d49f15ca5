# ptinspect diff: two libraries built here that differ in exactly known ways
# (a NEEDED, a RUNPATH, a symbol version, -g, one section's size), two
# installs (directories), and the same library against itself. Whole text
# output compared for one pair, JSON rows for the rest.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
need objcopy
need patchelf
mkdir -p "$T/a" "$T/b"
SRC='#include <math.h>
double f(double x) { return sqrt(x); }
static const char blob[] = "0123456789abcdef";
const char *g(void) { return blob; }'
build_so "$T/a/libx.so" "$SRC" -O2 -lm
build_so "$T/b/libx.so" "$SRC
static const char more[4096] = {1}; const char *h(void) { return more; }" -O2 -g -lm -Wl,--no-as-needed -lz
patchelf --set-rpath '$ORIGIN/../lib' "$T/b/libx.so"

"$P" diff "$T/a/libx.so" "$T/a/libx.so" >"$T/same.txt"
check_eq "same library: exit 0" 0 $?
check_contains "same: nothing differs" "0 differences," "$(cat "$T/same.txt")"

"$P" diff --json "$T/a/libx.so" "$T/b/libx.so" >"$T/d.json"
check_eq "different: exit 1" 1 $?
row() { /usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["differences"]:
    if r["section"] == sys.argv[2] and r["key"] == sys.argv[3]:
        print(str(r["a"]) + " -> " + str(r["b"]))' "$T/d.json" "$1" "$2"; }
check_eq "DWARF" "no -> yes" "$(row debug DWARF)"
check_eq "RUNPATH" "(none) -> \$ORIGIN/../lib" "$(row file RUNPATH)"
check_eq "NEEDED libz (only B)" "None -> yes" "$(row needed libz.so.1)"
check_eq "libz resolves as ldconfig says" "None -> $(readlink -f "$(ldconfig -p | awk '$1 == "libz.so.1" && /x86-64/ { print $NF; exit }')")" "$(row 'resolves to' libz.so.1)"
ra=$(readelf -SW "$T/a/libx.so" | awk '$2 == ".rodata" { print $6 }')
rb=$(readelf -SW "$T/b/libx.so" | awk '$2 == ".rodata" { print $6 }')
check_eq ".rodata sizes as readelf" "$((16#$ra)) -> $((16#$rb))" "$(row sections .rodata)"
di=$(readelf -SW "$T/b/libx.so" | awk '$2 == ".debug_info" { print $6 }')
check_eq ".debug_info appears" "None -> $((16#$di))" "$(row sections .debug_info)"
check_eq "libm resolves the same: no row" "" "$(row 'resolves to' libm.so.6)"

# Whole text for a pair that differs in one known fact.
cp "$T/a/libx.so" "$T/c.so"
patchelf --set-soname libc-renamed.so "$T/c.so"
"$P" diff --color=never "$T/a/libx.so" "$T/c.so" >"$T/soname.txt"
n_equal=$(/usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["equal"])' < <("$P" diff --json "$T/a/libx.so" "$T/c.so"))
# The header lines hold fact counts: compare from the first section on.
got=$(sed -n '/^$/,$p' "$T/soname.txt")
check_contains "text: SONAME row" "  SONAME                             (none)  ->  libc-renamed.so" "$got"
check_contains "text: summary" "difference" "$(tail -1 "$T/soname.txt")"
check_contains "text: equal count" ", $n_equal equal" "$(tail -1 "$T/soname.txt")"

# Installs: directories paired by file name; a library only on one side.
cp "$T/a/libx.so" "$T/a/liby.so"
"$P" diff --json "$T/a" "$T/b" >"$T/dirs.json"
check_eq "directories: exit 1" 1 $?
check_eq "liby.so only in A" "yes" "$(/usr/bin/python3 -c '
import json,sys
d = json.load(open(sys.argv[1]))
print("yes" if any(r["section"] == "liby.so: file" and r["key"] == "size" and r["b"] is None for r in d["differences"]) else "no")' "$T/dirs.json")"
check_eq "directory kinds" "directory directory" "$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["a"]["kind"], d["b"]["kind"])' "$T/dirs.json")"

# Usage and unreadable input: exit 2.
check_rc "one argument" 2 "$P" diff "$T/a/libx.so"
check_rc "missing file" 2 "$P" diff "$T/a/libx.so" "$T/nothing.so"
echo garbage >"$T/garbage.so"
check_rc "not ELF" 2 "$P" diff "$T/a/libx.so" "$T/garbage.so"
finish

# CUDA targets as `ptinspect cuda` names them (issue 32, item 7): PTX is
# compute_XX there, so here too; SASS sm_XX. Two of NVIDIA's real libraries.
C=/usr/local/cuda/lib64
if [ -e "$C/libcurand.so.10" ] && [ -e "$C/libcublas.so.13" ]; then
	"$P" diff --json "$C/libcurand.so.10" "$C/libcublas.so.13" >"$T/d.json"
	check_eq "cuda diff: PTX key is compute_120, as ptinspect cuda says" "$("$P" cuda "$C/libcublas.so.13" | sed -n 's/^  PTX  *\(compute_[0-9]*\) .*/\1/p')" \
		"$(/usr/bin/python3 -c 'import json,sys; print(" ".join(sorted(r["key"] for r in json.load(open(sys.argv[1]))["differences"] if r["section"] == "CUDA targets" and r["b"] is not None and r["key"].startswith("compute_"))))' "$T/d.json")"
	check_eq "cuda diff: no 'PTX sm_' or 'ELF sm_' key" "" "$(grep -o '"\(PTX\|ELF\) sm_[0-9]*' "$T/d.json")"
	check_contains "cuda diff text: sm_90" "  sm_90 " "$("$P" diff "$C/libcurand.so.10" "$C/libcublas.so.13")"
fi
