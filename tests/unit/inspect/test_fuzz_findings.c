/*
 * What tests/fuzz found in inspect/, one test per finding, each with the
 * input (or the recipe for one too big for tests/fuzz/corpus) and the
 * behaviour now expected (docs/internals/fuzzing.md lists them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dynsym.h"
#include "elfobj.h"
#include "ldcache.h"
#include "showconfig.h"
#include "xalloc.h"

/*
 * fuzz_ldcache: a cache with no NUL byte after its string offsets. Each entry's
 * string was checked with a memchr to the end of the file: entries x file
 * size, over a minute for this 18 MB file (700,000 entries), hours at the
 * 256 MB cap. Now one pass finds the last NUL; the entries are skipped with
 * one warning, not one each.
 */
static void ldcache_without_nul_is_linear(void **state)
{
	size_t len = 0x01010101u + (1u << 20), k = (len - 48) / 24;
	uint8_t *b = pt_xmalloc(len);
	/* flags, key, value, osversion, hwcap: every byte non-zero, offsets in the file */
	static const uint8_t e[24] = { 3, 3, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1,
				       1, 1, 1, 1, 1, 1, 1, 1 };
	struct ldcache c;
	struct pt_diag d;
	uint32_t n32 = (uint32_t)k, ext = 0;

	(void)state;
	memset(b, 'A', len);
	memcpy(b, "glibc-ld.so.cache1.1", 20);
	memcpy(b + 20, &n32, 4);
	b[28] = 2;
	memcpy(b + 32, &ext, 4);
	for (size_t i = 0; i < k; i++)
		memcpy(b + 48 + 24 * i, e, 24);
	pt_diag_init(&d);
	assert_int_equal(ldcache_parse(&c, b, len, "nonul", &d), 0);
	assert_int_equal(c.n, 0);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].what, "entries (the first: entry 0) have a string offset outside the file"));
	assert_null(ldcache_lookup(&c, "libc.so.6", NULL, 0));
	ldcache_release(&c);
	pt_diag_release(&d);
}

/*
 * fuzz_ldcache (tests/fuzz/corpus/fuzz_ldcache/finding-hang-long-digit-run):
 * glibc's digit-aware comparison saturated a run of more than 18 digits but
 * then stopped stepping over it: an endless loop, in the lookup of any name
 * against such a key, or of such a name (a crafted DT_NEEDED) against any
 * cache with a digit at that place. Now the runs compare (saturated) and end.
 */
static void ldcache_long_digit_runs_end(void **state)
{
	static const char *keys[] = { "libx.so.4444444444444444444444444444", "libx.so.3", "liba.so.1" };
	size_t n = 3, strings = 48 + 24 * n, len = strings + 256, s = strings;
	uint8_t *b = pt_xcalloc(1, len);
	uint32_t n32 = (uint32_t)n;
	struct ldcache c;
	struct pt_diag d;

	(void)state;
	memcpy(b, "glibc-ld.so.cache1.1", 20);
	memcpy(b + 20, &n32, 4);
	b[28] = 2;
	for (size_t i = 0; i < n; i++) {
		uint8_t *r = b + 48 + 24 * i;
		int32_t flags = 0x0303;
		uint32_t k = (uint32_t)s, v;

		memcpy(r, &flags, 4);
		memcpy(r + 4, &k, 4);
		strcpy((char *)b + s, keys[i]);
		s += strlen(keys[i]) + 1;
		v = (uint32_t)s;
		memcpy(r + 8, &v, 4);
		b[s++] = '/';
		strcpy((char *)b + s, keys[i]);
		s += strlen(keys[i]) + 1;
	}
	pt_diag_init(&d);
	assert_int_equal(ldcache_parse(&c, b, len, "digits", &d), 0);
	assert_int_equal(c.n, 3);
	assert_string_equal(ldcache_lookup(&c, "libx.so.4444444444444444444444444444", NULL, 0),
			    "/libx.so.4444444444444444444444444444");
	/* Another long run: compared by its saturated value, not found, and it ends. */
	assert_null(ldcache_lookup(&c, "libx.so.55555555555555555555555555555555", NULL, 0));
	assert_string_equal(ldcache_lookup(&c, "libx.so.3", NULL, 0), "/libx.so.3");
	assert_null(ldcache_lookup(&c, "libx.so.7", NULL, 0));
	ldcache_release(&c);
	pt_diag_release(&d);
}

static const uint8_t *section(const struct elfobj *o, const uint8_t *map, uint32_t type,
			     const char *name, size_t *len)
{
	for (size_t i = 0; i < o->n_sections; i++)
		if (o->sections[i].type == type && (!name || !strcmp(o->sections[i].name, name))) {
			*len = o->sections[i].size;
			return map + o->sections[i].offset;
		}
	*len = 0;
	return NULL;
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
	s.dynsym = section(&o, map, SHT_DYNSYM, NULL, &s.dynsym_len);
	s.dynstr = section(&o, map, SHT_STRTAB, ".dynstr", &s.dynstr_len);
	s.versym = section(&o, map, SHT_GNU_versym, NULL, &s.versym_len);
	s.verdef = section(&o, map, SHT_GNU_verdef, NULL, &s.verdef_len);
	gh = section(&o, map, SHT_GNU_HASH, NULL, &s.gnu_hash_len);
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

/* fuzz_showconfig (UBSan, nonnull): NVCC flags with PTX codes only copied the empty SASS
 * list with memcpy from NULL. */
static void showconfig_ptx_only(void **state)
{
	static const char text[] =
		"PyTorch built with:\n"
		"  - GCC 12.2\n"
		"  - NVCC architecture flags: -gencode;arch=compute_90,code=compute_90\n"
		"  - Build settings: BUILD_TYPE=Release, \n";
	struct showconfig c;
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(showconfig_parse((const uint8_t *)text, sizeof(text) - 1, &c, "ptx-only", &d), 0);
	assert_int_equal(c.n_nvcc_sass, 0);
	assert_int_equal(c.n_nvcc_ptx, 1);
	assert_string_equal(c.arch_list, "9.0+PTX");
	showconfig_release(&c);
	pt_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ldcache_without_nul_is_linear),
		cmocka_unit_test(gnu_hash_bloom_shift_over_31),
		cmocka_unit_test(ldcache_long_digit_runs_end),
		cmocka_unit_test(showconfig_ptx_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
