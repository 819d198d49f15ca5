/*
 * dynsym: ld.so's lookup rules on glibc's own libc.so.6 (versioned and
 * default symbols, through .gnu.hash and through the sorted fallback), and
 * damaged sections that must degrade, not crash; the symbols the dynamic
 * relocations name (dynsym_mark_relocs), on crafted entries and on libc.
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dynsym.h"
#include "elfobj.h"
#include "xalloc.h"

#define LIBC "/lib/x86_64-linux-gnu/libc.so.6"

static const uint8_t *sec(const struct elfobj *o, const uint8_t *map, uint32_t type, const char *name,
			  size_t *len)
{
	for (size_t i = 0; i < o->n_sections; i++)
		if (o->sections[i].type == type && (!name || !strcmp(o->sections[i].name, name))) {
			*len = o->sections[i].size;
			return map + o->sections[i].offset;
		}
	*len = 0;
	return NULL;
}

static struct elfobj o;
static uint8_t *map;
static struct dynsym_sections S;

static int setup(void **state)
{
	struct pt_diag d;

	(void)state;
	if (access(LIBC, R_OK) != 0)
		return -1;
	pt_diag_init(&d);
	if (elfobj_open(&o, LIBC, &d) != 0)
		return -1;
	pt_diag_release(&d);
	map = mmap(NULL, o.size, PROT_READ, MAP_PRIVATE, o.fd, 0);
	if (map == MAP_FAILED)
		return -1;
	S.dynsym = sec(&o, map, SHT_DYNSYM, NULL, &S.dynsym_len);
	S.dynstr = sec(&o, map, SHT_STRTAB, ".dynstr", &S.dynstr_len);
	S.versym = sec(&o, map, SHT_GNU_versym, NULL, &S.versym_len);
	S.verdef = sec(&o, map, SHT_GNU_verdef, NULL, &S.verdef_len);
	S.verneed = sec(&o, map, SHT_GNU_verneed, NULL, &S.verneed_len);
	S.gnu_hash = sec(&o, map, SHT_GNU_HASH, NULL, &S.gnu_hash_len);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	munmap(map, o.size);
	elfobj_release(&o);
	return 0;
}

static const char *ver_of(const struct dynsym *t, size_t i)
{
	struct dynsym_sym y;

	dynsym_get(t, i, &y);
	return y.ver < t->n_ver ? t->ver[y.ver].name : NULL;
}

static void lookups(const struct dynsym *t)
{
	size_t i;

	/* memcpy has two versions: GLIBC_2.14 (default) and GLIBC_2.2.5 (hidden, old). */
	i = dynsym_find(t, "memcpy", dynsym_hash("memcpy"), "GLIBC_2.14");
	assert_true(i > 0);
	assert_string_equal(ver_of(t, i), "GLIBC_2.14");
	i = dynsym_find(t, "memcpy", dynsym_hash("memcpy"), "GLIBC_2.2.5");
	assert_true(i > 0);
	assert_string_equal(ver_of(t, i), "GLIBC_2.2.5");
	/*
	 * Unversioned (a binary linked before versioning): index <= 2 is taken
	 * even when hidden, so the oldest memcpy, as dl-lookup.c's check_match.
	 */
	i = dynsym_find(t, "memcpy", dynsym_hash("memcpy"), NULL);
	assert_true(i > 0);
	assert_string_equal(ver_of(t, i), "GLIBC_2.2.5");
	/* Only a default version (>= 3) exists: the one non-hidden one. */
	i = dynsym_find(t, "memfd_create", dynsym_hash("memfd_create"), NULL);
	assert_true(i > 0);
	assert_string_equal(ver_of(t, i), "GLIBC_2.27");
	assert_int_equal(dynsym_find(t, "memcpy", dynsym_hash("memcpy"), "GLIBC_9.99"), 0);
	assert_int_equal(dynsym_find(t, "no_such_symbol_here", dynsym_hash("no_such_symbol_here"), NULL), 0);
	/* An undefined reference of libc (to ld.so) is not a definition. */
	assert_int_equal(dynsym_find(t, "_dl_argv", dynsym_hash("_dl_argv"), "GLIBC_PRIVATE"), 0);
}

static void libc_gnu_hash(void **state)
{
	struct dynsym t;
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	assert_non_null(S.gnu_hash);
	assert_int_equal(dynsym_init(&t, &S, LIBC, &d), 0);
	assert_int_equal(d.n, 0);
	assert_true(t.nbuckets > 0);
	lookups(&t);
	dynsym_release(&t);
	pt_diag_release(&d);
}

static void libc_sorted_fallback(void **state)
{
	struct dynsym_sections s = S;
	struct dynsym t;
	struct pt_diag d;

	(void)state;
	s.gnu_hash = NULL;
	s.gnu_hash_len = 0;
	pt_diag_init(&d);
	assert_int_equal(dynsym_init(&t, &s, LIBC, &d), 0);
	assert_int_equal(t.nbuckets, 0);
	assert_true(t.n_sorted > 1000);
	lookups(&t);
	dynsym_release(&t);
	pt_diag_release(&d);
}

static void damaged(void **state)
{
	struct dynsym_sections s = S;
	struct dynsym t;
	struct pt_diag d;
	uint8_t bad[16];

	(void)state;
	pt_diag_init(&d);
	/* A .gnu.hash header that claims more than the section holds: warning, sorted lookups. */
	memcpy(bad, S.gnu_hash, 16);
	bad[0] = 0xff;
	bad[1] = 0xff;
	s.gnu_hash = bad;
	s.gnu_hash_len = sizeof(bad);
	assert_int_equal(dynsym_init(&t, &s, LIBC, &d), 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].where, ".gnu.hash");
	lookups(&t);
	dynsym_release(&t);
	/* A versym shorter than the symbol table: versions dropped, still usable. */
	s = S;
	s.versym_len = 10;
	assert_int_equal(dynsym_init(&t, &s, LIBC, &d), 0);
	assert_true(dynsym_find(&t, "malloc", dynsym_hash("malloc"), NULL) > 0);
	dynsym_release(&t);
	/* Every truncation of the version sections and the string table is survived. */
	for (size_t cut = 0; cut < 200; cut += 3) {
		s = S;
		s.verdef_len = cut < s.verdef_len ? cut : s.verdef_len;
		s.verneed_len = cut < s.verneed_len ? cut : s.verneed_len;
		s.dynstr_len = cut;
		if (dynsym_init(&t, &s, LIBC, &d) == 0) {
			dynsym_find(&t, "memcpy", dynsym_hash("memcpy"), "GLIBC_2.14");
			dynsym_release(&t);
		}
	}
	/* No symbol table at all. */
	s = S;
	s.dynsym_len = 10;
	assert_int_equal(dynsym_init(&t, &s, LIBC, &d), -1);
	pt_diag_release(&d);
}

/*
 * fuzz_dynsym (tests/fuzz/corpus/fuzz_dynsym/finding-bloom-shift-38): a
 * .gnu.hash whose bloom shift is 32-63 made dynsym_find shift the 32-bit hash
 * by that much, undefined behaviour (UBSan in the fuzz tree; on x86 the shift
 * is taken mod 32, so a different bloom bit). glibc shifts a 64-bit
 * uint_fast32_t and gets 0. Here libc's own .gnu.hash with shift 38 and a
 * bloom filter holding only the bits glibc tests for memcpy: found.
 */
static void gnu_hash_bloom_shift_over_31(void **state)
{
	static const char *libc = "/lib/x86_64-linux-gnu/libc.so.6";
	struct dynsym_sections s = { 0 };
	struct elfobj o;
	struct dynsym t;
	struct pt_diag d;
	const uint8_t *map, *gh;
	uint8_t *copy;
	uint32_t h = dynsym_hash("memcpy"), nbuckets, bloom_size, shift = 38;
	uint64_t word;

	(void)state;
	if (access(libc, R_OK) != 0)
		skip();
	pt_diag_init(&d);
	assert_int_equal(elfobj_open(&o, libc, &d), 0);
	map = mmap(NULL, o.size, PROT_READ, MAP_PRIVATE, o.fd, 0);
	assert_true(map != MAP_FAILED);
	s.dynsym = sec(&o, map, SHT_DYNSYM, NULL, &s.dynsym_len);
	s.dynstr = sec(&o, map, SHT_STRTAB, ".dynstr", &s.dynstr_len);
	s.versym = sec(&o, map, SHT_GNU_versym, NULL, &s.versym_len);
	s.verdef = sec(&o, map, SHT_GNU_verdef, NULL, &s.verdef_len);
	gh = sec(&o, map, SHT_GNU_HASH, NULL, &s.gnu_hash_len);
	assert_non_null(gh);
	copy = pt_xmalloc(s.gnu_hash_len);
	memcpy(copy, gh, s.gnu_hash_len);
	memcpy(&nbuckets, copy, 4);
	memcpy(&bloom_size, copy + 8, 4);
	memcpy(copy + 12, &shift, 4);
	memset(copy + 16, 0, (size_t)bloom_size * 8);
	word = (1ull << (h % 64)) | 1ull;	/* ((uint64_t)h >> 38) % 64 == 0 */
	memcpy(copy + 16 + (size_t)((h / 64) & (bloom_size - 1)) * 8, &word, 8);
	s.gnu_hash = copy;
	assert_int_equal(dynsym_init(&t, &s, libc, &d), 0);
	assert_true(t.nbuckets == nbuckets && nbuckets > 0);	/* the hash table is used */
	assert_true(dynsym_find(&t, "memcpy", h, "GLIBC_2.14") > 0);
	dynsym_release(&t);
	free(copy);
	munmap((void *)map, o.size);
	elfobj_release(&o);
	pt_diag_release(&d);
}


/* Little- or big-endian 64-bit store. */
static void put64(uint8_t *p, uint64_t v, bool be)
{
	for (int i = 0; i < 8; i++)
		p[be ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

/* RELA (24 bytes) and REL (16): symbol 0 and out-of-range indexes marked nothing; a partial tail read not. */
static void relocs_crafted(void **state)
{
	for (int be = 0; be < 2; be++)
		for (int rela = 0; rela < 2; rela++) {
			const size_t ent = rela ? 24 : 16;
			uint8_t b[4 * 24 + 10];
			bool used[5] = { false };
			const uint64_t syms[4] = { 0, 2, 7, 4 };

			(void)state;
			memset(b, 0xee, sizeof(b));
			for (int i = 0; i < 4; i++)
				put64(b + i * ent + 8, syms[i] << 32 | 7 /* R_X86_64_JUMP_SLOT */, be);
			/* The tail: 10 bytes, a partial entry whose r_info would name symbol 1. */
			put64(b + 4 * ent, 0, be);
			assert_int_equal(dynsym_mark_relocs(b, 4 * ent + 10, rela, be, used, 5), 4);
			assert_false(used[0]);
			assert_false(used[1]);
			assert_true(used[2]);
			assert_false(used[3]);
			assert_true(used[4]);
			memset(used, 0, sizeof(used));
			assert_int_equal(dynsym_mark_relocs(b, ent - 1, rela, be, used, 5), 0);
			assert_int_equal(dynsym_mark_relocs(NULL, 100, rela, be, used, 5), 0);
			for (int i = 0; i < 5; i++)
				assert_false(used[i]);
		}
}

/*
 * libc.so.6: .rela.dyn and .rela.plt name every undefined symbol it needs
 * from ld.so (_dl_argv, __tls_get_addr, ...), and every entry is read.
 */
static void relocs_libc(void **state)
{
	struct dynsym t;
	struct pt_diag d;
	size_t nrel = 0, entries = 0, undef = 0, dynsym_index = 0;
	bool *used;

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(dynsym_init(&t, &S, LIBC, &d), 0);
	used = pt_xcalloc(t.n_syms, sizeof(*used));
	for (size_t i = 0; i < o.n_sections; i++)
		if (o.sections[i].type == SHT_DYNSYM)
			dynsym_index = o.sections[i].index;
	assert_true(dynsym_index > 0);
	for (size_t i = 0; i < o.n_sections; i++) {
		const struct elf_section *r = &o.sections[i];

		if (r->type != SHT_RELA || r->link != dynsym_index)
			continue;
		entries += dynsym_mark_relocs(map + r->offset, r->size, true, false, used, t.n_syms);
		nrel += r->size / 24;
	}
	assert_true(nrel > 100);
	assert_int_equal(entries, nrel);
	for (size_t i = 1; i < t.n_syms; i++) {
		struct dynsym_sym y;

		dynsym_get(&t, i, &y);
		if (y.shndx != SHN_UNDEF || y.bind != STB_GLOBAL)
			continue;
		undef++;
		if (!used[i])
			fail_msg("libc.so.6: undefined %s named by no relocation", y.name);
	}
	assert_true(undef >= 5);
	free(used);
	dynsym_release(&t);
	pt_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(libc_gnu_hash),
		cmocka_unit_test(libc_sorted_fallback),
		cmocka_unit_test(damaged),
		cmocka_unit_test(gnu_hash_bloom_shift_over_31),
		cmocka_unit_test(relocs_crafted),
		cmocka_unit_test(relocs_libc),
	};
	if (access(LIBC, R_OK) != 0) {
		printf("SKIP: no %s\n", LIBC);
		return 77;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
