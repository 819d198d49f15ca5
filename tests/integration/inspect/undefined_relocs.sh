# ptinspect undefined checks only the symbols a dynamic relocation names, as ld.so binds them
# and ldd -r reports them: a real library built here with two undefined functions, then the
# .rela.plt entry of one made R_X86_64_NONE (symbol 0), as a linker leaves a symbol whose
# last reference it dropped (Debian's torch libtorch_python has PyExc_FutureWarning so: in
# .dynsym, undefined, named by no relocation; ldd -r and import torch are silent about it).
# Each time the same names as ldd -r on a program that loads it.
. "$PT_TESTLIB/common.sh" || exit 2
command -v gcc >/dev/null && command -v readelf >/dev/null || skip "no gcc or readelf"
P=$PTINSPECT
cd "$T" || exit 2
cat >b.c <<'C'
extern int used_sym(void);
extern int dropped_sym(void);
int f(void) { return used_sym(); }
int g(void) { return dropped_sym(); }
C
echo 'int main(void) { return 0; }' >m.c
gcc -shared -fPIC -o libb.so b.c &&
	gcc -o m m.c -Wl,--no-as-needed -L. -lb -Wl,-rpath,"$T" -Wl,--allow-shlib-undefined || exit 2

# names TOOL: the undefined symbol names it reports for m (sorted, one a line)
ours() { "$P" undefined --all --json "$T/m" | jq -r '.files[0].objects[].undefined[].symbol' | sort; }
theirs() { ldd -r "$T/m" 2>&1 | sed -n 's/^undefined symbol: \([^[:space:]]*\).*/\1/p' | sort; }
check_eq "both relocated: ldd -r names both" "dropped_sym used_sym" "$(theirs | tr '\n' ' ' | sed 's/ $//')"
check_eq "both relocated: ptinspect the same" "$(theirs)" "$(ours)"

# The .rela.plt entry naming dropped_sym: r_info (8 bytes at +8 of a 24-byte Elf64_Rela) zeroed.
off=$(readelf -W -S libb.so | sed -n 's/.*\] \.rela\.plt  *[A-Z]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p')
off=$((0x${off:-0}))
idx=$(readelf -W -r libb.so | awk '/^Relocation section .\.rela\.plt./ { p = 1; n = -1; next }
	p && /^Relocation section/ { p = 0 } p && /^[0-9a-f]+ / { n++; if ($5 == "dropped_sym") print n }')
check_eq "the entry is found" true "$([ "$off" -gt 0 ] && [ -n "$idx" ] && echo true)"
dd if=/dev/zero of=libb.so bs=1 seek=$((off + idx * 24 + 8)) count=8 conv=notrunc 2>/dev/null
check_eq "patched: dropped_sym still undefined in .dynsym" 1 \
	"$(readelf -W --dyn-syms libb.so | grep -c ' UND dropped_sym$')"
check_eq "patched: ldd -r names only used_sym" used_sym "$(theirs | tr '\n' ' ' | sed 's/ $//')"
check_eq "patched: ptinspect the same" "$(theirs)" "$(ours)"
check_rc "patched: still a problem (used_sym), exit 1" 1 "$P" undefined "$T/m"
check_contains "the text names used_sym" "used_sym" "$(cat "$T/.out")"
check_eq "the text does not name dropped_sym" "" "$(grep dropped_sym "$T/.out" || true)"
finish
