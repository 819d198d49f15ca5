/*
 * The TORCH_TRACE totals `pttrace show` adds (tt_query.h's struct tt_show): records by kind,
 * the files' health, ranks, torch's version from the trace, processes, and the
 * counts of the compile-level commands (tt_compiles.c, tt_events.c), so that
 * show agrees with them. Apart from tt_records.c, which those modules read
 * through: no call circle.
 */
#include "tt_internal.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

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

static char *dup_col(struct db_stmt *s, int col)
{
	const char *t = db_col_text(s, col);

	return t ? pt_xstrdup(t) : NULL;
}

static int64_t int_col(struct db_stmt *s, int col)
{
	return db_col_is_null(s, col) ? TT_SHOW_NULL : db_col_int(s, col);
}

int tt_show_load(struct db *ix, int64_t run_id, struct tt_show *out)
{
	struct db_stmt *s = NULL;
	size_t cap = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (tt_prep(ix, &s, SQL_BY_KIND) < 0 || db_bind(s, "i", run_id) < 0)
		goto fail;
	while ((rc = db_step(s)) == 1) {
		PT_GROW(out->by_kind, out->n_kinds, cap);
		out->by_kind[out->n_kinds].kind = pt_xstrdup(db_col_text(s, 0) ? db_col_text(s, 0) : "");
		out->by_kind[out->n_kinds++].records = db_col_int(s, 1);
	}
	if (rc < 0 || tt_prep(ix, &s, SQL_MISMATCH) < 0 || db_bind(s, "i", run_id) < 0 ||
	    db_step(s) != 1)
		goto fail;
	out->md5_mismatches = db_col_int(s, 0);
	out->damaged_lines = db_col_int(s, 1);
	out->files = db_col_int(s, 2);
	out->records = db_col_int(s, 3);
	out->bytes = db_col_int(s, 4);
	while (db_step(s) == 1)
		;
	if (tt_prep(ix, &s, SQL_RANKS) < 0 || db_bind(s, "i", run_id) < 0)
		goto fail;
	cap = 0;
	while ((rc = db_step(s)) == 1) {
		PT_GROW(out->ranks, out->n_ranks, cap);
		out->ranks[out->n_ranks++] = db_col_int(s, 0);
	}
	if (rc < 0)
		goto fail;
	/* torch 2.14 says its version in the trace itself: an import knows it from there. */
	out->torch_version = tt_torch_version(ix, run_id, NULL);
	{
		/* What the compile-level commands count, so that show agrees with them. */
		struct tt_compiles cs;
		struct tt_events ev;
		int64_t captures = 0;

		if (tt_compiles_load(ix, run_id, -1, &cs) < 0)
			goto fail;
		for (size_t i = 0; i < cs.n; i++)
			out->failed_compiles += !strcmp(cs.v[i].status, "failed"),
				captures += !strcmp(cs.v[i].status, "autograd");
		/* Compiled-autograd captures ([!N]) are no compiles: counted apart, as the report does. */
		out->compiles = (int64_t)cs.n - captures;
		out->autograd_captures = captures;
		tt_compiles_release(&cs);
		if (tt_graph_breaks(ix, run_id, &ev) < 0)
			goto fail;
		out->graph_breaks = (int64_t)ev.n;
		tt_events_release(&ev);
		if (tt_recompiles(ix, run_id, &ev) < 0)
			goto fail;
		out->recompiles = (int64_t)ev.n;
		tt_events_release(&ev);
	}
	/* One file = one process (docs/pttrace-trace.1, the rank rule). */
	if (tt_prep(ix, &s, SQL_PROCESSES) < 0 || db_bind(s, "i", run_id) < 0)
		goto fail;
	cap = 0;
	while ((rc = db_step(s)) == 1) {
		struct tt_show_process *p;

		PT_GROW(out->processes, out->n_processes, cap);
		p = &out->processes[out->n_processes++];
		p->process = int_col(s, 0);
		p->path = dup_col(s, 1);
		p->pid = int_col(s, 2);
		p->rank = int_col(s, 3);
		p->rank_source = dup_col(s, 4);
		p->name_rank = int_col(s, 5);
		p->json_rank = int_col(s, 6);
		p->rank_conflict = dup_col(s, 7);
		p->other_rank = int_col(s, 8);
		p->records = int_col(s, 9);
	}
	if (rc < 0)
		goto fail;
	return 0;
fail:
	tt_show_release(out);
	return -1;
}

void tt_show_release(struct tt_show *t)
{
	for (size_t i = 0; i < t->n_kinds; i++)
		free(t->by_kind[i].kind);
	free(t->by_kind);
	free(t->ranks);
	free(t->torch_version);
	for (size_t i = 0; i < t->n_processes; i++) {
		free(t->processes[i].path);
		free(t->processes[i].rank_source);
		free(t->processes[i].rank_conflict);
	}
	free(t->processes);
	memset(t, 0, sizeof(*t));
}
