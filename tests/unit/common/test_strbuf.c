/* common/strbuf.c: capped buffers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "strbuf.h"

/* Appending past the cap fails and leaves the buffer as it was. */
static void strbuf_cap_is_hard(void **state)
{
	struct pt_strbuf sb;

	(void)state;
	pt_strbuf_init(&sb, 8);
	assert_int_equal(pt_strbuf_adds(&sb, "12345"), 0);
	assert_int_equal(pt_strbuf_adds(&sb, "6789"), -1);
	assert_string_equal(pt_strbuf_str(&sb), "12345");
	assert_int_equal(pt_strbuf_addf(&sb, "%d", 678), 0);
	assert_string_equal(pt_strbuf_str(&sb), "12345678");
	assert_int_equal(sb.len, 8);
	/* A size that would overflow len + n is refused, not wrapped. */
	assert_int_equal(pt_strbuf_add(&sb, "x", (size_t)-1), -1);
	pt_strbuf_release(&sb);
	assert_string_equal(pt_strbuf_str(&sb), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strbuf_cap_is_hard),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
