/* inspect/torch/debuginfo.c: the DW_AT_producer flag parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo.h"

/* DW_AT_producer: the last -O and -g win; -gsplit-dwarf and -gdwarf-5 are not -g levels. */
static void producer_flags(void **state)
{
	char *o, *g;

	(void)state;
	debuginfo_producer_flags("GNU C17 12.2.0 -mtune=generic -g -gsplit-dwarf -O2 -fPIC", &o, &g);
	assert_string_equal(o, "-O2");
	assert_string_equal(g, "-g");
	free(o);
	free(g);
	debuginfo_producer_flags("GNU C++17 12.2.0 -g1 -O3 -O0 -gdwarf-5", &o, &g);
	assert_string_equal(o, "-O0");
	assert_string_equal(g, "-g1");
	free(o);
	free(g);
	debuginfo_producer_flags("clang version 14.0.6", &o, &g);
	assert_null(o);
	assert_null(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(producer_flags),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
