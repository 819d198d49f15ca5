/*
 * compdb: "command" and "arguments" entries, "output", entries of the wrong
 * shape (entry by entry and through the whole-text decode), not JSON, not an
 * array, arguments over the 16 MiB limit, and the whole-word flag test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "compdb.h"
#include "strbuf.h"

#define P(s) (const uint8_t *)(s), strlen(s)

static void entries(void **state)
{
	struct compdb c;
	struct pt_diag d;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(compdb_parse(P("[\n"
					"{\"directory\": \"/b\", \"command\": \"/usr/bin/c++ -DNDEBUG -g -c /s/a.cpp\","
					" \"file\": \"/s/a.cpp\", \"output\": \"c10/CMakeFiles/c10.dir/a.cpp.o\"},\n"
					"{\"directory\": \"/b\", \"arguments\": [\"cc\", \"-O2\", \"-c\", \"b.c\"], \"file\": \"b.c\"},\n"
					"{\"directory\": \"/b\", \"file\": \"nocommand.c\"},\n"
					"{\"directory\": 1, \"command\": \"x\", \"file\": \"y\"},\n"
					"{\"directory\": \"/b\", \"arguments\": [\"cc\", 2], \"file\": \"z\"},\n"
					"42\n]"), &c, "cc", &d), 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.n_bad, 4);
	assert_string_equal(c.v[0].output, "c10/CMakeFiles/c10.dir/a.cpp.o");
	assert_string_equal(c.v[1].command, "cc -O2 -c b.c");
	assert_null(c.v[1].output);
	assert_int_equal(c.v[1].index, 1);
	assert_string_equal(d.v[0].where, "entry 2");
	assert_int_equal(d.n, 4);	/* once each, though the entry-by-entry path gave up at 42 */
	assert_int_equal(compdb_has_flag(c.v[0].command, "-g"), 1);
	assert_int_equal(compdb_has_flag(c.v[0].command, "-DNDEBUG"), 1);
	assert_int_equal(compdb_has_flag(c.v[0].command, "-DNDEBU"), 0);
	assert_int_equal(compdb_has_flag(c.v[0].command, "-c"), 1);
	assert_int_equal(compdb_has_flag(c.v[1].command, "-g"), 0);
	compdb_release(&c);
	pt_diag_release(&d);
}

/* The entry-by-entry path (objects only) gives what the whole-text path gives. */
/* Arguments over 16 MiB in all: that entry is malformed, the others are kept. */
static void arguments_over_limit(void **state)
{
	size_t half = 9u << 20;
	char *arg = malloc(half + 1), *text;
	struct compdb c;
	struct pt_diag d;
	struct pt_strbuf sb;

	(void)state;
	assert_non_null(arg);
	memset(arg, 'x', half);
	arg[half] = '\0';
	pt_strbuf_init(&sb, 64u << 20);
	assert_int_equal(pt_strbuf_addf(&sb, "[{\"directory\": \"/b\", \"arguments\": [\"cc\", \"%s\", \"%s\"],"
					 " \"file\": \"big.c\"},\n"
					 "{\"directory\": \"/b\", \"arguments\": [\"cc\", \"%s\"], \"file\": \"ok.c\"}]",
					 arg, arg, arg), 0);
	text = pt_strbuf_detach(&sb);
	pt_diag_init(&d);
	assert_int_equal(compdb_parse(P(text), &c, "cc", &d), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.n_bad, 1);
	assert_string_equal(c.v[0].file, "ok.c");
	assert_int_equal(strlen(c.v[0].command), 3 + half);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].where, "entry 0");
	compdb_release(&c);
	pt_diag_release(&d);
	free(text);
	free(arg);
}

static void entry_by_entry(void **state)
{
	struct compdb c;
	struct pt_diag d;
	struct pt_strbuf sb;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(compdb_parse(P(" [ {\"directory\": \"/b\", \"command\": \"cc -g -c a.c\", \"file\": \"a.c\"} ,\n"
					"{\"directory\": \"/b\", \"file\": \"nocommand.c\"},"
					"{\"directory\": \"/b\", \"arguments\": [\"cc\", \"-c\", \"b.c\"], \"file\": \"b.c\","
					" \"x\": {\"nested\": [1, {\"}\": \"]\"}]}}\n]\n"), &c, "cc", &d), 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.n_bad, 1);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].where, "entry 1");
	assert_string_equal(c.v[0].command, "cc -g -c a.c");
	assert_string_equal(c.v[1].command, "cc -c b.c");
	assert_int_equal(c.v[1].index, 2);
	compdb_release(&c);
	pt_diag_release(&d);

	/* More than 20 malformed entries: 20 warnings and the count, once. */
	pt_strbuf_init(&sb, 1 << 20);
	assert_int_equal(pt_strbuf_adds(&sb, "["), 0);
	for (int i = 0; i < 25; i++)
		assert_int_equal(pt_strbuf_adds(&sb, i ? ",{\"file\": \"f\"}" : "{\"file\": \"f\"}"), 0);
	assert_int_equal(pt_strbuf_adds(&sb, "]"), 0);
	pt_diag_init(&d);
	assert_int_equal(compdb_parse((const uint8_t *)sb.buf, sb.len, &c, "cc", &d), 0);
	assert_int_equal(c.n_bad, 25);
	assert_int_equal(d.n, 21);
	assert_string_equal(d.v[20].what, "25 malformed entries in all");
	compdb_release(&c);
	pt_diag_release(&d);
	pt_strbuf_release(&sb);

	/* Text after the array, or a missing comma: not JSON, as a whole-text decode says. */
	pt_diag_init(&d);
	assert_int_equal(compdb_parse(P("[{\"directory\": \"/b\", \"command\": \"c\", \"file\": \"a\"}] x"), &c, "cc", &d), -1);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].what, "not JSON"));
	pt_diag_release(&d);
	pt_diag_init(&d);
	assert_int_equal(compdb_parse(P("[{\"directory\": \"/b\", \"file\": \"a\"} {\"file\": \"b\"}]"), &c, "cc", &d), -1);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].what, "not JSON"));
	pt_diag_release(&d);
}

/* A text of 8 MB or more: NORMAL entries, then one entry whose nested objects start
 * lines for NESTED lines (so a stretch cut in its middle starts at a '{' that is not an
 * entry's), then NORMAL more; every 1000th entry is malformed. */
static char *big_text(size_t normal, size_t nested, int comma_first, size_t *len)
{
	struct pt_strbuf sb;
	size_t e = 0;

	pt_strbuf_init(&sb, 64u << 20);
	assert_int_equal(pt_strbuf_adds(&sb, "[\n"), 0);
	for (int half = 0; half < 2; half++) {
		for (size_t i = 0; i < normal; i++, e++) {
			if (e % 1000 == 7)
				assert_int_equal(pt_strbuf_addf(&sb, "{\"file\": \"bad%zu.c\"}%s", e, comma_first ? "\n," : ",\n"), 0);
			else
				assert_int_equal(pt_strbuf_addf(&sb, "{\"directory\": \"/b\", \"command\": \"cc -O2 -c f%zu.c "
					       "-DPAD=%0200zu\", \"file\": \"f%zu.c\"}%s", e, e, e, comma_first ? "\n," : ",\n"), 0);
		}
		if (!half) {
			assert_int_equal(pt_strbuf_adds(&sb, "{\"directory\": \"/b\", \"x\": [\n"), 0);
			for (size_t i = 0; i < nested; i++)
				assert_int_equal(pt_strbuf_addf(&sb, "{\"y\": %zu},\n", i), 0);
			assert_int_equal(pt_strbuf_adds(&sb, "{}],\n\"command\": \"cc -c nested.c\", \"file\": \"nested.c\"},\n"), 0);
			e++;
		}
	}
	assert_int_equal(pt_strbuf_adds(&sb, "{\"directory\": \"/b\", \"command\": \"cc -c last.c\", \"file\": \"last.c\"}\n]\n"), 0);
	*len = sb.len;
	return pt_strbuf_detach(&sb);
}

/* Cut into stretches parsed by threads, the result is the one-thread result: entries,
 * their indexes, the warnings (global entry numbers), with a cut inside an entry. */
static void stretches(int comma_first)
{
	size_t len;
	char *text = big_text(20000, 40000, comma_first, &len);
	struct compdb ref, c;
	struct pt_diag dref, d;

	assert_true(len >= (8u << 20));
	setenv("PT_JOBS", "1", 1);
	pt_diag_init(&dref);
	assert_int_equal(compdb_parse((const uint8_t *)text, len, &ref, "cc", &dref), 0);
	assert_int_equal(ref.n + ref.n_bad, 40002);
	assert_int_equal(ref.n_bad, 40);
	assert_string_equal(ref.v[20000 - 20].file, "nested.c");
	for (const char *jobs = "2"; jobs; jobs = !strcmp(jobs, "2") ? "3" : !strcmp(jobs, "3") ? "16" : NULL) {
		setenv("PT_JOBS", jobs, 1);
		pt_diag_init(&d);
		assert_int_equal(compdb_parse((const uint8_t *)text, len, &c, "cc", &d), 0);
		assert_int_equal(c.n, ref.n);
		assert_int_equal(c.n_bad, ref.n_bad);
		for (size_t i = 0; i < c.n; i++) {
			assert_int_equal(c.v[i].index, ref.v[i].index);
			assert_string_equal(c.v[i].file, ref.v[i].file);
			assert_string_equal(c.v[i].command, ref.v[i].command);
		}
		assert_int_equal(d.n, dref.n);
		for (size_t i = 0; i < d.n; i++) {
			assert_string_equal(d.v[i].where ? d.v[i].where : "-", dref.v[i].where ? dref.v[i].where : "-");
			assert_string_equal(d.v[i].what, dref.v[i].what);
		}
		compdb_release(&c);
		pt_diag_release(&d);
	}
	/* A damaged entry late in the text: the whole-text decode's error, whatever the cut. */
	text[len - 20] = '#';
	for (const char *jobs = "1"; jobs; jobs = !strcmp(jobs, "1") ? "4" : NULL) {
		setenv("PT_JOBS", jobs, 1);
		pt_diag_init(&d);
		assert_int_equal(compdb_parse((const uint8_t *)text, len, &c, "cc", &d), -1);
		assert_int_equal(d.n, 1);
		assert_non_null(strstr(d.v[0].what, "not JSON"));
		pt_diag_release(&d);
	}
	unsetenv("PT_JOBS");
	compdb_release(&ref);
	pt_diag_release(&dref);
	free(text);
}

static void stretches_in_threads(void **state)
{
	(void)state;
	stretches(0);	/* "},\n{": CMake's layout */
	stretches(1);	/* "}\n,{" */
}

static void not_a_database(void **state)
{
	struct compdb c;
	struct pt_diag d;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(compdb_parse(P("[{\"directory\": \"/b\""), &c, "cc", &d), -1);
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 1);
	assert_non_null(strstr(d.v[0].what, "not JSON"));
	pt_diag_release(&d);
	pt_diag_init(&d);
	assert_int_equal(compdb_parse(P("{\"a\": 1}"), &c, "cc", &d), -1);
	assert_string_equal(d.v[0].what, "not a compilation database: the top level is not an array");
	pt_diag_release(&d);
	pt_diag_init(&d);
	assert_int_equal(compdb_parse(P("[]"), &c, "cc", &d), 0);
	assert_int_equal(c.n, 0);
	compdb_release(&c);
	pt_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(entries),
		cmocka_unit_test(arguments_over_limit),
		cmocka_unit_test(entry_by_entry),
		cmocka_unit_test(stretches_in_threads),
		cmocka_unit_test(not_a_database),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
