# ctest-timeout: 300
# ptinspect's package facts cache (inspect/package/pkgcache.c, issue 31's "< 1 s
# warm"): wheels packed by python3-wheel's `wheel pack` from objects built here
# (an extension with a $ORIGIN RUNPATH to its bundled library and an
# absolute one into the build directory, a library with a real fat binary) and a conda .tar.bz2 of the same files. For each:
# a cold run, a warm run, whole outputs (stdout, stderr, exit; text and --json)
# identical but for the JSON "cache" word, which says "miss" and then "hit" (a
# hit reads no member: the archive is not even opened, shown by reading it
# once it is unreadable). `touch` is a miss; a corrupt or truncated cache file
# is a miss with the right answer, and is replaced; --no-package-cache and
# PT_CACHE_DIR=off make no file; an unusable cache directory changes nothing;
# the files are 0600 in a 0700 directory; --root and --tag are not cached.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTINSPECT
PY=/usr/bin/python3
export NO_COLOR=1
unset LD_LIBRARY_PATH
$PY -c 'import wheel' 2>/dev/null || skip "python3-wheel is not installed (tests/deps)"
cd "$T" || exit 2
export PT_CACHE_DIR=$T/pc
cc_so() { cc -shared -fPIC -fdebug-prefix-map="$T"=. "$@" || { echo "FAIL: cannot build: cc $*"; finish; }; }

mkdir -p root/lib/x86_64-linux-gnu build/lib w/demo/demo w/demo/demo.libs w/demo/demo-1.0.dist-info dist
for l in libc.so.6 libm.so.6; do cp -L "/lib/x86_64-linux-gnu/$l" root/lib/x86_64-linux-gnu/; done
echo 'int foo(void) { return 42; }' >foo.c
cc_so -o w/demo/demo.libs/libfoo.so.1 -Wl,-soname,libfoo.so.1 foo.c
echo 'int bar(void) { return 7; }' >bar.c
cc_so -o build/lib/libbar.so.2 -Wl,-soname,libbar.so.2 bar.c
printf '#include <stdio.h>\nint foo(void); int bar(void);\nint core(void) { return puts("c") + foo() + bar(); }\n' >core.c
cc_so -o w/demo/demo/_core.so core.c -Lw/demo/demo.libs -l:libfoo.so.1 -Lbuild/lib -l:libbar.so.2 \
	-Wl,--enable-new-dtags,-rpath,"\$ORIGIN/../demo.libs:$T/build/lib"
# A library with device code: a real fat binary (sm_80 SASS, compute_90 PTX) as its .nv_fatbin.
echo 'int k(void) { return 1; }' >k.c
cc_so -o k.so k.c
objcopy --add-section .nv_fatbin="$PT_SRC/tests/fuzz/corpus/fuzz_fatbin/sm80_compute90.fatbin" \
	--set-section-flags .nv_fatbin=alloc,readonly k.so w/demo/demo/libkern.so 2>/dev/null ||
	fail "objcopy .nv_fatbin"
echo 'from . import _core' >w/demo/demo/__init__.py
printf 'Wheel-Version: 1.0\nGenerator: ptools-test\nRoot-Is-Purelib: false\nTag: cp313-cp313-manylinux_2_17_x86_64\n' \
	>w/demo/demo-1.0.dist-info/WHEEL
printf 'Metadata-Version: 2.1\nName: demo\nVersion: 1.0\nRequires-Dist: nvidia-cudnn-cu12\n' \
	>w/demo/demo-1.0.dist-info/METADATA
$PY -m wheel pack w/demo -d dist >/dev/null || fail "wheel pack"
WHL=dist/demo-1.0-cp313-cp313-manylinux_2_17_x86_64.whl
mkdir -p conda/info conda/lib/python3.13/site-packages
cp -r w/demo/demo w/demo/demo.libs conda/lib/python3.13/site-packages/
printf '{"name": "demo", "version": "1.0", "build": "py313_0", "subdir": "linux-64", "depends": ["python >=3.13"]}\n' \
	>conda/info/index.json
tar -C conda -cjf dist/demo-1.0-py313_0.tar.bz2 info lib
CONDA=dist/demo-1.0-py313_0.tar.bz2
R=(--root "$T/root")

# run NAME ARGS...: --json into NAME.json (first: its "cache" is this run's), then
# text (stdout, stderr, exit) into NAME.txt
run() {
	local n=$1
	shift
	"$P" --json "$@" >"$n.json" 2>/dev/null
	"$P" "$@" >"$n.out" 2>"$n.err"
	echo "exit $?" >>"$n.err"
	cat "$n.out" "$n.err" >"$n.txt"
}
cache_word() {	# the JSON "cache" of each file, or "-"
	$PY -c 'import json,sys; print(" ".join(f.get("cache", "-") for f in json.load(open(sys.argv[1]))["files"]))' "$1"
}
json_sans_cache() {
	$PY -c 'import json,sys
d = json.load(open(sys.argv[1]))
for f in d["files"]: f.pop("cache", None)
print(json.dumps(d, sort_keys=True))' "$1"
}
same() {	# same WHAT A B: whole text and JSON (but "cache") identical
	check_eq "$1: text (stdout, stderr, exit)" "$(cat "$2.txt")" "$(cat "$3.txt")"
	check_eq "$1: --json but \"cache\"" "$(json_sans_cache "$2.json")" "$(json_sans_cache "$3.json")"
}
nfiles() { find "$PT_CACHE_DIR" -name 'pkg-*.ptc' 2>/dev/null | wc -l; }

# The reference: no cache at all.
PT_CACHE_DIR=off run ref "${R[@]}" "$WHL"
check_eq "PT_CACHE_DIR=off: no cache word" "-" "$(cache_word ref.json)"
check_eq "PT_CACHE_DIR=off: no directory made" "no" "$([ -e "$T/pc" ] && echo yes || echo no)"
run none "${R[@]}" --no-package-cache "$WHL"
check_eq "--no-package-cache: no directory made" "no" "$([ -e "$T/pc" ] && echo yes || echo no)"
same "--no-package-cache against PT_CACHE_DIR=off" ref none
check_contains "the reference reads the fat binary" "8.0" "$(cat ref.txt)"

# Cold, then warm: the same answer; the second reads no member.
"$P" --json "${R[@]}" "$WHL" >first.json 2>/dev/null
check_eq "the first run: a miss" "miss" "$(cache_word first.json)"
check_eq "the first run: one file" 1 "$(nfiles)"
check_eq "the directory is 0700" 700 "$(stat -c %a "$T/pc")"
check_eq "the file is 0600" 600 "$(stat -c %a "$T"/pc/pkg-*.ptc)"
run warm "${R[@]}" "$WHL"
check_eq "the second run: a hit" "hit" "$(cache_word warm.json)"
same "warm against no cache" ref warm
run warm_tree "${R[@]}" --tree "$WHL"
PT_CACHE_DIR=off run ref_tree "${R[@]}" --tree "$WHL"
same "warm --tree against no cache" ref_tree warm_tree
# What depends on the target is not cached: another --root, another --tag.
run warm_host "$WHL"
PT_CACHE_DIR=off run ref_host "$WHL"
check_eq "no --root: still a hit" "hit" "$(cache_word warm_host.json)"
same "no --root, warm against no cache" ref_host warm_host
run warm_tag "${R[@]}" --tag manylinux_2_5_x86_64 "$WHL"
PT_CACHE_DIR=off run ref_tag "${R[@]}" --tag manylinux_2_5_x86_64 "$WHL"
same "--tag, warm against no cache" ref_tag warm_tag
# The same archive named otherwise (absolute, through a symlink) is the same file: a hit.
ln -s "$T/$WHL" "$T/alias.whl"
run warm_alias "${R[@]}" "$T/alias.whl"
PT_CACHE_DIR=off run ref_alias "${R[@]}" "$T/alias.whl"
check_eq "through a symlink: a hit" "hit" "$(cache_word warm_alias.json)"
same "through a symlink, warm against no cache" ref_alias warm_alias
check_eq "still one file" 1 "$(nfiles)"
# A hit does not open the archive: made unreadable (not for root, who reads anything).
if [ "$(id -u)" != 0 ]; then
	chmod 000 "$WHL"
	"$P" --json "${R[@]}" "$WHL" >locked.json 2>/dev/null
	check_eq "an unreadable archive, cached: a hit" "hit" "$(cache_word locked.json)"
	chmod 644 "$WHL"
fi

# touch: another mtime and ctime, a miss; the new facts replace nothing wrong.
sleep 0.01
touch "$WHL"
run touched "${R[@]}" "$WHL"
check_eq "after touch: a miss" "miss" "$(cache_word touched.json)"
same "after touch against no cache" ref touched

# A corrupt cache file: a miss, the right answer, and the file is replaced.
for f in "$T"/pc/pkg-*.ptc; do
	$PY - "$f" <<'EOF'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[len(b) // 2] ^= 0x20
open(sys.argv[1], "wb").write(b)
EOF
done
run corrupt "${R[@]}" "$WHL"
check_eq "a corrupt file: a miss" "miss" "$(cache_word corrupt.json)"
same "a corrupt file against no cache" ref corrupt
run again "${R[@]}" "$WHL"
check_eq "the file was replaced: a hit" "hit" "$(cache_word again.json)"
for f in "$T"/pc/pkg-*.ptc; do head -c 100 "$f" >"$f.cut" && mv "$f.cut" "$f"; done
run cut "${R[@]}" "$WHL"
check_eq "a truncated file: a miss" "miss" "$(cache_word cut.json)"
same "a truncated file against no cache" ref cut
for f in "$T"/pc/pkg-*.ptc; do echo 'not a cache file' >"$f"; done
run foreign "${R[@]}" "$WHL"
check_eq "a foreign file: a miss" "miss" "$(cache_word foreign.json)"
same "a foreign file against no cache" ref foreign

# A conda .tar.bz2: the same.
PT_CACHE_DIR=off run cref "${R[@]}" "$CONDA"
run ccold "${R[@]}" "$CONDA"
run cwarm "${R[@]}" "$CONDA"
check_eq "conda: miss, then hit" "miss hit" "$(cache_word ccold.json) $(cache_word cwarm.json)"
same "conda cold against no cache" cref ccold
same "conda warm against no cache" cref cwarm

# An unusable cache directory (under a file): the same answer, no error.
PT_CACHE_DIR=$T/ref.txt/sub run unusable "${R[@]}" "$WHL"
same "an unusable cache directory" ref unusable
# XDG_CACHE_HOME/ptools when PT_CACHE_DIR is not set.
(unset PT_CACHE_DIR; XDG_CACHE_HOME=$T/xdg "$P" "${R[@]}" "$WHL" >/dev/null 2>&1)
check_eq "XDG_CACHE_HOME/ptools" 1 "$(find "$T/xdg/ptools" -name 'pkg-*.ptc' | wc -l)"
# A directory package is never cached.
run dirpkg "${R[@]}" w/demo/
check_eq "a directory: no cache word" "-" "$(cache_word dirpkg.json)"
finish
