/*
 * tracers/torchtrace/tt_compiles.c over crafted TORCH_TRACE files in a fresh database:
 * the compile status rules (restarted, failed, missing, runtime records folded into
 * attempt 0) and repeated compile ids.
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
#include "ptest_db.h"
#include "ptest_tt.h"
#include "runs.h"
#include "tt_ingest.h"
#include "tt_query.h"
#include "xalloc.h"

static int setup(void **state)
{
	return ptest_db_setup(state, "test-tt-compiles", 0);
}

static int teardown(void **state)
{
	return ptest_db_teardown(state);
}

/* Status: a later attempt makes a restart; fail_type a failure; no metrics: missing. */
static void compile_status_rules(void **state)
{
	struct ptest_db *f = *state;
	int64_t run = ptest_tt_new_run(f, "status");
	struct tt_compiles cs;
	char *g1 = ptest_tt_payload_line("dynamo_output_graph", CID(0, 0, 1), "graph A");
	char *g2 = ptest_tt_payload_line("dynamo_output_graph", CID(1, 0, 0), "graph A");
	char *text = pt_xasprintf(
		P "{\"dynamo_start\": {\"stack\": []}, " CID(0, 0, 0) "}\n"
		"%s"
		P "{\"compilation_metrics\": {\"co_name\": \"f\", \"co_filename\": \"m.py\", \"co_firstlineno\": 3,"
		" \"guard_count\": 5, \"graph_op_count\": 2, \"entire_frame_compile_time_s\": 0.5, \"fail_type\": null,"
		" \"restart_reasons\": [\"graph break\"]}, " CID(0, 0, 1) "}\n"
		"%s"
		P "{\"compilation_metrics\": {\"co_name\": \"g\", \"fail_type\": \"BackendCompilerFailed\","
		" \"fail_reason\": \"boom\"}, " CID(1, 0, 0) "}\n"
		P "{\"compilation_metrics_runtime\": {}, \"frame_id\": 1, \"frame_compile_id\": 0}\n"
		P "{\"dynamo_start\": {\"stack\": []}, " CID(2, 0, 0) "}\n"
		P "{\"artifact\": {\"name\": \"fx_graph_cache_hit\", \"encoding\": \"json\"}, " CID(2, 0, 0) "}\n",
		g1, g2);

	ptest_tt_put(f, run, "t.log", text);
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	assert_int_equal(f->diag.n, 0);
	assert_int_equal(tt_compiles_load(f->ix, run, -1, &cs), 0);
	assert_int_equal(cs.n, 4);	/* [0/0] [0/0_1] [1/0] (+runtime) [2/0] */
	assert_string_equal(cs.v[0].status, "restarted");
	assert_string_equal(cs.v[1].status, "ok");
	assert_int_equal(cs.v[1].cid.attempt, 1);
	assert_int_equal(cs.v[1].graphs, 1);
	assert_int_equal(cs.v[1].guard_count, 5);
	assert_string_equal(cs.v[1].co_filename, "m.py");
	/* The list torch logged, not a joined string. */
	assert_int_equal(json_array_size(cs.v[1].restart_reasons), 1);
	assert_string_equal(json_string_value(json_array_get(cs.v[1].restart_reasons, 0)), "graph break");
	assert_string_equal(cs.v[2].status, "failed");
	assert_string_equal(cs.v[2].fail_reason, "boom");
	assert_int_equal(cs.v[2].narts, 1);	/* payload kinds only: dynamo_output_graph */
	assert_string_equal(cs.v[3].status, "missing");
	assert_string_equal(cs.v[3].cache, "fx hit");
	tt_compiles_release(&cs);
	/* Equal payloads are stored once. */
	assert_int_equal(ptest_tt_int(f, "SELECT count(*) FROM trace_payloads WHERE ? > 0", run), 1);
	/* Re-indexing replaces, does not add. */
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	assert_int_equal(ptest_tt_int(f, "SELECT count(*) FROM trace_records WHERE run_id = ?", run), 8);
	free(text);
	free(g1);
	free(g2);
}

/*
 * Compile occurrences: a frame compiled again under the same id (a reset, a
 * cache hit after a miss) is one entry per compilation; a runtime record
 * after it joins the last; compilation_metrics without compile id count;
 * graph_op_count 0 is "empty".
 */
static void compile_occurrences(void **state)
{
	struct ptest_db *f = *state;
	int64_t run = ptest_tt_new_run(f, "occ");
	struct tt_compiles cs;
	const char *text =
		P "{\"dynamo_start\": {\"stack\": []}, " CID(0, 0, 0) "}\n"
		P "{\"artifact\": {\"name\": \"fx_graph_cache_miss\", \"encoding\": \"json\"}, " CID(0, 0, 0) "}\n"
		P "{\"compilation_metrics\": {\"co_name\": \"f\", \"graph_op_count\": 2}, " CID(0, 0, 0) "}\n"
		P "{\"compilation_metrics_runtime\": {}, \"frame_id\": 0, \"frame_compile_id\": 0}\n"
		P "{\"dynamo_start\": {\"stack\": []}, " CID(0, 0, 0) "}\n"
		P "{\"artifact\": {\"name\": \"fx_graph_cache_hit\", \"encoding\": \"json\"}, " CID(0, 0, 0) "}\n"
		P "{\"compilation_metrics\": {\"co_name\": \"f\", \"graph_op_count\": 2}, " CID(0, 0, 0) "}\n"
		P "{\"dynamo_start\": {\"stack\": []}, " CID(0, 0, 0) "}\n"
		P "{\"compilation_metrics\": {\"co_name\": \"f\", \"graph_op_count\": 0}, " CID(0, 0, 0) "}\n"
		P "{\"compilation_metrics\": {\"co_name\": null, \"graph_op_count\": null}}\n";

	ptest_tt_put(f, run, "occ.log", text);
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	assert_int_equal(tt_compiles_load(f->ix, run, -1, &cs), 0);
	assert_int_equal(cs.n, 4);
	assert_int_equal(cs.v[0].occurrence, 1);
	assert_string_equal(cs.v[0].cache, "fx miss");
	assert_int_equal(cs.v[1].occurrence, 2);
	assert_string_equal(cs.v[1].cache, "fx hit");
	assert_string_equal(cs.v[1].status, "ok");
	assert_int_equal(cs.v[2].occurrence, 3);
	assert_string_equal(cs.v[2].status, "empty");
	/* AOTInductor-style metrics without compile id: [-/-], op count unknown: ok. */
	assert_int_equal(cs.v[3].cid.frame, COMPILEID_NONE);
	assert_string_equal(cs.v[3].status, "ok");
	assert_string_equal(cs.v[0].label, "");	/* one process: nobody to name */
	tt_compiles_release(&cs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(compile_status_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(compile_occurrences, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
