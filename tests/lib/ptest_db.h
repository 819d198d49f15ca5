/*
 * A scratch pttrace database for the tracers' unit tests (tests/unit/tracers,
 * linked with pttrace_lib): a private directory from ptest_tmpdir, a database
 * path in it, and its removal without a shell (ptest_rmtree).
 */
#ifndef PT_PTEST_DB_H
#define PT_PTEST_DB_H

#include <stdint.h>

#include "diag.h"
#include "ptest.h"

struct db;

struct ptest_db {
	char dir[PTEST_PATH_MAX];	/* the scratch directory, removed by ptest_db_free */
	char *db;			/* "<dir>/<rel>": the database file */
	struct pt_diag diag;		/* what opening and the tests' calls reported */
	struct db *ix;			/* NULL until ptest_db_open */
	int64_t run;			/* a run the test's set-up made, or -1 */
};

/*
 * A scratch directory "pt-<tag>.XXXXXX" and the path "<dir>/<rel>" of a database
 * not created yet (rel may name a folder that does not exist: opening makes it).
 * NULL when the directory cannot be made.
 */
struct ptest_db *ptest_db_new(const char *tag, const char *rel);

/* Open (or close and reopen) f->db with pttrace_db_open's flags: 0, or -1 (f->diag says why). */
int ptest_db_open(struct ptest_db *f, unsigned flags);

/* ptest_db_open, or fail the test with the diagnostics printed. */
void ptest_db_open_ok(struct ptest_db *f, unsigned flags);

/* Close, release the diagnostics, remove the directory, free: 0, or -1 if it could not be removed. */
int ptest_db_free(struct ptest_db *f);

/*
 * cmocka set-up: a scratch database "pt-<tag>.XXXXXX/pttrace.db", opened, in *state;
 * with_run: and a run of source "run" (argv "x") in its run field. 0 or -1.
 */
int ptest_db_setup(void **state, const char *tag, int with_run);

/* cmocka teardown: what the diagnostics hold printed, then ptest_db_free. 0 or -1. */
int ptest_db_teardown(void **state);

/* The integer in the first column of the first row of sql (the test fails without a row). */
int64_t ptest_db_int(struct db *ix, const char *sql);

/*
 * A new run (source "run") named name (NULL: none), whose argv holds quotes and
 * SQL as data: python3 'it'"'"'s "quoted"; DROP TABLE runs; --'. Its id.
 */
int64_t ptest_db_new_run(struct db *ix, const char *name);

#endif
