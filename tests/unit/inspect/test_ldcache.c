/*
 * ldcache: the binary /etc/ld.so.cache format from bytes (elf-loader.md §11):
 * header, entries, extensions, glibc's digit-aware ordering, hwcaps entries,
 * and every damaged size field.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ldcache.h"
#include "xalloc.h"

struct ent { const char *key, *value; int32_t flags; uint64_t hwcap; };

/* Build a new-format cache (entries must be given sorted descending). */
static uint8_t *make_cache(const struct ent *e, size_t n, const char *const *hw, size_t nhw,
			   size_t *len)
{
	size_t strings = 48 + 24 * n, cap = strings + 4096;
	uint8_t *b = calloc(1, cap);
	size_t s = strings;

	memcpy(b, "glibc-ld.so.cache1.1", 20);
	*(uint32_t *)(b + 20) = (uint32_t)n;
	b[28] = 2;	/* little-endian */
	for (size_t i = 0; i < n; i++) {
		uint8_t *r = b + 48 + 24 * i;
		*(int32_t *)r = e[i].flags;
		*(uint32_t *)(r + 4) = (uint32_t)s;
		strcpy((char *)b + s, e[i].key);
		s += strlen(e[i].key) + 1;
		*(uint32_t *)(r + 8) = (uint32_t)s;
		strcpy((char *)b + s, e[i].value);
		s += strlen(e[i].value) + 1;
		memcpy(r + 16, &e[i].hwcap, 8);
	}
	if (nhw) {
		uint32_t names[8];
		for (size_t i = 0; i < nhw; i++) {
			names[i] = (uint32_t)s;
			strcpy((char *)b + s, hw[i]);
			s += strlen(hw[i]) + 1;
		}
		s = (s + 3) & ~(size_t)3;
		size_t arr = s;
		memcpy(b + arr, names, 4 * nhw);
		s += 4 * nhw;
		size_t ext = s;
		*(uint32_t *)(b + 32) = (uint32_t)ext;
		*(uint32_t *)(b + ext) = 0xeaa42174u;
		*(uint32_t *)(b + ext + 4) = 1;
		*(uint32_t *)(b + ext + 8) = 1;		/* tag 1: hwcaps names */
		*(uint32_t *)(b + ext + 16) = (uint32_t)arr;
		*(uint32_t *)(b + ext + 20) = (uint32_t)(4 * nhw);
		s += 24;
	}
	*(uint32_t *)(b + 24) = (uint32_t)(s - strings);
	*len = s;
	return b;
}

static const struct ent basic[] = {
	{ "libz.so.1", "/lib/x86_64-linux-gnu/libz.so.1", 0x0303, 0 },
	{ "libfoo.so.10", "/opt/a/libfoo.so.10", 0x0303, 0 },
	{ "libfoo.so.2", "/lib32/libfoo.so.2", 0x0003, 0 },	/* i386: skipped */
	{ "libfoo.so.2", "/opt/b/libfoo.so.2", 0x0303, 0 },
	{ "libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6", 0x0303, 0 },
};

/* A cache made of e (and hwcaps names hw), parsed without error into *c (which owns the bytes). */
static void parse_made(const struct ent *e, size_t n, const char *const *hw, size_t nhw,
		       struct ldcache *c, struct pt_diag *d)
{
	size_t len;
	uint8_t *b = make_cache(e, n, hw, nhw, &len);

	pt_diag_init(d);
	assert_int_equal(ldcache_parse(c, b, len, "cache", d), 0);
}

static void lookup_rules(void **state)
{
	struct ldcache c;
	struct pt_diag d;

	(void)state;
	parse_made(basic, 5, NULL, 0, &c, &d);
	assert_int_equal(c.n, 5);
	assert_string_equal(ldcache_lookup(&c, "libz.so.1", NULL, 0), "/lib/x86_64-linux-gnu/libz.so.1");
	assert_string_equal(ldcache_lookup(&c, "libc.so.6", NULL, 0), "/lib/x86_64-linux-gnu/libc.so.6");
	/* The i386 entry comes first but its flags are not x86-64's. */
	assert_string_equal(ldcache_lookup(&c, "libfoo.so.2", NULL, 0), "/opt/b/libfoo.so.2");
	/* Digits compare as numbers: 10 > 2, and "02" equals "2". */
	assert_string_equal(ldcache_lookup(&c, "libfoo.so.10", NULL, 0), "/opt/a/libfoo.so.10");
	assert_string_equal(ldcache_lookup(&c, "libfoo.so.02", NULL, 0), "/opt/b/libfoo.so.2");
	assert_null(ldcache_lookup(&c, "libnope.so", NULL, 0));
	assert_int_equal(d.n, 0);
	ldcache_release(&c);
	pt_diag_release(&d);
}

/* hwcaps entries precede the plain one; the best active subdir wins (§11). */
static void hwcaps_entries(void **state)
{
	static const char *const hw[] = { "x86-64-v2", "x86-64-v3" };
	static const struct ent e[] = {
		{ "libh.so", "/d/glibc-hwcaps/x86-64-v2/libh.so", 0x0303, (1ull << 62) | 0 },
		{ "libh.so", "/d/glibc-hwcaps/x86-64-v3/libh.so", 0x0303, (1ull << 62) | 1 },
		{ "libh.so", "/d/libh.so", 0x0303, 0 },
	};
	char *v3v2[] = { "x86-64-v3", "x86-64-v2" }, *v2[] = { "x86-64-v2" };
	struct ldcache c;
	struct pt_diag d;

	(void)state;
	parse_made(e, 3, hw, 2, &c, &d);
	assert_int_equal(c.n_hwcaps_names, 2);
	assert_string_equal(ldcache_lookup(&c, "libh.so", v3v2, 2), "/d/glibc-hwcaps/x86-64-v3/libh.so");
	assert_string_equal(ldcache_lookup(&c, "libh.so", v2, 1), "/d/glibc-hwcaps/x86-64-v2/libh.so");
	assert_string_equal(ldcache_lookup(&c, "libh.so", NULL, 0), "/d/libh.so");
	ldcache_release(&c);
	pt_diag_release(&d);
}

/* Every truncation: an error for a cut header, otherwise fewer entries and a warning. */
static void truncated_everywhere(void **state)
{
	size_t len;
	uint8_t *full = make_cache(basic, 5, NULL, 0, &len);

	(void)state;
	for (size_t cut = 0; cut < len; cut++) {
		uint8_t *b = pt_xmalloc(cut ? cut : 1);
		struct ldcache c;
		struct pt_diag d;
		int rc;

		memcpy(b, full, cut);
		pt_diag_init(&d);
		rc = ldcache_parse(&c, b, cut, "cut", &d);
		if (cut < 48)
			assert_int_equal(rc, -1);
		else
			assert_true(c.n <= 5);
		if (rc == 0 && c.n < 5)
			assert_true(d.n >= 1);
		ldcache_lookup(&c, "libc.so.6", NULL, 0);
		ldcache_release(&c);
		pt_diag_release(&d);
	}
	free(full);
}

static void bad_magic_and_counts(void **state)
{
	size_t len;
	uint8_t *b = make_cache(basic, 5, NULL, 0, &len);
	struct ldcache c;
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	*(uint32_t *)(b + 20) = 0x7fffffff;	/* nlibs far past the end */
	assert_int_equal(ldcache_parse(&c, b, len, "big", &d), 0);
	assert_true(c.n < 50);
	assert_non_null(strstr(d.v[0].what, "cache claims"));
	ldcache_release(&c);
	pt_diag_release(&d);

	b = make_cache(basic, 5, NULL, 0, &len);
	b[0] = 'X';
	pt_diag_init(&d);
	assert_int_equal(ldcache_parse(&c, b, len, "magic", &d), -1);
	assert_string_equal(d.v[0].what, "not an ld.so.cache (bad magic)");
	ldcache_release(&c);
	pt_diag_release(&d);

	/* An old-format (libc5) cache alone is refused explicitly. */
	b = calloc(1, 64);
	memcpy(b, "ld.so-1.7.0", 11);
	pt_diag_init(&d);
	assert_int_equal(ldcache_parse(&c, b, 64, "old", &d), -1);
	assert_non_null(strstr(d.v[0].what, "not supported"));
	ldcache_release(&c);
	pt_diag_release(&d);
}

/* The machine's own cache agrees with ldconfig -p on a few names. */
static void system_cache(void **state)
{
	struct ldcache c;
	struct pt_diag d;
	const char *p;

	(void)state;
	pt_diag_init(&d);
	/* Every glibc system has one (ldconfig writes it at installation). */
	assert_int_equal(ldcache_load(&c, "/etc/ld.so.cache", &d), 0);
	p = ldcache_lookup(&c, "libc.so.6", NULL, 0);
	assert_non_null(p);
	assert_string_equal(p, "/lib/x86_64-linux-gnu/libc.so.6");
	assert_non_null(c.generator);
	assert_non_null(strstr(c.generator, "ldconfig"));
	ldcache_release(&c);
	pt_diag_release(&d);
}

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookup_rules),
		cmocka_unit_test(hwcaps_entries),
		cmocka_unit_test(truncated_everywhere),
		cmocka_unit_test(bad_magic_and_counts),
		cmocka_unit_test(system_cache),
		cmocka_unit_test(ldcache_without_nul_is_linear),
		cmocka_unit_test(ldcache_long_digit_runs_end),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
