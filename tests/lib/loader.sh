# Loader-rule helpers: compare ptinspect's resolution with the real ld.so on
# fixtures built at test time. Source after common.sh.

# oracle EXE: one line per object ld.so loads, its realpath (or "name =>
# not found"), from the fixture executable itself with LD_TRACE_LOADED_OBJECTS=1
# (ld.so resolves everything and exits before main). Uses the caller's env
# and cwd. ld.so prints "name => path" but only "path" when it opened the
# object under the name requested (a NEEDED with '/', an empty path element).
oracle() {
	local interp
	interp=$(readlink -f /lib64/ld-linux-x86-64.so.2)
	LD_TRACE_LOADED_OBJECTS=1 "$1" 2>/dev/null |
		sed -n -e 's/^\t\(.*\) => not found$/NOTFOUND\t\1/p' \
			-e 's/^\t.* => \(.*\) (0x[0-9a-f]*)$/\1/p' \
			-e '/=>/!s/^\t\(.*\) (0x[0-9a-f]*)$/\1/p' |
		while IFS=$'\t' read -r p n; do
			case $p in
			NOTFOUND) echo "$n => not found" ;;
			linux-vdso.so.*) ;;
			*) r=$(readlink -f "$p"); [ "$r" = "$interp" ] || echo "$r" ;;
			esac
		done | LC_ALL=C sort -u
}

# ours FILE [ptinspect options]: the same lines from ptinspect deps --json.
ours() {
	"$PTINSPECT" deps --json "$@" 2>/dev/null | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
for e in d["files"][0]["deps"]:
    if e["path"] is None:
        print(e["name"] + " => not found")
    elif e["loaded_here"]:
        print(e["realpath"])
' | LC_ALL=C sort -u
}

# found_by FILE NAME [options]: how ptinspect says NAME was found (first edge).
found_by() {
	local f=$1 n=$2
	shift 2
	"$PTINSPECT" deps --json "$f" "$@" 2>/dev/null | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print(next((e["found_by"] + ("/fragile" if e["fragile"] else "") for e in d["files"][0]["deps"] if e["name"] == sys.argv[1]), "absent"))
' "$n"
}

# same_as_loader WHAT EXE [ptinspect options]: the whole set must be equal.
same_as_loader() {
	local what=$1 exe=$2
	shift 2
	oracle "$exe" >"$T/oracle.txt"
	ours "$exe" "$@" >"$T/ours.txt"
	PT_CHECKS=$((PT_CHECKS + 1))
	if ! [ -s "$T/oracle.txt" ]; then
		echo "FAIL: $what: the loader printed nothing"
		PT_FAILS=$((PT_FAILS + 1))
	elif ! diff -u "$T/oracle.txt" "$T/ours.txt" >"$T/diff.txt"; then
		echo "FAIL: $what: ptinspect differs from ld.so (- loader, + ptinspect)"
		sed 's/^/  /' "$T/diff.txt"
		PT_FAILS=$((PT_FAILS + 1))
	fi
}

# A library source defining one function, and an executable calling some.
lib_src() { echo "int $1(void) { return ${2:-1}; }"; }
exe_src() {
	local calls="" decls="" f
	for f in "$@"; do decls="$decls int $f(void);"; calls="$calls $f() +"; done
	echo "$decls int main(void) { return$calls 0; }"
}
