/*
 * What the TORCH_TRACE modules (tt_*.c) share and nobody else needs: the
 * statement helper in the 0/-1 convention and a few column/JSON helpers.
 * Not to be included outside tracers/torchtrace/.
 */
#ifndef PT_TT_INTERNAL_H
#define PT_TT_INTERNAL_H

#include <jansson.h>
#include <stdint.h>

#include "compileid.h"
#include "tt_query.h"
#include "xalloc.h"

/* db_prepare in the 0/-1 convention: *sp is the cached statement. */
static inline int tt_prep(struct db *ix, struct db_stmt **sp, const char *sql)
{
	*sp = db_prepare(ix, sql);
	return *sp ? 0 : -1;
}

/* A nullable integer column, COMPILEID_NONE when NULL. */
static inline int64_t col_nullable(struct db_stmt *s, int c)
{
	return db_col_is_null(s, c) ? COMPILEID_NONE : db_col_int(s, c);
}

static inline char *dup_or_null(const char *s)
{
	return s ? pt_xstrdup(s) : NULL;
}

/*
 * A run's files, read once for the queries that name each record's file
 * (asked per record, as correlated subqueries, they cost a search of
 * trace_files per row: quadratic in the ranks of a job). In id order.
 */
struct tt_run_file {
	int64_t id, process;
	char *path;
	/* "rank 1" (the only file with records of its rank), "p2" (no rank, or a shared one)
	   when the run has several files with records, else "" */
	char who[32];
};
int tt_run_files_load(struct db *ix, int64_t run_id, struct tt_run_file **out, size_t *n);
const struct tt_run_file *tt_run_file_find(const struct tt_run_file *v, size_t n, int64_t id);
void tt_run_files_release(struct tt_run_file *v, size_t n);

/* Same rank and compile id (attempt included). */
static inline int cid_same(const struct tt_compile *c, int64_t rank, const struct compileid *id)
{
	return c->rank == rank && c->cid.ca == id->ca && c->cid.frame == id->frame &&
	       c->cid.compile == id->compile && c->cid.attempt == id->attempt;
}

#endif
