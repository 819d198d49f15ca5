/* Crafted TORCH_TRACE files for the tracers' unit tests; see ptest_tt.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "db.h"
#include "ptest_tt.h"
#include "runs.h"
#include "rundir.h"
#include "strbuf.h"
#include "torchtrace.h"
#include "tt_ingest.h"
#include "xalloc.h"

int64_t ptest_tt_new_run(struct ptest_db *f, const char *name)
{
	struct run_info ri = {.name = name, .source = "import", .started_us = 1795315626000000};
	int64_t id;

	assert_int_equal(runs_create(f->ix, &ri, &id), 0);
	return id;
}

void ptest_tt_put(struct ptest_db *f, int64_t run, const char *name, const char *text)
{
	char *dir = rundir_path(f->ix, run);
	char *t = pt_xasprintf("%s/trace", dir), *p = pt_xasprintf("%s/%s", t, name);
	FILE *fp;

	mkdir(t, 0700);
	fp = fopen(p, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	free(p);
	free(t);
	free(dir);
}

char *ptest_tt_payload_line(const char *kind, const char *extra, const char *payload)
{
	char md5[33];
	struct pt_strbuf sb;

	tt_md5((const uint8_t *)payload, strlen(payload), md5);
	pt_strbuf_init(&sb, 1 << 20);
	assert_int_equal(pt_strbuf_addf(&sb, P "{\"%s\": {}, %s, \"has_payload\": \"%s\"}\n\t", kind, extra, md5), 0);
	for (const char *s = payload; *s; s++) {
		assert_int_equal(pt_strbuf_add(&sb, s, 1), 0);
		if (*s == '\n')
			assert_int_equal(pt_strbuf_add(&sb, "\t", 1), 0);
	}
	assert_int_equal(pt_strbuf_add(&sb, "\n", 1), 0);
	return pt_strbuf_detach(&sb);
}

void ptest_tt_two_runs(struct ptest_db *f, int64_t *a, int64_t *b)
{
	char *r0 = ptest_tt_payload_line("dynamo_output_graph", CID(0, 0, 0), "G");
	char *r1 = ptest_tt_payload_line("dynamo_output_graph", CID(0, 1, 0), "H");
	char *bb = ptest_tt_payload_line("dynamo_output_graph", CID(0, 0, 0), "G changed");
	char *ev2 = ptest_tt_payload_line("chromium_event", "\"rank\": 3", "{\"name\":\"x\",\"ts\":6.5,\"ph\":\"E\",\"tid\":7,\"pid\":0}");
	char *ev = pt_xasprintf(P "{\"chromium_event\": {}, \"has_payload\": \"x\"}\n" EV(5.5) "%s", ev2);

	*a = ptest_tt_new_run(f, "a");
	*b = ptest_tt_new_run(f, "b");
	ptest_tt_put(f, *a, "dedicated_log_torch_trace_rank_0_a.log", r0);
	ptest_tt_put(f, *a, "dedicated_log_torch_trace_rank_1_a.log", r1);
	ptest_tt_put(f, *a, "dedicated_log_torch_trace_rank_3_a.log", ev);
	ptest_tt_put(f, *b, "dedicated_log_torch_trace_rank_0_a.log", bb);
	assert_int_equal(tt_index_run(f->ix, *a, 0, &f->diag, NULL), 0);
	assert_int_equal(tt_index_run(f->ix, *b, 0, &f->diag, NULL), 0);
	free(r0);
	free(r1);
	free(bb);
	free(ev);
	free(ev2);
}

int64_t ptest_tt_int(struct ptest_db *f, const char *sql, int64_t run)
{
	struct db_stmt *s = db_prepare(f->ix, sql);
	int64_t v;

	assert_non_null(s);
	assert_int_equal(db_bind(s, "i", run), 0);
	assert_int_equal(db_step(s), 1);
	v = db_col_is_null(s, 0) ? -99 : db_col_int(s, 0);
	db_reset(s);
	return v;
}
