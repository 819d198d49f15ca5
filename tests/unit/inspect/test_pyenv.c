/*
 * inspect/torch/pyenv.c: the helper report parser's marker handling (no marker, a
 * broken document after it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "pyenv.h"

/* No marker, or a broken document after it: -1 with a reason, never a crash. */
static void report_without_marker(void **state)
{
	struct pyenv_report r;
	struct pt_diag d;
	static const char bad[] = "\n@@PTINSPECT-PYENV-JSON@@\n{\"mode\": ";

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(pyenv_parse("Traceback ...", 13, "/py", &r, &d), -1);
	assert_int_equal(pyenv_parse(bad, sizeof(bad) - 1, "/py", &r, &d), -1);
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 2);
	pyenv_report_release(&r);
	pt_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(report_without_marker),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
