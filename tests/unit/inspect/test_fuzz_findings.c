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
#include <stdlib.h>
#include <string.h>

#include "ldcache.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ldcache_without_nul_is_linear),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
