/*
 * compdb: "command" and "arguments" entries, "output", entries of the wrong
 * shape, not JSON, not an array, and the whole-word flag test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "compdb.h"

#define P(s) (const uint8_t *)(s), strlen(s)

static void entries(void **state)
{
	struct compdb c;
	struct pt_diag d;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(compdb_parse(P("[\n"
					"{\"directory\": \"/b\", \"command\": \"/usr/bin/c++ -DNDEBUG -g -c /s/a.cpp\","
					" \"file\": \"/s/a.cpp\", \"output\": \"c10/CMakeFiles/c10.dir/a.cpp.o\"},\n"
					"{\"directory\": \"/b\", \"arguments\": [\"cc\", \"-O2\", \"-c\", \"b.c\"], \"file\": \"b.c\"},\n"
					"{\"directory\": \"/b\", \"file\": \"nocommand.c\"},\n"
					"{\"directory\": 1, \"command\": \"x\", \"file\": \"y\"},\n"
					"{\"directory\": \"/b\", \"arguments\": [\"cc\", 2], \"file\": \"z\"},\n"
					"42\n]"), &c, "cc", &d), 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.n_bad, 4);
	assert_string_equal(c.v[0].output, "c10/CMakeFiles/c10.dir/a.cpp.o");
	assert_string_equal(c.v[1].command, "cc -O2 -c b.c");
	assert_null(c.v[1].output);
	assert_int_equal(c.v[1].index, 1);
	assert_string_equal(d.v[0].where, "entry 2");
	assert_int_equal(compdb_has_flag(c.v[0].command, "-g"), 1);
	assert_int_equal(compdb_has_flag(c.v[0].command, "-DNDEBUG"), 1);
	assert_int_equal(compdb_has_flag(c.v[0].command, "-DNDEBU"), 0);
	assert_int_equal(compdb_has_flag(c.v[0].command, "-c"), 1);
	assert_int_equal(compdb_has_flag(c.v[1].command, "-g"), 0);
	compdb_release(&c);
	pt_diag_release(&d);
}

static void not_a_database(void **state)
{
	struct compdb c;
	struct pt_diag d;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(compdb_parse(P("[{\"directory\": \"/b\""), &c, "cc", &d), -1);
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 1);
	assert_non_null(strstr(d.v[0].what, "not JSON"));
	pt_diag_release(&d);
	pt_diag_init(&d);
	assert_int_equal(compdb_parse(P("{\"a\": 1}"), &c, "cc", &d), -1);
	assert_string_equal(d.v[0].what, "not a compilation database: the top level is not an array");
	pt_diag_release(&d);
	pt_diag_init(&d);
	assert_int_equal(compdb_parse(P("[]"), &c, "cc", &d), 0);
	assert_int_equal(c.n, 0);
	compdb_release(&c);
	pt_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(entries),
		cmocka_unit_test(not_a_database),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
