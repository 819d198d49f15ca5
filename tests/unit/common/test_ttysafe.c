/* common/ttysafe.c: control characters kept from the terminal (B24). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttysafe.h"

static char *through_filter(const char *in, int color, int progress)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *under = open_memstream(&buf, &len), *f = pt_ttysafe_open(under, color, progress);

	/* In two writes cut inside an escape sequence: the filter keeps state across them. */
	fwrite(in, 1, strlen(in) / 2, f);
	fflush(f);
	fputs(in + strlen(in) / 2, f);
	fclose(f);
	fclose(under);
	return buf;
}

/* B24: control characters are shown as \xNN; only our own colours and progress pass. */
static void ttysafe_escapes(void **state)
{
	const char *in = "SONAME \033[2Jcleared \033]0;TITLE\007 \033[31mRED\033[0m\r\033[K\ttab\x7f\n";
	char *o;

	(void)state;
	o = through_filter(in, 0, 0);
	assert_string_equal(o, "SONAME \\x1b[2Jcleared \\x1b]0;TITLE\\x07 \\x1b[31mRED\\x1b[0m\\x0d"
			       "\\x1b[K\ttab\\x7f\n");
	free(o);
	o = through_filter(in, 1, 1);
	assert_string_equal(o, "SONAME \\x1b[2Jcleared \\x1b]0;TITLE\\x07 \033[31mRED\033[0m\r\033[K"
			       "\ttab\\x7f\n");
	free(o);
	o = through_filter("end\033[", 1, 1);	/* a sequence cut by the end is shown */
	assert_string_equal(o, "end\\x1b[");
	free(o);
}

/* C1 controls in UTF-8 (0xc2 0x80-0x9f; U+009B is CSI to a terminal) are shown; other 0xc2 text passes. */
static void ttysafe_c1_controls(void **state)
{
	char *o;

	(void)state;
	o = through_filter("a\xc2\x9b" "2Jb \xc2\xa9 caf\xc3\xa9 \xc2\x85 \xc2", 1, 1);
	assert_string_equal(o, "a\\xc2\\x9b2Jb \xc2\xa9 caf\xc3\xa9 \\xc2\\x85 \xc2");
	free(o);
	/* Cut between the two bytes (the split is in the middle of the input). */
	o = through_filter("ab\xc2\x9b" "cd", 0, 0);
	assert_string_equal(o, "ab\\xc2\\x9bcd");
	free(o);
	/* After an escape sequence that is not ours. */
	o = through_filter("\033\xc2\x9b" "1", 0, 0);
	assert_string_equal(o, "\\x1b\\xc2\\x9b1");
	free(o);
}

/*
 * The stream under the filter fails (a full disk; EPIPE when the reader went
 * away): the filter's stream fails too, so that a writer checking ferror or
 * fflush stops (pttrace sql | head with SIGPIPE ignored, N16).
 */
static void ttysafe_write_error(void **state)
{
	FILE *under = fopen("/dev/full", "w"), *f;

	(void)state;
	if (!under)
		skip();
	setvbuf(under, NULL, _IONBF, 0);
	f = pt_ttysafe_open(under, 0, 0);
	assert_non_null(f);
	fputs("row \033[2J\n", f);
	errno = 0;
	assert_int_equal(fflush(f), EOF);
	assert_int_equal(errno, ENOSPC);
	assert_true(ferror(f));
	fclose(f);
	fclose(under);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ttysafe_escapes),
		cmocka_unit_test(ttysafe_c1_controls),
		cmocka_unit_test(ttysafe_write_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
