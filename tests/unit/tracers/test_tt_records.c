/*
 * tracers/torchtrace/tt_records.c: the file names tlparse gives a record's payload
 * (tt_tlparse_name).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "tt_query.h"

static void tlparse_names(void **state)
{
	char base[256];
	const char *ext;

	(void)state;
	assert_int_equal(tt_tlparse_name("inductor_output_code", "/tmp/x/cabc.py", NULL, base, sizeof(base), &ext), 0);
	assert_string_equal(base, "inductor_output_code_cabc");
	assert_string_equal(ext, "txt");
	assert_int_equal(tt_tlparse_name("artifact", "fx_graph_cache_miss",
					    "{\"artifact\": {\"name\": \"fx_graph_cache_miss\", \"encoding\": \"json\"}}",
					    base, sizeof(base), &ext), 0);
	assert_string_equal(base, "fx_graph_cache_miss");
	assert_string_equal(ext, "json");
	assert_int_equal(tt_tlparse_name("optimize_ddp_split_child", "submod_0", NULL, base, sizeof(base), &ext), 0);
	assert_string_equal(base, "optimize_ddp_split_child_submod_0");
	assert_int_equal(tt_tlparse_name("aot_forward_graph", NULL, NULL, base, sizeof(base), &ext), 0);
	assert_string_equal(base, "aot_forward_graph");
	assert_int_equal(tt_tlparse_name("chromium_event", NULL, NULL, base, sizeof(base), &ext), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tlparse_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
