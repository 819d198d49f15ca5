/*
 * tracers/store/runs.c: RUN resolves by id, name and "last"; the argv survives quotes
 * and SQL as data; finish records the status; rm removes rows (cascading) and the run
 * directory; ls and show read them back as structs.
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
#include <sys/wait.h>
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

/* A pid that no process has: a child's, reaped. */
static int64_t dead_pid(void)
{
	pid_t p = fork();

	assert_true(p >= 0);
	if (p == 0)
		_exit(0);
	assert_int_equal(waitpid(p, NULL, 0), p);
	return p;
}

/*
 * ls and show's structs: every run in id order; one run with its argv,
 * duration, env by name, warnings in order, files by path (NULL bytes: -1),
 * the crash row (NULL core_limit kept apart from -1); a "running" run whose
 * recorder is gone reads "lost" there, as runs_mark_lost would store it.
 */
static void list_and_show(void **state)
{
	struct ptest_db *f = *state;
	struct run_crash c = { .signal = 11, .core_dumped = 0, .core_limit = -1,
			       .core_pattern = "core", .core_note = "no core file" };
	struct run_list l;
	struct run_show sh;
	struct run_row r;
	char here[256] = "";
	int64_t a, b;
	char *sql;

	ptest_db_open_ok(f, 0);
	a = ptest_db_new_run(f->ix, "one");
	b = ptest_db_new_run(f->ix, NULL);
	assert_int_equal(runs_add_env(f->ix, a, "TORCH_TRACE", "/t"), 0);
	assert_int_equal(runs_add_env(f->ix, a, "CUDA_HOME", "/c"), 0);
	assert_int_equal(runs_add_warning(f->ix, a, "w2", "second"), 0);
	assert_int_equal(runs_add_warning(f->ix, a, "w1", "first"), 0);
	assert_int_equal(runs_add_file(f->ix, a, "stdout.log", "stdout", 5), 0);
	assert_int_equal(runs_add_file(f->ix, a, "order.bin", "order", -1), 0);
	assert_int_equal(runs_set_crash(f->ix, a, &c), 0);
	assert_int_equal(runs_finish(f->ix, a, RUN_SIGNALED, 11, 1795315639500000, 5, 7), 0);
	gethostname(here, sizeof(here) - 1);
	sql = pt_xasprintf("UPDATE runs SET host = '%s', pttrace_pid = %lld WHERE id = %lld", here,
			   (long long)dead_pid(), (long long)b);
	assert_int_equal(db_exec(f->ix, sql), 0);
	free(sql);

	assert_int_equal(runs_list(f->ix, &l), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.v[0].id, a);
	assert_string_equal(l.v[0].name, "one");
	assert_string_equal(l.v[0].status, "signaled");
	assert_int_equal(l.v[0].signal, 11);
	assert_int_equal(l.v[0].ended_us, 1795315639500000);
	assert_int_equal(l.v[1].id, b);
	assert_null(l.v[1].name);
	assert_string_equal(l.v[1].status, "lost");
	assert_int_equal(l.v[1].ended_us, -1);
	runs_list_release(&l);
	/* runs_load gives the row as stored. */
	assert_int_equal(runs_load(f->ix, b, &r), 0);
	assert_string_equal(r.status, "running");
	runs_row_release(&r);

	assert_int_equal(runs_show_load(f->ix, a, &sh), 0);
	assert_int_equal(sh.argc, 2);
	assert_string_equal(sh.argv[0], "python3");
	assert_string_equal(sh.argv[1], "it's \"quoted\"; DROP TABLE runs; --");
	assert_true(sh.has_duration);
	assert_true(sh.duration_s > 1.49 && sh.duration_s < 1.51);
	assert_int_equal(sh.run.bytes_stderr, 7);
	assert_int_equal(sh.n_env, 2);
	assert_string_equal(sh.env[0].name, "CUDA_HOME");
	assert_string_equal(sh.env[1].value, "/t");
	assert_int_equal(sh.n_warnings, 2);
	assert_string_equal(sh.warnings[0].code, "w2");
	assert_string_equal(sh.warnings[1].message, "first");
	assert_int_equal(sh.n_files, 2);
	assert_string_equal(sh.files[0].path, "order.bin");
	assert_int_equal(sh.files[0].bytes, -1);
	assert_int_equal(sh.files[1].bytes, 5);
	assert_non_null(sh.crash);
	assert_int_equal(sh.crash->signal, 11);
	assert_int_equal(sh.crash->core_limit, -1);
	assert_false(sh.crash->core_limit_null);
	assert_string_equal(sh.crash->core_note, "no core file");
	assert_null(sh.crash->core_path);
	runs_show_release(&sh);

	assert_int_equal(runs_show_load(f->ix, b, &sh), 0);
	assert_string_equal(sh.run.status, "lost");
	assert_false(sh.has_duration);
	assert_int_equal(sh.n_env + sh.n_warnings + sh.n_files, 0);
	assert_null(sh.crash);
	runs_show_release(&sh);

	assert_int_equal(runs_show_load(f->ix, 999, &sh), -1);
	assert_int_equal(pt_diag_count(&f->diag, PT_SEV_ERROR), 1);
	assert_non_null(strstr(f->diag.v[0].what, "no run 999"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(run_resolution, setup, teardown),
		cmocka_unit_test_setup_teardown(finish_and_rm, setup, teardown),
		cmocka_unit_test_setup_teardown(list_and_show, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
