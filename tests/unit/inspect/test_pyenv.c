/*
 * inspect/torch/pyenv.c: the helper report parser's marker handling (no marker, a
 * broken document after it), the partial report of a helper killed during the
 * import (N3), and the frame named from a faulthandler dump.
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

/* Killed during the import: the facts before it, the stack after the stage marker. */
static void partial_report(void **state)
{
	static const char out[] =
		"torch printed this\n"
		"\n@@PTINSPECT-PYENV-PRE@@\n"
		"{\"mode\": \"child\", \"cwd\": \"/w\", \"cwd_dropped\": true, \"sys_path\": [\"/a\", \"/b\"]}"
		"\n@@PTINSPECT-PYENV-IMPORTING@@\n"
		"Thread 0x00007f01 (most recent call first):\n"
		"  File \"/usr/lib/python3.11/threading.py\", line 320 in wait\n"
		"\n"
		"Current thread 0x00007f02 (most recent call first):\n"
		"  File \"/w/torch/__init__.py\", line 4 in <module>\n"
		"  File \"<frozen importlib._bootstrap>\", line 241 in _call_with_frames_removed\n";
	struct pyenv_report r;
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(pyenv_parse_partial(out, sizeof(out) - 1, "/py", "import torch did not finish "
					     "in 2 s: killed", &r, &d), 0);
	assert_true(r.partial);
	assert_false(r.torch_ok);
	assert_string_equal(r.import_error, "import torch did not finish in 2 s: killed");
	assert_string_equal(r.mode, "child");
	assert_true(r.cwd_dropped);
	assert_int_equal(r.n_sys_path, 2);
	assert_string_equal(r.hang_where, "File \"/w/torch/__init__.py\", line 4 in <module>");
	assert_non_null(strstr(r.hang_stack, "Thread 0x00007f01"));
	assert_int_equal(r.hang_stack[0], 'T');
	pyenv_report_release(&r);
	/* No PRE document: nothing to report. */
	assert_int_equal(pyenv_parse_partial("Traceback", 9, "/py", "x", &r, &d), -1);
	pyenv_report_release(&r);
	assert_int_equal(d.n, 0);
	pt_diag_release(&d);
}

static void stack_where(void **state)
{
	static const char only[] = "Thread 0x1 (most recent call first):\n  File \"a.py\", line 1 in f\n";
	char *w;

	(void)state;
	assert_null(pyenv_stack_where("", 0));
	assert_null(pyenv_stack_where("Timeout (0:00:01)!\n", 19));
	w = pyenv_stack_where(only, sizeof(only) - 1);
	assert_string_equal(w, "File \"a.py\", line 1 in f");
	free(w);
	/* No newline at the end, a dump cut in the middle of a line. */
	w = pyenv_stack_where("Current thread 0x2:\n    File \"b.py\", li", 39);
	assert_string_equal(w, "File \"b.py\", li");
	free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(report_without_marker),
		cmocka_unit_test(partial_report),
		cmocka_unit_test(stack_where),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
