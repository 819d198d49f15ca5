/*
 * tracers/torchtrace/tt_diff.c: two runs' compiles matched by rank and compile
 * id; what one run lacks is listed, a graph that differs is flagged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include <jansson.h>

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
	json_t *o;

	ptest_tt_two_runs(f, &a, &b);
	assert_int_equal(tt_diff_json(f->ix, a, b, &o), 0);
	assert_int_equal(json_array_size(json_object_get(o, "removed")), 1);	/* rank 1 [0/1] */
	assert_true(json_is_true(json_object_get(json_array_get(json_object_get(o, "matched"), 0), "graph_changed")));
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(removed_and_changed, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
