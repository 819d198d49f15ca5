/*
 * common/fsutil.c: pt_read_regular, the one checked reader of build-tree
 * files (fault-matrix.md N8): a regular file whole, a
 * missing one (1, nothing said), a FIFO, a directory and a device refused
 * without blocking and named, the size limit exact, the prefix mode.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "xalloc.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/pt_fsutil.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static char *at(const char *name)
{
	static char p[128];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

static void write_file(const char *name, const char *text, size_t n)
{
	FILE *f = fopen(at(name), "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, n, f), n);
	fclose(f);
}

static void regular_and_missing(void **state)
{
	uint8_t *buf;
	size_t len;
	struct pt_diag d;
	(void)state;

	pt_diag_init(&d);
	write_file("a", "abc\0def", 7);
	assert_int_equal(pt_read_regular(at("a"), 100, PT_SEV_ERROR, 0, &buf, &len, &d), 0);
	assert_int_equal(len, 7);
	assert_memory_equal(buf, "abc\0def", 8);	/* NUL-terminated too */
	free(buf);
	write_file("empty", "", 0);
	assert_int_equal(pt_read_regular(at("empty"), 100, PT_SEV_ERROR, 0, &buf, &len, &d), 0);
	assert_int_equal(len, 0);
	assert_int_equal(buf[0], 0);
	free(buf);
	assert_int_equal(pt_read_regular(at("nothing"), 100, PT_SEV_ERROR, 0, &buf, &len, &d), 1);
	assert_null(buf);
	assert_int_equal(d.n, 0);
	pt_diag_release(&d);
}

static void not_regular(void **state)
{
	static const struct {
		const char *name, *kind;
	} cases[] = { { "fifo", "a FIFO" }, { "sub", "a directory" }, { NULL, "a character device" } };
	uint8_t *buf;
	size_t len;
	(void)state;

	assert_int_equal(mkfifo(at("fifo"), 0600), 0);
	assert_int_equal(mkdir(at("sub"), 0700), 0);
	for (size_t i = 0; i < PT_ARRAY_SIZE(cases); i++) {
		const char *p = cases[i].name ? at(cases[i].name) : "/dev/null";
		struct pt_diag d;
		char want[64];

		pt_diag_init(&d);
		alarm(30);	/* a hang guard: a FIFO opened without O_NONBLOCK blocks here */
		assert_int_equal(pt_read_regular(p, 100, PT_SEV_WARNING, 0, &buf, &len, &d), -1);
		alarm(0);
		assert_null(buf);
		assert_int_equal(d.n, 1);
		assert_int_equal(d.v[0].sev, PT_SEV_WARNING);
		assert_string_equal(d.v[0].file, p);
		snprintf(want, sizeof(want), "not a regular file (%s)", cases[i].kind);
		assert_string_equal(d.v[0].what, want);
		pt_diag_release(&d);
	}
}

static void size_limit(void **state)
{
	char big[3000];
	uint8_t *buf;
	size_t len;
	struct pt_diag d;
	(void)state;

	memset(big, 'x', sizeof(big));
	write_file("big", big, sizeof(big));
	pt_diag_init(&d);
	/* Exactly max bytes: read. */
	assert_int_equal(pt_read_regular(at("big"), sizeof(big), PT_SEV_ERROR, 0, &buf, &len, &d), 0);
	assert_int_equal(len, sizeof(big));
	free(buf);
	assert_int_equal(d.n, 0);
	/* One byte over: refused. */
	assert_int_equal(pt_read_regular(at("big"), sizeof(big) - 1, PT_SEV_ERROR, 0, &buf, &len, &d), -1);
	assert_null(buf);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.v[0].sev, PT_SEV_ERROR);
	/* Under 1 MiB the limit is said in bytes ("larger than 0 MiB" said nothing). */
	assert_string_equal(d.v[0].what, "larger than 2999 bytes");
	pt_diag_release(&d);
	/* The prefix mode: the first max bytes and a warning. */
	pt_diag_init(&d);
	assert_int_equal(pt_read_regular(at("big"), 1000, PT_SEV_ERROR, PT_READ_PREFIX, &buf, &len, &d), 0);
	assert_int_equal(len, 1000);
	assert_int_equal(buf[1000], 0);
	free(buf);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.v[0].sev, PT_SEV_WARNING);
	assert_non_null(strstr(d.v[0].what, "the rest is not read"));
	pt_diag_release(&d);
}

static void open_regular(void **state)
{
	mode_t mode;
	int fd;
	(void)state;

	write_file("r", "x", 1);
	fd = pt_open_regular(at("r"), &mode);
	assert_true(fd >= 0);
	assert_int_equal(mode, 0);
	close(fd);
	assert_int_equal(pt_open_regular("/dev/null", &mode), -1);
	assert_true(S_ISCHR(mode));
	assert_string_equal(pt_file_kind(mode), "a character device");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(regular_and_missing),
		cmocka_unit_test(not_regular),
		cmocka_unit_test(size_limit),
		cmocka_unit_test(open_regular),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
