/*
 * tracers/torchtrace (tt_ingest, tt_query) over crafted TORCH_TRACE files in a
 * fresh database: ranks (JSON wins, file name otherwise, records before the
 * rank is known get it, conflicts reported), compile status rules (restarted,
 * failed, missing, runtime records folded into attempt 0), payload dedup,
 * re-indexing a file, tlparse names, show/ranks/diff/timeline documents.
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
#include "parts.h"
#include "ptest.h"
#include "runs.h"
#include "strbuf.h"
#include "torchtrace.h"
#include "tt_ingest.h"
#include "tt_query.h"
#include "tt_tlparse.h"
#include "xalloc.h"

struct fixture {
	char dir[PTEST_PATH_MAX];
	struct pt_diag diag;
	struct db *ix;
};

static int setup(void **state)
{
	struct fixture *f = pt_xcalloc(1, sizeof(*f));
	char *db;

	if (!ptest_tmpdir(f->dir, "test-tt-ingest"))
		return -1;
	db = pt_xasprintf("%s/pttrace.db", f->dir);
	pt_diag_init(&f->diag);
	if (pttrace_db_open(&f->ix, db, 0, &f->diag) < 0)
		return -1;
	free(db);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	db_close(f->ix);
	pt_diag_release(&f->diag);
	if (ptest_rmtree(f->dir) < 0)
		return -1;
	free(f);
	return 0;
}

static int64_t new_run(struct fixture *f, const char *name)
{
	struct run_info ri = {.name = name, .source = "import", .started_us = 1795315626000000};
	int64_t id;

	assert_int_equal(runs_create(f->ix, &ri, &id), 0);
	return id;
}

/* Write <run dir>/trace/<name> with text. */
static void put(struct fixture *f, int64_t run, const char *name, const char *text)
{
	char *dir = db_run_dir(f->ix, run);
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

#define P "V1122 02:53:36.047000 31651 torch/_dynamo/utils.py:1318] "
#define CID(fr, c, a) "\"frame_id\": " #fr ", \"frame_compile_id\": " #c ", \"attempt\": " #a
#define EV(ts) "\t{\n\t\"name\": \"dynamo\",\n\t\"ts\": " #ts ",\n\t\"ph\": \"B\",\n\t\"pid\": 0\n\t}\n"

static char *payload_line(const char *kind, const char *extra, const char *payload)
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

static int64_t q_int(struct fixture *f, const char *sql, int64_t run)
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

/*
 * The rank rule: the file name's rank, else the records' first; every record
 * of a file gets the file's rank; a name that disagrees is reported, records
 * of another rank are kept and counted. --rank-from=record (trace_sources)
 * takes the records' rank.
 */
static void ranks_name_then_json(void **state)
{
	struct fixture *f = *state;
	int64_t run = new_run(f, "ranks");
	json_t *o = json_object();
	char *g = payload_line("dynamo_output_graph", CID(0, 0, 0) ", \"rank\": 1", "graph");
	struct db_stmt *s;

	put(f, run, "dedicated_log_torch_trace_rank_7_abc.log",
	    P "{\"artifact\": {\"name\": \"torch_version\", \"encoding\": \"json\"}}\n"
	    P "{\"dynamo_start\": {\"stack\": []}, \"rank\": 1, " CID(0, 0, 0) "}\n");
	put(f, run, "dedicated_log_torch_trace_rank_2_x_y.log",
	    P "{\"dynamo_start\": {\"stack\": []}, " CID(0, 0, 0) "}\n");
	put(f, run, "zz_unranked.log", g);
	put(f, run, "zz_empty.log", "");
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	/* rank_7 file: the records say 1: a conflict; every record of the file is rank 7. */
	assert_int_equal(pt_diag_count(&f->diag, PT_SEV_WARNING), 1);
	assert_non_null(strstr(f->diag.v[0].what, "the file name says rank 7, its records rank 1; rank 7 used"));
	assert_int_equal(q_int(f, "SELECT rank FROM trace_records WHERE run_id = ? AND name = 'torch_version'", run), 7);
	assert_int_equal(q_int(f, "SELECT json_rank FROM trace_records WHERE run_id = ? AND name = 'torch_version'", run), -99);
	assert_int_equal(q_int(f, "SELECT other_rank FROM trace_files WHERE run_id = ? AND name_rank = 7", run), 1);
	/* rank_2_x_y: no JSON rank: the name's (the random part may hold '_'). */
	assert_int_equal(q_int(f, "SELECT count(*) FROM trace_records WHERE run_id = ? AND rank = 2", run), 1);
	/* No name rank: the records'. One process per file, numbered by path. */
	assert_int_equal(q_int(f, "SELECT rank FROM trace_files WHERE run_id = ? AND path = 'trace/zz_unranked.log'", run), 1);
	assert_int_equal(q_int(f, "SELECT process FROM trace_files WHERE run_id = ? AND path = 'trace/zz_unranked.log'", run), 4);
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
	assert_int_equal(q_int(f, "SELECT rank FROM trace_records WHERE run_id = ? AND name = 'torch_version'", run), 1);
	/* rank 1 twice now (rank_7 and zz_unranked): a warning, kept apart. */
	assert_int_equal(pt_diag_count(&f->diag, PT_SEV_WARNING), 2);
	assert_non_null(strstr(f->diag.v[1].what, "2 files say rank 1"));
	assert_int_equal(q_int(f, "SELECT count(DISTINCT file_id) FROM trace_records WHERE run_id = ? AND rank = 1", run), 2);
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

/* Status: a later attempt makes a restart; fail_type a failure; no metrics: missing. */
static void compile_status_rules(void **state)
{
	struct fixture *f = *state;
	int64_t run = new_run(f, "status");
	struct tt_compiles cs;
	char *g1 = payload_line("dynamo_output_graph", CID(0, 0, 1), "graph A");
	char *g2 = payload_line("dynamo_output_graph", CID(1, 0, 0), "graph A");
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

	put(f, run, "t.log", text);
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	assert_int_equal(f->diag.n, 0);
	assert_int_equal(tt_compiles_load(f->ix, run, -1, &cs, &f->diag), 0);
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
	assert_int_equal(q_int(f, "SELECT count(*) FROM trace_payloads WHERE ? > 0", run), 1);
	/* Re-indexing replaces, does not add. */
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	assert_int_equal(q_int(f, "SELECT count(*) FROM trace_records WHERE run_id = ?", run), 8);
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
	struct fixture *f = *state;
	int64_t run = new_run(f, "occ");
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

	put(f, run, "occ.log", text);
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	assert_int_equal(tt_compiles_load(f->ix, run, -1, &cs, &f->diag), 0);
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

static void tlparse_names(void **state)
{
	char base[256];
	const char *ext;

	(void)state;
	assert_int_equal(tt_tlparse_name("inductor_output_code", "/tmp/x/cabc.py", NULL, base, sizeof(base), &ext), 0);
	assert_string_equal(base, "inductor_output_code_cabc");
	assert_string_equal(ext, "txt");
	assert_int_equal(tt_tlparse_name("artifact", "fx_graph_cache_miss",
					    "{\"artifact\": {\"name\": \"fx_graph_cache_miss\", \"encoding\": \"json\"}}",
					    base, sizeof(base), &ext), 0);
	assert_string_equal(base, "fx_graph_cache_miss");
	assert_string_equal(ext, "json");
	assert_int_equal(tt_tlparse_name("optimize_ddp_split_child", "submod_0", NULL, base, sizeof(base), &ext), 0);
	assert_string_equal(base, "optimize_ddp_split_child_submod_0");
	assert_int_equal(tt_tlparse_name("aot_forward_graph", NULL, NULL, base, sizeof(base), &ext), 0);
	assert_string_equal(base, "aot_forward_graph");
	assert_int_equal(tt_tlparse_name("chromium_event", NULL, NULL, base, sizeof(base), &ext), -1);
}

/* Ranks that compiled different things; the diff of two runs; one timeline with pid = rank. */
static void ranks_diff_timeline(void **state)
{
	struct fixture *f = *state;
	int64_t a = new_run(f, "a"), b = new_run(f, "b");
	char *r0 = payload_line("dynamo_output_graph", CID(0, 0, 0), "G");
	char *r1 = payload_line("dynamo_output_graph", CID(0, 1, 0), "H");
	char *bb = payload_line("dynamo_output_graph", CID(0, 0, 0), "G changed");
	char *ev2 = payload_line("chromium_event", "\"rank\": 3", "{\"name\":\"x\",\"ts\":6.5,\"ph\":\"E\",\"tid\":7,\"pid\":0}");
	char *ev = pt_xasprintf(P "{\"chromium_event\": {}, \"has_payload\": \"x\"}\n" EV(5.5) "%s", ev2);
	json_t *o;
	char *s, *out = NULL;
	size_t len;
	uint64_t n, skipped;
	FILE *mf;

	put(f, a, "dedicated_log_torch_trace_rank_0_a.log", r0);
	put(f, a, "dedicated_log_torch_trace_rank_1_a.log", r1);
	put(f, a, "dedicated_log_torch_trace_rank_3_a.log", ev);
	put(f, b, "dedicated_log_torch_trace_rank_0_a.log", bb);
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

/* The chromium event fast path: only a top-level "pid", followed by simple members at most. */
static void chromium_pid_shapes(void **state)
{
	static const struct {
		const char *text;
		const char *out;	/* with pid 7, or NULL: not this shape, go through jansson */
	} cases[] = {
		{ "{\"name\":\"a\",\"tid\":0,\"pid\":0}", "{\"name\":\"a\",\"tid\":0,\"pid\":7}" },
		{ "{\"name\": \"a\", \"pid\": 12 }\n", "{\"name\": \"a\", \"pid\":7 }\n" },
		{ "{\n\"ph\": \"B\",\n\"pid\": -1\n}", "{\n\"ph\": \"B\",\n\"pid\":7\n}" },
		{ "{\"pid\":0}", "{\"pid\":7}" },
		{ "{\n\"ph\": \"i\",\n\"pid\": 0,\n\"s\": \"p\"\n}", "{\n\"ph\": \"i\",\n\"pid\":7,\n\"s\": \"p\"\n}" },
		{ "{\"pid\":0,\"s\":\"p\",\"x_1\":\"\"}", "{\"pid\":7,\"s\":\"p\",\"x_1\":\"\"}" },
		{ "{\"args\":{\"pid\":1}}", NULL },		/* nested: the last '}' closes args */
		{ "{\"pid\":0,\"tid\":1}", NULL },		/* a number after pid */
		{ "{\"pid\":0,\"s\":\"a b\"}", NULL },	/* not an identifier after pid */
		{ "{\"x\":\"a\\\"pid\":0}", NULL },		/* not a key: a string's end before it */
		{ "{\"x\":\"a\\\",\\\"pid\":0}", NULL },	/* inside a string */
		{ "{\"pid\":0,\"s\":\"\\\"p\"}", NULL },	/* an escaped quote */
		{ "{\"pid\":0.5}", NULL },			/* not an integer */
		{ "[\"pid\":0}", NULL },
		{ "{\"ph\":\"B\",\"pid\":}", NULL },
		{ "\"pid\":0}", NULL },
		{ "{\"pid\":0,}", NULL },
		{ "", NULL },
		{ "}", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const char *t = cases[i].text;
		size_t key = 0, vend = 0;
		int ok = tt_chromium_pid_span(t, strlen(t), &key, &vend);

		if (!ok != !cases[i].out)
			fail_msg("case %zu (%s): %s", i, t, ok ? "matched" : "not matched");
		if (ok) {
			char *got = pt_xasprintf("%.*s\"pid\":7%s", (int)key, t, t + vend);

			if (strcmp(got, cases[i].out))
				fail_msg("case %zu: %s, expected %s", i, got, cases[i].out);
			free(got);
		}
	}
}

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

/* tlparse's names and numbers: directory of the id as written, key with the attempt folded. */
static void tlparse_dirs_and_keys(void **state)
{
	struct compileid rt = {COMPILEID_NONE, 0, 0, COMPILEID_NONE}, ca = {0, 1, 0, 2}, none;
	char b[64];
	json_t *meta = json_pack("{s:s}", "filename", "/tmp/x/c2abc.def.py");

	(void)state;
	compileid_clear(&none);
	tt_tlparse_dir(&rt, b, sizeof(b));
	assert_string_equal(b, "-_0_0_-");
	tt_tlparse_dir(&none, b, sizeof(b));
	assert_string_equal(b, "-_-_-_-");
	tt_tlparse_key(&none, b, sizeof(b));
	assert_string_equal(b, "[-/-]");
	tt_tlparse_key(&ca, b, sizeof(b));
	assert_string_equal(b, "[!0/1/0_2]");
	assert_int_equal(tt_tlparse_output("inductor_output_code", meta, "", 0, b, sizeof(b)), 'p');
	assert_string_equal(b, "inductor_output_code_c2abc.def.txt");
	json_decref(meta);
	meta = json_pack("{s:s, s:s}", "name", "../x", "encoding", "json");
	assert_int_equal(tt_tlparse_output("artifact", meta, "", 0, b, sizeof(b)), 'p');
	assert_string_equal(b, ".._x.json");
	json_decref(meta);
	meta = json_pack("{s:s, s:s}", "name", "n", "url", "http://x");
	assert_int_equal(tt_tlparse_output("link", meta, "", 0, b, sizeof(b)), 'l');
	json_decref(meta);
	meta = json_object();
	assert_int_equal(tt_tlparse_output("dynamo_guards", meta, "[{\"code\": \"x\"}]", 15, b, sizeof(b)), 'p');
	assert_int_equal(tt_tlparse_output("dynamo_guards", meta, "[1]", 3, b, sizeof(b)), 0);
	assert_int_equal(tt_tlparse_output("chromium_event", meta, "{}", 2, b, sizeof(b)), 0);
	json_decref(meta);
}

/*
 * A file that cannot be indexed makes tt_index_run fail and leaves the run's
 * "trace" part partial (so reindex retries it), while the other files are
 * still indexed. The database error is injected with a trigger.
 */
static void failed_file_keeps_part_partial(void **state)
{
	struct fixture *f = *state;
	int64_t run = new_run(f, "fails");

	put(f, run, "a_good.log", P "{\"dynamo_start\": {\"stack\": []}, " CID(0, 0, 0) "}\n");
	put(f, run, "b_bad.log", P "{\"dynamo_start\": {\"stack\": []}, " CID(1, 0, 0) "}\n");
	assert_int_equal(db_exec(f->ix, "CREATE TEMP TRIGGER inject BEFORE INSERT ON trace_files"
				 " WHEN NEW.path LIKE '%bad%' BEGIN SELECT RAISE(ABORT, 'injected'); END;"), 0);
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), -1);
	assert_true(pt_diag_count(&f->diag, PT_SEV_ERROR) >= 1);
	assert_int_equal(q_int(f, "SELECT count(*) FROM trace_files WHERE run_id = ?", run), 1);
	assert_int_equal(q_int(f, "SELECT count(*) FROM trace_records WHERE run_id = ?", run), 1);
	assert_int_equal(q_int(f, "SELECT count(*) FROM run_parts WHERE run_id = ? AND part = 'trace'"
			       " AND state = 'partial'", run), 1);
	assert_int_equal(schema_part_current(f->ix, "trace", run), 0);
	/* Without the fault the same run indexes whole and is marked done. */
	assert_int_equal(db_exec(f->ix, "DROP TRIGGER inject;"), 0);
	pt_diag_release(&f->diag);
	pt_diag_init(&f->diag);
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	assert_int_equal(q_int(f, "SELECT count(*) FROM trace_files WHERE run_id = ?", run), 2);
	assert_int_equal(schema_part_current(f->ix, "trace", run), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(name_rank_rules),
		cmocka_unit_test(collectives_parity_rules),
		cmocka_unit_test(tlparse_dirs_and_keys),
		cmocka_unit_test(tlparse_names),
		cmocka_unit_test_setup_teardown(ranks_name_then_json, setup, teardown),
		cmocka_unit_test_setup_teardown(compile_status_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(compile_occurrences, setup, teardown),
		cmocka_unit_test_setup_teardown(ranks_diff_timeline, setup, teardown),
		cmocka_unit_test(chromium_pid_shapes),
		cmocka_unit_test_setup_teardown(failed_file_keeps_part_partial, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
