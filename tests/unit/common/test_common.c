/* common/: capped buffers, diagnostics, colour policy, lossy JSON strings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pty.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diag.h"
#include "jsonout.h"
#include "mapguard.h"
#include "ttysafe.h"
#include "strbuf.h"
#include "term.h"

/* Appending past the cap fails and leaves the buffer as it was. */
static void strbuf_cap_is_hard(void **state)
{
	struct pt_strbuf sb;

	(void)state;
	pt_strbuf_init(&sb, 8);
	assert_int_equal(pt_strbuf_adds(&sb, "12345"), 0);
	assert_int_equal(pt_strbuf_adds(&sb, "6789"), -1);
	assert_string_equal(pt_strbuf_str(&sb), "12345");
	assert_int_equal(pt_strbuf_addf(&sb, "%d", 678), 0);
	assert_string_equal(pt_strbuf_str(&sb), "12345678");
	assert_int_equal(sb.len, 8);
	/* A size that would overflow len + n is refused, not wrapped. */
	assert_int_equal(pt_strbuf_add(&sb, "x", (size_t)-1), -1);
	pt_strbuf_release(&sb);
	assert_string_equal(pt_strbuf_str(&sb), "");
}

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

/* Invalid UTF-8 and NUL become U+FFFD so the JSON document stays valid. */
static void json_lossy(void **state)
{
	json_t *j = pt_json_strn_lossy("a\xff" "b\0c\xc3\xa9", 7);

	(void)state;
	assert_non_null(j);
	assert_string_equal(json_string_value(j), "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xc3\xa9");
	json_decref(j);
	j = pt_json_str(NULL);
	assert_true(json_is_null(j));
}

/*
 * A mapped file cut under the reader: the touch past the new end raises
 * SIGBUS, which the guard turns into a jump back (B19); nested guards pop in
 * order and the code after the guard runs normally.
 */
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

static void mapguard_catches_sigbus(void **state)
{
	char path[] = "/tmp/pt_mapguard_XXXXXX";
	int fd = mkstemp(path);
	long pg = sysconf(_SC_PAGESIZE);
	volatile int jumped = 0, reached = 0;
	struct pt_mapguard outer, inner;
	const volatile char *m;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 4 * pg), 0);
	m = mmap(NULL, (size_t)(4 * pg), PROT_READ, MAP_SHARED, fd, 0);
	assert_true(m != MAP_FAILED);
	assert_int_equal(ftruncate(fd, pg), 0);
	if (PT_MAPGUARD_BEGIN(&outer) == 0) {
		if (PT_MAPGUARD_BEGIN(&inner) == 0) {
			(void)m[0];		/* still in the file */
			reached = 1;
			(void)m[2 * pg];	/* past the new end: SIGBUS */
			reached = 2;
			pt_mapguard_end(&inner);
		} else {
			jumped = 1;
		}
		pt_mapguard_end(&outer);
	} else {
		jumped = 2;
	}
	assert_int_equal(reached, 1);
	assert_int_equal(jumped, 1);	/* the innermost guard, and the outer one was left */
	munmap((void *)(uintptr_t)m, (size_t)(4 * pg));
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strbuf_cap_is_hard),
		cmocka_unit_test(diag_format),
		cmocka_unit_test(diag_bounded),
		cmocka_unit_test(color_policy),
		cmocka_unit_test(json_lossy),
		cmocka_unit_test(mapguard_catches_sigbus),
		cmocka_unit_test(diag_once),
		cmocka_unit_test(ttysafe_escapes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
