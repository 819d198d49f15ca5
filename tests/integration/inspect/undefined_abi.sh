# ptinspect undefined names a _GLIBCXX_USE_CXX11_ABI mismatch (issue 32 item 10):
# two real libraries built here with g++, one defining f(const std::string&)
# (and a std::list function) with one ABI, one calling it with the other; and
# an object built against Debian's torch 1.13 headers that needs a c10
# function the loaded libc10 does not export.
. "$PT_TESTLIB/common.sh" || exit 2
command -v g++ >/dev/null || skip "no g++"
P=$PTINSPECT
DEF='#include <string>
#include <list>
void f(const std::string &s) { (void)s; }
int g(const std::list<int> &l) { return (int)l.size(); }'
USE='#include <string>
#include <list>
void f(const std::string &s);
int g(const std::list<int> &l);
int use() { std::list<int> l; f("x"); return g(l); }'
for pair in "1 0" "0 1"; do
	set -- $pair
	d=$T/def$1use$2
	mkdir -p "$d"
	printf '%s\n' "$DEF" >"$d/def.cc"
	printf '%s\n' "$USE" >"$d/use.cc"
	g++ -shared -fPIC -D_GLIBCXX_USE_CXX11_ABI=$1 -o "$d/libdef.so" "$d/def.cc" || exit 2
	g++ -shared -fPIC -D_GLIBCXX_USE_CXX11_ABI=$2 -o "$d/libuse.so" "$d/use.cc" -Wl,--no-as-needed -L"$d" -ldef \
		-Wl,--allow-shlib-undefined || exit 2
	check_rc "def=$1 use=$2: exit 1" 1 env LD_LIBRARY_PATH="$d" "$P" undefined "$d/libuse.so"
	out=$(cat "$T/.out")
	check_contains "def=$1 use=$2: summary" "2 of them defined with the other C++ ABI: a _GLIBCXX_USE_CXX11_ABI mismatch" "$out"
	if [ "$2" = 0 ]; then
		check_contains "def=1 use=0: f, which side" "_GLIBCXX_USE_CXX11_ABI mismatch: libuse.so was built with _GLIBCXX_USE_CXX11_ABI=0 (std::string, the old ABI); libdef.so defines it with =1: f(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&)" "$out"
		check_contains "def=1 use=0: std::list" "libdef.so defines it with =1: g(std::__cxx11::list<int, std::allocator<int> > const&)" "$out"
	else
		check_contains "def=0 use=1: f, which side" "_GLIBCXX_USE_CXX11_ABI mismatch: libuse.so was built with _GLIBCXX_USE_CXX11_ABI=1 (std::__cxx11::basic_string, the new ABI); libdef.so defines it with =0: f(std::basic_string<char, std::char_traits<char>, std::allocator<char> > const&)" "$out"
		check_contains "def=0 use=1: std::list" "libdef.so defines it with =0: g(std::list<int, std::allocator<int> > const&)" "$out"
	fi
	LD_LIBRARY_PATH="$d" "$P" undefined --json "$d/libuse.so" >"$T/u.json"
	check_eq "def=$1 use=$2: json" "2 $2 $1" "$(jq -r '.files[0] | "\(.abi_mismatches) \(.objects[0].undefined[0].abi_mismatch.user_cxx11_abi) \(.objects[0].undefined[0].abi_mismatch.definer_cxx11_abi)"' "$T/u.json")"
done
# The same ABI on both sides binds.
d=$T/same; mkdir -p "$d"
printf '%s\n' "$DEF" >"$d/def.cc"; printf '%s\n' "$USE" >"$d/use.cc"
g++ -shared -fPIC -o "$d/libdef.so" "$d/def.cc" && g++ -shared -fPIC -o "$d/libuse.so" "$d/use.cc" -L"$d" -ldef || exit 2
check_rc "same ABI: binds" 0 env LD_LIBRARY_PATH="$d" "$P" undefined "$d/libuse.so"

# (--no-as-needed: the linker would drop a library none of whose symbols bind.)
# Against Debian's torch 1.13: a real c10 function (torchCheckFail) with a
# parameter type no torch 1.13 overload has, linked with the real libc10.so.
LIBC10=/usr/lib/x86_64-linux-gnu/libc10.so
if [ -e "$LIBC10" ] && [ -e /usr/include/c10/util/Exception.h ]; then
	d=$T/torch; mkdir -p "$d"
	cat >"$d/ext.cc" <<'CC'
#include <c10/util/Exception.h>
namespace c10 { namespace detail {
[[noreturn]] void torchCheckFail(const char *func, const char *file, unsigned line, long msg);
} }
void ext_check(bool ok) { if (!ok) c10::detail::torchCheckFail(__func__, __FILE__, __LINE__, 1L); }
CC
	g++ -shared -fPIC -std=c++17 -o "$d/libext.so" "$d/ext.cc" -Wl,--no-as-needed "$LIBC10" -Wl,--allow-shlib-undefined || exit 2
	check_rc "torch: exit 1" 1 "$P" undefined "$d/libext.so"
	out=$(cat "$T/.out")
	check_contains "torch: summary" "1 of them in torch's namespaces and not exported by the loaded torch (built against another torch version?)" "$out"
	check_contains "torch: the symbol" "c10::detail::torchCheckFail(char const*, char const*, unsigned int, long)" "$out"
	check_contains "torch: per symbol" "c10::detail::torchCheckFail(char const*, char const*, unsigned int, long)  (_ZN3c106detail14torchCheckFailEPKcS2_jl)  [not exported by the loaded torch]" "$out"
	check_eq "torch: no ABI twin claimed" 0 "$("$P" undefined --json "$d/libext.so" | jq '.files[0].abi_mismatches')"
fi
finish
