/*
 * tracers/store/db.c against SQL text of other origins (N19, N20): a virtual
 * table someone added to the database (FTS5, FTS4, FTS3, R*Tree keep
 * statements of their own) is read and closed without a false "unfinalized
 * statement"; fts3_tokenizer() is refused on every connection; defensive mode
 * keeps SQL from corrupting the file on purpose.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "parts.h"
#include "ptest.h"
#include "ptest_db.h"
#include "xalloc.h"

static int setup(void **state)
{
	*state = ptest_db_new("test-db-sql", "pttrace.db");
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	return ptest_db_free(*state);
}

/* The last diagnostic holds needle. */
static void assert_diag(struct pt_diag *d, const char *needle)
{
	assert_true(d->n > 0);
	if (!strstr(d->v[d->n - 1].what, needle))
		fail_msg("'%s' not in '%s'", needle, d->v[d->n - 1].what);
}

/*
 * N19: the query on each virtual table is answered and the connection closes
 * (before: "BUG: db.c: unfinalized statement: SELECT pgno FROM 'main'.'notes_idx'", abort).
 */
static void virtual_tables_close(void **state)
{
	static const char *const queries[] = {
		"SELECT count(*) FROM n5 WHERE n5 MATCH 'graph'",
		"SELECT count(*) FROM n4 WHERE n4 MATCH 'graph'",
		"SELECT count(*) FROM n3 WHERE n3 MATCH 'graph'",
		"SELECT count(*) FROM rt WHERE x0 < 5",
	};
	struct ptest_db *f = *state;

	ptest_db_open_ok(f, 0);
	assert_int_equal(db_exec(f->ix, "CREATE VIRTUAL TABLE n5 USING fts5(body);"
				 " INSERT INTO n5 VALUES ('a graph break');"
				 " CREATE VIRTUAL TABLE n4 USING fts4(body); INSERT INTO n4 VALUES ('graph');"
				 " CREATE VIRTUAL TABLE n3 USING fts3(body); INSERT INTO n3 VALUES ('graph');"
				 " CREATE VIRTUAL TABLE rt USING rtree(id, x0, x1); INSERT INTO rt VALUES (1, 0, 1);"),
			 0);
	/* The writable connection, which created them, and read-only ones, one query each. */
	assert_int_equal(ptest_db_int(f->ix, queries[0]), 1);
	db_close(f->ix);
	f->ix = NULL;
	for (size_t i = 0; i < PT_ARRAY_SIZE(queries); i++) {
		struct db *ro;
		struct db_stmt *s;

		assert_int_equal(pttrace_db_open(&ro, f->db, DB_READONLY, &f->diag), 0);
		assert_int_equal(ptest_db_int(ro, queries[i]), 1);
		/* A statement left in the middle of its rows: finalized at close. */
		s = db_prepare(ro, "SELECT rowid FROM n5 WHERE n5 MATCH 'graph' UNION ALL SELECT 2");
		assert_non_null(s);
		assert_int_equal(db_step(s), 1);
		db_close(ro);
	}
	/* A query the virtual table fails: the error, and the close is as clean. */
	{
		struct db *ro;

		assert_int_equal(pttrace_db_open(&ro, f->db, DB_READONLY, &f->diag), 0);
		assert_int_equal(db_step(db_prepare(ro, "SELECT * FROM n5 WHERE n5 MATCH 'AND AND'")), -1);
		assert_diag(&f->diag, "fts5: syntax error");
		db_close(ro);
		pt_diag_release(&f->diag);
	}
}

/* N20: fts3_tokenizer() in either form is not prepared, on writable and read-only connections. */
static void fts3_tokenizer_refused(void **state)
{
	static const char *const calls[] = {
		"SELECT hex(fts3_tokenizer('simple'))",
		"SELECT fts3_tokenizer('simple', x'4141414141414141')",
		"SELECT FTS3_Tokenizer('porter')",
		"SELECT 1 WHERE fts3_tokenizer('simple') IS NOT NULL",
	};
	struct ptest_db *f = *state;
	struct db *ro;

	ptest_db_open_ok(f, 0);
	assert_int_equal(pttrace_db_open(&ro, f->db, DB_READONLY, &f->diag), 0);
	for (size_t i = 0; i < PT_ARRAY_SIZE(calls); i++) {
		assert_null(db_prepare(f->ix, calls[i]));
		assert_diag(&f->diag, "not authorized to use function: ");
		assert_null(db_prepare(ro, calls[i]));
		assert_diag(&f->diag, "not authorized to use function: ");
	}
	/* Through a view someone added: SQLite's own rule (a direct-only function). */
	assert_int_equal(db_exec(f->ix, "CREATE VIEW leak AS SELECT fts3_tokenizer('simple') AS p"), 0);
	assert_null(db_prepare(ro, "SELECT hex(p) FROM leak"));
	assert_diag(&f->diag, "unsafe use of fts3_tokenizer()");
	pt_diag_release(&f->diag);
	/* Other functions are as they were. */
	assert_int_equal(ptest_db_int(ro, "SELECT length(hex(randomblob(4)))"), 8);
	db_close(ro);
}

/* Defensive mode: the schema and a virtual table's shadow tables are not SQL's to write. */
static void defensive(void **state)
{
	struct ptest_db *f = *state;

	ptest_db_open_ok(f, 0);
	assert_int_equal(db_exec(f->ix, "CREATE VIRTUAL TABLE n5 USING fts5(body); INSERT INTO n5 VALUES ('x')"), 0);
	assert_int_equal(db_exec(f->ix, "PRAGMA writable_schema=ON;"
				 " UPDATE sqlite_master SET sql = 'CREATE TABLE runs(x)' WHERE name = 'runs'"),
			 -1);
	assert_diag(&f->diag, "may not be modified");
	assert_int_equal(db_exec(f->ix, "DELETE FROM n5_data"), -1);
	assert_diag(&f->diag, "may not be modified");
	pt_diag_release(&f->diag);
	/* The table through its own door still works. */
	assert_int_equal(db_exec(f->ix, "INSERT INTO n5 VALUES ('y')"), 0);
	assert_int_equal(ptest_db_int(f->ix, "SELECT count(*) FROM n5"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(virtual_tables_close, setup, teardown),
		cmocka_unit_test_setup_teardown(fts3_tokenizer_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(defensive, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
