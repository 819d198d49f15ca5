/*
 * tracers/store/runs.c: RUN resolves by id, name and "last"; the argv survives quotes
 * and SQL as data; finish records the status; rm removes rows (cascading) and the run
 * directory.
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
#include "ptest_db.h"
#include "runs.h"
#include "rundir.h"
#include "xalloc.h"

static int setup(void **state)
{
	/* A directory that does not exist yet: db_open creates it. */
	*state = ptest_db_new("test-runs", "data/pttrace.db");
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	return ptest_db_free(*state);
}

/* RUN is an id, a name or "last"; the argv survives quotes and SQL as data. */
static void run_resolution(void **state)
{
	struct ptest_db *f = *state;
	int64_t a, b, id;
	struct run_row r;
	char *dir;
	struct stat st;

	ptest_db_open_ok(f, 0);
	a = ptest_db_new_run(f->ix, "baseline");
	b = ptest_db_new_run(f->ix, NULL);
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
	dir = rundir_path(f->ix, a);
	assert_int_equal(stat(dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	free(dir);
}

/* finish records the status; rm removes rows (cascading) and the directory. */
static void finish_and_rm(void **state)
{
	struct ptest_db *f = *state;
	int64_t a;
	struct run_row r;
	char *dir, *file;
	FILE *fp;

	ptest_db_open_ok(f, 0);
	a = ptest_db_new_run(f->ix, NULL);
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
	assert_int_equal(ptest_db_int(f->ix, "SELECT MAX(seq) FROM run_warnings"), 1);
	dir = rundir_path(f->ix, a);
	file = pt_xasprintf("%s/stdout.log", dir);
	fp = fopen(file, "w");
	assert_non_null(fp);
	fputs("hello", fp);
	fclose(fp);
	assert_int_equal(runs_delete(f->ix, a), 0);
	assert_int_equal(access(dir, F_OK), -1);
	assert_int_equal(ptest_db_int(f->ix, "SELECT COUNT(*) FROM run_env"), 0);
	assert_int_equal(ptest_db_int(f->ix, "SELECT COUNT(*) FROM run_warnings"), 0);
	assert_int_equal(ptest_db_int(f->ix, "SELECT COUNT(*) FROM run_files"), 0);
	free(file);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(run_resolution, setup, teardown),
		cmocka_unit_test_setup_teardown(finish_and_rm, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
