/* tracers/compileid: every form PyTorch and tlparse write, and what is not one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "compileid.h"
#include "xalloc.h"

#define N COMPILEID_NONE

struct row {
	const char *in;
	int used;		/* return value of compileid_parse */
	int64_t ca, frame, compile, attempt;
	const char *fmt;	/* compileid_format */
	const char *dir;	/* compileid_format_dir */
	const char *why;
};

static const struct row rows[] = {
	{ "[0/0]", 5, N, 0, 0, N, "0/0", "-_0_0_0", "plain frame/compile" },
	{ "[0/1_1]", 7, N, 0, 1, 1, "0/1_1", "-_0_1_1", "attempt after _" },
	{ "[12/345_6]", 10, N, 12, 345, 6, "12/345_6", "-_12_345_6", "several digits" },
	{ "[!0]", 4, 0, N, N, N, "!0", "0_-_-_-", "compiled autograd alone" },
	{ "[!0/1/0]", 8, 0, 1, 0, N, "!0/1/0", "0_1_0_0", "compiled autograd with frame" },
	{ "[!2/1/0_3]", 10, 2, 1, 0, 3, "!2/1/0_3", "2_1_0_3", "ca with attempt" },
	{ "[-/-]", 5, N, N, N, N, "-/-", "-_-_-_-", "tlparse's missing parts" },
	{ "[!0/-/-]", 8, 0, N, N, N, "!0", "0_-_-_-", "tlparse's ca without frame" },
	{ "0/1", 3, N, 0, 1, N, "0/1", "-_0_1_0", "no brackets (--compile 0/1)" },
	{ "[0/0_0]", 7, N, 0, 0, 0, "0/0", "-_0_0_0", "attempt 0 is not printed" },
	{ "[0/0] [__guards] x", 5, N, 0, 0, N, "0/0", "-_0_0_0", "stops at the bracket" },
	{ "[0/0", -1, N, N, N, N, "-/-", "-_-_-_-", "unterminated" },
	{ "[0]", -1, N, N, N, N, "-/-", "-_-_-_-", "one part is not an id" },
	{ "[a/b]", -1, N, N, N, N, "-/-", "-_-_-_-", "letters" },
	{ "[]", -1, N, N, N, N, "-/-", "-_-_-_-", "empty" },
	{ "", -1, N, N, N, N, "-/-", "-_-_-_-", "nothing" },
	{ "[0/1_]", -1, N, N, N, N, "-/-", "-_-_-_-", "attempt without digits" },
	{ "[!]", -1, N, N, N, N, "-/-", "-_-_-_-", "ca without digits" },
	{ "[!0/1]", -1, N, N, N, N, "-/-", "-_-_-_-", "ca needs frame and compile" },
	{ "[1234567890123456789/0]", -1, N, N, N, N, "-/-", "-_-_-_-", "19 digits refused" },
	{ "0/1 ", -1, N, N, N, N, "-/-", "-_-_-_-", "unbracketed: all of len" },
};

static void parse_and_format(void **state)
{
	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];
		struct compileid id;
		char buf[COMPILEID_MAX];
		int used = compileid_parse((const uint8_t *)r->in, strlen(r->in), &id);

		print_message("%s: %s\n", r->in, r->why);
		assert_int_equal(used, r->used);
		assert_int_equal(id.ca, r->ca);
		assert_int_equal(id.frame, r->frame);
		assert_int_equal(id.compile, r->compile);
		assert_int_equal(id.attempt, r->attempt);
		compileid_format(&id, buf, sizeof(buf));
		assert_string_equal(buf, r->fmt);
		compileid_format_dir(&id, buf, sizeof(buf));
		assert_string_equal(buf, r->dir);
	}
}

/* The parser never looks past len: "[0/0]" cut to 4 bytes is refused. */
static void bounded(void **state)
{
	struct compileid id;

	(void)state;
	assert_int_equal(compileid_parse((const uint8_t *)"[0/0]", 4, &id), -1);
	assert_int_equal(compileid_parse((const uint8_t *)"[0/0_1]", 6, &id), -1);
	assert_int_equal(compileid_parse((const uint8_t *)"0/12", 3, &id), 3);
	assert_int_equal(id.compile, 1);
}

/* Formatting into a short buffer truncates like snprintf and says what it needed. */
static void short_buffer(void **state)
{
	struct compileid id = { 0, 12, 3, 4 };
	char buf[4];

	(void)state;
	assert_int_equal(compileid_format(&id, buf, sizeof(buf)), 9);
	assert_string_equal(buf, "!0/");
	assert_int_equal(compileid_format(&id, NULL, 0), 9);
}

/* A missing attempt equals attempt 0 (runtime records have none). */
static void equality(void **state)
{
	struct compileid a = { N, 0, 1, N }, b = { N, 0, 1, 0 }, c = { N, 0, 1, 1 };

	(void)state;
	assert_true(compileid_equal(&a, &b));
	assert_false(compileid_equal(&a, &c));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_and_format),
		cmocka_unit_test(bounded),
		cmocka_unit_test(short_buffer),
		cmocka_unit_test(equality),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
