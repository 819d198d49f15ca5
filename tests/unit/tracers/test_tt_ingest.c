/*
 * tracers/torchtrace/tt_ingest.c over crafted TORCH_TRACE files in a fresh
 * database: ranks (JSON wins, file name otherwise, records before the rank is
 * known get it, conflicts reported), payload dedup, re-indexing a file, a file
 * that fails to index, a file's records as its id range (a file cut off
 * mid-way included). Compile status: test_tt_compiles.c; tlparse:
 * test_tt_tlparse.c; what ranks, diff and timeline make of an index:
 * test_tt_ranks.c, test_tt_diff.c, test_tt_timeline.c.
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
	/* The report's writer key (trace_files.who): the rank where one file has it. */
	assert_int_equal(ptest_tt_int(f, "SELECT who FROM trace_files WHERE run_id = ? AND path = 'trace/zz_unranked.log'", run), 1);
	assert_int_equal(ptest_tt_int(f, "SELECT who FROM trace_files WHERE run_id = ? AND name_rank = 7", run), 7);
	{
		/* show's TORCH_TRACE part: the distinct ranks, one process per file by path. */
		struct tt_show ts;

		assert_int_equal(tt_show_load(f->ix, run, &ts), 0);
		assert_int_equal(ts.n_ranks, 3);
		assert_int_equal(ts.ranks[0], 1);
		assert_int_equal(ts.ranks[1], 2);
		assert_int_equal(ts.ranks[2], 7);
		assert_int_equal(ts.files, 4);
		assert_int_equal(ts.n_processes, 4);
		assert_int_equal(ts.processes[0].process, 1);
		assert_string_equal(ts.processes[0].path, "trace/dedicated_log_torch_trace_rank_2_x_y.log");
		assert_int_equal(ts.processes[0].rank, 2);
		assert_int_equal(ts.processes[0].json_rank, TT_SHOW_NULL);
		assert_int_equal(ts.processes[1].name_rank, 7);
		assert_non_null(ts.processes[1].rank_conflict);
		assert_int_equal(ts.processes[3].records, 1);
		assert_string_equal(ts.processes[3].path, "trace/zz_unranked.log");
		assert_int_equal(ts.processes[2].records, 0);
		tt_show_release(&ts);
	}
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
	/* Two files of rank 1: each is its process (-1 - process); rank 2 stays 2. */
	assert_int_equal(ptest_tt_int(f, "SELECT who FROM trace_files WHERE run_id = ? AND path = 'trace/zz_unranked.log'", run), -5);
	assert_int_equal(ptest_tt_int(f, "SELECT who FROM trace_files WHERE run_id = ? AND name_rank = 7", run), -3);
	assert_int_equal(ptest_tt_int(f, "SELECT who FROM trace_files WHERE run_id = ? AND name_rank = 2", run), 2);
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

/*
 * A file's records are its id range (trace 4: no foreign key on file_id, the
 * trigger trace_file_deleted). A file cut off after a commit (a fault at its
 * 20,005th record; the batch commits every 20,000 rows) keeps what was
 * committed, with first_record set and last_record NULL; deleting its row
 * deletes those records and none of the next file's; indexing the run again
 * replaces every file's records, each file's range exact.
 */
static void file_range_and_cut_off_file(void **state)
{
	struct ptest_db *f = *state;
	int64_t run = ptest_tt_new_run(f, "range");
	struct pt_strbuf sb;
	int64_t cut;

	pt_strbuf_init(&sb, 1 << 24);
	for (int i = 0; i < 20010; i++)
		assert_int_equal(pt_strbuf_adds(&sb, P "{\"dynamo_start\": {\"stack\": []}, " CID(0, 0, 0) "}\n"), 0);
	ptest_tt_put(f, run, "a_cut.log", sb.buf);
	pt_strbuf_release(&sb);
	ptest_tt_put(f, run, "b_after.log", P "{\"dynamo_start\": {\"stack\": []}, " CID(1, 0, 0) "}\n"
		     P "{\"dynamo_start\": {\"stack\": []}, " CID(2, 0, 0) "}\n");
	assert_int_equal(db_exec(f->ix, "CREATE TEMP TRIGGER inject BEFORE INSERT ON trace_records"
				 " WHEN NEW.lineno = 20005 BEGIN SELECT RAISE(ABORT, 'injected'); END;"), 0);
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), -1);
	cut = ptest_tt_int(f, "SELECT count(*) FROM trace_records r JOIN trace_files t ON t.id = r.file_id"
			   " WHERE r.run_id = ? AND t.path LIKE '%a_cut%'", run);
	assert_true(cut >= 1 && cut < 20005);
	assert_int_equal(ptest_tt_int(f, "SELECT count(*) FROM trace_files WHERE run_id = ? AND path LIKE '%a_cut%'"
			       " AND last_record IS NULL AND first_record = (SELECT min(id) FROM trace_records"
			       " WHERE file_id = trace_files.id)", run), 1);
	assert_int_equal(ptest_tt_int(f, "SELECT count(*) FROM trace_records WHERE run_id = ?", run), cut + 2);
	/* The cut-off file's row goes: its records with it, the next file's stay. */
	assert_int_equal(db_exec(f->ix, "DELETE FROM trace_files WHERE path LIKE '%a_cut%'"), 0);
	assert_int_equal(ptest_tt_int(f, "SELECT count(*) FROM trace_records WHERE run_id = ?", run), 2);
	assert_int_equal(ptest_tt_int(f, "SELECT count(*) FROM trace_records WHERE run_id = ? AND frame = 1", run), 1);
	/* Indexed again, whole: each file's range holds its records and nothing else. */
	assert_int_equal(db_exec(f->ix, "DROP TRIGGER inject;"), 0);
	pt_diag_release(&f->diag);
	pt_diag_init(&f->diag);
	assert_int_equal(tt_index_run(f->ix, run, 0, &f->diag, NULL), 0);
	assert_int_equal(ptest_tt_int(f, "SELECT count(*) FROM trace_records WHERE run_id = ?", run), 20012);
	assert_int_equal(ptest_tt_int(f, "SELECT count(*) FROM trace_files t WHERE run_id = ?"
			       " AND records = (SELECT count(*) FROM trace_records r WHERE r.id BETWEEN t.first_record"
			       " AND t.last_record AND r.file_id = t.id)"
			       " AND records = (SELECT count(*) FROM trace_records r WHERE r.file_id = t.id)", run), 2);
	/* Deleting a whole file deletes its range alone. */
	assert_int_equal(db_exec(f->ix, "DELETE FROM trace_files WHERE path LIKE '%b_after%'"), 0);
	assert_int_equal(ptest_tt_int(f, "SELECT count(*) FROM trace_records WHERE run_id = ?", run), 20010);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(name_rank_rules),
		cmocka_unit_test_setup_teardown(ranks_name_then_json, setup, teardown),
		cmocka_unit_test_setup_teardown(failed_file_keeps_part_partial, setup, teardown),
		cmocka_unit_test_setup_teardown(file_range_and_cut_off_file, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
