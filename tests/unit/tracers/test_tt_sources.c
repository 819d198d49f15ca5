/* torchtrace/tt_sources.c: the files `pttrace import PATH...` stands for, on a real directory. */
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

#include "diag.h"
#include "tt_sources.h"
#include "xalloc.h"

static char dir[] = "/tmp/tt_sources.XXXXXX";

static void put(const char *rel)
{
	char *p = pt_xasprintf("%s/%s", dir, rel);
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs("V1201 00:00:00.000000 1 x.py:1] {\"str\": [\"a\", 0]}\n", f);
	fclose(f);
	free(p);
}

static char *at(const char *rel)
{
	return pt_xasprintf("%s/%s", dir, rel);
}

/* The message of d that contains s, or NULL. */
static const struct pt_diag_msg *said(const struct pt_diag *d, const char *s)
{
	for (size_t i = 0; i < d->n; i++)
		if (strstr(d->v[i].what, s))
			return &d->v[i];
	return NULL;
}

static const char *base(const char *p)
{
	return strrchr(p, '/') + 1;
}

static int setup(void **state)
{
	char *p;

	(void)state;
	assert_non_null(mkdtemp(dir));
	p = at("job");
	assert_int_equal(mkdir(p, 0700), 0);
	free(p);
	p = at("job/rank1");
	assert_int_equal(mkdir(p, 0700), 0);
	free(p);
	put("job/dedicated_log_torch_trace_rank_0_a.log");
	put("job/stdout.txt");			/* not a .log: not a trace inside a directory */
	put("job/.hidden.log");			/* dot files are not walked */
	put("job/rank1/dedicated_log_torch_trace_rank_1_b.log");
	p = at("job/latest");			/* a link back: read once, no loop */
	assert_int_equal(symlink(".", p), 0);
	free(p);
	p = at("job/fifo.log");
	assert_int_equal(mkfifo(p, 0600), 0);
	free(p);
	return 0;
}

static int teardown(void **state)
{
	char *cmd = pt_xasprintf("rm -rf '%s'", dir);

	(void)state;
	assert_int_equal(system(cmd), 0);
	free(cmd);
	return 0;
}

static void walks_a_job_directory(void **state)
{
	struct tt_sources s = {0};
	struct pt_diag d;
	char *job = at("job"), *one = at("job/dedicated_log_torch_trace_rank_0_a.log");
	const struct pt_diag_msg *m;

	(void)state;
	pt_diag_init(&d);
	tt_sources_add(&s, job, &d);
	tt_sources_add(&s, one, &d);	/* named again: once, a note */
	tt_sources_add(&s, job, &d);	/* the directory again: once, a note */
	assert_int_equal(s.n, 2);
	/* Name order: the file before the sub-directory's (alphasort of the entries). */
	assert_string_equal(base(s.v[0].src), "dedicated_log_torch_trace_rank_0_a.log");
	assert_string_equal(base(s.v[1].src), "dedicated_log_torch_trace_rank_1_b.log");
	assert_true(s.v[0].src[0] == '/');
	assert_non_null(m = said(&d, "a FIFO, not a TORCH_TRACE file; skipped"));
	assert_int_equal(m->sev, PT_SEV_WARNING);
	assert_non_null(m = said(&d, "imported once"));
	assert_int_equal(m->sev, PT_SEV_NOTE);
	assert_non_null(m = said(&d, "read once"));
	assert_int_equal(m->sev, PT_SEV_NOTE);
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 0);
	assert_null(said(&d, "stdout.txt"));
	tt_sources_release(&s);
	assert_int_equal(s.n, 0);
	pt_diag_release(&d);
	free(job);
	free(one);
}

static void named_paths_that_cannot_be_imported_are_errors(void **state)
{
	struct tt_sources s = {0};
	struct pt_diag d;
	char *fifo = at("job/fifo.log"), *gone = at("job/gone.log"), *txt = at("job/stdout.txt");

	(void)state;
	pt_diag_init(&d);
	tt_sources_add(&s, fifo, &d);
	tt_sources_add(&s, gone, &d);
	tt_sources_add(&s, txt, &d);	/* named: taken, whatever its name */
	assert_int_equal(s.n, 1);
	assert_string_equal(base(s.v[0].src), "stdout.txt");
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 2);
	assert_non_null(said(&d, "a FIFO, not a TORCH_TRACE file"));
	assert_null(said(&d, "skipped"));
	assert_non_null(said(&d, "cannot read: No such file or directory"));
	tt_sources_release(&s);
	pt_diag_release(&d);
	free(fifo);
	free(gone);
	free(txt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(walks_a_job_directory),
		cmocka_unit_test(named_paths_that_cannot_be_imported_are_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
