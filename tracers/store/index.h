/*
 * The SQLite index: one connection, the statement wrapper every query and
 * insert goes through (values are always bound, never printed into SQL),
 * transactions in bounded batches, and where runs keep their files.
 * index.c and index_schema.c are the only files that include sqlite3.h.
 *
 * Layout on disk (the database's directory is the "data dir"):
 *   <dir>/pttrace.db            the database (WAL mode: also -wal and -shm)
 *   <dir>/runs/<id>/            one directory per run (id = runs.id):
 *       stdout.log, stderr.log  the child's raw output, byte for byte
 *       order.bin               arrival order of the chunks of both (see spool.h)
 *       trace/                  TORCH_TRACE files (the child writes them)
 * Errors go to the struct pt_diag given to index_open, as
 * "sqlite3_prepare_v3: <sqlite message>" with the SQL as the place.
 */
#ifndef PT_INDEX_H
#define PT_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct sqlite3;
struct sqlite3_stmt;

enum index_open_flags {
	INDEX_READONLY = 1 << 0,	/* SQLITE_OPEN_READONLY; schema is checked, not created */
	INDEX_NO_CREATE = 1 << 1,	/* fail when the database does not exist */
	INDEX_MKDIRS = 1 << 2,		/* create every missing directory of the path (the default
					 * location); else only the database's own directory, and
					 * only when its parent exists */
};

struct index {
	struct sqlite3 *db;
	char *path;		/* the database file */
	char *dir;		/* its directory: runs/ lives here */
	int readonly;
	struct pt_diag *diag;	/* the caller's; every error is added here */
	struct index_stmt *stmts;	/* every prepared statement, for index_close */
	/* Batching (index_batch_*): rows since the last commit and the limit. */
	int in_batch;
	size_t batch_rows, batch_max;
	uint64_t batch_start_ns, batch_max_ns;
};

/* A prepared statement; owned by its index and finalized by index_close. */
struct index_stmt {
	struct sqlite3_stmt *st;
	char *sql;		/* a copy of the text: the cache key and the error's place */
	struct index *ix;
	struct index_stmt *next;
};

/*
 * The database path: path when not NULL, else $PTTRACE_DB, else
 * $XDG_DATA_HOME/pttrace/pttrace.db, else ~/.local/share/pttrace/pttrace.db.
 * Caller frees.
 */
char *index_default_path(const char *path);

/*
 * Open (creating the file and its directory unless INDEX_READONLY or
 * INDEX_NO_CREATE) and bring the schema up to date (index_schema_ensure):
 * WAL mode, foreign keys on, busy timeout 10 s. diag must outlive the index.
 * Returns 0, or -1 with the reason in diag (*out is then NULL).
 */
int index_open(struct index **out, const char *path, unsigned flags, struct pt_diag *diag);

/* Commit an open batch, finalize every statement, close. NULL is fine. */
void index_close(struct index *ix);

/*
 * Execute SQL text without parameters (schema, pragmas); several statements
 * are fine. Returns 0 or -1 (diag).
 */
int index_exec(struct index *ix, const char *sql);

/*
 * The statement for sql, prepared on first use and cached on the index
 * (keyed by the text; SQLITE_PREPARE_PERSISTENT), reset and with its
 * bindings cleared. Hot loops keep the pointer. Do not nest two uses of the
 * same text. Returns NULL on error (diag). Finalized by index_close.
 */
struct index_stmt *index_prepare(struct index *ix, const char *sql);

/*
 * Bind every parameter from 1 on, one format letter per value:
 *   i  int64_t             I  int64_t, NULL when it is -1 (nullable ids)
 *   d  double              t  const char * (NUL-terminated; NULL binds NULL)
 *   T  const char *, size_t (text of that length; NULL binds NULL)
 *   b  const void *, size_t (blob)
 *   n  (no argument) NULL
 * index_bind copies text and blobs (SQLITE_TRANSIENT); index_run does not
 * (SQLITE_STATIC: it steps before returning; the next index_prepare of the
 * statement clears the bindings, and a held statement must be bound whole).
 * Returns 0 or -1 (diag).
 */
int index_bind(struct index_stmt *s, const char *fmt, ...);

/* As index_bind, but the first value goes to parameter `first` (1-based). */
int index_bind_at(struct index_stmt *s, int first, const char *fmt, ...);

/* Step: 1 a row is ready, 0 done (the statement is reset), -1 error (diag; reset). */
int index_step(struct index_stmt *s);

/* Reset a statement left on a row (when only the first row was wanted). */
void index_reset(struct index_stmt *s);

/* index_bind + index_step until done: for INSERT/UPDATE/DELETE. 0 or -1. */
int index_run(struct index_stmt *s, const char *fmt, ...);

/* Column values of the current row (index from 0). Text may be NULL. */
int64_t index_col_int(struct index_stmt *s, int col);
double index_col_double(struct index_stmt *s, int col);
const char *index_col_text(struct index_stmt *s, int col);
size_t index_col_bytes(struct index_stmt *s, int col);
int index_col_is_null(struct index_stmt *s, int col);
int index_col_count(struct index_stmt *s);
const char *index_col_name(struct index_stmt *s, int col);
/* The SQLite type of a column: 1 integer, 2 float, 3 text, 4 blob, 5 null. */
int index_col_type(struct index_stmt *s, int col);

/*
 * Define SQL function REGEXP (so "x REGEXP 'pattern'" works): POSIX extended
 * regular expressions, compiled once per statement. 0 or -1 (diag).
 */
int index_add_regexp(struct index *ix);

/* Parameter number of a named parameter (":run"), 0 when the statement has none. */
int index_param_index(struct index_stmt *s, const char *name);
/* Number of parameters of the statement. */
int index_param_count(struct index_stmt *s);
/* 1 when the statement cannot write (sqlite3_stmt_readonly). */
int index_stmt_readonly(struct index_stmt *s);

/* The rowid of the last INSERT on this connection. */
int64_t index_last_rowid(struct index *ix);
/* Rows changed by the last statement. */
int64_t index_changes(struct index *ix);

/* Explicit transactions (BEGIN IMMEDIATE / COMMIT / ROLLBACK). 0 or -1. */
int index_begin(struct index *ix);
int index_commit(struct index *ix);
int index_rollback(struct index *ix);

/*
 * Batched writes: index_batch_begin opens a transaction; index_batch_tick
 * counts rows and commits (then reopens) once max_rows rows or max_ms
 * milliseconds have gone into it, so readers see progress and the WAL
 * stays bounded; index_batch_end commits the rest. 0 or -1.
 */
int index_batch_begin(struct index *ix, size_t max_rows, unsigned max_ms);
int index_batch_tick(struct index *ix, size_t rows);
int index_batch_end(struct index *ix);

/* "<dir>/runs" and "<dir>/runs/<id>"; caller frees. */
char *index_runs_dir(const struct index *ix);
char *index_run_dir(const struct index *ix, int64_t run_id);

/* mkdir -p of the run's directory (mode 0700). Returns 0 or -1 (diag). */
int index_make_run_dir(struct index *ix, int64_t run_id);

/* Remove a run's directory and everything in it. Returns 0 or -1 (diag). */
int index_remove_run_dir(struct index *ix, int64_t run_id);

#endif
