/* common/: truncation made explicit (checked and _trunc appends, pt_fmt) and the growth idiom. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"

/* The _trunc appends keep what fits, count the rest, and say that they cut. */
static void strbuf_trunc_clips_and_counts(void **state)
{
	struct pt_strbuf sb;

	(void)state;
	pt_strbuf_init(&sb, 8);
	assert_int_equal(pt_strbuf_adds_trunc(&sb, "12345"), 0);
	assert_int_equal(sb.clipped, 0);
	assert_int_equal(pt_strbuf_adds_trunc(&sb, "6789xy"), 1);
	assert_string_equal(pt_strbuf_str(&sb), "12345678");
	assert_int_equal(sb.len, 8);
	assert_int_equal(sb.clipped, 3);
	/* Full: everything more is counted, nothing kept. */
	assert_int_equal(pt_strbuf_addf_trunc(&sb, "%d", 42), 1);
	assert_int_equal(sb.clipped, 5);
	assert_string_equal(pt_strbuf_str(&sb), "12345678");
	/* The checking append still fails whole. */
	assert_int_equal(pt_strbuf_add(&sb, "z", 1), -1);
	/* reset starts the count again. */
	pt_strbuf_reset(&sb);
	assert_int_equal(sb.clipped, 0);
	assert_int_equal(pt_strbuf_add_trunc(&sb, "abc", 0), 0);
	assert_int_equal(sb.len, 0);
	pt_strbuf_release(&sb);
	assert_int_equal(sb.clipped, 0);
}

static void fmt_checked_and_trunc(void **state)
{
	char b[6];

	(void)state;
	assert_int_equal(pt_fmt(b, sizeof(b), "%s", "12345"), 0);
	assert_string_equal(b, "12345");
	assert_int_equal(pt_fmt(b, sizeof(b), "%d", 123456), -1);
	assert_string_equal(b, "12345");	/* the clipped prefix, terminated */
	assert_int_equal(pt_fmt_trunc(b, sizeof(b), "line %d", 7), 1);
	assert_string_equal(b, "line ");
	assert_int_equal(pt_fmt_trunc(b, sizeof(b), "l%d", 7), 0);
	assert_string_equal(b, "l7");
}

/* PT_GROW doubles (8 first); PT_RESERVE makes room for a count. */
static void growth_idiom(void **state)
{
	int *v = NULL;
	size_t alloc = 0;
	char *b = NULL;
	size_t cap = 0;

	(void)state;
	for (size_t i = 0; i < 100; i++) {
		PT_GROW(v, i, alloc);
		v[i] = (int)i;
	}
	assert_int_equal(alloc, 128);
	assert_int_equal(v[99], 99);
	/* An index far past the capacity: exactly enough. */
	PT_GROW(v, 1000, alloc);
	assert_int_equal(alloc, 1001);
	v[1000] = 1;
	free(v);
	PT_RESERVE(b, 0, cap);
	assert_null(b);
	assert_int_equal(cap, 0);
	PT_RESERVE(b, 5, cap);
	assert_int_equal(cap, 8);
	PT_RESERVE(b, 8, cap);
	assert_int_equal(cap, 8);
	PT_RESERVE(b, 9, cap);
	assert_int_equal(cap, 16);
	memset(b, 'x', 16);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strbuf_trunc_clips_and_counts),
		cmocka_unit_test(fmt_checked_and_trunc),
		cmocka_unit_test(growth_idiom),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
