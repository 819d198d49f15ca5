/*
 * db.h: the SQLite index. One connection, the statement wrapper every query
 * and insert goes through (values are always bound, or read from a row feed,
 * db_feed.h, never printed into SQL), and transactions in bounded batches.
 * Only db.c, db_feed.c and db_jscan.c include sqlite3.h; none knows the
 * schema (schema.h creates it, tracers/parts.c lists its parts). Where runs
 * keep their files beside the database: rundir.h.
 * Errors go to the struct pt_diag given to db_open, as
 * "sqlite3_prepare_v3: <sqlite message>" with the SQL as the place.
 */
#ifndef PT_DB_H
#define PT_DB_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct schema_part;

enum db_open_flags {
	DB_READONLY = 1 << 0,	/* SQLITE_OPEN_READONLY; schema is checked, not created */
	DB_NO_CREATE = 1 << 1,	/* fail when the database does not exist */
	DB_MKDIRS = 1 << 2,	/* create every missing directory of the path (the default
				 * location); else only the database's own directory, and
				 * only when its parent exists */
};

/* The connection: opaque, its fields are db.c's own. */
struct db;
/* A prepared statement; owned by its connection and finalized by db_close. */
struct db_stmt;

/* The diag every error of this connection goes to (the one given to db_open). */
struct pt_diag *db_diag(const struct db *ix);
/* The database file. */
const char *db_path(const struct db *ix);
/* Its directory, the path's symbolic links resolved: runs/ lives here (rundir.h). */
const char *db_dir(const struct db *ix);
/* Opened with DB_READONLY. */
int db_readonly(const struct db *ix);
/* 1 inside db_batch_begin .. db_batch_end (db_rollback ends a batch too). */
int db_in_batch(const struct db *ix);
/* Which transaction of the batch is open: changes at every commit (ids read in one
 * transaction stay valid until it changes). */
uint64_t db_batch_txn(const struct db *ix);
/* Rows written since the batch's last commit. */
size_t db_batch_rows(const struct db *ix);

/*
 * The database path: path when not NULL, else $PTTRACE_DB, else
 * $XDG_DATA_HOME/pttrace/pttrace.db, else ~/.local/share/pttrace/pttrace.db.
 * Caller frees.
 */
char *db_default_path(const char *path);

/*
 * Open the connection (creating the file and its directory unless DB_READONLY
 * or DB_NO_CREATE): WAL mode, foreign keys on, busy timeout 10 s. The schema
 * is schema_open's business (schema.h). diag must outlive the connection.
 * Returns 0, or -1 with the reason in diag (*out is then NULL).
 */
int db_open(struct db **out, const char *path, unsigned flags, struct pt_diag *diag);

/* The schema parts of the connection (schema_open sets them; not owned). */
void db_set_parts(struct db *ix, const struct schema_part *const *parts, size_t n);
const struct schema_part *const *db_parts(struct db *ix, size_t *n);

/* Commit an open batch, finalize every statement, close. NULL is fine. */
void db_close(struct db *ix);

/*
 * Execute SQL text without parameters (schema, pragmas); several statements
 * are fine. Returns 0 or -1 (diag).
 */
int db_exec(struct db *ix, const char *sql);

/*
 * The statement for sql, prepared on first use and cached on the index
 * (keyed by the text; SQLITE_PREPARE_PERSISTENT), reset and with its
 * bindings cleared. Hot loops keep the pointer. Do not nest two uses of the
 * same text. Returns NULL on error (diag). Finalized by db_close.
 */
struct db_stmt *db_prepare(struct db *ix, const char *sql);

/*
 * Bind every parameter from 1 on, one format letter per value:
 *   i  int64_t             I  int64_t, NULL when it is -1 (nullable ids)
 *   d  double              t  const char * (NUL-terminated; NULL binds NULL)
 *   T  const char *, size_t (text of that length; NULL binds NULL)
 *   b  const void *, size_t (blob)
 *   n  (no argument) NULL
 * db_bind copies text and blobs (SQLITE_TRANSIENT); db_run does not
 * (SQLITE_STATIC: it steps before returning; the next db_prepare of the
 * statement clears the bindings, and a held statement must be bound whole).
 * Returns 0 or -1 (diag).
 */
int db_bind(struct db_stmt *s, const char *fmt, ...);

/* As db_bind, with the values in a va_list. */
int db_vbind(struct db_stmt *s, const char *fmt, va_list ap);

/* As db_bind, but the first value goes to parameter `first` (1-based). */
int db_bind_at(struct db_stmt *s, int first, const char *fmt, ...);
/* As db_bind_at, without copies: the caller's buffers stay as they are until the step. */
int db_bind_static(struct db_stmt *s, int first, const char *fmt, ...);

/* Step: 1 a row is ready, 0 done (the statement is reset), -1 error (diag; reset). */
int db_step(struct db_stmt *s);

/* Reset a statement left on a row (when only the first row was wanted). */
void db_reset(struct db_stmt *s);

/* db_bind + db_step until done: for INSERT/UPDATE/DELETE. 0 or -1. */
int db_run(struct db_stmt *s, const char *fmt, ...);

/*
 * Every row of sql, its one parameter bound to the integer id, appended to
 * the array v[0..n) (grown with PT_GROW): fill is evaluated with s the
 * statement on the row and v[n] the new element. A failed query jumps to the
 * caller's label fail (the diag says why; the rows read so far stay in v).
 */
#define DB_ROWS(ix, id, sql, v, n, fill)                                    \
	do {                                                                \
		struct db_stmt *s = db_prepare((ix), (sql));                \
		size_t db_rows_cap_ = (n);                                  \
		int db_rows_rc_;                                            \
									    \
		if (!s || db_bind(s, "i", (int64_t)(id)) < 0)               \
			goto fail;                                          \
		while ((db_rows_rc_ = db_step(s)) == 1) {                   \
			PT_GROW(v, n, db_rows_cap_);                        \
			fill;                                               \
			(n)++;                                              \
		}                                                           \
		if (db_rows_rc_ < 0)                                        \
			goto fail;                                          \
	} while (0)

/* Column values of the current row (index from 0). Text may be NULL. */
int64_t db_col_int(struct db_stmt *s, int col);
double db_col_double(struct db_stmt *s, int col);
const char *db_col_text(struct db_stmt *s, int col);
size_t db_col_bytes(struct db_stmt *s, int col);
int db_col_is_null(struct db_stmt *s, int col);
int db_col_count(struct db_stmt *s);
const char *db_col_name(struct db_stmt *s, int col);
/* The SQLite type of a column (the values are SQLite's). */
enum db_col_type { DB_COL_INT = 1, DB_COL_FLOAT = 2, DB_COL_TEXT = 3, DB_COL_BLOB = 4, DB_COL_NULL = 5 };
enum db_col_type db_col_type(struct db_stmt *s, int col);

/*
 * Define SQL function REGEXP (so "x REGEXP 'pattern'" works): POSIX extended
 * regular expressions, compiled once per statement. 0 or -1 (diag).
 */
int db_add_regexp(struct db *ix);

/*
 * Where the text after sql's first statement holds another statement (more
 * than spaces, comments and ';'): a pointer into sql at its start; NULL when
 * there is none or the first does not compile (db_prepare reports that).
 */
const char *db_next_statement(struct db *ix, const char *sql);

/* Parameter number of a named parameter (":run"), 0 when the statement has none. */
int db_param_index(struct db_stmt *s, const char *name);
/* Number of parameters of the statement. */
int db_param_count(struct db_stmt *s);
/* 1 when the statement cannot write (sqlite3_stmt_readonly). */
int db_stmt_readonly(struct db_stmt *s);

/* The rowid of the last INSERT on this connection. */
int64_t db_last_rowid(struct db *ix);
/* Rows changed by the last statement. */
int64_t db_changes(struct db *ix);

/* Explicit transactions (BEGIN IMMEDIATE / COMMIT / ROLLBACK). 0 or -1. */
int db_begin(struct db *ix);
int db_commit(struct db *ix);
int db_rollback(struct db *ix);

/*
 * Batched writes: db_batch_begin opens a transaction; db_batch_tick
 * counts rows and commits (then reopens) once max_rows rows or max_ms
 * milliseconds have gone into it, so readers see progress and the WAL
 * stays bounded; db_batch_end commits the rest. 0 or -1.
 */
int db_batch_begin(struct db *ix, size_t max_rows, unsigned max_ms);
int db_batch_tick(struct db *ix, size_t rows);
int db_batch_end(struct db *ix);
/*
 * A writer that waits for input (pttrace run's indexer while the child is
 * quiet): db_batch_pause commits what the batch holds and keeps no
 * transaction (no write lock) open; db_batch_write, called before every
 * write of the batch, opens the next one. 0 or -1.
 */
int db_batch_pause(struct db *ix);
int db_batch_write(struct db *ix);
/* Milliseconds since the batch's last commit (or its start). */
uint64_t db_batch_age_ms(const struct db *ix);

/*
 * A passive WAL checkpoint (copies committed pages into the database file
 * without waiting for readers or writers): for a connection of its own
 * beside a writer that set PRAGMA wal_autocheckpoint=0, so the writer never
 * does the copying and its fsyncs. 0, or -1 (diag).
 */
int db_checkpoint(struct db *ix);

#endif
