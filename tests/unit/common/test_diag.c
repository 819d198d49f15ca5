/* common/diag.c: the message format, the bound on a flood, duplicates kept once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"

/* Messages print as "prog: 'file': where: what"; warnings say so. */
static void diag_format(void **state)
{
	struct pt_diag d;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	pt_diag_init(&d);
	pt_diag_add(&d, PT_SEV_ERROR, "libfoo.so", "offset 0x40", "truncated program header");
	pt_diag_add(&d, PT_SEV_WARNING, NULL, NULL, "plain %d", 7);
	assert_int_equal(pt_diag_count(&d, PT_SEV_WARNING), 2);
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 1);
	pt_diag_print(&d, f, "ptinspect", 0);
	fclose(f);
	assert_string_equal(out, "ptinspect: 'libfoo.so': offset 0x40: truncated program header\n"
				 "ptinspect: warning: plain 7\n");
	free(out);
	pt_diag_release(&d);
}

/* A flood of warnings is bounded but still counted. */
static void diag_bounded(void **state)
{
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	d.max = 3;
	for (int i = 0; i < 10; i++)
		pt_diag_add(&d, PT_SEV_WARNING, "f", NULL, "w%d", i);
	assert_int_equal(d.n, 3);
	assert_int_equal(pt_diag_count(&d, PT_SEV_WARNING), 10);
	pt_diag_release(&d);
}

/* The same message twice is kept once; any field that differs makes another message. */
static void diag_once(void **state)
{
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	pt_diag_add(&d, PT_SEV_WARNING, "f", "ELF header", "refused: %d", 1);
	pt_diag_add(&d, PT_SEV_WARNING, "f", "ELF header", "refused: %d", 1);
	assert_int_equal(d.n, 1);
	pt_diag_add(&d, PT_SEV_NOTE, "f", "ELF header", "refused: 1");
	pt_diag_add(&d, PT_SEV_WARNING, "g", "ELF header", "refused: 1");
	pt_diag_add(&d, PT_SEV_WARNING, "f", NULL, "refused: 1");
	pt_diag_add(&d, PT_SEV_WARNING, NULL, "ELF header", "refused: 1");
	pt_diag_add(&d, PT_SEV_WARNING, "f", "ELF heade", "rrefused: 1");
	assert_int_equal(d.n, 6);
	pt_diag_add(&d, PT_SEV_WARNING, NULL, "ELF header", "refused: 1");
	assert_int_equal(d.n, 6);
	assert_int_equal(d.dropped, 0);
	pt_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(diag_format),
		cmocka_unit_test(diag_bounded),
		cmocka_unit_test(diag_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
