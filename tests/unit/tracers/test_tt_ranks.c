/*
 * tracers/torchtrace/tt_ranks.c: the collectives parity rules between ranks' schedules
 * and code; the divergences of ranks that compiled different things; the struct of
 * tt_ranks_load for ranks grouped by cache pattern and schedule, and its text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ptest_db.h"
#include "ptest_tt.h"
#include "render_ranks.h"
#include "torchtrace.h"
#include "tt_ingest.h"
#include "tt_query.h"
#include "xalloc.h"

/* tlparse's collectives parity: calls in comments and strings do not count, a wait missing does. */
static void collectives_parity_rules(void **state)
{
	static const char sched[] = "[\"torch.ops._c10d_functional.all_reduce_.default\", "
				    "\"torch.ops._c10d_functional.wait_tensor.default\", "
				    "\"torch.ops._c10d_functional.all_gather_into_tensor.default\"]";
	static const char code[] =
		"# torch.ops._c10d_functional.broadcast.default(x)\n"
		"buf = torch.ops._c10d_functional.all_reduce_.default(a, 'sum', '0')\n"
		"torch . ops . _c10d_functional . wait_tensor . default (buf)\n"
		"assert_size_stride(b, (1,), 'torch.ops._c10d_functional.all_gather_into_tensor.default')\n"
		"if n < 2: b = torch.ops._c10d_functional.all_gather_into_tensor.default(a, 2, '0')\n"
		"/* torch.ops._c10d_functional.reduce_scatter_tensor.default(x) */\n"
		"c = torch.ops._c10d_functional.reduce_scatter_tensor.default(a, 'sum', 2, '0')  // one more\n";
	long off, miss;

	(void)state;
	tt_collectives_parity(sched, strlen(sched), code, strlen(code), &off, &miss);
	/* all_reduce 1 = 1, all_gather 1 = 1, reduce_scatter 0 vs 1: offset 1; 3 calls, 1 wait. */
	assert_int_equal(off, 1);
	assert_int_equal(miss, 2);
}

static int setup(void **state)
{
	return ptest_db_setup(state, "test-tt-ranks", 0);
}

static int teardown(void **state)
{
	return ptest_db_teardown(state);
}

/* Ranks that compiled different things: each difference named, id by id. */
static void divergences(void **state)
{
	static const char *const want[] = {
		"rank 1 compiled [0/1], rank 0 did not", "rank 0 compiled [0/0], rank 1 did not",
		"rank 3 compiled 0 graphs, rank 0 1", "rank 0 compiled [0/0], rank 3 did not",
	};
	struct ptest_db *f = *state;
	struct tt_ranks_result r;
	int64_t a, b;

	ptest_tt_two_runs(f, &a, &b);
	assert_int_equal(tt_ranks_load(f->ix, a, &r), 0);
	assert_int_equal(r.nmembers, 3);
	assert_string_equal(r.members[0].label, "rank 0");
	assert_string_equal(r.members[1].label, "rank 1");
	assert_string_equal(r.members[2].label, "rank 3");
	assert_int_equal(r.members[2].rank, 3);
	assert_string_equal(r.members[0].path, "trace/dedicated_log_torch_trace_rank_0_a.log");
	assert_int_equal(r.members[0].compiles, 1);
	assert_int_equal(r.members[0].graphs, 1);
	assert_int_equal(r.members[2].compiles, 0);
	assert_int_equal(r.members[2].graphs, 0);
	assert_null(r.members[0].rank_conflict);
	/* "another order" only when both compiled the same ids: a different set is listed id by id. */
	assert_int_equal(r.ndivergences, 4);
	for (size_t i = 0; i < 4; i++)
		assert_string_equal(r.divergences[i], want[i]);
	assert_true(r.compile_ids.diverge);
	assert_int_equal(r.compile_ids.ndetails, 4);
	assert_true(r.diverge);
	/* No cache artifacts, schedules, runtime estimates or execution order: nothing to compare. */
	assert_int_equal(r.cache.members_with_data, 3);
	assert_false(r.cache.diverge);
	assert_int_equal(r.collective_schedule.g.members_with_data, 0);
	assert_int_equal(r.runtime.members_with_data, 0);
	assert_int_equal(r.execution_order.members_with_data, 0);
	assert_int_equal(r.collectives_parity.graphs_checked, 0);
	tt_ranks_result_release(&r);
	/* One process: one member, no divergence. */
	assert_int_equal(tt_ranks_load(f->ix, b, &r), 0);
	assert_int_equal(r.nmembers, 1);
	assert_false(r.diverge);
	assert_int_equal(r.ndivergences, 0);
	tt_ranks_result_release(&r);
}

/* An artifact record named name of compile [0/c] with payload (JSON). */
static char *artifact(const char *name, int c, const char *payload)
{
	char md5[33];

	tt_md5((const uint8_t *)payload, strlen(payload), md5);
	return pt_xasprintf(P "{\"artifact\": {\"name\": \"%s\", \"encoding\": \"json\"}, \"frame_id\": 0, "
			    "\"frame_compile_id\": %d, \"attempt\": 0, \"has_payload\": \"%s\"}\n\t%s\n",
			    name, c, md5, payload);
}

/* One rank's file: a cache marker per compile [0/0], [0/1], then the collective schedule of [0/0]. */
static char *rank_file(const char *cache0, const char *cache1, const char *ops)
{
	char *a = artifact(cache0, 0, "{}"), *b = artifact(cache1, 1, "{}");
	char *c = artifact("inductor_collective_schedule", 0, ops);
	char *s = pt_xasprintf("%s%s%s", a, b, c);

	free(a);
	free(b);
	free(c);
	return s;
}

/* Ranks 0 and 2 agree, rank 1 differs in its second cache marker and its second op. */
static void groups(void **state)
{
	struct ptest_db *f = *state;
	struct tt_ranks_result r;
	const struct tt_ranks_group *g;
	int64_t run = ptest_tt_new_run(f, "g");
	char *r0 = rank_file("fx_graph_cache_miss", "fx_graph_cache_hit", "[\"all_reduce\", \"wait\"]");
	char *r1 = rank_file("fx_graph_cache_miss", "fx_graph_cache_miss", "[\"all_reduce\", \"all_gather\"]");
	char *text = NULL;
	size_t len = 0;
	FILE *mf;

	ptest_tt_put(f, run, "dedicated_log_torch_trace_rank_0_x.log", r0);
	ptest_tt_put(f, run, "dedicated_log_torch_trace_rank_1_x.log", r1);
	ptest_tt_put(f, run, "dedicated_log_torch_trace_rank_2_x.log", r0);
	ptest_tt_put(f, run, "dedicated_log_torch_trace_rank_3_x.log", "");
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	assert_int_equal(tt_ranks_load(f->ix, run, &r), 0);
	assert_int_equal(r.nmembers, 3);
	assert_int_equal(r.nempty, 1);
	assert_string_equal(r.empty_files[0], "trace/dedicated_log_torch_trace_rank_3_x.log");

	assert_true(r.cache.diverge);
	assert_int_equal(r.cache.members_with_data, 3);
	assert_int_equal(r.cache.ngroups, 2);
	g = &r.cache.groups[0];
	assert_string_equal(g->sequence, "miss hit");
	assert_int_equal(g->items, 2);
	assert_int_equal(g->nmembers, 2);
	assert_int_equal(g->members[0], 0);
	assert_int_equal(g->members[1], 2);
	assert_int_equal(g->differs, 0);
	g = &r.cache.groups[1];
	assert_string_equal(g->sequence, "miss miss");
	assert_int_equal(g->nmembers, 1);
	assert_int_equal(g->members[0], 1);
	assert_int_equal(g->differs, 1);
	assert_int_equal(g->index, 1);
	assert_string_equal(g->here, "miss");
	assert_string_equal(g->first_group, "hit");

	assert_true(r.collective_schedule.g.diverge);
	assert_int_equal(r.collective_schedule.g.ngroups, 2);
	assert_string_equal(r.collective_schedule.g.groups[1].sequence, "all_reduce,all_gather");
	assert_string_equal(r.collective_schedule.g.groups[1].here, "all_gather");
	assert_string_equal(r.collective_schedule.g.groups[1].first_group, "wait");
	assert_int_equal(r.collective_schedule.nschedules, 3);
	assert_int_equal(r.collective_schedule.schedules[1].member, 1);
	assert_string_equal(r.collective_schedule.schedules[1].compile_id, "[0/0]");
	assert_int_equal(r.collective_schedule.schedules[1].nops, 2);
	assert_string_equal(r.collective_schedule.schedules[1].ops[1], "all_gather");

	assert_false(r.compile_ids.diverge);
	assert_true(r.diverge);
	assert_int_equal(r.ndivergences, 2);
	assert_string_equal(r.divergences[0], "cache hit/miss patterns: 2 groups of ranks");
	assert_string_equal(r.divergences[1], "collective schedules: 2 groups of ranks");

	/* The text, whole. */
	mf = open_memstream(&text, &len);
	assert_non_null(mf);
	render_ranks_text(mf, &r, &(const struct pt_style){.color = 0});
	fclose(mf);
	assert_string_equal(text,
		"process   rank       pid  records compiles graphs failed  file\n"
		"rank 0       0     31651        3        2      0      0  trace/dedicated_log_torch_trace_rank_0_x.log\n"
		"rank 1       1     31651        3        2      0      0  trace/dedicated_log_torch_trace_rank_1_x.log\n"
		"rank 2       2     31651        3        2      0      0  trace/dedicated_log_torch_trace_rank_2_x.log\n"
		"-            -         -        0        -      -      -  trace/dedicated_log_torch_trace_rank_3_x.log"
		" (no records, not compared)\n"
		"\n"
		"compared with rank 0:\n"
		"compile ids: all ranks compiled the same compile ids in the same order\n"
		"cache hit/miss: 2 groups\n"
		"  rank 0, rank 2: miss hit\n"
		"  rank 1: miss miss\n"
		"    differs from the first group at artifact 1: miss, not hit\n"
		"collective schedules: 2 groups\n"
		"  rank 0, rank 2: all_reduce,wait\n"
		"  rank 1: all_reduce,all_gather\n"
		"    differs from the first group at op 1: all_gather, not wait\n"
		"tensor meta: not compared (0 ranks with data)\n"
		"runtime estimates: not compared (0 ranks with data)\n"
		"graph execution order: not compared (0 ranks with data)\n"
		"collectives parity: 0 graphs checked, schedules and output code agree\n");
	free(text);
	tt_ranks_result_release(&r);
	free(r0);
	free(r1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(collectives_parity_rules),
		cmocka_unit_test_setup_teardown(divergences, setup, teardown),
		cmocka_unit_test_setup_teardown(groups, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
