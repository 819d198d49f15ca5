/* common/cmp.c: the strcmp comparator under qsort, and the FNV-1a string hash's published values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "cmp.h"

static void strp_sorts(void **state)
{
	const char *v[] = { "libz.so.1", "libc.so.6", "libc10.so", "" };

	(void)state;
	qsort(v, 4, sizeof(*v), pt_cmp_strp);
	assert_string_equal(v[0], "");
	assert_string_equal(v[1], "libc.so.6");
	assert_string_equal(v[2], "libc10.so");
	assert_string_equal(v[3], "libz.so.1");
}

/* The FNV-1a 32-bit test vectors (Fowler, Noll, Vo). */
static void hash_str_fnv1a(void **state)
{
	(void)state;
	assert_int_equal(pt_hash_str(""), 0x811c9dc5u);
	assert_int_equal(pt_hash_str("a"), 0xe40c292cu);
	assert_int_equal(pt_hash_str("foobar"), 0xbf9cf968u);
	/* Bytes past 0x7f hash as unsigned. */
	assert_int_not_equal(pt_hash_str("\xc3\xa9"), pt_hash_str("e"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strp_sorts),
		cmocka_unit_test(hash_str_fnv1a),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
