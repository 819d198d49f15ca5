/*
 * tracers/logs/logs_ingest.c: lines → records. Groups (TORCH_LOGS prefixes,
 * tracebacks, warnings), the dispatcher tree, torn dispatcher lines, two
 * interleaved streams, every line in exactly one record whatever the
 * chunking, a crash's dump, and a run's spool indexed from its files. Writing and
 * reading the spool itself: test_spool.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "parts.h"
#include "ptest_db.h"
#include "logs_ingest.h"
#include "db_json.h"
#include "logs_query.h"
#include "runs.h"
#include "rundir.h"
#include "spool.h"
#include "strbuf.h"
#include "xalloc.h"

static int setup(void **state)
{
	return ptest_db_setup(state, "test-logs-ingest", 1);
}

static int teardown(void **state)
{
	return ptest_db_teardown(state);
}

static int64_t one_int(struct db *ix, const char *sql, int64_t run)
{
	struct db_stmt *s = db_prepare(ix, sql);
	int64_t v;

	assert_non_null(s);
	assert_int_equal(db_bind(s, "i", run), 0);
	assert_int_equal(db_step(s), 1);
	v = db_col_int(s, 0);
	db_reset(s);
	return v;
}

/* "kind nlines level rank cid artifact|text" per record, in seq order. */
static char *dump(struct ptest_db *f)
{
	json_t *rows = db_json(f->ix,
				  "SELECT stream || ':' || kind || ':' || nlines || ':' || IFNULL(level, '-')"
				  " || ':' || IFNULL(rank, '-') || ':' || IFNULL(frame_id, '-') || '/' ||"
				  " IFNULL(frame_compile_id, '-') || '_' || IFNULL(attempt, '-') || ':' ||"
				  " IFNULL(artifact, '-') || '|' || text AS r FROM records WHERE run_id = ?1"
				  " ORDER BY seq", "i", f->run);
	struct pt_strbuf sb;
	size_t i;
	json_t *v;

	pt_strbuf_init(&sb, 1 << 20);
	json_array_foreach(rows, i, v) {
		assert_int_equal(pt_strbuf_adds(&sb, json_string_value(json_object_get(v, "r"))), 0);
		assert_int_equal(pt_strbuf_adds(&sb, "\n"), 0);
	}
	json_decref(rows);
	return pt_strbuf_detach(&sb);
}

static const char err_text[] =
	"I1122 02:47:18.432000 9740 torch/fx/experimental/symbolic_shapes.py:3192] [0/0] create_env\n"
	"V1122 02:47:18.460000 9740 torch/_dynamo/guards.py:2364] [0/0_1] [__guards] GUARDS:\n"
	"V1122 02:47:18.461000 9740 torch/_dynamo/guards.py:2321] [0/0_1] [__guards] \n"
	"V1122 02:47:18.461000 9740 torch/_dynamo/guards.py:2321] [0/0_1] [__guards] TREE_GUARD_MANAGER:\n"
	"V1122 02:47:18.461000 9740 torch/_dynamo/guards.py:2321] [0/0_1] [__guards] +- RootGuardManager\n"
	"[rank1]:I1122 02:48:32.452000 11559 torch/_dynamo/symbolic_convert.py:2706] [0/0] Step 1\n"
	"[rank0]:I1122 02:48:32.452000 11558 torch/_dynamo/symbolic_convert.py:2706] [0/0] Step 1\n"
	"/tmp/w.py:3: UserWarning: careful\n"
	"  warnings.warn(\"careful\")\n"
	"Traceback (most recent call last):\n"
	"  File \"/tmp/x.py\", line 5, in <module>\n"
	"    raise ValueError(\"boom\")\n"
	"ValueError: boom\n"
	"[W1122 02:54:13.085491037 ProcessGroupGloo.cpp:527] Warning: Unable\n"
	" [call] op=[aten::ones], key=[BackendSelect]\n"
	"  [redispatch] op=[aten::ones], key=[CPU]\n"
	"   [call] op=[aten::empty.memory_format], key=[BackendSelect]\n"
	"    [redispatch] op=[aten::empty.memory_format], key=[CPU]\n"
	"   [call] op=[aten::fill_.Scalar], key=[CPU]\n"
	" [call] op=[aten::ad  [call] op=[aten::mul.Tensor], key=[CPU]\n"
	"d.Tensor], key=[AutogradCPU]\n"
	"plain\n"
	"no newline at the end";

static const char want[] =
	"2:log:1:20:-:0/0_-:-|create_env\n"
	"2:log:1:10:-:0/0_1:guards|GUARDS:\n"
	"2:log:3:10:-:0/0_1:guards|\nTREE_GUARD_MANAGER:\n+- RootGuardManager\n"
	"2:log:1:20:1:0/0_-:-|Step 1\n"
	"2:log:1:20:0:0/0_-:-|Step 1\n"
	"2:warning:2:30:-:-/-_-:-|/tmp/w.py:3: UserWarning: careful\n  warnings.warn(\"careful\")\n"
	"2:traceback:4:40:-:-/-_-:-|Traceback (most recent call last):\n  File \"/tmp/x.py\", line 5, in <module>\n    raise ValueError(\"boom\")\nValueError: boom\n"
	"2:cpp:1:30:-:-/-_-:-|Warning: Unable\n"
	"2:dispatch:1:-:-:-/-_-:-| [call] op=[aten::ones], key=[BackendSelect]\n"
	"2:dispatch:1:-:-:-/-_-:-|  [redispatch] op=[aten::ones], key=[CPU]\n"
	"2:dispatch:1:-:-:-/-_-:-|   [call] op=[aten::empty.memory_format], key=[BackendSelect]\n"
	"2:dispatch:1:-:-:-/-_-:-|    [redispatch] op=[aten::empty.memory_format], key=[CPU]\n"
	"2:dispatch:1:-:-:-/-_-:-|   [call] op=[aten::fill_.Scalar], key=[CPU]\n"
	"2:dispatch:1:-:-:-/-_-:-| [call] op=[aten::ad  [call] op=[aten::mul.Tensor], key=[CPU]\n"
	"2:dispatch:1:-:-:-/-_-:-|d.Tensor], key=[AutogradCPU]\n"
	"2:other:1:-:-:-/-_-:-|plain\n"
	"2:other:1:-:-:-/-_-:-|no newline at the end\n";

/* One stream, fed in chunks of every size from 1 to 64: the same records each time. */
static void records_from_stderr(void **state)
{
	struct ptest_db *f = *state;

	for (size_t chunk = 1; chunk <= 64; chunk += (chunk < 8 ? 1 : 7)) {
		struct logs_ingest *ig = logs_ingest_new(f->ix, f->run, 1795315638000000, 0);
		char *got;

		assert_non_null(ig);
		for (size_t i = 0; i < sizeof(err_text) - 1; i += chunk) {
			size_t n = sizeof(err_text) - 1 - i;

			assert_int_equal(logs_ingest_feed(ig, 2, (const uint8_t *)err_text + i, n < chunk ? n : chunk), 0);
		}
		assert_int_equal(logs_ingest_finish(ig), 0);
		assert_int_equal(logs_ingest_get_stats(ig)->torn_joined, 1);
		logs_ingest_free(ig);
		got = dump(f);
		assert_string_equal(got, want);
		free(got);
		/* 23 lines, each in exactly one record. */
		assert_int_equal(one_int(f->ix, "SELECT SUM(nlines) FROM records WHERE run_id=?1", f->run), 23);
	}
	/* The dispatcher tree: fill_ and empty are children of the redispatch of ones. */
	/* The torn add was completed from its tail line. */
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM dispatch_calls c JOIN dispatch_calls p"
				 " ON c.parent_id = p.id WHERE c.run_id=?1 AND p.op='aten::ones'"
				 " AND p.label='redispatch'", f->run), 2);
	/* Seven calls: one per "[label] op=[" token, the torn line's two included. */
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM dispatch_calls WHERE run_id=?1", f->run), 7);
	/* Roots: ones, and the two torn calls (torn lines stay out of the tree). */
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM dispatch_calls WHERE run_id=?1"
				 " AND parent_id IS NULL", f->run), 3);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM dispatch_calls WHERE run_id=?1"
				 " AND torn = 1", f->run), 2);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM dispatch_calls WHERE run_id=?1"
				 " AND op='aten::add' AND overload='Tensor' AND dispatch_key='AutogradCPU'",
				 f->run), 1);
	/* Times: the run's year and zone. 2026-11-22 02:47:18.432 UTC. */
	assert_int_equal(one_int(f->ix, "SELECT MIN(ts_us) FROM records WHERE run_id=?1", f->run),
			 1795315638432000);
	/* The record's bytes in the stream: offset and length of its lines. */
	assert_int_equal(one_int(f->ix, "SELECT off FROM records WHERE run_id=?1 AND seq=2", f->run),
			 strchr(strchr(err_text, '\n') + 1, '\n') + 1 - err_text);
}

/* Two streams interleaved: seq follows arrival; groups never span streams. */
static void two_streams(void **state)
{
	struct ptest_db *f = *state;
	struct logs_ingest *ig = logs_ingest_new(f->ix, f->run, 1795315638000000, 0);
	const char *l = "I1122 02:47:18.432000 1 torch/a.py:1] [0/0] x\n";
	char *got;

	logs_ingest_feed(ig, 2, (const uint8_t *)l, strlen(l));
	logs_ingest_feed(ig, 1, (const uint8_t *)"out 1\nout", 9);
	logs_ingest_feed(ig, 2, (const uint8_t *)l, strlen(l));
	logs_ingest_feed(ig, 1, (const uint8_t *)" 2\n", 3);
	assert_int_equal(logs_ingest_finish(ig), 0);
	logs_ingest_free(ig);
	got = dump(f);
	assert_string_equal(got, "2:log:2:20:-:0/0_-:-|x\nx\n"
				 "1:other:1:-:-:-/-_-:-|out 1\n"
				 "1:other:1:-:-:-/-_-:-|out 2\n");
	free(got);
	assert_int_equal(one_int(f->ix, "SELECT seq FROM records WHERE run_id=?1 AND text='out 2'",
				 f->run), 3);
}

/*
 * logs_ingest_run_dir indexes a run's spool (written by the spool writer):
 * neither stream ends in a newline, so each is one "other" line.
 */
static void spool_dir_indexed(void **state)
{
	struct ptest_db *f = *state;
	struct spool_writer w;
	struct logs_ingest_stats st;
	char *dir = rundir_path(f->ix, f->run);

	assert_int_equal(spool_writer_open(&w, dir, NULL, &f->diag), 0);
	assert_int_equal(spool_write(&w, 1, "a1", 2), 0);
	assert_int_equal(spool_write(&w, 1, "a2", 2), 0);
	assert_int_equal(spool_write(&w, 2, "B1", 2), 0);
	assert_int_equal(spool_write(&w, 1, "a3", 2), 0);
	assert_int_equal(spool_write(&w, 2, "B2", 2), 0);
	assert_int_equal(spool_writer_close(&w), 0);
	assert_int_equal(logs_ingest_run_dir(f->ix, f->run, 0, 0, &st), 0);
	assert_int_equal(st.lines[LOGS_OTHER], 2);
	assert_int_equal(st.bytes, 10);
	free(dir);
}

static void ingest_text(struct db *ix, int64_t run, const char *text)
{
	struct logs_ingest *ig = logs_ingest_new(ix, run, 1795315638000000, 0);

	assert_non_null(ig);
	assert_int_equal(logs_ingest_feed(ig, 2, (const uint8_t *)text, strlen(text)), 0);
	assert_int_equal(logs_ingest_finish(ig), 0);
	logs_ingest_free(ig);
}

/* Call ids as `pttrace ops --tree --json` shows them: "id/parent" per call. */
static char *call_ids(struct db *ix, int64_t run)
{
	struct db_stmt *s = logs_query_calls(ix, run);
	struct pt_strbuf b;

	assert_non_null(s);
	pt_strbuf_init(&b, 4096);
	while (db_step(s) == 1)
		assert_int_equal(pt_strbuf_addf(&b, "%lld/%lld ", (long long)db_col_int(s, 0),
						(long long)(db_col_is_null(s, 7) ? 0 : db_col_int(s, 7))), 0);
	return pt_strbuf_detach(&b);
}

/*
 * Two runs in one index: the rowids carry the run (records.id = run << 40 |
 * seq), each run's rows are its own range; queries see one run; reindexing
 * one run and deleting another touch only their own rows.
 */
static void runs_apart(void **state)
{
	struct ptest_db *f = *state;
	static const char a_text[] = " [call] op=[aten::ones], key=[BackendSelect]\n"
				     "  [redispatch] op=[aten::ones], key=[CPU]\n"
				     "   [call] op=[aten::empty.memory_format], key=[BackendSelect]\n"
				     "plain\n";
	static const char b_text[] = "x\n [call] op=[aten::add.Tensor], key=[CPU]\n";
	int64_t b = ptest_db_new_run(f->ix, "other");
	char *ids;
	json_t *ops;

	ingest_text(f->ix, f->run, a_text);
	ingest_text(f->ix, b, b_text);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM records WHERE id >> 40 = ?1", f->run), 4);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM records WHERE run_id = ?1", b), 2);
	assert_int_equal(one_int(f->ix, "SELECT id FROM records WHERE run_id = ?1 AND seq = 1", b),
			 (b << 40) | 1);
	/* A call's record_id is its record's rowid. */
	assert_int_equal(one_int(f->ix, "SELECT r.seq FROM dispatch_calls c JOIN records r"
				 " ON r.id = c.record_id WHERE c.run_id = ?1", b), 1);
	/* Ids as shown count from 1 in each run, parents within the run. */
	ids = call_ids(f->ix, f->run);
	assert_string_equal(ids, "1/0 2/1 3/2 ");
	free(ids);
	ids = call_ids(f->ix, b);
	assert_string_equal(ids, "1/0 ");
	free(ids);
	ops = logs_query_ops(f->ix, b);
	assert_int_equal(json_array_size(ops), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(ops, 0), "op")), "aten::add");
	json_decref(ops);
	/* Reindex of run a: the same rows again, b untouched. */
	ingest_text(f->ix, f->run, a_text);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM records WHERE run_id = ?1", f->run), 4);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM dispatch_calls WHERE run_id = ?1", f->run), 3);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM dispatch_calls WHERE run_id = ?1", b), 1);
	/* Deleting run a deletes its range (the trigger), nothing of b. */
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM runs WHERE id = ?1", f->run), 1);
	{
		struct db_stmt *del = db_prepare(f->ix, "DELETE FROM runs WHERE id = ?1");

		assert_int_equal(db_run(del, "i", f->run), 0);
	}
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM records WHERE run_id <> ?1", b), 0);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM dispatch_calls WHERE run_id <> ?1", b), 0);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM records WHERE run_id = ?1", b), 2);
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM dispatch_calls WHERE run_id = ?1", b), 1);
}

/*
 * A new writer thread mid-way (pttrace run's handover after the child's
 * exit, here on the same thread): the same records as without, the queue
 * carried over, an open group completed.
 */
static void writer_handover(void **state)
{
	struct ptest_db *f = *state;
	static const char text[] = "I1122 02:47:18.432000 1 torch/a.py:1] [0/0] x\n"
				   " [call] op=[aten::ones], key=[BackendSelect]\n"
				   "plain 1\n"
				   "I1122 02:47:18.432000 1 torch/a.py:1] [0/0] y\n"
				   "I1122 02:47:18.432000 1 torch/a.py:1] [0/0] z\n"
				   "plain 2\n";
	char *once, *twice;

	ingest_text(f->ix, f->run, text);
	once = dump(f);
	for (size_t cut = 1; cut < sizeof(text) - 1; cut += 7) {
		struct logs_ingest *ig = logs_ingest_new(f->ix, f->run, 1795315638000000, 0);

		assert_non_null(ig);
		assert_int_equal(logs_ingest_feed(ig, 2, (const uint8_t *)text, cut), 0);
		/* Now and then quiet long enough that open records are shown early. */
		if (cut % 3 == 1)
			usleep((LOGS_IDLE_COMMIT_MS + 10) * 1000);
		assert_int_equal(logs_ingest_idle(ig), 0);
		assert_int_equal(logs_ingest_writer_here(ig), 0);
		assert_int_equal(logs_ingest_feed(ig, 2, (const uint8_t *)text + cut, strlen(text) - cut), 0);
		assert_int_equal(logs_ingest_writer_here(ig), 0);
		assert_int_equal(logs_ingest_finish(ig), 0);
		assert_true(logs_ingest_get_stats(ig)->writer_cpu_seconds >= 0);
		logs_ingest_free(ig);
		twice = dump(f);
		assert_string_equal(once, twice);
		free(twice);
	}
	free(once);
}


/*
 * A crash as Debian's torch 1.13 prints it (a c10::Error thrown through a
 * noexcept function, then faulthandler's dump of two threads): one record
 * of kind crash, level 50, whose place is the crashed thread's innermost
 * frame (not the other thread's, listed first); the line after the dump
 * is a record of its own. Fed whole, and cut with the open record shown
 * early (logs_ingest_idle) before its frames came: the same rows.
 */
static const char crash_text[] =
	"before\n"
	"terminate called after throwing an instance of 'c10::Error'\n"
	"  what():  ptools test: n must be positive, got -1\n"
	"Exception raised from check at abrt.cpp:3 (most recent call first):\n"
	"frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x9e (0x7fd145d9e9ae in /lib/x86_64-linux-gnu/libc10.so.1.13)\n"
	"\n"
	"Fatal Python error: Aborted\n"
	"\n"
	"Thread 0x00007fd0f6bff6c0 (most recent call first):\n"
	"  File \"/usr/lib/python3.11/threading.py\", line 320 in wait\n"
	"\n"
	"Current thread 0x00007fd147181040 (most recent call first):\n"
	"  File \"/tmp/a \\\"b\\\".py\", line 3 in g\n"
	"  File \"/tmp/a.py\", line 4 in <module>\n"
	"\n"
	"Extension modules: torch._C, abrt (total: 2)\n"
	"after\n";

static const char crash_want[] =
	"other:1:-:-:-|before\n"
	"crash:15:50:/tmp/a \\\"b\\\".py:3|terminate called after throwing an instance of 'c10::Error'\n"
	"  what():  ptools test: n must be positive, got -1\n"
	"Exception raised from check at abrt.cpp:3 (most recent call first):\n"
	"frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x9e (0x7fd145d9e9ae in /lib/x86_64-linux-gnu/libc10.so.1.13)\n"
	"\n"
	"Fatal Python error: Aborted\n"
	"\n"
	"Thread 0x00007fd0f6bff6c0 (most recent call first):\n"
	"  File \"/usr/lib/python3.11/threading.py\", line 320 in wait\n"
	"\n"
	"Current thread 0x00007fd147181040 (most recent call first):\n"
	"  File \"/tmp/a \\\"b\\\".py\", line 3 in g\n"
	"  File \"/tmp/a.py\", line 4 in <module>\n"
	"\n"
	"Extension modules: torch._C, abrt (total: 2)\n"
	"other:1:-:-:-|after\n";

static char *dump_crash(struct ptest_db *f)
{
	json_t *rows = db_json(f->ix,
			       "SELECT kind || ':' || nlines || ':' || IFNULL(level, '-') || ':' ||"
			       " IFNULL(src_file, '-') || ':' || IFNULL(src_line, '-') || '|' || text AS r"
			       " FROM records WHERE run_id = ?1 ORDER BY seq", "i", f->run);
	struct pt_strbuf sb;
	size_t i;
	json_t *v;

	pt_strbuf_init(&sb, 1 << 20);
	json_array_foreach(rows, i, v) {
		assert_int_equal(pt_strbuf_adds(&sb, json_string_value(json_object_get(v, "r"))), 0);
		assert_int_equal(pt_strbuf_adds(&sb, "\n"), 0);
	}
	json_decref(rows);
	return pt_strbuf_detach(&sb);
}

static void crash_record(void **state)
{
	struct ptest_db *f = *state;
	char *got, *what, *file;
	int64_t line;
	/* Cut in terminate's message, in the dump before the crashed thread, and in its frames. */
	static const size_t cuts[] = { 0, 100, 320, 420 };

	for (size_t k = 0; k < PT_ARRAY_SIZE(cuts); k++) {
		struct logs_ingest *ig = logs_ingest_new(f->ix, f->run, 1795315638000000, 0);
		size_t cut = cuts[k] ? cuts[k] : sizeof(crash_text) - 1;

		assert_non_null(ig);
		assert_int_equal(logs_ingest_feed(ig, 2, (const uint8_t *)crash_text, cut), 0);
		if (cuts[k]) {
			/* Quiet for longer than LOGS_IDLE_COMMIT_MS: the open record is shown as it is. */
			usleep((LOGS_IDLE_COMMIT_MS + 10) * 1000);
			assert_int_equal(logs_ingest_idle(ig), 0);
			assert_int_equal(logs_ingest_feed(ig, 2, (const uint8_t *)crash_text + cut,
							  sizeof(crash_text) - 1 - cut), 0);
		}
		assert_int_equal(logs_ingest_finish(ig), 0);
		assert_int_equal(logs_ingest_get_stats(ig)->lines[LOGS_CRASH], 15);
		logs_ingest_free(ig);
		got = dump_crash(f);
		assert_string_equal(got, crash_want);
		free(got);
	}
	assert_int_equal(logs_crash_first(f->ix, f->run, &what, &file, &line), 1);
	assert_string_equal(what, "Fatal Python error: Aborted (c10::Error: ptools test: n must be positive, got -1)");
	assert_string_equal(file, "/tmp/a \\\"b\\\".py");
	assert_int_equal(line, 3);
	free(what);
	free(file);
}

/* A segfault's dump alone; a dump with no Python frame; the summary of odd texts. */
static void crash_summary(void **state)
{
	struct ptest_db *f = *state;
	char *s;

	ingest_text(f->ix, f->run, "Fatal Python error: Segmentation fault\n\n"
				   "Current thread 0x00007fb81320c040 (most recent call first):\n"
				   "  <no Python frame>\n\nx\n");
	s = dump_crash(f);
	assert_string_equal(s, "crash:5:50:-:-|Fatal Python error: Segmentation fault\n\n"
			       "Current thread 0x00007fb81320c040 (most recent call first):\n"
			       "  <no Python frame>\n\n"
			       "other:1:-:-:-|x\n");
	free(s);
	s = logs_crash_summary("terminate called without an active exception\n", 45);
	assert_string_equal(s, "terminate called without an active exception");
	free(s);
	s = logs_crash_summary("terminate called after throwing an instance of 'std::bad_alloc'\n"
			       "  what():  std::bad_alloc\n", 89);
	assert_string_equal(s, "terminate called after throwing an instance of 'std::bad_alloc' (std::bad_alloc: std::bad_alloc)");
	free(s);
	s = logs_crash_summary("", 0);
	assert_string_equal(s, "");
	free(s);
	/* Bytes and a length: nothing read past it. */
	s = logs_crash_summary("Fatal Python error: Aborted\nFatal", 27);
	assert_string_equal(s, "Fatal Python error: Aborted");
	free(s);
}

/* A run id past what the key holds (LOGS_RUN_MAX): refused with the reason, nothing written. */
static void run_id_past_the_key(void **state)
{
	struct ptest_db *f = *state;
	struct pt_diag *d = db_diag(f->ix);
	size_t before = d->n;

	assert_null(logs_ingest_new(f->ix, LOGS_RUN_MAX + 1, 0, 0));
	assert_true(d->n > before);
	assert_non_null(strstr(d->v[d->n - 1].what, "runs 1 to 8388607 only"));
	assert_int_equal(one_int(f->ix, "SELECT COUNT(*) FROM records WHERE ?1 = ?1", 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(records_from_stderr, setup, teardown),
		cmocka_unit_test_setup_teardown(two_streams, setup, teardown),
		cmocka_unit_test_setup_teardown(spool_dir_indexed, setup, teardown),
		cmocka_unit_test_setup_teardown(runs_apart, setup, teardown),
		cmocka_unit_test_setup_teardown(writer_handover, setup, teardown),
		cmocka_unit_test_setup_teardown(run_id_past_the_key, setup, teardown),
		cmocka_unit_test_setup_teardown(crash_record, setup, teardown),
		cmocka_unit_test_setup_teardown(crash_summary, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
