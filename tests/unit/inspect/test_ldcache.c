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

static void lookup_rules(void **state)
{
	size_t len;
	uint8_t *b = make_cache(basic, 5, NULL, 0, &len);
	struct ldcache c;
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(ldcache_parse(&c, b, len, "cache", &d), 0);
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
	size_t len;
	uint8_t *b = make_cache(e, 3, hw, 2, &len);
	struct ldcache c;
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(ldcache_parse(&c, b, len, "cache", &d), 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookup_rules),
		cmocka_unit_test(hwcaps_entries),
		cmocka_unit_test(truncated_everywhere),
		cmocka_unit_test(bad_magic_and_counts),
		cmocka_unit_test(system_cache),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
