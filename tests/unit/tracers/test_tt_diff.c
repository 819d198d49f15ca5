/*
 * tracers/torchtrace/tt_diff.c: two runs' compiles matched by rank and compile
 * id (the trace names no location); what one run lacks is listed, a graph
 * that differs is flagged, a run against itself differs in nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "ptest_db.h"
#include "ptest_tt.h"
#include "tt_query.h"

static int setup(void **state)
{
	return ptest_db_setup(state, "test-tt-diff", 0);
}

static int teardown(void **state)
{
	return ptest_db_teardown(state);
}

/* a has rank 1's [0/1], b does not: removed; rank 0's [0/0] matched with its graph changed. */
static void removed_and_changed(void **state)
{
	struct ptest_db *f = *state;
	int64_t a, b;
	struct tt_diff d;

	ptest_tt_two_runs(f, &a, &b);
	assert_int_equal(tt_diff_load(f->ix, a, b, &d), 0);
	assert_int_equal(d.compiles_a, 2);
	assert_int_equal(d.compiles_b, 1);
	assert_int_equal(d.nadded, 0);
	assert_int_equal(d.nremoved, 1);	/* rank 1 [0/1] */
	assert_int_equal(d.removed[0].rank, 1);
	assert_string_equal(d.removed[0].compile_id, "0/1");
	assert_string_equal(d.removed[0].who, "rank 1");
	assert_int_equal(d.nmatched, 1);
	assert_int_equal(d.matched[0].id.rank, 0);
	assert_string_equal(d.matched[0].id.compile_id, "0/0");
	assert_string_equal(d.matched[0].compile_id_b, "0/0");
	assert_true(d.matched[0].graph_changed);
	assert_true(d.have_reasons);
	assert_true(d.differ);
	tt_diff_release(&d);
}

/* A run against itself: everything matched, nothing changed. */
static void same_run(void **state)
{
	struct ptest_db *f = *state;
	int64_t a, b;
	struct tt_diff d;

	ptest_tt_two_runs(f, &a, &b);
	assert_int_equal(tt_diff_load(f->ix, a, a, &d), 0);
	assert_int_equal(d.nadded + d.nremoved, 0);
	assert_int_equal(d.nmatched, 2);
	for (size_t i = 0; i < d.nmatched; i++) {
		assert_false(d.matched[i].graph_changed);
		assert_int_equal(d.matched[i].changed, 0);
	}
	assert_false(d.differ);
	tt_diff_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(removed_and_changed, setup, teardown),
		cmocka_unit_test_setup_teardown(same_run, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
