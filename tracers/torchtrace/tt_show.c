/*
 * The TORCH_TRACE totals `pttrace show` adds (tt_query.h): records by kind,
 * the files' health, ranks, torch's version from the trace, processes, and the
 * counts of the compile-level commands (tt_compiles.c, tt_events.c), so that
 * show agrees with them. Apart from tt_records.c, which those modules read
 * through: no call circle.
 */
#include "tt_internal.h"

#include <stdlib.h>
#include <string.h>

#include "db_json.h"

static const char SQL_BY_KIND[] =
	"SELECT kind, count(*) FROM trace_records WHERE run_id = ? GROUP BY kind ORDER BY kind";
static const char SQL_MISMATCH[] =
	"SELECT coalesce(sum(md5_mismatches), 0), coalesce(sum(damaged), 0), count(*),"
	" coalesce(sum(records), 0), coalesce(sum(size), 0) FROM trace_files WHERE run_id = ?";
static const char SQL_RANKS[] =
	"SELECT DISTINCT rank FROM trace_records WHERE run_id = ? AND rank IS NOT NULL ORDER BY rank";

static const char SQL_PROCESSES[] =
	"SELECT process, path, pid, rank, rank_source, name_rank, json_rank, rank_conflict, other_rank,"
	" records FROM trace_files WHERE run_id = ?1 ORDER BY process";

int tt_show_json(struct db *ix, int64_t run_id, json_t *obj, struct pt_diag *diag)
{
	struct db_stmt *s = NULL;
	json_t *by = json_object(), *ranks = json_array(), *tr = json_object();
	int rc;

	(void)diag;
	if (tt_prep(ix, &s, SQL_BY_KIND) < 0 || db_bind(s, "i", run_id) < 0)
		goto fail;
	while ((rc = db_step(s)) == 1)
		json_object_set_new(by, db_col_text(s, 0), json_integer(db_col_int(s, 1)));
	if (rc < 0 || tt_prep(ix, &s, SQL_MISMATCH) < 0 || db_bind(s, "i", run_id) < 0 ||
	    db_step(s) != 1)
		goto fail;
	json_object_set_new(obj, "payload_md5_mismatches", json_integer(db_col_int(s, 0)));
	json_object_set_new(tr, "damaged_lines", json_integer(db_col_int(s, 1)));
	json_object_set_new(tr, "files", json_integer(db_col_int(s, 2)));
	json_object_set_new(tr, "records", json_integer(db_col_int(s, 3)));
	json_object_set_new(tr, "bytes", json_integer(db_col_int(s, 4)));
	while (db_step(s) == 1)
		;
	if (tt_prep(ix, &s, SQL_RANKS) < 0 || db_bind(s, "i", run_id) < 0)
		goto fail;
	while ((rc = db_step(s)) == 1)
		json_array_append_new(ranks, json_integer(db_col_int(s, 0)));
	if (rc < 0)
		goto fail;
	json_object_set_new(obj, "records_by_kind", by);
	json_object_set_new(obj, "ranks", ranks);
	{
		/* torch 2.14 says its version in the trace itself: an import knows it from there. */
		char *tv = tt_torch_version(ix, run_id, NULL);

		if (tv)
			json_object_set_new(tr, "torch_version", json_string(tv));
		free(tv);
	}
	json_object_set_new(obj, "torch_trace", tr);
	{
		/* What the compile-level commands count, so that show agrees with them. */
		struct tt_compiles cs;
		struct tt_events ev;
		long failed = 0, captures = 0;

		if (tt_compiles_load(ix, run_id, -1, &cs) < 0)
			return -1;
		for (size_t i = 0; i < cs.n; i++)
			failed += !strcmp(cs.v[i].status, "failed"), captures += !strcmp(cs.v[i].status, "autograd");
		/* Compiled-autograd captures ([!N]) are no compiles: counted apart, as the report does. */
		json_object_set_new(tr, "compiles", json_integer((json_int_t)(cs.n - captures)));
		json_object_set_new(tr, "autograd_captures", json_integer((json_int_t)captures));
		json_object_set_new(tr, "failed_compiles", json_integer(failed));
		tt_compiles_release(&cs);
		if (tt_graph_breaks(ix, run_id, &ev) < 0)
			return -1;
		json_object_set_new(tr, "graph_breaks", json_integer((json_int_t)ev.n));
		tt_events_release(&ev);
		if (tt_recompiles(ix, run_id, &ev) < 0)
			return -1;
		json_object_set_new(tr, "recompiles", json_integer((json_int_t)ev.n));
		tt_events_release(&ev);
	}
	{
		/* One file = one process (docs/pttrace-trace.1, the rank rule). */
		json_t *p = db_json(ix, SQL_PROCESSES, "i", run_id);

		if (!p)
			return -1;
		json_object_set_new(obj, "processes", p);
	}
	return 0;
fail:
	json_decref(by);
	json_decref(ranks);
	json_decref(tr);
	return -1;
}
