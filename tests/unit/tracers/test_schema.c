/*
 * tracers/store/schema.c (with the parts of tracers/parts.c): a fresh database gets
 * its identity and every part at its version; an older derived part is rebuilt with
 * content kept; a newer one is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "logs_ingest.h"
#include "parts.h"
#include "ptest_db.h"
#include "schema.h"

static int setup(void **state)
{
	/* A directory that does not exist yet: db_open creates it. */
	*state = ptest_db_new("test-schema", "data/pttrace.db");
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	return ptest_db_free(*state);
}

/* A new file is a pttrace database with every part at its version. */
static void fresh_database(void **state)
{
	struct ptest_db *f = *state;

	ptest_db_open_ok(f, 0);
	assert_int_equal(ptest_db_int(f->ix, "PRAGMA application_id"), DB_APPLICATION_ID);
	assert_int_equal(ptest_db_int(f->ix, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	assert_int_equal(ptest_db_int(f->ix, "SELECT COUNT(*) FROM schema_parts"), (int64_t)pttrace_nparts);
	assert_int_equal(ptest_db_int(f->ix, "SELECT version FROM schema_parts WHERE name='lines'"),
			 logs_part.version);
	/* WAL, so readers and the writer of a live run do not block each other. */
	{
		struct db_stmt *s = db_prepare(f->ix, "PRAGMA journal_mode");

		assert_int_equal(db_step(s), 1);
		assert_string_equal(db_col_text(s, 0), "wal");
		db_reset(s);
	}
	/* Opening again changes nothing. */
	ptest_db_open_ok(f, 0);
	assert_int_equal(pt_diag_count(&f->diag, PT_SEV_NOTE), 0);
}

/*
 * An older derived part is dropped and recreated and its runs forgotten;
 * content is kept; a newer part than this program knows is refused.
 */
static void versions(void **state)
{
	struct ptest_db *f = *state;
	int64_t a;
	struct db_stmt *s;

	ptest_db_open_ok(f, 0);
	a = ptest_db_new_run(f->ix, "keep");
	s = db_prepare(f->ix, "INSERT INTO records(id, nlines, stream, off, len, kind,"
				 " text) VALUES ((?1 << 40) | 7, 1, 2, 0, 3, 'other', 'hi')");
	assert_int_equal(db_run(s, "i", a), 0);
	/* The rowid carries the key: run and seq are read from it. */
	assert_int_equal(ptest_db_int(f->ix, "SELECT run_id * 1000 + seq FROM records"), a * 1000 + 7);
	assert_int_equal(schema_part_mark(f->ix, "lines", a, "done"), 0);
	assert_int_equal(schema_part_current(f->ix, "lines", a), 1);
	/*
	 * A database of lines version 1 (records_run and dispatch_calls_run,
	 * run_id and seq stored): its tables are dropped with their indexes
	 * and made again in today's form.
	 */
	assert_int_equal(db_exec(f->ix, "DROP TRIGGER lines_run_deleted; DROP TABLE dispatch_calls;"
				 " DROP TABLE records;"
				 " CREATE TABLE records(id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL,"
				 " seq INTEGER NOT NULL, text TEXT);"
				 " CREATE INDEX records_run ON records(run_id, seq);"
				 " CREATE TABLE dispatch_calls(id INTEGER PRIMARY KEY, run_id INTEGER,"
				 " op TEXT);"
				 " CREATE INDEX dispatch_calls_run ON dispatch_calls(run_id, op);"
				 " INSERT INTO records(run_id, seq, text) VALUES (1, 0, 'old');"
				 " UPDATE schema_parts SET version = 1 WHERE name='lines'"), 0);
	ptest_db_open_ok(f, 0);
	assert_int_equal(ptest_db_int(f->ix, "SELECT COUNT(*) FROM records"), 0);
	assert_int_equal(ptest_db_int(f->ix, "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'index'"
				      " AND tbl_name IN ('records', 'dispatch_calls')"), 0);
	assert_int_equal(ptest_db_int(f->ix, "SELECT COUNT(*) FROM sqlite_schema WHERE"
				      " name = 'lines_run_deleted'"), 1);
	assert_int_equal(ptest_db_int(f->ix, "SELECT version FROM schema_parts WHERE name='lines'"),
			 logs_part.version);
	assert_int_equal(schema_part_current(f->ix, "lines", a), 0);
	assert_int_equal(db_exec(f->ix, "UPDATE schema_parts SET version = 0 WHERE name='lines'"), 0);
	ptest_db_open_ok(f, 0);
	assert_int_equal(ptest_db_int(f->ix, "SELECT COUNT(*) FROM records"), 0);
	assert_int_equal(ptest_db_int(f->ix, "SELECT COUNT(*) FROM runs WHERE name='keep'"), 1);
	assert_int_equal(schema_part_current(f->ix, "lines", a), 0);
	assert_int_equal(db_exec(f->ix, "UPDATE schema_parts SET version = 99 WHERE name='core'"), 0);
	db_close(f->ix);
	f->ix = NULL;
	assert_int_equal(pttrace_db_open(&f->ix, f->db, 0, &f->diag), -1);
	assert_non_null(strstr(f->diag.v[0].what, "newer than this pttrace"));
	pt_diag_release(&f->diag);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(fresh_database, setup, teardown),
		cmocka_unit_test_setup_teardown(versions, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
