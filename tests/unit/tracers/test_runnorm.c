/* tracers/runnorm: what differs from run to run is masked, the rest (file names, lines) kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "runnorm.h"
#include "xalloc.h"

static const char *const rows[][3] = {
	{ "/tmp/tmp.Ab3dE9/sub/x.py:8: UserWarning", "/tmp/?/sub/x.py:8: UserWarning", "mktemp -d directory" },
	{ "File \"/tmp/tmpk2j_3lq0/train.py\", line 10", "File \"/tmp/?/train.py\", line 10", "Python tempfile directory" },
	{ "/var/tmp/run-42/a.py:3", "/var/tmp/?/a.py:3", "/var/tmp too" },
	{ "/tmp/tmpk2j_3lq0.py:5", "/tmp/tmp?.py:5", "mkstemp file right in /tmp: its random part" },
	{ "/tmp/x.py:5", "/tmp/x.py:5", "a plain file in /tmp keeps its name" },
	{ "/home/u/tmp/run1/x.py:5", "/home/u/tmp/run1/x.py:5", "a tmp inside a longer path is kept" },
	{ "(/tmp/a/b.py:1)", "(/tmp/?/b.py:1)", "after a parenthesis" },
	{ "object at 0x7f00deadbeef", "object at 0x?", "addresses" },
	{ "took 12.5 ms", "took ? s", "timings" },
	{ "", "", "empty" },
};

static void table(void **state)
{
	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(rows); i++) {
		char *s = runnorm_text(rows[i][0]);

		if (strcmp(s, rows[i][1]))
			fail_msg("%s: '%s' gave '%s', want '%s'", rows[i][2], rows[i][0], s, rows[i][1]);
		free(s);
	}
}

static void null_is_empty(void **state)
{
	char *s = runnorm_text(NULL);

	(void)state;
	assert_string_equal(s, "");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table),
		cmocka_unit_test(null_is_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
