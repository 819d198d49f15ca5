/*
 * tracers/run_diff.c over logs_diff.c and tt_diff.c: two runs made here
 * (their output fed through the indexer, their TORCH_TRACE imported)
 * compared as struct run_diff: the exit status, the sections' totals and
 * differing keys in order (an address masked, a place kept), the compiles
 * and the verdict; an unknown run is an error; and render_rundiff's text and
 * JSON of the same struct, whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "logs_ingest.h"
#include "ptest_db.h"
#include "ptest_tt.h"
#include "render_rundiff.h"
#include "run_diff.h"
#include "runs.h"

static int setup(void **state)
{
	return ptest_db_setup(state, "test-run-diff", 0);
}

static int teardown(void **state)
{
	return ptest_db_teardown(state);
}

/* A finished run of the given output and exit code. */
static int64_t logs_run(struct ptest_db *f, const char *name, const char *out, const char *err, int code)
{
	int64_t id = ptest_db_new_run(f->ix, name);
	struct logs_ingest *ig = logs_ingest_new(f->ix, id, 1795315638000000, 0);

	assert_non_null(ig);
	assert_int_equal(logs_ingest_feed(ig, 1, (const uint8_t *)out, strlen(out)), 0);
	assert_int_equal(logs_ingest_feed(ig, 2, (const uint8_t *)err, strlen(err)), 0);
	assert_int_equal(logs_ingest_finish(ig), 0);
	logs_ingest_free(ig);
	assert_int_equal(runs_finish(f->ix, id, RUN_EXITED, code, 1795315639000000, (int64_t)strlen(out),
				     (int64_t)strlen(err)), 0);
	return id;
}

static void two_logs_runs(struct ptest_db *f, int64_t *a, int64_t *b)
{
	*a = logs_run(f, "a",
		      " [call] op=[aten::add.Tensor], key=[CPU]\n [call] op=[aten::add.Tensor], key=[CPU]\n",
		      "W1125 06:00:00.000000 1 x.py:1] warn at 0x7f00aa\n", 0);
	*b = logs_run(f, "b", " [call] op=[aten::add.Tensor], key=[CPU]\n [call] op=[aten::mul.Tensor]\n",
		      "W1125 06:00:00.000000 1 x.py:1] warn at 0x7f00bb\nW1125 06:00:01.000000 1 y.py:2] new\n", 3);
}

static char *text_of(const struct run_diff *d)
{
	char *s = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&s, &n);

	assert_non_null(m);
	render_rundiff_text(m, d, &(const struct pt_style){ .color = 0 });
	assert_int_equal(fclose(m), 0);
	return s;
}

/* Sections: ops by operator and key, warnings by text (address masked) and place. */
static void logs_sections(void **state)
{
	struct ptest_db *f = *state;
	const struct keyed_diffs *ops, *w;
	struct run_diff d;
	int64_t a, b;

	two_logs_runs(f, &a, &b);
	assert_int_equal(run_diff_load(f->ix, a, b, &d), 0);
	assert_int_equal(d.a, a);
	assert_int_equal(d.b, b);
	assert_string_equal(d.status_a, "exit 0");
	assert_string_equal(d.status_b, "exit 3");
	ops = run_diff_section(&d, RUN_DIFF_OPS);
	assert_int_equal(ops->a, 2);
	assert_int_equal(ops->b, 2);
	assert_int_equal(ops->n, 2);
	assert_string_equal(ops->v[0].key, "aten::add.Tensor [CPU]");
	assert_int_equal(ops->v[0].a, 2);
	assert_int_equal(ops->v[0].b, 1);
	assert_string_equal(ops->v[1].key, "aten::mul.Tensor");	/* no key=[...]: no brackets */
	assert_int_equal(ops->v[1].a, 0);
	assert_int_equal(ops->v[1].b, 1);
	w = run_diff_section(&d, RUN_DIFF_WARNINGS);
	assert_int_equal(w->a, 1);
	assert_int_equal(w->b, 2);
	assert_int_equal(w->n, 1);	/* the same warning at another address is no difference */
	assert_int_equal(run_diff_section(&d, RUN_DIFF_ERRORS)->n, 0);
	assert_int_equal(run_diff_section(&d, RUN_DIFF_TRACE_GRAPH_BREAKS)->b, 0);
	assert_int_equal(d.compiles.compiles_a + d.compiles.compiles_b, 0);
	assert_true(d.differ);
	run_diff_release(&d);
}

/* A run against itself differs in nothing; the exit status alone makes a difference. */
static void verdict(void **state)
{
	struct ptest_db *f = *state;
	struct run_diff d;
	int64_t a, b, c;

	two_logs_runs(f, &a, &b);
	assert_int_equal(run_diff_load(f->ix, a, a, &d), 0);
	assert_false(d.differ);
	for (int s = 0; s < RUN_DIFF_NSECTIONS; s++)
		assert_int_equal(run_diff_section(&d, s)->n, 0);
	run_diff_release(&d);
	c = logs_run(f, "c", " [call] op=[aten::add.Tensor], key=[CPU]\n [call] op=[aten::add.Tensor], key=[CPU]\n",
		     "W1125 06:00:09.000000 1 x.py:1] warn at 0x7f00cc\n", 1);
	assert_int_equal(run_diff_load(f->ix, a, c, &d), 0);
	assert_true(d.differ);
	assert_string_equal(d.status_b, "exit 1");
	run_diff_release(&d);
}

/* An unknown run: -1 and the connection's diag names it. */
static void no_such_run(void **state)
{
	struct ptest_db *f = *state;
	struct run_diff d;
	int64_t a, b;

	two_logs_runs(f, &a, &b);
	assert_int_equal(run_diff_load(f->ix, a, 999, &d), -1);
	assert_null(d.status_a);
	assert_int_equal(pt_diag_count(&f->diag, PT_SEV_ERROR), 1);
	assert_string_equal(f->diag.v[0].what, "no run 999");
	pt_diag_release(&f->diag);	/* expected: not for the teardown to print */
	pt_diag_init(&f->diag);
}

/* TORCH_TRACE: rank 1's [0/1] only in the first run, rank 0's [0/0] graph changed. */
static void compiles(void **state)
{
	struct ptest_db *f = *state;
	struct run_diff d;
	int64_t a, b;
	char *text;

	ptest_tt_two_runs(f, &a, &b);
	assert_int_equal(run_diff_load(f->ix, a, b, &d), 0);
	assert_int_equal(d.compiles.nremoved, 1);
	assert_int_equal(d.compiles.nmatched, 1);
	assert_true(run_diff_changed(&d.compiles.matched[0]));
	assert_int_equal(d.nreasons_only_a + d.nreasons_only_b, 0);
	assert_true(d.differ);
	text = text_of(&d);
	/* No names or places in this trace: an empty name, as before the struct. */
	assert_string_equal(text, "runs 1 and 2\n"
				  "  status: running (same)\n"
				  "  compiles: 2 -> 1\n"
				  "    - [0/1] rank 1 \n"
				  "    ~ [0/0] : graph changed;\n"
				  "    compile time of the compiles both have: 0.000 s -> 0.000 s\n");
	free(text);
	run_diff_release(&d);
}

/* The text and the JSON of the logs runs, whole. */
static void rendered(void **state)
{
	static const char want_text[] =
		"runs 1 and 2\n"
		"  status: exit 0 -> exit 3\n"
		"  ops: 2 -> 2\n"
		"        2 -> 1     aten::add.Tensor [CPU]\n"
		"        0 -> 1     aten::mul.Tensor\n"
		"  warnings: 1 -> 2\n"
		"        0 -> 1     new  (y.py:2)\n";
	static const char want_json[] =
		"{\"a\":1,\"b\":2,\"status\":{\"a\":\"exit 0\",\"b\":\"exit 3\"},"
		"\"ops\":{\"a\":2,\"b\":2,\"differences\":[{\"key\":\"aten::add.Tensor [CPU]\",\"a\":2,\"b\":1},"
		"{\"key\":\"aten::mul.Tensor\",\"a\":0,\"b\":1}]},"
		"\"graph_breaks\":{\"a\":0,\"b\":0,\"differences\":[]},"
		"\"recompiles\":{\"a\":0,\"b\":0,\"differences\":[]},"
		"\"warnings\":{\"a\":1,\"b\":2,\"differences\":[{\"key\":\"new  (y.py:2)\",\"a\":0,\"b\":1}]},"
		"\"errors\":{\"a\":0,\"b\":0,\"differences\":[]},"
		"\"trace_graph_breaks\":{\"a\":0,\"b\":0,\"differences\":[]},"
		"\"compiles\":{\"differ\":false,\"compiles_a\":0,\"compiles_b\":0,\"added\":[],\"removed\":[],"
		"\"matched\":[],\"recompile_reasons\":{\"a\":[],\"b\":[]},"
		"\"recompile_reasons_only\":{\"a\":[],\"b\":[]}},"
		"\"differ\":true}";
	struct ptest_db *f = *state;
	struct run_diff d;
	int64_t a, b;
	json_t *j;
	char *s;

	two_logs_runs(f, &a, &b);
	assert_int_equal(run_diff_load(f->ix, a, b, &d), 0);
	s = text_of(&d);
	assert_string_equal(s, want_text);
	free(s);
	j = render_rundiff_json(&d);
	s = json_dumps(j, JSON_COMPACT);
	assert_string_equal(s, want_json);
	free(s);
	json_decref(j);
	run_diff_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(logs_sections, setup, teardown),
		cmocka_unit_test_setup_teardown(verdict, setup, teardown),
		cmocka_unit_test_setup_teardown(no_such_run, setup, teardown),
		cmocka_unit_test_setup_teardown(compiles, setup, teardown),
		cmocka_unit_test_setup_teardown(rendered, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
