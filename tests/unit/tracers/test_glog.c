/* tracers/glog: the prefix forms of TORCH_LOGS, TORCH_TRACE, glog and c10, and times. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "glog.h"
#include "xalloc.h"

struct row {
	const char *line;
	int ok;
	enum glog_form form;
	int rank, levelno, year, month, day;
	uint32_t nsec;
	int64_t pid;
	const char *file;
	int64_t lineno;
	const char *msg;
	const char *why;
};

static const struct row rows[] = {
	{ "I1122 02:47:18.432000 9740 torch/fx/experimental/symbolic_shapes.py:3192] [0/0] create_env",
	  0, GLOG_FORM_TEXT, -1, 20, 0, 11, 22, 432000000, 9740,
	  "torch/fx/experimental/symbolic_shapes.py", 3192, "[0/0] create_env", "TORCH_LOGS INFO" },
	{ "[rank1]:V1122 02:48:33.011000 11559 torch/_dynamo/guards.py:2321] [0/0] [__guards] ",
	  0, GLOG_FORM_TEXT, 1, 10, 0, 11, 22, 11000000, 11559, "torch/_dynamo/guards.py", 2321,
	  "[0/0] [__guards] ", "rank prefix, trailing space kept" },
	{ "W20261122 03:40:01.833858 11342 Copy.cpp:250] Warning: casting",
	  0, GLOG_FORM_TEXT, -1, 30, 2026, 11, 22, 833858000, 11342, "Copy.cpp", 250,
	  "Warning: casting", "glog with a 4-digit year (Debian 12 libtorch)" },
	{ "E1122 03:40:01.833858  1342 Copy.cpp:250] padded",
	  0, GLOG_FORM_TEXT, -1, 40, 0, 11, 22, 833858000, 1342, "Copy.cpp", 250, "padded",
	  "glog pads the thread id" },
	{ "[W1122 02:54:13.085491037 ProcessGroupGloo.cpp:527] Warning: Unable",
	  0, GLOG_FORM_C10, -1, 30, 0, 11, 22, 85491037, -1, "ProcessGroupGloo.cpp", 527,
	  "Warning: Unable", "c10 bracketed, nanoseconds, no pid" },
	{ "V1122 02:53:36.047000 31651 torch/_logging/_internal.py:1377] {\"str\": [\"a\", 0]}",
	  0, GLOG_FORM_TEXT, -1, 10, 0, 11, 22, 47000000, 31651, "torch/_logging/_internal.py",
	  1377, "{\"str\": [\"a\", 0]}", "TORCH_TRACE envelope" },
	{ "V0101 00:00:00.000000 140234567890123 /data/a:b/codecache.py:12]",
	  0, GLOG_FORM_TEXT, -1, 10, 0, 1, 1, 0, 140234567890123, "/data/a:b/codecache.py", 12, "",
	  "pthread id, colon in path, no message" },
	{ "CUSTOM1122 02:47:18.432000 9740 x.py:1] hi",
	  0, GLOG_FORM_TEXT, -1, 0, 0, 11, 22, 432000000, 9740, "x.py", 1, "hi",
	  "custom level name in full" },
	{ "X1122 02:47:18.432000 9740 x.py:1] hi", -1, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, NULL,
	  "unknown one-letter level" },
	{ "I1322 02:47:18.432000 9740 x.py:1] hi", -1, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, NULL,
	  "month 13" },
	{ "I1122 02:47:18.432000 9740 x.py:1 hi", -1, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, NULL,
	  "no closing bracket" },
	{ "I1122 02:47:18.432000 9740 x.py] hi", -1, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, NULL,
	  "no line number" },
	{ "I1122 02:47:18 9740 x.py:1] hi", -1, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, NULL,
	  "no fraction" },
	{ "[rank]:I1122 02:47:18.432000 9740 x.py:1] hi", -1, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0,
	  NULL, "rank without a number" },
	{ "Traceback (most recent call last):", -1, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, NULL,
	  "ordinary text" },
	{ "[call] op=[aten::add.Tensor], key=[AutogradCPU]", -1, 0, 0, 0, 0, 0, 0, 0, 0, NULL,
	  0, NULL, "dispatcher trace is not a prefix" },
	{ "I112", -1, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, NULL, "truncated" },
};

static void prefixes(void **state)
{
	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];
		struct glog_prefix p;
		size_t len = strlen(r->line);
		int rc = glog_parse((const uint8_t *)r->line, len, &p);

		print_message("%s\n", r->why);
		assert_int_equal(rc, r->ok);
		if (rc)
			continue;
		assert_int_equal(p.form, r->form);
		assert_int_equal(p.rank, r->rank);
		assert_int_equal(p.levelno, r->levelno);
		assert_int_equal(p.year, r->year);
		assert_int_equal(p.month, r->month);
		assert_int_equal(p.day, r->day);
		assert_int_equal(p.nsec, r->nsec);
		assert_int_equal(p.pid, r->pid);
		assert_int_equal(p.file_len, strlen(r->file));
		assert_memory_equal(r->line + p.file_off, r->file, p.file_len);
		assert_int_equal(p.lineno, r->lineno);
		assert_true(p.msg_off <= len);
		assert_string_equal(r->line + p.msg_off, r->msg);
	}
}

/* Every prefix of a valid line is parsed without reading past its length. */
static void truncations(void **state)
{
	const char *line = "[rank1]:V1122 02:48:33.011000 11559 torch/_dynamo/guards.py:2321] x";
	const size_t need = (size_t)(strstr(line, "2321]") + 5 - line);
	struct glog_prefix p;

	(void)state;
	for (size_t n = 0; n < strlen(line); n++) {
		uint8_t buf[128];

		memcpy(buf, line, n);
		int rc = glog_parse(buf, n, &p);
		/* Only once the closing bracket is in does it parse. */
		assert_int_equal(rc, n >= need ? 0 : -1);
	}
}

static int64_t t(const char *line, int64_t ref_us, long tz)
{
	struct glog_prefix p;

	assert_int_equal(glog_parse((const uint8_t *)line, strlen(line), &p), 0);
	return glog_time_us(&p, ref_us, tz);
}

/* Year and zone come from the run; New Year's Eve straddles correctly. */
static void times(void **state)
{
	/* 2026-11-22 02:47:18 UTC = 1795315638 (date -u -d @1795315638). */
	const int64_t ref = 1795315638LL * 1000000;

	(void)state;
	assert_int_equal(t("I1122 02:47:18.432000 1 x.py:1] m", ref, 0), ref + 432000);
	/* Local time 03:47:18 at UTC+1 is the same instant. */
	assert_int_equal(t("I1122 03:47:18.432000 1 x.py:1] m", ref, 3600), ref + 432000);
	/* A run started 2026-12-31 23:59 UTC; "V0101" is next year's. */
	{
		const int64_t nye = (glog_days_from_civil(2026, 12, 31) * 86400 + 86340) * 1000000;
		int64_t jan = t("V0101 00:00:30.000000 1 x.py:1] m", nye, 0);

		assert_int_equal(jan, glog_days_from_civil(2027, 1, 1) * 86400 * 1000000 + 30000000);
		/* And a "V1231" line logged after a run that started on Jan 1st is last year's. */
		assert_int_equal(t("V1231 23:59:00.000000 1 x.py:1] m", jan, 0), nye);
	}
	/* An explicit year wins over the reference. */
	assert_int_equal(t("W20201122 02:47:18.000000 1 x.cpp:1] m", ref, 0),
			 (glog_days_from_civil(2020, 11, 22) * 86400 + 2 * 3600 + 47 * 60 + 18) *
				 1000000);
	assert_int_equal(glog_days_from_civil(1970, 1, 1), 0);
	assert_int_equal(glog_days_from_civil(2000, 3, 1), 11017);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(prefixes),
		cmocka_unit_test(truncations),
		cmocka_unit_test(times),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
