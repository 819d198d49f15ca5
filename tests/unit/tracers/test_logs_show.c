/*
 * tracers/logs/logs_query.c's logs_show_load: what `pttrace show` reads from
 * the logs part of a run made in the test: lines by kind, graph breaks and
 * recompiles with their compile ids, errors (ERROR lines, tracebacks,
 * crashes) and the crash records with their Python place; another run's
 * records stay out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "logs_ingest.h"
#include "logs_query.h"
#include "ptest_db.h"

static int setup(void **state)
{
	return ptest_db_setup(state, "test-logs-show", 1);
}

static int teardown(void **state)
{
	return ptest_db_teardown(state);
}

static void ingest_text(struct db *ix, int64_t run, const char *text)
{
	struct logs_ingest *ig = logs_ingest_new(ix, run, 1795315638000000, 0);

	assert_non_null(ig);
	assert_int_equal(logs_ingest_feed(ig, 2, (const uint8_t *)text, strlen(text)), 0);
	assert_int_equal(logs_ingest_finish(ig), 0);
	logs_ingest_free(ig);
}

static const char text[] =
	"V1122 02:47:18.450000 9740 torch/_dynamo/symbolic_convert.py:435] [0/0] [__graph_breaks] Graph break in user code at /x/a.py:4\n"
	"V1122 02:47:18.450000 9740 torch/_dynamo/symbolic_convert.py:435] [0/0] [__graph_breaks] Reason: builtin: print\n"
	"V1122 02:47:29.941000 9740 torch/_dynamo/guards.py:2791] [3/1] [__recompiles] Recompiling function h in /x/a.py:8\n"
	"E1122 02:47:30.000000 9740 x.py:1] bad thing\n"
	"Traceback (most recent call last):\n"
	"  File \"/x/y.py\", line 3, in <module>\n"
	"    f()\n"
	"ValueError: boom\n"
	"Fatal Python error: Segmentation fault\n"
	"\n"
	"Current thread 0x00007f00 (most recent call first):\n"
	"  File \"/x/crash.py\", line 7 in g\n"
	"  File \"/x/crash.py\", line 9 in <module>\n";

static void show_parts(void **state)
{
	struct ptest_db *f = *state;
	int64_t other = ptest_db_new_run(f->ix, "other");
	struct logs_show l;
	size_t lines = 0;

	ingest_text(f->ix, f->run, text);
	ingest_text(f->ix, other, "E1122 02:47:30.000000 9740 x.py:1] elsewhere\n");
	assert_int_equal(logs_show_load(f->ix, f->run, &l), 0);
	/* Every line is in one kind's count; kinds sorted by name. */
	assert_true(l.n_kinds >= 3);
	for (size_t i = 0; i < l.n_kinds; i++) {
		lines += (size_t)l.kinds[i].lines;
		if (i)
			assert_true(strcmp(l.kinds[i - 1].kind, l.kinds[i].kind) < 0);
	}
	assert_int_equal(lines, 13);
	/* One graph break record (both its lines), one recompile, with compile ids. */
	assert_int_equal(l.n_breaks, 1);
	assert_string_equal(l.breaks[0].text.s, "Graph break in user code at /x/a.py:4\nReason: builtin: print");
	assert_int_equal(l.breaks[0].text.len, strlen(l.breaks[0].text.s));
	assert_int_equal(l.breaks[0].frame_id, 0);
	assert_int_equal(l.breaks[0].frame_compile_id, 0);
	assert_int_equal(l.breaks[0].rank, LOGS_NULL);
	assert_int_equal(l.n_recompiles, 1);
	assert_int_equal(l.recompiles[0].frame_id, 3);
	assert_int_equal(l.recompiles[0].frame_compile_id, 1);
	assert_string_equal(l.recompiles[0].text.s, "Recompiling function h in /x/a.py:8");
	/* Errors in record order: the ERROR line, the traceback, the crash. */
	assert_int_equal(l.n_errors, 3);
	assert_int_equal(l.errors[0].level, 40);
	assert_string_equal(l.errors[0].text.s, "bad thing");
	assert_string_equal(l.errors[1].kind, "traceback");
	assert_string_equal(l.errors[2].kind, "crash");
	assert_true(l.errors[0].seq < l.errors[1].seq && l.errors[1].seq < l.errors[2].seq);
	/* The crash: faulthandler's innermost frame, on stderr. */
	assert_int_equal(l.n_crashes, 1);
	assert_string_equal(l.crashes[0].src_file, "/x/crash.py");
	assert_int_equal(l.crashes[0].src_line, 7);
	assert_int_equal(l.crashes[0].stream, 2);
	assert_int_equal(l.crashes[0].seq, l.errors[2].seq);
	logs_show_release(&l);
	/* A run without records: all empty. */
	{
		int64_t none = ptest_db_new_run(f->ix, "none");

		assert_int_equal(logs_show_load(f->ix, none, &l), 0);
		assert_int_equal(l.n_kinds + l.n_breaks + l.n_recompiles + l.n_errors + l.n_crashes, 0);
		logs_show_release(&l);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(show_parts, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
