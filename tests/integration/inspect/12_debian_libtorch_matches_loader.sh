# Debian's real libtorch: the set of resolved libraries equals what ld.so
# loads (ld.so --list on these trusted system files), compared by realpath.
. "$PT_TESTLIB/common.sh" || exit 2
. "$PT_TESTLIB/loader.sh"
lib=/usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13
[ -e "$lib" ] || skip "Debian's libtorch-dev is not installed"
for f in "$lib" /usr/lib/python3/dist-packages/torch/_C.cpython-3*-x86_64-linux-gnu.so /usr/lib/x86_64-linux-gnu/libc10.so.1.13; do
	/lib64/ld-linux-x86-64.so.2 --list "$f" | awk '/=>/ && $3 ~ /^\// {print $3} !/=>/ && $1 ~ /^\// {print $1}' |
		xargs -n1 readlink -f | sort -u >"$T/oracle"
	"$PTINSPECT" deps --json "$f" | jq -r '.files[0].deps[] | select(.realpath) | .realpath' | sort -u >"$T/ours"
	diff -u "$T/oracle" "$T/ours" >"$T/diff" && pass || { fail "$f differs from ld.so"; cat "$T/diff"; }
done
# ld.so lists every object but the file itself (the loader included): 284 on Debian 12.
n=$(/lib64/ld-linux-x86-64.so.2 --list "$lib" | grep -c '/')
check_contains "the summary counts what ld.so loads" "dependencies: $n loaded, 0 missing, 0 with unmet versions" "$("$PTINSPECT" deps "$lib")"
check_eq "_C: RUNPATH \$ORIGIN/lib misses, the cache finds libtorch_python" ld_so_cache "$(found_by /usr/lib/python3/dist-packages/torch/_C.cpython-3*-x86_64-linux-gnu.so libtorch_python.so.1.13)"
finish
