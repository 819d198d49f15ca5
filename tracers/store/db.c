/*
 * db.c: the SQLite connection and statement wrapper (fossil's struct Stmt):
 * open and harden the connection, prepare once, bind every value, check every
 * return code and report it with the SQL; column reads, REGEXP, transactions
 * and bounded batches. The row feeds (db_feed.c) and the JSON scanners
 * (db_jscan.c) reach the connection through db_internal.h; where runs keep
 * their files is rundir.c's, the schema schema.c's.
 */
#include "db.h"
#include "db_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <regex.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "term.h"
#include "fsutil.h"
#include "strbuf.h"
#include "xalloc.h"

/* The connection and a statement: opaque outside this file (db.h, db_internal.h). */
struct db {
	struct sqlite3 *db;
	char *path;		/* the database file */
	char *dir;		/* its directory: runs/ lives here */
	int readonly;
	struct pt_diag *diag;	/* the caller's; every error is added here */
	struct db_stmt *stmts;	/* every prepared statement, for db_close */
	const struct schema_part *const *parts;	/* db_set_parts */
	size_t nparts;
	/* Batching (index_batch_*): rows since the last commit and the limit. */
	int in_batch;
	int batch_paused;	/* db_batch_pause committed: no transaction until db_batch_write */
	uint64_t batch_txn;	/* transactions the batch opened: changes at every commit */
	size_t batch_rows, batch_max;
	uint64_t batch_start_ns, batch_max_ns;
	struct db_feed *feeds;	/* db_feed_declare's (db_feed.c; SQLite frees them at close) */
};

struct db_stmt {
	struct sqlite3_stmt *st;
	char *sql;		/* a copy of the text: the cache key and the error's place */
	struct db *ix;
	struct db_stmt *next;
};

struct pt_diag *db_diag(const struct db *ix)
{
	return ix->diag;
}

int db_readonly(const struct db *ix)
{
	return ix->readonly;
}

int db_in_batch(const struct db *ix)
{
	return ix->in_batch;
}

uint64_t db_batch_txn(const struct db *ix)
{
	return ix->batch_txn;
}

size_t db_batch_rows(const struct db *ix)
{
	return ix->batch_rows;
}

void db_sql_error(struct db *ix, const char *call, const char *sql)
{
	pt_diag_add(ix->diag, PT_SEV_ERROR, ix->path, sql, "%s: %s", call,
		    ix->db ? sqlite3_errmsg(ix->db) : "no connection");
}

char *db_default_path(const char *path)
{
	const char *e;

	if (path && *path)
		return pt_xstrdup(path);
	if ((e = getenv("PTTRACE_DB")) && *e)
		return pt_xstrdup(e);
	if ((e = getenv("XDG_DATA_HOME")) && *e == '/')
		return pt_xasprintf("%s/pttrace/pttrace.db", e);
	e = getenv("HOME");
	return pt_xasprintf("%s/.local/share/pttrace/pttrace.db", e && *e ? e : ".");
}

static pthread_once_t config_once = PTHREAD_ONCE_INIT;

/*
 * Before SQLite's first use: no memory statistics, whose global mutex is
 * taken on every allocation (measured ~4% of indexing time).
 */
static void configure(void)
{
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/*
 * WAL mode, 16 KiB pages. The page size takes effect only on a new database
 * (before its first write; WAL keeps an existing one's): indexing writes
 * mostly whole rows of text appended at the end, and 16 KiB pages cut the
 * per-page work (WAL frames, partial-block writes the kernel zero-fills,
 * b-tree balancing) against 4 KiB: measured 8-20 % less CPU per indexed byte
 * (bench/run_indexing.sh, bench/pttrace_import.sh).
 * Switching a new database to WAL takes an exclusive lock, and a
 * second process doing the same at that moment gets SQLITE_BUSY at once (the
 * busy handler is not called for it): two `pttrace run` started together on
 * a new database. Retry for the busy timeout's 10 s, then report.
 */
static int set_wal(struct db *ix)
{
	static const char sql[] =
		"PRAGMA page_size=16384; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;";
	int rc = SQLITE_OK;

	for (int i = 0; i < 400; i++) {
		rc = sqlite3_exec(ix->db, sql, NULL, NULL, NULL);
		if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
			break;
		usleep(25000);
	}
	if (rc == SQLITE_OK)
		return 0;
	return db_exec(ix, sql);	/* the error, reported the usual way */
}

/*
 * A read-only connection to a WAL database in a directory nobody may write
 * (a read-only mount, an archive): SQLite cannot create the -shm index and
 * every read fails ("unable to open database file"). Without a -wal file
 * every change is in the database file itself, which then cannot change:
 * opened again as immutable (no locks, no -shm), it reads. With a -wal file
 * holding changes, the data is not all in the file: said so. 0, or -1 (diag).
 */
static int readonly_fallback(struct db *ix)
{
	char *wal = pt_xasprintf("%s-wal", ix->path), *uri;
	struct pt_strbuf b;
	int over;
	struct stat st;
	int rc = -1;

	if (sqlite3_exec(ix->db, "PRAGMA schema_version", NULL, NULL, NULL) == SQLITE_OK) {
		free(wal);
		return 0;
	}
	if (stat(wal, &st) == 0 && st.st_size > 0) {
		pt_diag_add(ix->diag, PT_SEV_ERROR, ix->path, NULL,
			    "cannot be read here: its directory is read-only and its write-ahead log"
			    " '%s' holds changes not yet in the database (open it once where it is"
			    " writable, or copy the files)", wal);
		free(wal);
		return -1;
	}
	free(wal);
	sqlite3_close_v2(ix->db);
	ix->db = NULL;
	/* file: URI, with what would be read as URI syntax escaped. */
	/* Sized for every byte escaped: it cannot fill. */
	pt_strbuf_init(&b, 3 * strlen(ix->path) + 64);
	over = pt_strbuf_adds(&b, "file:");
	for (const char *p = ix->path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#' || (unsigned char)*p < 0x20)
			over |= pt_strbuf_addf(&b, "%%%02X", (unsigned char)*p);
		else
			over |= pt_strbuf_add(&b, p, 1);
	}
	over |= pt_strbuf_adds(&b, "?immutable=1");
	if (over)
		PT_BUG("the escaped database URI outgrew its buffer");
	uri = pt_strbuf_detach(&b);
	if (sqlite3_open_v2(uri, &ix->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK)
		db_sql_error(ix, "sqlite3_open_v2 (immutable)", NULL);
	else
		rc = 0;
	free(uri);
	return rc;
}

/*
 * The authorizer of every connection (db_harden). fts3_tokenizer() with one
 * argument returns a tokenizer's address (an ASLR leak); with two it
 * registers any bytes as one, which the next FTS3 use calls. With
 * SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER off the first returns NULL and the
 * second fails as it runs; refused here, neither is prepared, and SQLite's
 * message names it ("not authorized to use function: fts3_tokenizer").
 */
static int authorize(void *ctx, int action, const char *a, const char *fn, const char *schema,
		     const char *trigger)
{
	(void)ctx;
	(void)a;
	(void)schema;
	(void)trigger;
	if (action == SQLITE_FUNCTION && fn && !strcasecmp(fn, "fts3_tokenizer"))
		return SQLITE_DENY;
	return SQLITE_OK;
}

/*
 * What SQL text, ours or `pttrace sql`'s, may do on any connection (N20):
 * no fts3_tokenizer(), and defensive mode, which refuses the features that
 * let SQL corrupt the file on purpose (writable_schema, writes to shadow
 * tables and sqlite_dbpage, journal_mode=OFF). Both options since SQLite
 * 3.26; Debian 12 has 3.40. SQLITE_OK, or the authorizer's error.
 */
int db_harden(sqlite3 *db)
{
#ifdef SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, (int *)NULL);
#endif
#ifdef SQLITE_DBCONFIG_DEFENSIVE
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
#endif
	return sqlite3_set_authorizer(db, authorize, NULL);
}

int db_open(struct db **out, const char *path, unsigned flags, struct pt_diag *diag)
{
	struct db *ix = pt_xcalloc(1, sizeof(*ix));
	int oflags;
	char *slash;

	pthread_once(&config_once, configure);
	*out = NULL;
	ix->diag = diag;
	ix->path = pt_xstrdup(path);
	ix->readonly = !!(flags & DB_READONLY);
	{
		/*
		 * runs/ lives beside the database file itself: a path that is a
		 * symbolic link (B/pt.db -> ../A/pt.db) is resolved first, or the
		 * runs of one database would be split over A/runs and B/runs
		 * (SQLite resolves it for its -wal and -shm files too). Messages
		 * keep the path as given.
		 */
		struct stat lst;
		char *real = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) ? realpath(path, NULL) : NULL;
		const char *p = real ? real : ix->path;

		slash = strrchr(p, '/');
		ix->dir = slash ? pt_xstrndup(p, (size_t)(slash - p)) : pt_xstrdup(".");
		if (slash && slash == p) {
			free(ix->dir);
			ix->dir = pt_xstrdup("/");
		}
		free(real);
	}
	{
		struct stat st;

		/* A FIFO or device would block SQLite's open (or fail it obscurely). */
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
			pt_diag_add(diag, PT_SEV_ERROR, path, NULL, "not a regular file: not a pttrace database");
			goto fail;
		}
	}
	if (flags & (DB_READONLY | DB_NO_CREATE)) {
		if (access(path, F_OK) < 0) {
			pt_diag_add(diag, PT_SEV_ERROR, path, NULL, "no pttrace database (%s)",
				    strerror(errno));
			goto fail;
		}
	} else if (flags & DB_MKDIRS ? pt_mkdirs(ix->dir, 0700) < 0
					 : mkdir(ix->dir, 0700) < 0 && errno != EEXIST) {
		/* A database named on the command line creates no directory tree (a typo would). */
		pt_diag_add(diag, PT_SEV_ERROR, ix->dir, NULL, "cannot create directory: %s%s",
			    strerror(errno), errno == ENOENT ? " (only the database's own directory is created)" : "");
		goto fail;
	}
	if (!ix->readonly && access(ix->dir, W_OK) < 0) {
		/* SQLite would say "unable to open database file" at its first write. */
		pt_diag_add(diag, PT_SEV_ERROR, ix->dir, NULL, "cannot write here (%s): a database is"
			    " written with its -wal and -shm files beside it", strerror(errno));
		goto fail;
	}
	oflags = ix->readonly ? SQLITE_OPEN_READONLY
			      : SQLITE_OPEN_READWRITE | (flags & DB_NO_CREATE ? 0 : SQLITE_OPEN_CREATE);
	if (sqlite3_open_v2(path, &ix->db, oflags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		db_sql_error(ix, "sqlite3_open_v2", NULL);
		goto fail;
	}
	if (ix->readonly && readonly_fallback(ix) < 0)
		goto fail;
	if (db_harden(ix->db) != SQLITE_OK) {
		db_sql_error(ix, "sqlite3_set_authorizer", NULL);
		goto fail;
	}
	sqlite3_extended_result_codes(ix->db, 1);
	sqlite3_busy_timeout(ix->db, 10000);
	/*
	 * WAL: `pttrace show` reads while `pttrace run` writes. synchronous=NORMAL
	 * is durable across application crashes in WAL mode, which is what matters
	 * here (the raw output is on disk in the run directory anyway).
	 */
	if (!ix->readonly && set_wal(ix) < 0)
		goto fail;
	/*
	 * secure_delete=FAST: Debian's SQLite zeroes every freed page by default
	 * (SQLITE_SECURE_DELETE), so `pttrace rm` and re-indexing wrote a run's
	 * deleted rows out again as zeros, WAL first. A deleted run's files are
	 * unlinked, not overwritten, so that bought no privacy; FAST still clears
	 * deleted cells in the b-tree pages written anyway (the `sqlite3` shell
	 * deleting a run of 128 rank files: 2.1-2.6 s with it on, 1.6 s FAST).
	 */
	if (db_exec(ix, "PRAGMA foreign_keys=ON; PRAGMA secure_delete=FAST;") < 0 || db_add_regexp(ix) < 0)
		goto fail;
	*out = ix;
	return 0;
fail:
	db_close(ix);
	return -1;
}

const char *db_path(const struct db *ix)
{
	return ix->path;
}

const char *db_dir(const struct db *ix)
{
	return ix->dir;
}

struct sqlite3 *db_handle(struct db *ix)
{
	return ix->db;
}

struct db_feed **db_feeds(struct db *ix)
{
	return &ix->feeds;
}

void db_set_parts(struct db *ix, const struct schema_part *const *parts, size_t n)
{
	ix->parts = parts;
	ix->nparts = n;
}

const struct schema_part *const *db_parts(struct db *ix, size_t *n)
{
	*n = ix->nparts;
	return ix->parts;
}

void db_close(struct db *ix)
{
	struct db_stmt *s, *next;

	if (!ix)
		return;
	if (ix->in_batch)
		db_batch_end(ix);
	for (s = ix->stmts; s; s = next) {
		next = s->next;
		sqlite3_finalize(s->st);
		free(s->sql);
		free(s);
	}
	/*
	 * Every statement of ours is finalized above. A virtual table in the
	 * database (an FTS5 table someone added with the sqlite3 shell) keeps
	 * statements of its own until it is disconnected, which sqlite3_close
	 * does before it looks for statements left (N19): SQLITE_BUSY here means
	 * one of ours was prepared outside ix->stmts and never finalized, a bug.
	 */
	if (ix->db && sqlite3_close(ix->db) == SQLITE_BUSY) {
		sqlite3_stmt *left = sqlite3_next_stmt(ix->db, NULL);

		PT_BUG("unfinalized statement: %s", left ? sqlite3_sql(left) : "(none: a backup?)");
	}
	free(ix->path);
	free(ix->dir);
	free(ix);
}

int db_exec(struct db *ix, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(ix->db, sql, NULL, NULL, &err) != SQLITE_OK) {
		pt_diag_add(ix->diag, PT_SEV_ERROR, ix->path, sql, "sqlite3_exec: %s",
			    err ? err : sqlite3_errmsg(ix->db));
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

struct db_stmt *db_prepare(struct db *ix, const char *sql)
{
	struct db_stmt *s;

	for (s = ix->stmts; s; s = s->next) {
		if (s->sql == sql || !strcmp(s->sql, sql)) {
			sqlite3_reset(s->st);
			sqlite3_clear_bindings(s->st);
			return s;
		}
	}
	s = pt_xcalloc(1, sizeof(*s));
	if (sqlite3_prepare_v3(ix->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->st, NULL) !=
	    SQLITE_OK) {
		db_sql_error(ix, "sqlite3_prepare_v3", sql);
		sqlite3_finalize(s->st);
		free(s);
		return NULL;
	}
	s->sql = pt_xstrdup(sql);
	s->ix = ix;
	s->next = ix->stmts;
	ix->stmts = s;
	return s;
}

const char *db_next_statement(struct db *ix, const char *sql)
{
	sqlite3_stmt *st = NULL;
	const char *tail = NULL;

	if (sqlite3_prepare_v2(ix->db, sql, -1, &st, &tail) != SQLITE_OK) {
		sqlite3_finalize(st);
		return NULL;
	}
	sqlite3_finalize(st);
	while (tail && *tail) {
		const char *next = NULL;

		while (*tail == ' ' || *tail == '\t' || *tail == '\n' || *tail == '\r' || *tail == ';')
			tail++;
		if (!*tail)
			break;
		st = NULL;
		if (sqlite3_prepare_v2(ix->db, tail, -1, &st, &next) != SQLITE_OK || st) {
			sqlite3_finalize(st);
			return tail;	/* a statement, or text that is not one: either way, more */
		}
		if (next == tail)
			break;
		tail = next;	/* only a comment */
	}
	return NULL;
}

static int vbind(struct db_stmt *s, int first, const char *fmt, va_list ap, void (*keep)(void *))
{
	int rc = SQLITE_OK, k = first;

	for (const char *f = fmt; *f && rc == SQLITE_OK; f++, k++) {
		switch (*f) {
		case 'i':
			rc = sqlite3_bind_int64(s->st, k, va_arg(ap, int64_t));
			break;
		case 'I': {
			int64_t v = va_arg(ap, int64_t);
			rc = v == -1 ? sqlite3_bind_null(s->st, k) : sqlite3_bind_int64(s->st, k, v);
			break;
		}
		case 'd':
			rc = sqlite3_bind_double(s->st, k, va_arg(ap, double));
			break;
		case 't': {
			const char *t = va_arg(ap, const char *);
			rc = t ? sqlite3_bind_text(s->st, k, t, -1, keep)
			       : sqlite3_bind_null(s->st, k);
			break;
		}
		case 'T': {
			const char *t = va_arg(ap, const char *);
			size_t n = va_arg(ap, size_t);
			rc = t ? sqlite3_bind_text64(s->st, k, t, n, keep, SQLITE_UTF8)
			       : sqlite3_bind_null(s->st, k);
			break;
		}
		case 'b': {
			const void *b = va_arg(ap, const void *);
			size_t n = va_arg(ap, size_t);
			rc = sqlite3_bind_blob64(s->st, k, b ? b : "", n, keep);
			break;
		}
		case 'n':
			rc = sqlite3_bind_null(s->st, k);
			break;
		default:
			PT_BUG("db_bind: unknown format letter '%c' in \"%s\" for %s", *f, fmt, s->sql);
		}
	}
	if (rc != SQLITE_OK) {
		db_sql_error(s->ix, "sqlite3_bind", s->sql);
		return -1;
	}
	return 0;
}

int db_vbind(struct db_stmt *s, const char *fmt, va_list ap)
{
	va_list cp;
	int rc;

	va_copy(cp, ap);
	rc = vbind(s, 1, fmt, cp, SQLITE_TRANSIENT);
	va_end(cp);
	return rc;
}

int db_bind(struct db_stmt *s, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vbind(s, 1, fmt, ap, SQLITE_TRANSIENT);
	va_end(ap);
	return rc;
}

int db_bind_at(struct db_stmt *s, int first, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vbind(s, first, fmt, ap, SQLITE_TRANSIENT);
	va_end(ap);
	return rc;
}

int db_bind_static(struct db_stmt *s, int first, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vbind(s, first, fmt, ap, SQLITE_STATIC);
	va_end(ap);
	return rc;
}

int db_step(struct db_stmt *s)
{
	int rc = sqlite3_step(s->st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE) {
		sqlite3_reset(s->st);
		return 0;
	}
	db_sql_error(s->ix, "sqlite3_step", s->sql);
	sqlite3_reset(s->st);
	return -1;
}

void db_reset(struct db_stmt *s)
{
	sqlite3_reset(s->st);
}

int db_run(struct db_stmt *s, const char *fmt, ...)
{
	va_list ap;
	int rc;

	/* Stepped before returning, so the caller's buffers outlive the statement's use. */
	va_start(ap, fmt);
	rc = vbind(s, 1, fmt, ap, SQLITE_STATIC);
	va_end(ap);
	if (rc < 0) {
		sqlite3_reset(s->st);
		return -1;
	}
	while ((rc = db_step(s)) == 1)
		;
	return rc;
}


int64_t db_col_int(struct db_stmt *s, int col)
{
	return sqlite3_column_int64(s->st, col);
}

double db_col_double(struct db_stmt *s, int col)
{
	return sqlite3_column_double(s->st, col);
}

const char *db_col_text(struct db_stmt *s, int col)
{
	return (const char *)sqlite3_column_text(s->st, col);
}

size_t db_col_bytes(struct db_stmt *s, int col)
{
	return (size_t)sqlite3_column_bytes(s->st, col);
}

int db_col_is_null(struct db_stmt *s, int col)
{
	return sqlite3_column_type(s->st, col) == SQLITE_NULL;
}

int db_col_count(struct db_stmt *s)
{
	return sqlite3_column_count(s->st);
}

const char *db_col_name(struct db_stmt *s, int col)
{
	return sqlite3_column_name(s->st, col);
}

enum db_col_type db_col_type(struct db_stmt *s, int col)
{
	return (enum db_col_type)sqlite3_column_type(s->st, col);
}

static void regex_free(void *p)
{
	regfree(p);
	free(p);
}

/* REGEXP(pattern, text): SQLite calls "text REGEXP pattern" as regexp(pattern, text). */
static void regexp_fn(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	regex_t *re = sqlite3_get_auxdata(cx, 0);
	const char *text;

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL)
		return;
	if (!re) {
		const char *pat = (const char *)sqlite3_value_text(argv[0]);
		int rc;

		re = pt_xmalloc(sizeof(*re));
		rc = regcomp(re, pat, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char msg[256];

			regerror(rc, re, msg, sizeof(msg));
			free(re);
			sqlite3_result_error(cx, msg, -1);
			return;
		}
		sqlite3_set_auxdata(cx, 0, re, regex_free);
		re = sqlite3_get_auxdata(cx, 0);
		if (!re) {
			sqlite3_result_error_nomem(cx);
			return;
		}
	}
	text = (const char *)sqlite3_value_text(argv[1]);
	sqlite3_result_int(cx, text && regexec(re, text, 0, NULL, 0) == 0);
}

int db_add_regexp(struct db *ix)
{
	if (sqlite3_create_function_v2(ix->db, "regexp", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
				       NULL, regexp_fn, NULL, NULL, NULL) != SQLITE_OK) {
		db_sql_error(ix, "sqlite3_create_function_v2", "regexp");
		return -1;
	}
	return 0;
}

int db_param_index(struct db_stmt *s, const char *name)
{
	return sqlite3_bind_parameter_index(s->st, name);
}

int db_param_count(struct db_stmt *s)
{
	return sqlite3_bind_parameter_count(s->st);
}

int db_stmt_readonly(struct db_stmt *s)
{
	return sqlite3_stmt_readonly(s->st);
}

int64_t db_last_rowid(struct db *ix)
{
	return sqlite3_last_insert_rowid(ix->db);
}

int64_t db_changes(struct db *ix)
{
	return sqlite3_changes64(ix->db);
}

int db_begin(struct db *ix)
{
	return db_exec(ix, "BEGIN IMMEDIATE");
}

int db_commit(struct db *ix)
{
	return db_exec(ix, "COMMIT");
}

int db_rollback(struct db *ix)
{
	ix->in_batch = 0;
	if (sqlite3_get_autocommit(ix->db))
		return 0;
	return db_exec(ix, "ROLLBACK");
}

int db_batch_begin(struct db *ix, size_t max_rows, unsigned max_ms)
{
	if (db_begin(ix) < 0)
		return -1;
	ix->in_batch = 1;
	ix->batch_paused = 0;
	ix->batch_txn++;
	ix->batch_rows = 0;
	ix->batch_max = max_rows ? max_rows : 50000;
	ix->batch_max_ns = (uint64_t)(max_ms ? max_ms : 500) * 1000000u;
	ix->batch_start_ns = pt_now_ns();
	return 0;
}

int db_batch_tick(struct db *ix, size_t rows)
{
	ix->batch_rows += rows;
	/* The clock is read every 64 rows: cheap, and the time bound holds at any row rate. */
	if (ix->batch_rows < ix->batch_max &&
	    ((ix->batch_rows & 63) || pt_now_ns() - ix->batch_start_ns < ix->batch_max_ns))
		return 0;
	if (ix->batch_paused)
		return 0;
	if (db_commit(ix) < 0 || db_begin(ix) < 0) {
		ix->in_batch = 0;
		return -1;
	}
	ix->batch_txn++;
	ix->batch_rows = 0;
	ix->batch_start_ns = pt_now_ns();
	return 0;
}

int db_batch_pause(struct db *ix)
{
	if (!ix->in_batch || ix->batch_paused)
		return 0;
	ix->batch_paused = 1;
	ix->batch_rows = 0;
	ix->batch_start_ns = pt_now_ns();
	if (db_commit(ix) < 0) {
		ix->in_batch = 0;
		return -1;
	}
	return 0;
}

int db_batch_write(struct db *ix)
{
	if (!ix->in_batch || !ix->batch_paused)
		return 0;
	if (db_begin(ix) < 0) {
		ix->in_batch = 0;
		return -1;
	}
	ix->batch_paused = 0;
	ix->batch_txn++;
	ix->batch_start_ns = pt_now_ns();
	return 0;
}

int db_checkpoint(struct db *ix)
{
	int rc = sqlite3_wal_checkpoint_v2(ix->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);

	/* BUSY: another checkpoint runs; the next one takes over. */
	if (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		return 0;
	db_sql_error(ix, "sqlite3_wal_checkpoint_v2", NULL);
	return -1;
}

uint64_t db_batch_age_ms(const struct db *ix)
{
	return (pt_now_ns() - ix->batch_start_ns) / 1000000u;
}

int db_batch_end(struct db *ix)
{
	if (!ix->in_batch)
		return 0;
	ix->in_batch = 0;
	if (ix->batch_paused) {
		ix->batch_paused = 0;
		return 0;
	}
	return db_commit(ix);
}
