/* common/term.c: the colour policy (NO_COLOR, --color), on a real pseudo-terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "term.h"

/*
 * NO_COLOR wins over auto; always and never are absolute. The stream is a real
 * terminal (a pseudo-terminal from openpty), so "auto" has colour to take away:
 * with a plain file every answer would be 0 whatever NO_COLOR says.
 */
static void color_policy(void **state)
{
	int master, slave;
	FILE *tty, *f = tmpfile();

	(void)state;
	assert_int_equal(openpty(&master, &slave, NULL, NULL, NULL), 0);
	tty = fdopen(slave, "w");
	assert_non_null(tty);
	assert_true(isatty(fileno(tty)));
	unsetenv("NO_COLOR");
	assert_int_equal(pt_color_enabled(tty, PT_COLOR_AUTO), 1);	/* a terminal: colour */
	setenv("NO_COLOR", "1", 1);
	assert_int_equal(pt_color_enabled(tty, PT_COLOR_AUTO), 0);	/* NO_COLOR wins */
	assert_int_equal(pt_color_enabled(tty, PT_COLOR_ALWAYS), 1);
	setenv("NO_COLOR", "", 1);					/* set but empty: ignored */
	assert_int_equal(pt_color_enabled(tty, PT_COLOR_AUTO), 1);
	unsetenv("NO_COLOR");
	assert_int_equal(pt_color_enabled(tty, PT_COLOR_NEVER), 0);
	assert_int_equal(pt_color_enabled(f, PT_COLOR_AUTO), 0);	/* not a terminal */
	assert_int_equal(pt_color_mode_parse("sometimes"), -1);
	fclose(tty);
	close(master);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(color_policy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
