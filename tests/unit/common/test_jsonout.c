/* common/jsonout.c: lossy JSON strings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "jsonout.h"

/* Invalid UTF-8 and NUL become U+FFFD so the JSON document stays valid. */
static void json_lossy(void **state)
{
	json_t *j = pt_json_strn_lossy("a\xff" "b\0c\xc3\xa9", 7);

	(void)state;
	assert_non_null(j);
	assert_string_equal(json_string_value(j), "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xc3\xa9");
	json_decref(j);
	j = pt_json_str(NULL);
	assert_true(json_is_null(j));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_lossy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
