/*
 * tracers/torchtrace/tt_ingest.c over crafted TORCH_TRACE files in a fresh
 * database: ranks (JSON wins, file name otherwise, records before the rank is
 * known get it, conflicts reported), payload dedup, re-indexing a file, a file
 * that fails to index, and the ranks/diff/timeline documents over what was
 * indexed. Compile status: test_tt_compiles.c; tlparse: test_tt_tlparse.c.
 */#include <setjmp.h>
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
#include "ptest_db.h"
#include "ptest_tt.h"
#include "runs.h"
#include "strbuf.h"
#include "torchtrace.h"
#include "tt_ingest.h"
#include "tt_query.h"
#include "tt_tlparse.h"
#include "xalloc.h"

static int setup(void **state)
{
	return ptest_db_setup(state, "test-tt-ingest", 0);
}

static int teardown(void **state)
{
	return ptest_db_teardown(state);
}


/*
 * The rank rule: the file name's rank, else the records' first; every record
 * of a file gets the file's rank; a name that disagrees is reported, records
 * of another rank are kept and counted. --rank-from=record (trace_sources)
 * takes the records' rank.
 */
static void ranks_name_then_json(void **state)
{
	struct ptest_db *f = *state;
	int64_t run = ptest_tt_new_run(f, "ranks");
	json_t *o = json_object();
	char *g = ptest_tt_payload_line("dynamo_output_graph", CID(0, 0, 0) ", \"rank\": 1", "graph");
	struct db_stmt *s;

	ptest_tt_put(f, run, "dedicated_log_torch_trace_rank_7_abc.log",
	    P "{\"artifact\": {\"name\": \"torch_version\", \"encoding\": \"json\"}}\n"
	    P "{\"dynamo_start\": {\"stack\": []}, \"rank\": 1, " CID(0, 0, 0) "}\n");
	ptest_tt_put(f, run, "dedicated_log_torch_trace_rank_2_x_y.log",
	    P "{\"dynamo_start\": {\"stack\": []}, " CID(0, 0, 0) "}\n");
	ptest_tt_put(f, run, "zz_unranked.log", g);
	ptest_tt_put(f, run, "zz_empty.log", "");
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	/* rank_7 file: the records say 1: a conflict; every record of the file is rank 7. */
	assert_int_equal(pt_diag_count(&f->diag, PT_SEV_WARNING), 1);
	assert_non_null(strstr(f->diag.v[0].what, "the file name says rank 7, its records rank 1; rank 7 used"));
	assert_int_equal(ptest_tt_int(f, "SELECT rank FROM trace_records WHERE run_id = ? AND name = 'torch_version'", run), 7);
	assert_int_equal(ptest_tt_int(f, "SELECT json_rank FROM trace_records WHERE run_id = ? AND name = 'torch_version'", run), -99);
	assert_int_equal(ptest_tt_int(f, "SELECT other_rank FROM trace_files WHERE run_id = ? AND name_rank = 7", run), 1);
	/* rank_2_x_y: no JSON rank: the name's (the random part may hold '_'). */
	assert_int_equal(ptest_tt_int(f, "SELECT count(*) FROM trace_records WHERE run_id = ? AND rank = 2", run), 1);
	/* No name rank: the records'. One process per file, numbered by path. */
	assert_int_equal(ptest_tt_int(f, "SELECT rank FROM trace_files WHERE run_id = ? AND path = 'trace/zz_unranked.log'", run), 1);
	assert_int_equal(ptest_tt_int(f, "SELECT process FROM trace_files WHERE run_id = ? AND path = 'trace/zz_unranked.log'", run), 4);
	assert_int_equal(tt_show_json(f->ix, run, o, &f->diag), 0);
	{
		char *r = json_dumps(json_object_get(o, "ranks"), JSON_COMPACT);

		assert_string_equal(r, "[1,2,7]");
		free(r);
		assert_int_equal(json_array_size(json_object_get(o, "processes")), 4);
	}
	json_decref(o);
	/* --rank-from=record for the rank_7 file: its records' rank 1. */
	s = db_prepare(f->ix, "INSERT INTO trace_sources(run_id, path, source, imported_us, rank_from)"
				 " VALUES(?, 'trace/dedicated_log_torch_trace_rank_7_abc.log', 'x', 0, 'record')");
	assert_int_equal(db_run(s, "i", run), 0);
	pt_diag_release(&f->diag);
	pt_diag_init(&f->diag);
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	assert_non_null(strstr(f->diag.v[0].what, "rank 1 used (--rank-from=record)"));
	assert_int_equal(ptest_tt_int(f, "SELECT rank FROM trace_records WHERE run_id = ? AND name = 'torch_version'", run), 1);
	/* rank 1 twice now (rank_7 and zz_unranked): a warning, kept apart. */
	assert_int_equal(pt_diag_count(&f->diag, PT_SEV_WARNING), 2);
	assert_non_null(strstr(f->diag.v[1].what, "2 files say rank 1"));
	assert_int_equal(ptest_tt_int(f, "SELECT count(DISTINCT file_id) FROM trace_records WHERE run_id = ? AND rank = 1", run), 2);
	free(g);
}

static void name_rank_rules(void **state)
{
	(void)state;
	assert_int_equal(tt_name_rank("dedicated_log_torch_trace_rank_3_ab_c.log"), 3);
	assert_int_equal(tt_name_rank("trace/dedicated_log_torch_trace_rank_12.log"), 12);
	assert_int_equal(tt_name_rank("dedicated_log_torch_trace_d88agyhk.log"), -1);
	assert_int_equal(tt_name_rank("dedicated_log_torch_trace_rank_x.log"), -1);
	assert_int_equal(tt_name_rank("rank_99999999999999999999_.log"), -1);
}

/* Ranks that compiled different things; the diff of two runs; one timeline with pid = rank. */
static void ranks_diff_timeline(void **state)
{
	struct ptest_db *f = *state;
	int64_t a = ptest_tt_new_run(f, "a"), b = ptest_tt_new_run(f, "b");
	char *r0 = ptest_tt_payload_line("dynamo_output_graph", CID(0, 0, 0), "G");
	char *r1 = ptest_tt_payload_line("dynamo_output_graph", CID(0, 1, 0), "H");
	char *bb = ptest_tt_payload_line("dynamo_output_graph", CID(0, 0, 0), "G changed");
	char *ev2 = ptest_tt_payload_line("chromium_event", "\"rank\": 3", "{\"name\":\"x\",\"ts\":6.5,\"ph\":\"E\",\"tid\":7,\"pid\":0}");
	char *ev = pt_xasprintf(P "{\"chromium_event\": {}, \"has_payload\": \"x\"}\n" EV(5.5) "%s", ev2);
	json_t *o;
	char *s, *out = NULL;
	size_t len;
	uint64_t n, skipped;
	FILE *mf;

	ptest_tt_put(f, a, "dedicated_log_torch_trace_rank_0_a.log", r0);
	ptest_tt_put(f, a, "dedicated_log_torch_trace_rank_1_a.log", r1);
	ptest_tt_put(f, a, "dedicated_log_torch_trace_rank_3_a.log", ev);
	ptest_tt_put(f, b, "dedicated_log_torch_trace_rank_0_a.log", bb);
	assert_int_equal(tt_index_run(f->ix, a, 0, &f->diag, NULL), 0);
	assert_int_equal(tt_index_run(f->ix, b, 0, &f->diag, NULL), 0);
	assert_int_equal(tt_ranks_json(f->ix, a, &o, &f->diag), 0);
	s = json_dumps(json_object_get(o, "divergences"), JSON_COMPACT);
	/* "another order" only when both compiled the same ids: a different set is listed id by id. */
	assert_string_equal(s, "[\"rank 1 compiled [0/1], rank 0 did not\",\"rank 0 compiled [0/0], rank 1 did not\","
			       "\"rank 3 compiled 0 graphs, rank 0 1\",\"rank 0 compiled [0/0], rank 3 did not\"]");
	free(s);
	json_decref(o);
	assert_int_equal(tt_diff_json(f->ix, a, b, &o, &f->diag), 0);
	assert_int_equal(json_array_size(json_object_get(o, "removed")), 1);	/* rank 1 [0/1] */
	assert_true(json_is_true(json_object_get(json_array_get(json_object_get(o, "matched"), 0), "graph_changed")));
	json_decref(o);
	mf = open_memstream(&out, &len);
	assert_int_equal(tt_timeline_write(f->ix, a, mf, &n, &skipped, &f->diag), 0);
	fclose(mf);
	assert_int_equal(n, 2);
	/* After rank 3's metadata event: an event whose md5 is not the declared one, parsed and
	 * written again; one as torch wrote it, its bytes kept but the pid (the fast path). */
	assert_string_equal(out, "{\"traceEvents\": [\n"
				 "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":3,\"tid\":0,"
				 "\"args\":{\"name\":\"rank 3\"}},\n"
				 "{\"name\":\"dynamo\",\"ts\":5.5,\"ph\":\"B\",\"pid\":3},\n"
				 "{\"name\":\"x\",\"ts\":6.5,\"ph\":\"E\",\"tid\":7,\"pid\":3}\n]}\n");
	free(out);
	free(r0);
	free(r1);
	free(bb);
	free(ev);
	free(ev2);
}

/*
 * A file that cannot be indexed makes tt_index_run fail and leaves the run's
 * "trace" part partial (so reindex retries it), while the other files are
 * still indexed. The database error is injected with a trigger.
 */
static void failed_file_keeps_part_partial(void **state)
{
	struct ptest_db *f = *state;
	int64_t run = ptest_tt_new_run(f, "fails");

	ptest_tt_put(f, run, "a_good.log", P "{\"dynamo_start\": {\"stack\": []}, " CID(0, 0, 0) "}\n");
	ptest_tt_put(f, run, "b_bad.log", P "{\"dynamo_start\": {\"stack\": []}, " CID(1, 0, 0) "}\n");
	assert_int_equal(db_exec(f->ix, "CREATE TEMP TRIGGER inject BEFORE INSERT ON trace_files"
				 " WHEN NEW.path LIKE '%bad%' BEGIN SELECT RAISE(ABORT, 'injected'); END;"), 0);
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), -1);
	assert_true(pt_diag_count(&f->diag, PT_SEV_ERROR) >= 1);
	assert_int_equal(ptest_tt_int(f, "SELECT count(*) FROM trace_files WHERE run_id = ?", run), 1);
	assert_int_equal(ptest_tt_int(f, "SELECT count(*) FROM trace_records WHERE run_id = ?", run), 1);
	assert_int_equal(ptest_tt_int(f, "SELECT count(*) FROM run_parts WHERE run_id = ? AND part = 'trace'"
			       " AND state = 'partial'", run), 1);
	assert_int_equal(schema_part_current(f->ix, "trace", run), 0);
	/* Without the fault the same run indexes whole and is marked done. */
	assert_int_equal(db_exec(f->ix, "DROP TRIGGER inject;"), 0);
	pt_diag_release(&f->diag);
	pt_diag_init(&f->diag);
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	assert_int_equal(ptest_tt_int(f, "SELECT count(*) FROM trace_files WHERE run_id = ?", run), 2);
	assert_int_equal(schema_part_current(f->ix, "trace", run), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(name_rank_rules),
		cmocka_unit_test_setup_teardown(ranks_name_then_json, setup, teardown),
		cmocka_unit_test_setup_teardown(ranks_diff_timeline, setup, teardown),
		cmocka_unit_test_setup_teardown(failed_file_keeps_part_partial, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
