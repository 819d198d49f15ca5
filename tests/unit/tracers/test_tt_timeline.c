/*
 * tracers/torchtrace/tt_timeline.c: the pid of a chromium event found in its text,
 * whatever its shape; one timeline of a run's ranks with pid = rank.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptest_db.h"
#include "ptest_tt.h"
#include "tt_ingest.h"
#include "tt_query.h"
#include "xalloc.h"

/* The chromium event fast path: only a top-level "pid", followed by simple members at most. */
static void chromium_pid_shapes(void **state)
{
	static const struct {
		const char *text;
		const char *out;	/* with pid 7, or NULL: not this shape, go through jansson */
	} cases[] = {
		{ "{\"name\":\"a\",\"tid\":0,\"pid\":0}", "{\"name\":\"a\",\"tid\":0,\"pid\":7}" },
		{ "{\"name\": \"a\", \"pid\": 12 }\n", "{\"name\": \"a\", \"pid\":7 }\n" },
		{ "{\n\"ph\": \"B\",\n\"pid\": -1\n}", "{\n\"ph\": \"B\",\n\"pid\":7\n}" },
		{ "{\"pid\":0}", "{\"pid\":7}" },
		{ "{\n\"ph\": \"i\",\n\"pid\": 0,\n\"s\": \"p\"\n}", "{\n\"ph\": \"i\",\n\"pid\":7,\n\"s\": \"p\"\n}" },
		{ "{\"pid\":0,\"s\":\"p\",\"x_1\":\"\"}", "{\"pid\":7,\"s\":\"p\",\"x_1\":\"\"}" },
		{ "{\"args\":{\"pid\":1}}", NULL },		/* nested: the last '}' closes args */
		{ "{\"pid\":0,\"tid\":1}", NULL },		/* a number after pid */
		{ "{\"pid\":0,\"s\":\"a b\"}", NULL },	/* not an identifier after pid */
		{ "{\"x\":\"a\\\"pid\":0}", NULL },		/* not a key: a string's end before it */
		{ "{\"x\":\"a\\\",\\\"pid\":0}", NULL },	/* inside a string */
		{ "{\"pid\":0,\"s\":\"\\\"p\"}", NULL },	/* an escaped quote */
		{ "{\"pid\":0.5}", NULL },			/* not an integer */
		{ "[\"pid\":0}", NULL },
		{ "{\"ph\":\"B\",\"pid\":}", NULL },
		{ "\"pid\":0}", NULL },
		{ "{\"pid\":0,}", NULL },
		{ "", NULL },
		{ "}", NULL },
	};

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(cases); i++) {
		const char *t = cases[i].text;
		size_t key = 0, vend = 0;
		int ok = tt_chromium_pid_span(t, strlen(t), &key, &vend);

		if (!ok != !cases[i].out)
			fail_msg("case %zu (%s): %s", i, t, ok ? "matched" : "not matched");
		if (ok) {
			char *got = pt_xasprintf("%.*s\"pid\":7%s", (int)key, t, t + vend);

			if (strcmp(got, cases[i].out))
				fail_msg("case %zu: %s, expected %s", i, got, cases[i].out);
			free(got);
		}
	}
}

static int setup(void **state)
{
	return ptest_db_setup(state, "test-tt-timeline", 0);
}

static int teardown(void **state)
{
	return ptest_db_teardown(state);
}

/* One timeline: rank 3's events with pid 3, after a metadata event naming the rank. */
static void pid_is_rank(void **state)
{
	struct ptest_db *f = *state;
	int64_t a, b;
	char *out = NULL;
	size_t len;
	uint64_t n, skipped;
	FILE *mf;

	ptest_tt_two_runs(f, &a, &b);
	mf = open_memstream(&out, &len);
	assert_int_equal(tt_timeline_write(f->ix, a, mf, &n, &skipped), 0);
	fclose(mf);
	assert_int_equal(n, 2);
	/* After rank 3's metadata event: an event whose md5 is not the declared one, parsed and
	 * written again; one as torch wrote it, its bytes kept but the pid (the fast path). */
	assert_string_equal(out, "{\"traceEvents\": [\n"
				 "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":3,\"tid\":0,"
				 "\"args\":{\"name\":\"rank 3\"}},\n"
				 "{\"name\":\"dynamo\",\"ts\":5.5,\"ph\":\"B\",\"pid\":3},\n"
				 "{\"name\":\"x\",\"ts\":6.5,\"ph\":\"E\",\"tid\":7,\"pid\":3}\n]}\n");
	free(out);
}

/* Torch's own shape, one member a line: written without the whitespace between tokens,
 * strings (spaces, escaped quotes and backslashes, a newline escape) as they were. */
static void compact_copy(void **state)
{
	struct ptest_db *f = *state;
	char *ev = ptest_tt_payload_line("chromium_event", "\"rank\": 2",
					 "{\n\"name\": \"a b \\\" c\\\\\",\n\"ts\": 1.5,\n\"args\": {\n  \"s\": \"x\\n y\",\n"
					 "  \"v\": [ 1, 2 ]\n},\n\"ph\": \"B\",\n\"tid\": 0,\n\"pid\": 0\n}");
	int64_t run = ptest_tt_new_run(f, "c");
	char *out = NULL;
	size_t len;
	uint64_t n, skipped;
	FILE *mf;

	ptest_tt_put(f, run, "dedicated_log_torch_trace_rank_2_c.log", ev);
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	mf = open_memstream(&out, &len);
	assert_int_equal(tt_timeline_write(f->ix, run, mf, &n, &skipped), 0);
	fclose(mf);
	assert_int_equal(n, 1);
	assert_string_equal(out, "{\"traceEvents\": [\n"
				 "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":2,\"tid\":0,"
				 "\"args\":{\"name\":\"rank 2\"}},\n"
				 "{\"name\":\"a b \\\" c\\\\\",\"ts\":1.5,\"args\":{\"s\":\"x\\n y\",\"v\":[1,2]},"
				 "\"ph\":\"B\",\"tid\":0,\"pid\":2}\n]}\n");
	free(out);
	free(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chromium_pid_shapes),
		cmocka_unit_test_setup_teardown(pid_is_rank, setup, teardown),
		cmocka_unit_test_setup_teardown(compact_copy, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
