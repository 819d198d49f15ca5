/* Scratch pttrace databases for the tracers' unit tests; see ptest_db.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "db.h"
#include "parts.h"
#include "ptest_db.h"
#include "runs.h"
#include "xalloc.h"

struct ptest_db *ptest_db_new(const char *tag, const char *rel)
{
	struct ptest_db *f = pt_xcalloc(1, sizeof(*f));

	if (!ptest_tmpdir(f->dir, tag)) {
		free(f);
		return NULL;
	}
	f->db = ptest_path(f->dir, rel);
	f->run = -1;
	pt_diag_init(&f->diag);
	return f;
}

int ptest_db_open(struct ptest_db *f, unsigned flags)
{
	db_close(f->ix);
	f->ix = NULL;
	return pttrace_db_open(&f->ix, f->db, flags, &f->diag);
}

void ptest_db_open_ok(struct ptest_db *f, unsigned flags)
{
	if (ptest_db_open(f, flags) < 0) {
		pt_diag_print(&f->diag, stderr, "test", 0);
		fail();
	}
}

int ptest_db_free(struct ptest_db *f)
{
	int rc;

	if (!f)
		return 0;
	db_close(f->ix);
	pt_diag_release(&f->diag);
	rc = ptest_rmtree(f->dir);
	free(f->db);
	free(f);
	return rc;
}

int ptest_db_setup(void **state, const char *tag, int with_run)
{
	struct ptest_db *f = ptest_db_new(tag, "pttrace.db");
	char *argv[] = { "x" };
	struct run_info ri = { .source = "run", .argv = argv, .argc = 1,
			       .started_us = 1795315638000000 };

	*state = f;
	if (f && ptest_db_open(f, 0) == 0 && (!with_run || runs_create(f->ix, &ri, &f->run) == 0))
		return 0;
	if (f)
		pt_diag_print(&f->diag, stderr, "test", 0);
	ptest_db_free(f);
	*state = NULL;
	return -1;
}

int ptest_db_teardown(void **state)
{
	struct ptest_db *f = *state;

	if (f)
		pt_diag_print(&f->diag, stderr, "test", 0);
	return ptest_db_free(f);
}

int64_t ptest_db_int(struct db *ix, const char *sql)
{
	struct db_stmt *s = db_prepare(ix, sql);
	int64_t v;

	assert_non_null(s);
	assert_int_equal(db_step(s), 1);
	v = db_col_int(s, 0);
	db_reset(s);
	return v;
}

int64_t ptest_db_new_run(struct db *ix, const char *name)
{
	char *argv[] = { "python3", "it's \"quoted\"; DROP TABLE runs; --" };
	struct run_info ri = { .name = name, .source = "run", .argv = argv, .argc = 2,
			       .cwd = "/tmp", .started_us = 1795315638000000 };
	int64_t id = -1;

	assert_int_equal(runs_create(ix, &ri, &id), 0);
	return id;
}
