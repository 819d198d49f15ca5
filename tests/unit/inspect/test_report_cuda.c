/*
 * inspect/report/report_cuda.c over the scan of a real nvcc 13.0 object
 * (tests/fuzz/corpus/fuzz_fatbin/sm75_lineinfo.o, read from memory as in
 * test_fatbin_scan.c): lists, arch list, verdicts, and the 2 GiB note from the sizes
 * alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin_scan.h"
#include "report_cuda.h"

#include "fatbin_object.h"

/* The report: lists, arch list, verdicts; and the 2 GiB note from the sizes alone. */
static void report_lists_and_limits(void **state)
{
	struct run r;
	struct report_cuda rc;
	struct cuda_cc gpus[2] = { { 7, 5 }, { 8, 0 } };
	const char *args[2] = { "t4", "a100" };
	struct report_cuda_opts ro = { .gpus = gpus, .gpu_args = args, .n_gpus = 2 };
	json_t *j;

	(void)state;
	scan(&r, NULL, 0);
	report_cuda_init(&rc, &r.s, NULL, "k.o", &r.d);
	j = report_cuda_json(&rc, &ro);
	assert_string_equal(json_string_value(json_object_get(j, "arch_list")), "7.5");
	assert_string_equal(json_string_value(json_array_get(json_object_get(j, "sass"), 0)), "sm_75");
	assert_int_equal(json_array_size(json_object_get(j, "ptx")), 0);
	json_t *g = json_object_get(j, "gpu_verdict");
	assert_string_equal(json_string_value(json_object_get(json_array_get(g, 0), "verdict")), "sass_exact");
	assert_string_equal(json_string_value(json_object_get(json_array_get(g, 1), "verdict")), "none");
	assert_false(json_is_true(json_object_get(j, "near_2gib_limit")));
	assert_int_equal(r.d.n, 0);
	json_decref(j);
	report_cuda_release(&rc);

	/* 1.5 GiB of device code: a note (not a problem), and the JSON flag. */
	r.s.fatbins[0].size = REPORT_CUDA_NEAR_2GIB;
	report_cuda_init(&rc, &r.s, NULL, "k.o", &r.d);
	assert_int_equal(r.d.n, 1);
	assert_int_equal(r.d.v[0].sev, PT_SEV_NOTE);
	assert_non_null(strstr(r.d.v[0].what, "relocation truncated to fit"));
	j = report_cuda_json(&rc, &ro);
	assert_true(json_is_true(json_object_get(j, "near_2gib_limit")));
	json_decref(j);
	report_cuda_release(&rc);
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(report_lists_and_limits),
	};
	return cmocka_run_group_tests(tests, load, unload);
}
