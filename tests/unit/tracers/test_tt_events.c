/*
 * tracers/torchtrace/tt_events.c: graph breaks and recompiles from their records,
 * in torch 2.6's shapes (crafted) and 2.14.1's (real records, tests/fixtures/traces/
 * generated/torch-2.14.1/records): recompile_reasons as one line of plain text or a
 * JSON list, graph-break reasons in the many-line shape cut to "<type>: <explanation>";
 * and the compile status of compiled-autograd captures ([!0]).
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
#include "ptest.h"
#include "ptest_db.h"
#include "ptest_tt.h"
#include "runs.h"
#include "strbuf.h"
#include "torchtrace.h"
#include "tt_ingest.h"
#include "tt_query.h"
#include "xalloc.h"

#define PRINT_BREAK "Failed to trace builtin operator: Dynamo does not know how to trace builtin operator " \
	"`print` with argument types ['str'] (has_kwargs False)"
#define SCEN "/src/tests/torch2/scenarios/breaks_recompile.py"

static int setup(void **state)
{
	return ptest_db_setup(state, "test-tt-events", 0);
}

static int teardown(void **state)
{
	return ptest_db_teardown(state);
}

/* A run indexed from the 2.14.1 fixture name (skips without PT_SRC). */
static int64_t fixture_run(struct ptest_db *f, const char *name)
{
	const char *src = getenv("PT_SRC");
	char *path, *text;
	int64_t run;

	if (!src)
		skip();
	path = pt_xasprintf("%s/tests/fixtures/traces/generated/torch-2.14.1/records/%s", src, name);
	text = ptest_slurp(path, NULL);
	assert_non_null(text);
	run = ptest_tt_new_run(f, name);
	ptest_tt_put(f, run, "dedicated_log_torch_trace_x.log", text);
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	assert_int_equal(f->diag.n, 0);
	free(text);
	free(path);
	return run;
}

/* An artifact record named name at cid with payload (md5 declared); malloc'd. */
static char *art_line(const char *name, const char *cid, const char *payload)
{
	char md5[33];
	struct pt_strbuf sb;

	tt_md5((const uint8_t *)payload, strlen(payload), md5);
	pt_strbuf_init(&sb, 1 << 20);
	assert_int_equal(pt_strbuf_addf(&sb, P "{\"artifact\": {\"name\": \"%s\", \"encoding\": \"string\"}, %s,"
					" \"has_payload\": \"%s\"}\n\t", name, cid, md5), 0);
	for (const char *c = payload; *c; c++) {
		assert_int_equal(pt_strbuf_add(&sb, c, 1), 0);
		if (*c == '\n')
			assert_int_equal(pt_strbuf_add(&sb, "\t", 1), 0);
	}
	assert_int_equal(pt_strbuf_add(&sb, "\n", 1), 0);
	return pt_strbuf_detach(&sb);
}

static void expect_event(const struct tt_event *e, const char *cid, const char *prev, const char *what,
			 const char *where)
{
	char id[COMPILEID_MAX];

	compileid_format(&e->cid, id, sizeof(id));
	assert_string_equal(id, cid);
	if (prev)
		assert_string_equal(e->prev, prev);
	else
		assert_null(e->prev);
	assert_string_equal(e->what, what);
	if (where)
		assert_string_equal(e->where, where);
	else
		assert_null(e->where);
}

/* 2.14.1: the first recompile of a frame is one line of text, later ones a JSON list. */
static void recompiles_214(void **state)
{
	struct ptest_db *f = *state;
	int64_t run = fixture_run(f, "breaks_recompile.log");
	struct tt_events ev;

	assert_int_equal(tt_recompiles(f->ix, run, &ev), 0);
	assert_int_equal(ev.n, 6);	/* 1 + 1 + 2 + 2 failed guards in 4 records */
	expect_event(&ev.v[0], "0/1", "0/0", "n == 1", SCEN ":8 in g");
	expect_event(&ev.v[1], "1/1", "1/0", "n == 1", SCEN ":10 in torch_dynamo_resume_in_g_at_9");
	expect_event(&ev.v[2], "0/2", "0/1", "tensor 'x' size mismatch at index 0. expected 4, actual 5", NULL);
	expect_event(&ev.v[3], "0/2", "0/0", "n == 1", SCEN ":8 in g");
	expect_event(&ev.v[4], "1/2", "1/1", "tensor 'y' size mismatch at index 0. expected 4, actual 5", NULL);
	expect_event(&ev.v[5], "1/2", "1/0", "n == 1", SCEN ":10 in torch_dynamo_resume_in_g_at_9");
	tt_events_release(&ev);
}

/* 2.14.1's many-line reasons: one short cause, the same for the three breaks. */
static void graph_breaks_214(void **state)
{
	struct ptest_db *f = *state;
	int64_t run = fixture_run(f, "breaks_recompile.log");
	struct tt_events ev;

	assert_int_equal(tt_graph_breaks(f->ix, run, &ev), 0);
	assert_int_equal(ev.n, 3);
	expect_event(&ev.v[0], "0/0", NULL, PRINT_BREAK, SCEN ":9");
	expect_event(&ev.v[1], "0/1", NULL, PRINT_BREAK, SCEN ":9");
	expect_event(&ev.v[2], "0/2", NULL, PRINT_BREAK, SCEN ":9");
	tt_events_release(&ev);
}

/* 2.6's shapes (crafted as in tests/fixtures/traces/generated/torch-2.6.0) still read. */
static void shapes_26(void **state)
{
	struct ptest_db *f = *state;
	int64_t run = ptest_tt_new_run(f, "shapes");
	struct tt_events ev;
	char *gb = art_line("dynamo_graph_break_reason", CID(0, 0, 0),
					 "Graph break in user code at /g/b.py:4\nReason: Unsupported: builtin: print [] False\n"
					 "User code traceback:\n  File \"/g/b.py\", line 8, in h");
	char *rr = art_line("recompile_reasons", CID(0, 1, 0),
					 "[\n\"0/0: L['n'] == 1                                          # y = x * n  # b.py:3 in g\"\n]");
	char *text = pt_xasprintf("%s%s", gb, rr);

	ptest_tt_put(f, run, "t.log", text);
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	assert_int_equal(tt_graph_breaks(f->ix, run, &ev), 0);
	assert_int_equal(ev.n, 1);
	expect_event(&ev.v[0], "0/0", NULL, "Unsupported: builtin: print [] False", "/g/b.py:4");
	tt_events_release(&ev);
	assert_int_equal(tt_recompiles(f->ix, run, &ev), 0);
	assert_int_equal(ev.n, 1);
	expect_event(&ev.v[0], "0/1", "0/0", "L['n'] == 1", "b.py:3 in g");
	tt_events_release(&ev);
	free(text);
	free(gb);
	free(rr);
}

/* The short form: with and without the "Encountered ... CALL:" line; other text: NULL. */
static void short_reason(void **state)
{
	char *s;

	(void)state;
	s = tt_short_break_reason("Encountered graph break when attempting to trace CALL: a function call:\n\n"
				  "Failed to trace builtin operator\n  Explanation: no print\n  Hint: do not\n\n"
				  "User code traceback:\n  File \"a.py\", line 1");
	assert_string_equal(s, "Failed to trace builtin operator: no print");
	free(s);
	s = tt_short_break_reason("Data-dependent branching\n  Explanation: bool(x)\n  Hint: use cond\n");
	assert_string_equal(s, "Data-dependent branching: bool(x)");
	free(s);
	assert_null(tt_short_break_reason("Unsupported type\n  Hint: none\n"));	/* no explanation */
	assert_null(tt_short_break_reason("builtin: print [] False"));
	assert_null(tt_short_break_reason(""));
}

/* [!0] and [!1] (compiled_autograd_id, no frame) are captures, not missing compiles. */
static void autograd_captures(void **state)
{
	struct ptest_db *f = *state;
	int64_t run = fixture_run(f, "autograd_ca.log");
	struct tt_compiles cs;
	char id[COMPILEID_MAX];
	static const char *const want[][2] = {
		{"!0", "autograd"}, {"!0/1/0", "missing"}, {"!1", "autograd"}, {"!1/2/0", "missing"},
	};

	assert_int_equal(tt_compiles_load(f->ix, run, -1, &cs), 0);
	assert_int_equal(cs.n, 4);	/* the excerpt keeps dynamo_start, not the metrics */
	for (size_t i = 0; i < cs.n; i++) {
		compileid_format(&cs.v[i].cid, id, sizeof(id));
		assert_string_equal(id, want[i][0]);
		assert_string_equal(cs.v[i].status, want[i][1]);
	}
	tt_compiles_release(&cs);
}

/* graph-breaks --unique: by reason and place in first-seen order, ids in order, ranks once each. */
static void event_groups(void **state)
{
	struct tt_event v[] = {
		{ .rank = 1, .cid = { -1, 0, 0, -1 }, .what = "a", .where = "f.py:1" },
		{ .rank = 0, .cid = { -1, 1, 0, -1 }, .what = "b", .where = NULL },
		{ .rank = 0, .cid = { -1, 2, 0, -1 }, .what = "a", .where = "f.py:1" },
		{ .rank = 1, .cid = { -1, 3, 0, 1 }, .what = "a", .where = "f.py:1" },
		{ .rank = -1, .cid = { -1, 4, 0, -1 }, .what = "a", .where = "g.py:2" },
		{ .rank = -1, .cid = { -1, 5, 0, -1 }, .what = NULL, .where = NULL },
	};
	struct tt_events ev = { v, PT_ARRAY_SIZE(v) };
	struct tt_event_groups g;
	(void)state;

	tt_event_groups_of(&ev, &g);
	assert_int_equal(g.n, 4);
	assert_string_equal(g.v[0].what, "a");
	assert_string_equal(g.v[0].where, "f.py:1");
	assert_int_equal(g.v[0].count, 3);
	assert_string_equal(g.v[0].ids[0], "0/0");
	assert_string_equal(g.v[0].ids[1], "2/0");
	assert_string_equal(g.v[0].ids[2], "3/0_1");
	assert_int_equal(g.v[0].n_ranks, 2);
	assert_int_equal(g.v[0].ranks[0], 1);
	assert_int_equal(g.v[0].ranks[1], 0);
	assert_string_equal(g.v[1].what, "b");
	assert_null(g.v[1].where);
	assert_int_equal(g.v[1].count, 1);
	assert_string_equal(g.v[2].where, "g.py:2");	/* same reason, another place */
	assert_int_equal(g.v[2].n_ranks, 0);
	assert_null(g.v[3].what);
	assert_int_equal(g.v[3].count, 1);
	tt_event_groups_release(&g);
	ev.n = 0;
	tt_event_groups_of(&ev, &g);
	assert_int_equal(g.n, 0);
	tt_event_groups_release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(recompiles_214, setup, teardown),
		cmocka_unit_test_setup_teardown(graph_breaks_214, setup, teardown),
		cmocka_unit_test_setup_teardown(shapes_26, setup, teardown),
		cmocka_unit_test(short_reason),
		cmocka_unit_test(event_groups),
		cmocka_unit_test_setup_teardown(autograd_captures, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
