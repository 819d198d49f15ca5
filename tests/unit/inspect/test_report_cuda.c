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
#include "ptest.h"
#include "report_cuda.h"

#define FATBIN_OBJ "tests/fuzz/corpus/fuzz_fatbin/sm75_lineinfo.o"

static uint8_t *obj;
static size_t obj_len;

static int load(void **state)
{
	const char *src = getenv("PT_SRC");
	char *path = ptest_path(src ? src : ".", FATBIN_OBJ);

	(void)state;
	obj = (uint8_t *)ptest_slurp(path, &obj_len);
	free(path);
	return 0;
}

static int unload(void **state)
{
	(void)state;
	free(obj);
	return 0;
}

struct run {
	uint8_t *buf;
	struct elfobj o;
	struct cuda_scan s;
	struct pt_diag d;
};

/* Scan a copy of the object (report_lists_and_limits changes the scan's sizes). */
static void scan(struct run *r)
{
	assert_non_null(obj);	/* a file of the repository: never a skip */
	r->buf = malloc(obj_len);
	memcpy(r->buf, obj, obj_len);
	pt_diag_init(&r->d);
	assert_int_equal(elfobj_open_mem(&r->o, "k.o", r->buf, obj_len, &r->d), 0);
	assert_int_equal(cuda_scan(&r->o, 0, &r->s, &r->d), 0);
}

static void done(struct run *r)
{
	cuda_scan_release(&r->s);
	elfobj_release(&r->o);
	pt_diag_release(&r->d);
	free(r->buf);
}

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
	scan(&r);
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
