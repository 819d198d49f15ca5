/* bllines: CRLF, ANSI sequences, overwritten progress lines, NULs, the kept-length cap, any chunking. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "bllines.h"

struct got {
	char text[8][128];
	uint64_t cut[8];
	unsigned nul[8];
	int no_eol[8];
	size_t n;
};

static void fn(void *arg, const struct bl_line *l)
{
	struct got *g = arg;

	if (g->n < 8) {
		memcpy(g->text[g->n], l->p, l->len < 127 ? l->len : 127);
		g->cut[g->n] = l->cut;
		g->nul[g->n] = l->nul;
		g->no_eol[g->n] = l->no_eol;
	}
	g->n++;
}

static void run(const char *in, size_t n, size_t chunk, struct got *g)
{
	struct bl_lines s;

	memset(g, 0, sizeof(*g));
	bl_lines_init(&s);
	for (size_t i = 0; i < n; i += chunk)
		bl_lines_feed(&s, (const uint8_t *)in + i, n - i < chunk ? n - i : chunk, fn, g);
	bl_lines_finish(&s, fn, g);
	bl_lines_release(&s);
}

static void cleaning(void **state)
{
	static const char in[] = "a\r\n\x1b[01;31m\x1b[Kerror:\x1b[m\x1b[K x\n[1/2] a\r[2/2] b\nn\0ul\nlast";
	struct got g;
	(void)state;

	for (size_t chunk = 1; chunk <= sizeof(in); chunk++) {
		run(in, sizeof(in) - 1, chunk, &g);
		assert_int_equal(g.n, 5);
		assert_string_equal(g.text[0], "a");
		assert_string_equal(g.text[1], "error: x");
		assert_string_equal(g.text[2], "[2/2] b");
		assert_string_equal(g.text[3], "nul");
		assert_int_equal(g.nul[3], 1);
		assert_string_equal(g.text[4], "last");
		assert_int_equal(g.no_eol[4], 1);
	}
}

static void cap(void **state)
{
	size_t n = BL_LINE_MAX * 3 + 10;
	char *in = malloc(n);
	struct got g;
	(void)state;

	memset(in, 'x', n);
	in[n - 1] = '\n';
	run(in, n, 4096, &g);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.cut[0], n - 1 - BL_LINE_MAX);
	free(in);
	run("", 0, 1, &g);
	assert_int_equal(g.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cleaning),
		cmocka_unit_test(cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
