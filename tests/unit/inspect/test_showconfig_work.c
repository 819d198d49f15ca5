/*
 * showconfig's NVCC code lists on a huge input (fault-matrix.md B18:
 * a linear search per code made 80,000 codes take 15 s and the 4 MiB cap
 * allow minutes). The work is counted, not timed: this program defines
 * strcmp, which the parser's code (linked statically) calls for every
 * comparison of two codes, and asserts the count grows as n log n, not n^2.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "showconfig.h"

static size_t n_strcmp;

int strcmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;

	n_strcmp++;
	while (*x && *x == *y)
		x++, y++;
	return *x - *y;
}

/* N distinct SASS codes, each written twice, and N/2 PTX codes in a second NVCC line (3.3 MB). */
static void huge_code_lists(void **state)
{
	enum { N = 120000 };
	size_t cap = (size_t)N * 32 + 256, len = 0;
	char *t = malloc(cap);
	struct showconfig c;
	struct pt_diag d;

	(void)state;
	len += (size_t)snprintf(t + len, cap - len, "PyTorch built with:\n  - NVCC architecture flags: "
				"-gencode;arch=compute_80,code=[");
	for (size_t i = 0; i < 2 * (size_t)N; i++)
		len += (size_t)snprintf(t + len, cap - len, "%ssm_%zu", i ? "," : "", 1000 + i % N);
	len += (size_t)snprintf(t + len, cap - len, "]\n  - NVCC architecture flags: -gencode;arch=compute_80,code=[");
	for (size_t i = 0; i < N / 2; i++)
		len += (size_t)snprintf(t + len, cap - len, "%scompute_%zu", i ? "," : "", 1000 + 2 * i);
	len += (size_t)snprintf(t + len, cap - len, "]\n");
	assert_true(len <= SHOWCONFIG_MAX_LEN);
	pt_diag_init(&d);
	n_strcmp = 0;
	assert_int_equal(showconfig_parse((const uint8_t *)t, len, &c, "huge", &d), 0);
	/* n log n: about 2 x 300,000 x 19 for the sorts; n^2/2 would be 4.5e10. */
	assert_true(n_strcmp > (size_t)N);	/* the count is live: sorting compares */
	assert_true(n_strcmp < 100 * (size_t)N);
	assert_int_equal(c.n_nvcc_sass, N);		/* duplicates dropped, first kept */
	assert_string_equal(c.nvcc_sass[0], "sm_1000");
	assert_string_equal(c.nvcc_sass[N - 1], "sm_120999");
	assert_int_equal(c.n_nvcc_ptx, N / 2);
	/* Codes of 2-4 digits are archs; every even one has its PTX too. */
	assert_non_null(c.arch_list);
	assert_memory_equal(c.arch_list, "100.0+PTX;100.1;100.2+PTX;", 26);
	assert_non_null(strstr(c.arch_list, ";999.8+PTX;999.9"));
	showconfig_release(&c);
	pt_diag_release(&d);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(huge_code_lists),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
