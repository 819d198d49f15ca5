/*
 * tracers/store (db, schema, runs): a fresh database gets its
 * identity and every part; runs resolve by id, name and "last"; values are
 * bound, not printed; derived parts are rebuilt and content kept on a version
 * change; read-only connections cannot write; rm removes the run directory.
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
#include "parts.h"
#include "ptest.h"
#include "schema.h"
#include "db_json.h"
#include "logs_query.h"
#include "runs.h"
#include "logs_ingest.h"
#include "xalloc.h"

struct fixture {
	char dir[PTEST_PATH_MAX];
	char *db;
	struct pt_diag diag;
	struct db *ix;
};

static int setup(void **state)
{
	struct fixture *f = pt_xcalloc(1, sizeof(*f));

	if (!ptest_tmpdir(f->dir, "test-db"))
		return -1;
	/* A directory that does not exist yet: db_open creates it. */
	f->db = pt_xasprintf("%s/data/pttrace.db", f->dir);
	pt_diag_init(&f->diag);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	db_close(f->ix);
	pt_diag_release(&f->diag);
	if (ptest_rmtree(f->dir) < 0)
		return -1;
	free(f->db);
	free(f);
	return 0;
}

static void open_ok(struct fixture *f, unsigned flags)
{
	db_close(f->ix);
	f->ix = NULL;
	if (pttrace_db_open(&f->ix, f->db, flags, &f->diag) < 0) {
		pt_diag_print(&f->diag, stderr, "test", 0);
		fail();
	}
}

static int64_t one_int(struct db *ix, const char *sql)
{
	struct db_stmt *s = db_prepare(ix, sql);
	int64_t v;

	assert_non_null(s);
	assert_int_equal(db_step(s), 1);
	v = db_col_int(s, 0);
	db_reset(s);
	return v;
}

static int64_t new_run(struct db *ix, const char *name)
{
	char *argv[] = { "python3", "it's \"quoted\"; DROP TABLE runs; --" };
	struct run_info ri = { .name = name, .source = "run", .argv = argv, .argc = 2,
			       .cwd = "/tmp", .started_us = 1795315638000000 };
	int64_t id = -1;

	assert_int_equal(runs_create(ix, &ri, &id), 0);
	return id;
}

/* A new file is a pttrace database with every part at its version. */
static void fresh_database(void **state)
{
	struct fixture *f = *state;

	open_ok(f, 0);
	assert_int_equal(one_int(f->ix, "PRAGMA application_id"), DB_APPLICATION_ID);
	assert_int_equal(one_int(f->ix, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM schema_parts"), (int64_t)pttrace_nparts);
	assert_int_equal(one_int(f->ix, "SELECT version FROM schema_parts WHERE name='lines'"),
			 logs_part.version);
	/* WAL, so readers and the writer of a live run do not block each other. */
	{
		struct db_stmt *s = db_prepare(f->ix, "PRAGMA journal_mode");

		assert_int_equal(db_step(s), 1);
		assert_string_equal(db_col_text(s, 0), "wal");
		db_reset(s);
	}
	/* Opening again changes nothing. */
	open_ok(f, 0);
	assert_int_equal(pt_diag_count(&f->diag, PT_SEV_NOTE), 0);
}

/* RUN is an id, a name or "last"; the argv survives quotes and SQL as data. */
static void run_resolution(void **state)
{
	struct fixture *f = *state;
	int64_t a, b, id;
	struct run_row r;
	char *dir;
	struct stat st;

	open_ok(f, 0);
	a = new_run(f->ix, "baseline");
	b = new_run(f->ix, NULL);
	assert_true(b > a);
	assert_int_equal(runs_resolve(f->ix, "baseline", &id), 0);
	assert_int_equal(id, a);
	assert_int_equal(runs_resolve(f->ix, "last", &id), 0);
	assert_int_equal(id, b);
	{
		char num[32];

		snprintf(num, sizeof(num), "%lld", (long long)a);
		assert_int_equal(runs_resolve(f->ix, num, &id), 0);
		assert_int_equal(id, a);
	}
	assert_int_equal(runs_resolve(f->ix, "999", &id), -1);
	assert_int_equal(runs_resolve(f->ix, "nosuch", &id), -1);
	assert_int_equal(pt_diag_count(&f->diag, PT_SEV_ERROR), 2);
	pt_diag_release(&f->diag);
	/* Names that would be ambiguous, and taken names, are refused. */
	{
		char *argv[] = { "x" };
		struct run_info ri = { .source = "run", .argv = argv, .argc = 1 };

		ri.name = "123";
		assert_int_equal(runs_create(f->ix, &ri, &id), -1);
		ri.name = "last";
		assert_int_equal(runs_create(f->ix, &ri, &id), -1);
		ri.name = "baseline";
		assert_int_equal(runs_create(f->ix, &ri, &id), -1);
		pt_diag_release(&f->diag);
	}
	assert_int_equal(runs_load(f->ix, a, &r), 0);
	assert_string_equal(r.argv_json, "[\"python3\",\"it's \\\"quoted\\\"; DROP TABLE runs; --\"]");
	assert_string_equal(r.status, "running");
	assert_int_equal(r.ended_us, -1);
	assert_int_equal(r.exit_code, -1);
	runs_row_release(&r);
	/* The run directory exists beside the database. */
	dir = db_run_dir(f->ix, a);
	assert_int_equal(stat(dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	free(dir);
}

/* finish records the status; rm removes rows (cascading) and the directory. */
static void finish_and_rm(void **state)
{
	struct fixture *f = *state;
	int64_t a;
	struct run_row r;
	char *dir, *file;
	FILE *fp;

	open_ok(f, 0);
	a = new_run(f->ix, NULL);
	assert_int_equal(runs_add_env(f->ix, a, "TORCH_LOGS", "+dynamo"), 0);
	assert_int_equal(runs_add_warning(f->ix, a, "w1", "first"), 0);
	assert_int_equal(runs_add_warning(f->ix, a, "w2", "second"), 0);
	assert_int_equal(runs_add_file(f->ix, a, "stdout.log", "stdout", 5), 0);
	assert_int_equal(runs_finish(f->ix, a, RUN_SIGNALED, 9, 1795315639000000, 5, 0), 0);
	assert_int_equal(runs_load(f->ix, a, &r), 0);
	assert_string_equal(r.status, "signaled");
	assert_int_equal(r.signal, 9);
	assert_int_equal(r.exit_code, -1);
	runs_row_release(&r);
	assert_int_equal(one_int(f->ix, "SELECT MAX(seq) FROM run_warnings"), 1);
	dir = db_run_dir(f->ix, a);
	file = pt_xasprintf("%s/stdout.log", dir);
	fp = fopen(file, "w");
	assert_non_null(fp);
	fputs("hello", fp);
	fclose(fp);
	assert_int_equal(runs_delete(f->ix, a), 0);
	assert_int_equal(access(dir, F_OK), -1);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM run_env"), 0);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM run_warnings"), 0);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM run_files"), 0);
	free(file);
	free(dir);
}

/* Every bind letter round-trips, NULLs included; a bad letter is a reported bug. */
static void binding(void **state)
{
	struct fixture *f = *state;
	struct db_stmt *s;

	open_ok(f, 0);
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
	assert_int_equal(db_bind(s, "q", 1), -1);
	assert_int_equal(pt_diag_count(&f->diag, PT_SEV_ERROR), 1);
	pt_diag_release(&f->diag);
	/* A bad statement is an error naming the SQL. */
	assert_null(db_prepare(f->ix, "SELECT nope FROM nowhere"));
	assert_int_equal(f->diag.n, 1);
	assert_string_equal(f->diag.v[0].where, "SELECT nope FROM nowhere");
	pt_diag_release(&f->diag);
}

/* Batches commit on their own once max_rows rows went in. */
static void batches(void **state)
{
	struct fixture *f = *state;
	int64_t a;
	struct db_stmt *s;

	open_ok(f, 0);
	a = new_run(f->ix, NULL);
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
		assert_int_equal(one_int(ro, "SELECT COUNT(*) FROM run_env"), 20);
		db_close(ro);
		pt_diag_release(&d2);
	}
	assert_int_equal(db_batch_end(f->ix), 0);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM run_env"), 25);
}

/*
 * A paused batch (B23: the input went quiet) has committed its rows and
 * holds no write lock: another connection sees them and writes; the next
 * db_batch_write opens a transaction again, and db_batch_end commits it.
 */
static void batch_pause(void **state)
{
	struct fixture *f = *state;
	struct pt_diag d2;
	struct db *other;
	struct db_stmt *s;
	int64_t a;

	open_ok(f, 0);
	a = new_run(f->ix, NULL);
	pt_diag_init(&d2);
	assert_int_equal(pttrace_db_open(&other, f->db, 0, &d2), 0);
	assert_int_equal(db_batch_begin(f->ix, 1000, 60000), 0);
	s = db_prepare(f->ix, "INSERT INTO run_env(run_id, name, value) VALUES (?1, ?2, 'v')");
	assert_int_equal(db_batch_write(f->ix), 0);
	assert_int_equal(db_run(s, "it", a, "A"), 0);
	assert_int_equal(db_batch_tick(f->ix, 1), 0);
	assert_int_equal(one_int(other, "SELECT COUNT(*) FROM run_env"), 0);
	assert_int_equal(db_batch_pause(f->ix), 0);
	assert_int_equal(one_int(other, "SELECT COUNT(*) FROM run_env"), 1);
	/* No lock held: the other connection writes at once (its busy timeout is not needed). */
	assert_int_equal(db_begin(other), 0);
	assert_int_equal(db_exec(other, "INSERT INTO run_env(run_id, name, value) VALUES (1, 'B', 'w')"), 0);
	assert_int_equal(db_commit(other), 0);
	/* Pausing again with nothing written is a no-op; a write reopens the batch. */
	assert_int_equal(db_batch_pause(f->ix), 0);
	assert_int_equal(db_batch_write(f->ix), 0);
	assert_int_equal(db_run(s, "it", a, "C"), 0);
	assert_int_equal(db_batch_tick(f->ix, 1), 0);
	assert_int_equal(one_int(other, "SELECT COUNT(*) FROM run_env"), 2);
	assert_int_equal(db_batch_end(f->ix), 0);
	assert_int_equal(one_int(other, "SELECT COUNT(*) FROM run_env"), 3);
	db_close(other);
	pt_diag_release(&d2);
}

/* A read-only connection refuses to write; a missing database is an error, not a new file. */
static void readonly(void **state)
{
	struct fixture *f = *state;
	struct db *ro;
	struct db_stmt *s;
	char *missing = pt_xasprintf("%s/none/pttrace.db", f->dir);

	open_ok(f, 0);
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

/*
 * An older derived part is dropped and recreated and its runs forgotten;
 * content is kept; a newer part than this program knows is refused.
 */
static void versions(void **state)
{
	struct fixture *f = *state;
	int64_t a;
	struct db_stmt *s;

	open_ok(f, 0);
	a = new_run(f->ix, "keep");
	s = db_prepare(f->ix, "INSERT INTO records(run_id, seq, nlines, stream, off, len, kind,"
				 " text) VALUES (?1, 0, 1, 2, 0, 3, 'other', 'hi')");
	assert_int_equal(db_run(s, "i", a), 0);
	assert_int_equal(schema_part_mark(f->ix, "lines", a, "done"), 0);
	assert_int_equal(schema_part_current(f->ix, "lines", a), 1);
	assert_int_equal(db_exec(f->ix, "UPDATE schema_parts SET version = 0 WHERE name='lines'"), 0);
	open_ok(f, 0);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM records"), 0);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM runs WHERE name='keep'"), 1);
	assert_int_equal(schema_part_current(f->ix, "lines", a), 0);
	assert_int_equal(db_exec(f->ix, "UPDATE schema_parts SET version = 99 WHERE name='core'"), 0);
	db_close(f->ix);
	f->ix = NULL;
	assert_int_equal(pttrace_db_open(&f->ix, f->db, 0, &f->diag), -1);
	assert_non_null(strstr(f->diag.v[0].what, "newer than this pttrace"));
	pt_diag_release(&f->diag);
}

/* A SQLite file of another application is not touched. */
static void foreign_database(void **state)
{
	struct fixture *f = *state;
	struct db *ix;

	open_ok(f, 0);
	assert_int_equal(db_exec(f->ix, "PRAGMA application_id=7"), 0);
	db_close(f->ix);
	f->ix = NULL;
	assert_int_equal(pttrace_db_open(&ix, f->db, 0, &f->diag), -1);
	assert_non_null(strstr(f->diag.v[0].what, "not a pttrace database"));
	pt_diag_release(&f->diag);
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
		cmocka_unit_test_setup_teardown(fresh_database, setup, teardown),
		cmocka_unit_test_setup_teardown(run_resolution, setup, teardown),
		cmocka_unit_test_setup_teardown(finish_and_rm, setup, teardown),
		cmocka_unit_test_setup_teardown(binding, setup, teardown),
		cmocka_unit_test_setup_teardown(batches, setup, teardown),
		cmocka_unit_test_setup_teardown(batch_pause, setup, teardown),
		cmocka_unit_test_setup_teardown(readonly, setup, teardown),
		cmocka_unit_test_setup_teardown(versions, setup, teardown),
		cmocka_unit_test_setup_teardown(foreign_database, setup, teardown),
		cmocka_unit_test(default_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
