/*
 * tracers/torchtrace/tt_ranks.c: the collectives parity rules between ranks' schedules
 * and code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(collectives_parity_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
