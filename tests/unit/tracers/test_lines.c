/* tracers/lines: any chunking gives the same lines; CRLF, no final newline, over-long lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "strbuf.h"

/* Every line as "off:flags:text|" appended to a buffer. */
static int collect(void *arg, const struct line *l)
{
	struct pt_strbuf *out = arg;

	assert_int_equal(pt_strbuf_addf(out, "%llu:%u:%zu:", (unsigned long long)l->off, l->flags, l->raw_len), 0);
	assert_int_equal(pt_strbuf_add(out, l->p, l->len), 0);
	assert_int_equal(pt_strbuf_add(out, "|", 1), 0);
	return 0;
}

static char *split(const char *in, size_t len, size_t chunk, size_t max)
{
	struct lines ls;
	struct pt_strbuf out;

	pt_strbuf_init(&out, 1 << 20);
	lines_init(&ls, 0);
	if (max)
		ls.max = max;
	for (size_t i = 0; i < len; i += chunk)
		assert_int_equal(lines_feed(&ls, (const uint8_t *)in + i, len - i < chunk ? len - i : chunk,
					    collect, &out), 0);
	assert_int_equal(lines_finish(&ls, collect, &out), 0);
	lines_release(&ls);
	return pt_strbuf_detach(&out);
}

/* Chunk sizes 1..len all give what one big chunk gives. */
static void chunking(void **state)
{
	const char *in = "first\nsecond\r\n\nlast without newline";
	const char *want = "0:0:6:first|6:1:8:second|14:0:1:|15:4:20:last without newline|";

	(void)state;
	for (size_t chunk = 1; chunk <= strlen(in); chunk++) {
		char *got = split(in, strlen(in), chunk, 0);

		assert_string_equal(got, want);
		free(got);
	}
}

/* A line over the cap comes out in pieces; the last piece ends the line. */
static void overlong(void **state)
{
	const char *in = "abcdefghij\nxy\n";

	(void)state;
	for (size_t chunk = 1; chunk <= strlen(in); chunk++) {
		char *got = split(in, strlen(in), chunk, 4);

		assert_string_equal(got, "0:2:4:abcd|4:2:4:efgh|8:0:3:ij|11:0:3:xy|");
		free(got);
	}
	/* Exactly the cap: no empty piece after it. */
	{
		char *got = split("abcd\n", 5, 2, 4);

		assert_string_equal(got, "0:0:5:abcd|");
		free(got);
	}
}

/* Empty input: no lines. Bytes with NUL inside are kept. */
static void corners(void **state)
{
	char *got;

	(void)state;
	got = split("", 0, 1, 0);
	assert_string_equal(got, "");
	free(got);
	{
		struct lines ls;
		struct pt_strbuf out;

		pt_strbuf_init(&out, 100);
		lines_init(&ls, 100);
		assert_int_equal(lines_feed(&ls, (const uint8_t *)"a\0b\n", 4, collect, &out), 0);
		assert_int_equal(out.len, strlen("100:0:4:") + 3 + 1);
		lines_release(&ls);
		pt_strbuf_release(&out);
	}
}

static int stop_at_two(void *arg, const struct line *l)
{
	int *n = arg;

	(void)l;
	return ++*n == 2 ? -1 : 0;
}

/* A callback can stop the feed. */
static void stopping(void **state)
{
	struct lines ls;
	int n = 0;

	(void)state;
	lines_init(&ls, 0);
	assert_int_equal(lines_feed(&ls, (const uint8_t *)"a\nb\nc\n", 6, stop_at_two, &n), -1);
	assert_int_equal(n, 2);
	lines_release(&ls);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chunking),
		cmocka_unit_test(overlong),
		cmocka_unit_test(corners),
		cmocka_unit_test(stopping),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
