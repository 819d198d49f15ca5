/*
 * db_feed.c: row feeds (db_feed.h), a caller's batch of rows shown to one
 * INSERT ... SELECT as an eponymous virtual table of the connection.
 */
#include "db_feed.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"
#include "xalloc.h"

/* A row feed (db_feed_declare): the vtab below reads it; one of the connection's list (db_feeds). */
struct db_feed {
	char *name;
	char *decl;		/* "CREATE TABLE x(<columns>)" for sqlite3_declare_vtab */
	db_feed_col_fn col;
	const void *rows;	/* db_feed_run's, while it steps; NULL otherwise */
	size_t n;
	struct db_feed *next;
};

/*
 * Row feeds: one eponymous-only virtual table per feed (no xCreate, so it
 * exists under its module's name in this connection and nowhere in the
 * schema). A scan shows the rows db_feed_run passed, in order; the caller's
 * col function gives each value, text as SQLITE_STATIC (it outlives the step).
 */
struct feed_vtab {
	sqlite3_vtab base;
	struct db_feed *f;
};

struct feed_cursor {
	sqlite3_vtab_cursor base;
	size_t row;
};

static int feed_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
			sqlite3_vtab **out, char **err)
{
	struct db_feed *f = aux;
	struct feed_vtab *t;
	int rc;

	(void)argc;
	(void)argv;
	(void)err;
	if ((rc = sqlite3_declare_vtab(db, f->decl)) != SQLITE_OK)
		return rc;
	if (!(t = sqlite3_malloc(sizeof(*t))))
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->f = f;
	*out = &t->base;
	return SQLITE_OK;
}

static int feed_best_index(sqlite3_vtab *t, sqlite3_index_info *info)
{
	(void)t;
	info->estimatedCost = 1e6;	/* a full scan is all it does */
	return SQLITE_OK;
}

static int feed_disconnect(sqlite3_vtab *t)
{
	sqlite3_free(t);
	return SQLITE_OK;
}

static int feed_open(sqlite3_vtab *t, sqlite3_vtab_cursor **out)
{
	struct feed_cursor *c;

	(void)t;
	if (!(c = sqlite3_malloc(sizeof(*c))))
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	*out = &c->base;
	return SQLITE_OK;
}

static int feed_close(sqlite3_vtab_cursor *c)
{
	sqlite3_free(c);
	return SQLITE_OK;
}

static int feed_filter(sqlite3_vtab_cursor *c, int idx, const char *idxstr, int argc,
		       sqlite3_value **argv)
{
	(void)idx;
	(void)idxstr;
	(void)argc;
	(void)argv;
	((struct feed_cursor *)c)->row = 0;
	return SQLITE_OK;
}

static int feed_next(sqlite3_vtab_cursor *c)
{
	((struct feed_cursor *)c)->row++;
	return SQLITE_OK;
}

static int feed_eof(sqlite3_vtab_cursor *c)
{
	const struct db_feed *f = ((struct feed_vtab *)c->pVtab)->f;

	return ((struct feed_cursor *)c)->row >= f->n;
}

static int feed_column(sqlite3_vtab_cursor *c, sqlite3_context *ctx, int col)
{
	const struct db_feed *f = ((struct feed_vtab *)c->pVtab)->f;
	struct db_val v = { DB_VAL_NULL, 0, NULL, 0 };

	f->col(f->rows, ((struct feed_cursor *)c)->row, col, &v);
	if (v.type == DB_VAL_INT)
		sqlite3_result_int64(ctx, v.i);
	else if (v.type == DB_VAL_TEXT)
		sqlite3_result_text64(ctx, v.s ? v.s : "", v.n, SQLITE_STATIC, SQLITE_UTF8);
	return SQLITE_OK;	/* nothing set: NULL */
}

static int feed_rowid(sqlite3_vtab_cursor *c, sqlite3_int64 *rowid)
{
	*rowid = (sqlite3_int64)((struct feed_cursor *)c)->row;
	return SQLITE_OK;
}

/*
 * The module's destructor: SQLite calls it when the connection closes
 * (after the feed's table is disconnected), or when
 * sqlite3_create_module_v2 fails.
 */
static void feed_free(void *p)
{
	struct db_feed *f = p;

	free(f->name);
	free(f->decl);
	free(f);
}

static const sqlite3_module feed_module = {
	.iVersion = 1,
	.xCreate = NULL,	/* eponymous-only */
	.xConnect = feed_connect,
	.xBestIndex = feed_best_index,
	.xDisconnect = feed_disconnect,
	.xDestroy = feed_disconnect,
	.xOpen = feed_open,
	.xClose = feed_close,
	.xFilter = feed_filter,
	.xNext = feed_next,
	.xEof = feed_eof,
	.xColumn = feed_column,
	.xRowid = feed_rowid,
};

struct db_feed *db_feed_declare(struct db *ix, const char *name, const char *columns,
				db_feed_col_fn col)
{
	struct db_feed *f;

	struct db_feed **head = db_feeds(ix);

	for (f = *head; f; f = f->next) {
		if (!strcmp(f->name, name)) {
			f->col = col;
			return f;
		}
	}
	f = pt_xcalloc(1, sizeof(*f));
	f->name = pt_xstrdup(name);
	f->decl = pt_xasprintf("CREATE TABLE x(%s)", columns);
	f->col = col;
	if (sqlite3_create_module_v2(db_handle(ix), name, &feed_module, f, feed_free) != SQLITE_OK) {
		/* SQLite has called feed_free already: the place is written again. */
		char *decl = pt_xasprintf("CREATE TABLE x(%s)", columns);

		db_sql_error(ix, "sqlite3_create_module_v2", decl);
		free(decl);
		return NULL;
	}
	f->next = *head;
	*head = f;
	return f;
}

int db_feed_run(struct db_feed *f, struct db_stmt *ins, const void *rows, size_t n)
{
	int rc;

	if (!n)
		return 0;
	f->rows = rows;
	f->n = n;
	while ((rc = db_step(ins)) == 1)
		;
	f->rows = NULL;
	f->n = 0;
	return rc;
}
