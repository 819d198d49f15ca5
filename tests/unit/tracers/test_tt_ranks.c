/*
 * tracers/torchtrace/tt_ranks.c: the collectives parity rules between ranks' schedules
 * and code; the divergences of ranks that compiled different things.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ptest_db.h"
#include "ptest_tt.h"
#include "tt_query.h"

/* tlparse's collectives parity: calls in comments and strings do not count, a wait missing does. */
static void collectives_parity_rules(void **state)
{
	static const char sched[] = "[\"torch.ops._c10d_functional.all_reduce_.default\", "
				    "\"torch.ops._c10d_functional.wait_tensor.default\", "
				    "\"torch.ops._c10d_functional.all_gather_into_tensor.default\"]";
	static const char code[] =
		"# torch.ops._c10d_functional.broadcast.default(x)\n"
		"buf = torch.ops._c10d_functional.all_reduce_.default(a, 'sum', '0')\n"
		"torch . ops . _c10d_functional . wait_tensor . default (buf)\n"
		"assert_size_stride(b, (1,), 'torch.ops._c10d_functional.all_gather_into_tensor.default')\n"
		"if n < 2: b = torch.ops._c10d_functional.all_gather_into_tensor.default(a, 2, '0')\n"
		"/* torch.ops._c10d_functional.reduce_scatter_tensor.default(x) */\n"
		"c = torch.ops._c10d_functional.reduce_scatter_tensor.default(a, 'sum', 2, '0')  // one more\n";
	long off, miss;

	(void)state;
	tt_collectives_parity(sched, strlen(sched), code, strlen(code), &off, &miss);
	/* all_reduce 1 = 1, all_gather 1 = 1, reduce_scatter 0 vs 1: offset 1; 3 calls, 1 wait. */
	assert_int_equal(off, 1);
	assert_int_equal(miss, 2);
}

static int setup(void **state)
{
	return ptest_db_setup(state, "test-tt-ranks", 0);
}

static int teardown(void **state)
{
	return ptest_db_teardown(state);
}

/* Ranks that compiled different things: each difference named, id by id. */
static void divergences(void **state)
{
	struct ptest_db *f = *state;
	int64_t a, b;
	json_t *o;
	char *s;

	ptest_tt_two_runs(f, &a, &b);
	assert_int_equal(tt_ranks_json(f->ix, a, &o, &f->diag), 0);
	s = json_dumps(json_object_get(o, "divergences"), JSON_COMPACT);
	/* "another order" only when both compiled the same ids: a different set is listed id by id. */
	assert_string_equal(s, "[\"rank 1 compiled [0/1], rank 0 did not\",\"rank 0 compiled [0/0], rank 1 did not\","
			       "\"rank 3 compiled 0 graphs, rank 0 1\",\"rank 0 compiled [0/0], rank 3 did not\"]");
	free(s);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(collectives_parity_rules),
		cmocka_unit_test_setup_teardown(divergences, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
