/*
 * tracers/torchtrace/tt_envscan.c: TORCH_TRACE envelopes read through
 * SQLite's JSON. Each corner: either the fields jansson's reading gives
 * (the reader's own parse, tracers/parse/torchtrace.c) or 0, leaving the
 * envelope to jansson; and a reader over all the corners gives the same
 * records and messages with the hook as without it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "torchtrace.h"
#include "tt_envscan.h"
#include "xalloc.h"

static struct tt_envscan *scan;

static int setup(void **state)
{
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	scan = tt_envscan_new(&d);
	pt_diag_release(&d);
	return scan ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	tt_envscan_free(scan);
	return 0;
}

static int run(const char *json, struct tt_env_fields *f)
{
	return tt_envscan(scan, json, strlen(json), f);
}

static void assert_text(const char *got, size_t len, const char *want)
{
	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(got, want, len);
}

/* An envelope's every field; escapes unescaped as jansson gives them. */
static void fields(void **state)
{
	struct tt_env_fields f;

	(void)state;
	assert_int_equal(run("{\"artifact\": {\"name\": \"a\\\"b\\\\c\\n\\u00e9\", \"encoding\": \"s\"},"
			     " \"rank\": 3, \"compiled_autograd_id\": 4, \"frame_id\": 1,"
			     " \"frame_compile_id\": 2, \"attempt\": 0, \"has_payload\": \"0cc1\"}", &f), 1);
	assert_text(f.kind, f.kind_len, "artifact");
	assert_int_equal(f.nkinds, 1);
	assert_text(f.name, f.name_len, "a\"b\\c\n\xc3\xa9");
	assert_int_equal(f.rank, 3);
	assert_int_equal(f.cid.ca, 4);
	assert_int_equal(f.cid.frame, 1);
	assert_int_equal(f.cid.compile, 2);
	assert_int_equal(f.cid.attempt, 0);
	assert_int_equal(f.has_payload, 1);
	assert_text(f.md5, f.md5_len, "0cc1");
	/* Absent parts, non-integers, a null has_payload, a second kind key. */
	assert_int_equal(run("{\"k\": [1], \"frame_id\": 1.5, \"rank\": \"2\", \"has_payload\": null,"
			     " \"other\": {}}", &f), 1);
	assert_text(f.kind, f.kind_len, "k");
	assert_int_equal(f.nkinds, 2);
	assert_null(f.name);
	assert_int_equal(f.rank, -1);
	assert_int_equal(f.cid.frame, -1);
	assert_int_equal(f.cid.ca, -1);
	assert_int_equal(f.has_payload, 0);
	/* has_payload that is not a string: a payload, no md5 declared. */
	assert_int_equal(run("{\"k\": {}, \"has_payload\": true}", &f), 1);
	assert_int_equal(f.has_payload, 1);
	assert_null(f.md5);
	/* Context keys only: read, no kind (the reader's jansson way reports it). */
	assert_int_equal(run("{\"frame_id\": 1, \"stack\": [], \"subgraph_name\": \"s\"}", &f), 1);
	assert_null(f.kind);
	assert_int_equal(f.nkinds, 0);
}

/* meta's "name", else "filename", when a string; the last of a repeated key (jansson's). */
static void names(void **state)
{
	struct tt_env_fields f;

	(void)state;
	assert_int_equal(run("{\"g\": {\"name\": 5, \"filename\": \"f\\u0041.py\"}}", &f), 1);
	assert_text(f.name, f.name_len, "fA.py");
	assert_int_equal(run("{\"g\": {\"name\": \"first\", \"name\": \"second\"}}", &f), 1);
	assert_text(f.name, f.name_len, "second");
	assert_int_equal(run("{\"g\": {\"name\": \"first\", \"name\": 7, \"filename\": \"fn\"}}", &f), 1);
	assert_text(f.name, f.name_len, "fn");
	assert_int_equal(run("{\"g\": [\"name\", \"x\"]}", &f), 1);
	assert_null(f.name);
	/*
	 * may_name skips the second pass; these cannot see whether it ran (the
	 * fields are the same either way, by design), only that it is not
	 * skipped where it finds something: a filename alone.
	 */
	assert_int_equal(run("{\"g\": {\"filename\": \"only\"}, \"rank\": 2}", &f), 1);
	assert_text(f.name, f.name_len, "only");
	assert_int_equal(run("{\"g\": {\"names\": \"x\", \"nam\": \"y\", \"Name\": \"z\"}}", &f), 1);
	assert_null(f.name);
	assert_int_equal(run("{\"g\": {}, \"has_payload\": \"ab\"}", &f), 1);
	assert_null(f.name);
	assert_text(f.md5, f.md5_len, "ab");
	assert_int_equal(run("{\"\": {\"name\": \"empty key\"}}", &f), 1);
	assert_text(f.kind, f.kind_len, "");
	assert_text(f.name, f.name_len, "empty key");
	/* A kind key written with escapes: its members are found under the key it means. */
	assert_int_equal(run("{\"\\u0061rtifact\": {\"n\\u0061me\": \"n\"}, \"a.b\": 1}", &f), 1);
	assert_text(f.kind, f.kind_len, "artifact");
	assert_int_equal(f.nkinds, 2);
	assert_text(f.name, f.name_len, "n");
}

/* `str` records: [string, integer, ...] only. */
static void strs(void **state)
{
	struct tt_env_fields f;

	(void)state;
	assert_int_equal(run("{\"str\": [\"/a/b.py\", 3, \"more\"]}", &f), 1);
	assert_int_equal(f.str_ok, 1);
	assert_text(f.str, f.str_len, "/a/b.py");
	assert_int_equal(f.str_n, 3);
	assert_int_equal(run("{\"str\": [3, \"/a/b.py\"]}", &f), 1);
	assert_int_equal(f.str_ok, 0);
	assert_int_equal(run("{\"str\": [\"only\"]}", &f), 1);
	assert_int_equal(f.str_ok, 0);
	assert_int_equal(run("{\"str\": [\"s\", 1.0]}", &f), 1);
	assert_int_equal(f.str_ok, 0);
	assert_int_equal(run("{\"str\": {\"0\": \"x\"}}", &f), 1);
	assert_int_equal(f.str_ok, 0);
}

/* What the two parsers may read differently, or SQLite does not read: left to jansson. */
static void left_to_jansson(void **state)
{
	static const char *const corners[] = {
		"{\"k\": {\"name\": \"nul\\u0000\"}}",		/* jansson refuses \u0000 */
		"{\"k\": {\"name\": \"lone\\ud800\"}}",		/* and a lone surrogate */
		"{\"k\": {\"name\": \"pair\\uD83D\\uDE00\"}}",	/* any surrogate escape */
		"{\"k\": {\"name\": \"caf\xc3\xa9\"}}",		/* bytes over 0x7e */
		"{\"k\": {\"name\": \"bad\xff\"}}",
		"{\"k\": {\"name\": \"tab\there\"}}",		/* under 0x20 */
		"{\"k\": {}, \"frame_id\": 1234567890123456789}",	/* 19 digits */
		"{\"k\": {}, \"frame_id\": 1e2}",		/* an exponent */
		"{\"k\": {}, \"frame_id\": 2.5E+1}",
		"{\"a\": {}, \"a\": {}}",			/* a key twice */
		"{\"rank\": 1, \"rank\": 2, \"k\": {}}",
		"{\"a\": {}, \"\\u0061\": {}}",			/* the same key, escaped */
		"{\"k\\\"q\": {\"name\": \"n\"}}",		/* a kind no path names */
		"{\"k\": {},}",					/* not JSON */
		"{\"k\": {}",
		"{\"k\": {\"name\": \"open}}",
		"[{\"k\": {}}]",				/* not an object */
		/* JSON5: SQLite >= 3.42 reads it (db_jscan_strict), jansson does not */
		"{\"k\": {name: \"x\"}}",			/* an unquoted key */
		"{\"k\": {'name': \"x\"}, \"rank\": 1}",	/* single quotes */
		"{\"k\": {\"name\": 'x'}}",
		"{\"k\": {\"name\": \"x\",}}",			/* a trailing comma inside */
		"{\"k\": {}, \"frame_id\": 0x1f}",		/* hex */
		"{\"k\": {}, \"frame_id\": +1}",
		"{\"k\": {}, \"frame_id\": .5}",
		"{\"k\": {}, \"frame_id\": Infinity}",
		"{\"k\": {}} /* c */",				/* a comment */
		"{\"k\": {\"name\": \"a\\\nb\"}}",		/* a line continued */
		"",
	};
	struct tt_env_fields f;
	char many[2048];
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(corners); i++) {
		if (run(corners[i], &f) != 0)
			fail_msg("scanned: %s", corners[i]);
	}
	/* More top-level keys than TT_ENVSCAN_KEYS. */
	n += (size_t)snprintf(many + n, sizeof(many) - n, "{\"k\": {}");
	for (int i = 0; i < TT_ENVSCAN_KEYS; i++)
		n += (size_t)snprintf(many + n, sizeof(many) - n, ", \"x%d\": %d", i, i);
	snprintf(many + n, sizeof(many) - n, "}");
	assert_int_equal(run(many, &f), 0);
	/* Strings and digits inside strings are not numbers: read. */
	assert_int_equal(run("{\"k\": {\"name\": \"12345678901234567890e5\"}}", &f), 1);
	assert_text(f.name, f.name_len, "12345678901234567890e5");
}

static int digest(void *ctx, const struct tt_record *rec)
{
	pt_strbuf_addf_trunc(ctx, "%llu|%s|%d|%s|%s|%lld|%lld,%lld,%lld,%lld|%d|%ld|%s|%d\n",
			     (unsigned long long)rec->lineno, rec->kind, rec->nkinds,
			     rec->name ? rec->name : "(null)",
			     rec->md5_declared ? rec->md5_declared : "(null)", rec->rank,
			     (long long)rec->cid.ca, (long long)rec->cid.frame,
			     (long long)rec->cid.compile, (long long)rec->cid.attempt, rec->has_payload,
			     rec->str_index, rec->str_value ? rec->str_value : "(null)", rec->md5_ok);
	return 0;
}

static void read_all(const char *text, int with_scan, struct pt_strbuf *out)
{
	struct tt_reader r;
	struct pt_diag d;

	pt_diag_init(&d);
	tt_reader_init(&r, "corners.log", &d, digest, out);
	if (with_scan) {
		r.scan = tt_envscan;
		r.scan_ctx = scan;
	}
	assert_int_equal(tt_reader_feed(&r, (const uint8_t *)text, strlen(text)), 0);
	tt_reader_finish(&r);
	for (size_t i = 0; i < d.n; i++)
		pt_strbuf_addf_trunc(out, "%s: %s\n", d.v[i].where ? d.v[i].where : "", d.v[i].what);
	tt_reader_release(&r);
	pt_diag_release(&d);
}

/* The reader gives the same records and messages with the hook as without. */
static void reader_same_both_ways(void **state)
{
#define P "V1122 02:47:00.000000 1 f.py:1] "
	static const char text[] =
		P "{\"artifact\": {\"name\": \"a\\u00e9\"}, \"frame_id\": 1, \"has_payload\":"
		  " \"0cc175b9c0f1b6a831c399e269772661\"}\n\ta\n"
		P "{\"str\": [\"/a/b.py\", 3]}\n"
		P "{\"str\": [3, \"/a/b.py\"]}\n"
		P "{\"str\": [\"x\", 99999999999]}\n"
		P "{\"k\": {\"name\": \"nul\\u0000\"}}\n"
		P "{\"k\": {},}\n"
		P "{\"frame_id\": 1}\n"
		P "{\"a\": {}, \"a\": {\"name\": \"second\"}}\n"
		P "{\"g\": {\"name\": \"first\", \"name\": \"second\"}, \"rank\": 1, \"has_payload\": true}\n"
		P "{\"\\u0061rtifact\": {\"n\\u0061me\": \"esc\"}, \"fr\\u0061me_id\": 4}\n"
		"\tb\n";
#undef P
	struct pt_strbuf a, b;

	(void)state;
	pt_strbuf_init(&a, 1u << 20);
	pt_strbuf_init(&b, 1u << 20);
	read_all(text, 0, &a);
	read_all(text, 1, &b);
	assert_string_equal(pt_strbuf_str(&b), pt_strbuf_str(&a));
	assert_non_null(strstr(pt_strbuf_str(&a), "|second|"));	/* the records are there */
	assert_non_null(strstr(pt_strbuf_str(&a), "invalid envelope JSON"));
	pt_strbuf_release(&a);
	pt_strbuf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields),
		cmocka_unit_test(names),
		cmocka_unit_test(strs),
		cmocka_unit_test(left_to_jansson),
		cmocka_unit_test(reader_same_both_ways),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
