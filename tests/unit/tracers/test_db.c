/*
 * tracers/store/db.c, db_feed.c, db_jscan.c: values are bound, not printed;
 * row feeds show a batch to INSERT ... SELECT; batches commit on their own
 * and pause; read-only connections cannot write; another application's SQLite
 * file is not touched; the default path; the JSON scanners. Runs (and their
 * directories, rundir.c): test_runs.c; parts: test_schema.c.
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

#include "db.h"
#include "db_feed.h"
#include "db_jscan.h"
#include "parts.h"
#include "ptest.h"
#include "ptest_db.h"
#include "schema.h"
#include "db_json.h"
#include "logs_query.h"
#include "runs.h"
#include "logs_ingest.h"
#include "xalloc.h"

static int setup(void **state)
{
	/* A directory that does not exist yet: db_open creates it. */
	*state = ptest_db_new("test-db", "data/pttrace.db");
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	return ptest_db_free(*state);
}

static void bind_q(void *s)
{
	(void)db_bind(s, "q", 1);
}

/* Every bind letter round-trips, NULLs included; a bad letter is a reported bug. */
static void binding(void **state)
{
	struct ptest_db *f = *state;
	struct db_stmt *s;

	ptest_db_open_ok(f, 0);
	s = db_prepare(f->ix, "SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9");
	assert_non_null(s);
	assert_int_equal(db_bind(s, "iIIdtTbnt", (int64_t)-5, (int64_t)-1, (int64_t)7, 2.5,
				    "text", "abcdef", (size_t)3, "\0x", (size_t)2, (const char *)NULL),
			 0);
	assert_int_equal(db_step(s), 1);
	assert_int_equal(db_col_int(s, 0), -5);
	assert_true(db_col_is_null(s, 1));
	assert_int_equal(db_col_int(s, 2), 7);
	assert_true(db_col_double(s, 3) == 2.5);
	assert_string_equal(db_col_text(s, 4), "text");
	assert_string_equal(db_col_text(s, 5), "abc");
	assert_int_equal(db_col_bytes(s, 6), 2);
	assert_true(db_col_is_null(s, 7));
	assert_true(db_col_is_null(s, 8));
	db_reset(s);
	/* An unknown format letter is a bug in the caller: PT_BUG, which aborts. */
	{
		char err[512];

		assert_int_equal(ptest_aborts(bind_q, s, err, sizeof(err)), 1);
		assert_non_null(strstr(err, "BUG: "));
		assert_non_null(strstr(err, "db_bind: unknown format letter 'q' in \"q\""));
	}
	assert_int_equal(pt_diag_count(&f->diag, PT_SEV_ERROR), 0);
	pt_diag_release(&f->diag);
	/* A bad statement is an error naming the SQL. */
	assert_null(db_prepare(f->ix, "SELECT nope FROM nowhere"));
	assert_int_equal(f->diag.n, 1);
	assert_string_equal(f->diag.v[0].where, "SELECT nope FROM nowhere");
	pt_diag_release(&f->diag);
}

/* Rows for the feed test: a number (-1: NULL) and a text (NULL: NULL) of n bytes. */
struct feed_row {
	int64_t num;
	const char *text;
	size_t n;
};

static void feed_col(const void *rows, size_t row, int col, struct db_val *out)
{
	const struct feed_row *r = (const struct feed_row *)rows + row;

	if (col == 0) {
		out->type = DB_VAL_INT;
		out->i = (int64_t)row;
	} else if (col == 1 && r->num != -1) {
		out->type = DB_VAL_INT;
		out->i = r->num;
	} else if (col == 2 && r->text) {
		out->type = DB_VAL_TEXT;
		out->s = r->text;
		out->n = r->n;
	}	/* else NULL, as declared */
}

/*
 * A feed shows exactly the rows of db_feed_run, in order: integers, NULLs,
 * text with a NUL byte inside and empty text; nothing outside a run; a second
 * declaration is the same feed; a failing INSERT is an error naming its SQL,
 * and the feed is empty again after it.
 */
static void feed(void **state)
{
	struct ptest_db *f = *state;
	static const struct feed_row rows[] = {
		{ 7, "seven", 5 }, { -1, "a\0b", 3 }, { INT64_MAX, "", 0 }, { -5, NULL, 0 },
	};
	static const struct feed_row bad[] = { { 1, "x", 1 }, { 2, NULL, 0 } };
	struct db_feed *fd;
	struct db_stmt *ins, *q;

	ptest_db_open_ok(f, 0);
	assert_int_equal(db_exec(f->ix, "CREATE TEMP TABLE t(k INTEGER PRIMARY KEY, num, txt TEXT NOT NULL"
				 " DEFAULT 'none', UNIQUE(num))"), 0);
	fd = db_feed_declare(f->ix, "test_feed", "k, num, txt", feed_col);
	assert_non_null(fd);
	assert_ptr_equal(db_feed_declare(f->ix, "test_feed", "k, num, txt", feed_col), fd);
	assert_int_equal(ptest_db_int(f->ix, "SELECT count(*) FROM test_feed"), 0);
	ins = db_prepare(f->ix, "INSERT INTO t(k, num, txt) SELECT k, num, coalesce(txt, 'null') FROM test_feed");
	assert_non_null(ins);
	assert_int_equal(db_feed_run(fd, ins, rows, 0), 0);
	assert_int_equal(db_feed_run(fd, ins, rows, 4), 0);
	assert_int_equal(ptest_db_int(f->ix, "SELECT count(*) FROM t"), 4);
	q = db_prepare(f->ix, "SELECT k, num, txt, length(CAST(txt AS BLOB)), typeof(num) FROM t ORDER BY k");
	assert_int_equal(db_step(q), 1);
	assert_int_equal(db_col_int(q, 0), 0);
	assert_int_equal(db_col_int(q, 1), 7);
	assert_string_equal(db_col_text(q, 2), "seven");
	assert_int_equal(db_step(q), 1);
	assert_string_equal(db_col_text(q, 4), "null");
	assert_int_equal(db_col_int(q, 3), 3);
	assert_memory_equal(db_col_text(q, 2), "a\0b", 3);
	assert_int_equal(db_step(q), 1);
	assert_int_equal(db_col_int(q, 1), INT64_MAX);
	assert_string_equal(db_col_text(q, 2), "");
	assert_int_equal(db_step(q), 1);
	assert_int_equal(db_col_int(q, 1), -5);
	assert_string_equal(db_col_text(q, 2), "null");
	assert_int_equal(db_step(q), 0);
	assert_int_equal(ptest_db_int(f->ix, "SELECT count(*) FROM test_feed"), 0);
	assert_int_equal(f->diag.n, 0);
	/* The first row breaks UNIQUE(num): an error naming the INSERT, nothing half-shown after it. */
	ins = db_prepare(f->ix, "INSERT INTO t(k, num) SELECT k + 10, 7 FROM test_feed");
	assert_int_equal(db_feed_run(fd, ins, bad, 2), -1);
	assert_int_equal(f->diag.n, 1);
	assert_non_null(strstr(f->diag.v[0].what, "UNIQUE"));
	assert_string_equal(f->diag.v[0].where, "INSERT INTO t(k, num) SELECT k + 10, 7 FROM test_feed");
	pt_diag_release(&f->diag);
	assert_int_equal(ptest_db_int(f->ix, "SELECT count(*) FROM test_feed"), 0);
	assert_int_equal(ptest_db_int(f->ix, "SELECT count(*) FROM t"), 4);
}

/* Batches commit on their own once max_rows rows went in. */
static void batches(void **state)
{
	struct ptest_db *f = *state;
	int64_t a;
	struct db_stmt *s;

	ptest_db_open_ok(f, 0);
	a = ptest_db_new_run(f->ix, NULL);
	assert_int_equal(db_batch_begin(f->ix, 10, 60000), 0);
	s = db_prepare(f->ix, "INSERT INTO run_env(run_id, name, value) VALUES (?1, ?2, 'v')");
	for (int i = 0; i < 25; i++) {
		char name[16];

		snprintf(name, sizeof(name), "V%d", i);
		assert_int_equal(db_run(s, "it", a, name), 0);
		assert_int_equal(db_batch_tick(f->ix, 1), 0);
	}
	/* A second connection sees the 20 rows of the two committed batches. */
	{
		struct pt_diag d2;
		struct db *ro;

		pt_diag_init(&d2);
		assert_int_equal(pttrace_db_open(&ro, f->db, DB_READONLY, &d2), 0);
		assert_int_equal(ptest_db_int(ro, "SELECT COUNT(*) FROM run_env"), 20);
		db_close(ro);
		pt_diag_release(&d2);
	}
	assert_int_equal(db_batch_end(f->ix), 0);
	assert_int_equal(ptest_db_int(f->ix, "SELECT COUNT(*) FROM run_env"), 25);
}

/*
 * A paused batch (B23: the input went quiet) has committed its rows and
 * holds no write lock: another connection sees them and writes; the next
 * db_batch_write opens a transaction again, and db_batch_end commits it.
 */
static void batch_pause(void **state)
{
	struct ptest_db *f = *state;
	struct pt_diag d2;
	struct db *other;
	struct db_stmt *s;
	int64_t a;

	ptest_db_open_ok(f, 0);
	a = ptest_db_new_run(f->ix, NULL);
	pt_diag_init(&d2);
	assert_int_equal(pttrace_db_open(&other, f->db, 0, &d2), 0);
	assert_int_equal(db_batch_begin(f->ix, 1000, 60000), 0);
	s = db_prepare(f->ix, "INSERT INTO run_env(run_id, name, value) VALUES (?1, ?2, 'v')");
	assert_int_equal(db_batch_write(f->ix), 0);
	assert_int_equal(db_run(s, "it", a, "A"), 0);
	assert_int_equal(db_batch_tick(f->ix, 1), 0);
	assert_int_equal(ptest_db_int(other, "SELECT COUNT(*) FROM run_env"), 0);
	assert_int_equal(db_batch_pause(f->ix), 0);
	assert_int_equal(ptest_db_int(other, "SELECT COUNT(*) FROM run_env"), 1);
	/* No lock held: the other connection writes at once (its busy timeout is not needed). */
	assert_int_equal(db_begin(other), 0);
	assert_int_equal(db_exec(other, "INSERT INTO run_env(run_id, name, value) VALUES (1, 'B', 'w')"), 0);
	assert_int_equal(db_commit(other), 0);
	/* Pausing again with nothing written is a no-op; a write reopens the batch. */
	assert_int_equal(db_batch_pause(f->ix), 0);
	assert_int_equal(db_batch_write(f->ix), 0);
	assert_int_equal(db_run(s, "it", a, "C"), 0);
	assert_int_equal(db_batch_tick(f->ix, 1), 0);
	assert_int_equal(ptest_db_int(other, "SELECT COUNT(*) FROM run_env"), 2);
	assert_int_equal(db_batch_end(f->ix), 0);
	assert_int_equal(ptest_db_int(other, "SELECT COUNT(*) FROM run_env"), 3);
	db_close(other);
	pt_diag_release(&d2);
}

/* A read-only connection refuses to write; a missing database is an error, not a new file. */
static void readonly(void **state)
{
	struct ptest_db *f = *state;
	struct db *ro;
	struct db_stmt *s;
	char *missing = pt_xasprintf("%s/none/pttrace.db", f->dir);

	ptest_db_open_ok(f, 0);
	assert_int_equal(pttrace_db_open(&ro, f->db, DB_READONLY, &f->diag), 0);
	s = db_prepare(ro, "DELETE FROM runs");
	assert_non_null(s);
	assert_int_equal(db_step(s), -1);
	db_close(ro);
	pt_diag_release(&f->diag);
	assert_int_equal(pttrace_db_open(&ro, missing, DB_READONLY, &f->diag), -1);
	assert_null(ro);
	assert_int_equal(access(missing, F_OK), -1);
	pt_diag_release(&f->diag);
	free(missing);
}

/* A SQLite file of another application is not touched. */
static void foreign_database(void **state)
{
	struct ptest_db *f = *state;
	struct db *ix;

	ptest_db_open_ok(f, 0);
	assert_int_equal(db_exec(f->ix, "PRAGMA application_id=7"), 0);
	db_close(f->ix);
	f->ix = NULL;
	assert_int_equal(pttrace_db_open(&ix, f->db, 0, &f->diag), -1);
	assert_non_null(strstr(f->diag.v[0].what, "not a pttrace database"));
	pt_diag_release(&f->diag);
}

/* Collects "key=value" (text or integer) per member, ';'-separated. */
static int collect_member(void *ctx, const struct db_jscan_member *m)
{
	char *out = ctx;
	size_t n = strlen(out);

	if (m->type == DB_JSCAN_TEXT)
		snprintf(out + n, 256 - n, "%.*s=%.*s;", (int)m->key_len, m->key, (int)m->n, m->s);
	else
		snprintf(out + n, 256 - n, "%.*s=%lld;", (int)m->key_len, m->key, (long long)m->i);
	return 0;
}

/* db_jscan_named: the members with either key, in order, escapes decoded; nested ones not. */
static void json_named(void **state)
{
	struct db_jscan *j = db_jscan_new(NULL);
	char got[256] = "";
	const char *doc = "{\"a\": 1, \"name\": \"x\", \"b\": {\"name\": 2}, \"filename\": \"f\","
			  " \"n\\u0061me\": 3, \"names\": 4}";
	const char *bad = "{\"name\": \"x\"";

	(void)state;
	assert_non_null(j);
	assert_int_equal(db_jscan_named(j, doc, strlen(doc), "$", "name", "filename", collect_member, got), 0);
	assert_string_equal(got, "name=x;filename=f;name=3;");
	got[0] = 0;
	assert_int_equal(db_jscan_named(j, doc, strlen(doc), "$.b", "name", "filename", collect_member, got), 0);
	assert_string_equal(got, "name=2;");
	got[0] = 0;
	assert_int_equal(db_jscan_named(j, doc, strlen(doc), "$.a", "name", "filename", collect_member, got), 0);
	assert_string_equal(got, "");
	/* Malformed: 1, and both statements are usable again. */
	assert_int_equal(db_jscan_named(j, bad, strlen(bad), "$", "name", "filename", collect_member, got), 1);
	assert_int_equal(db_jscan_named(j, doc, strlen(doc), "$.b", "name", "filename", collect_member, got), 0);
	assert_string_equal(got, "name=2;");
	got[0] = 0;
	assert_int_equal(db_jscan_members(j, bad, strlen(bad), "$", collect_member, got), 1);
	assert_int_equal(db_jscan_members(j, doc, strlen(doc), "$.b", collect_member, got), 0);
	assert_string_equal(got, "name=2;");
	/* JSON as RFC 8259 has it is strict on any SQLite; JSON5 is not where SQLite reads it. */
	assert_int_equal(db_jscan_strict(j, doc, strlen(doc)), 1);
	assert_int_equal(db_jscan_members(j, "{a: 1}", 6, "$", collect_member, got) == 0,
			 !db_jscan_strict(j, "{a: 1}", 6));
	db_jscan_free(j);
}

/* The default path follows --db, then PTTRACE_DB, then XDG_DATA_HOME, then HOME. */
static void default_path(void **state)
{
	char *p;

	(void)state;
	setenv("PTTRACE_DB", "/x/env.db", 1);
	setenv("XDG_DATA_HOME", "/xdg", 1);
	setenv("HOME", "/home/u", 1);
	p = db_default_path("/given.db");
	assert_string_equal(p, "/given.db");
	free(p);
	p = db_default_path(NULL);
	assert_string_equal(p, "/x/env.db");
	free(p);
	unsetenv("PTTRACE_DB");
	p = db_default_path(NULL);
	assert_string_equal(p, "/xdg/pttrace/pttrace.db");
	free(p);
	unsetenv("XDG_DATA_HOME");
	p = db_default_path(NULL);
	assert_string_equal(p, "/home/u/.local/share/pttrace/pttrace.db");
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(binding, setup, teardown),
		cmocka_unit_test_setup_teardown(feed, setup, teardown),
		cmocka_unit_test_setup_teardown(batches, setup, teardown),
		cmocka_unit_test_setup_teardown(batch_pause, setup, teardown),
		cmocka_unit_test_setup_teardown(readonly, setup, teardown),
		cmocka_unit_test_setup_teardown(foreign_database, setup, teardown),
		cmocka_unit_test(default_path),
		cmocka_unit_test(json_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
