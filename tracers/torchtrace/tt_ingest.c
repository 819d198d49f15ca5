/*
 * TORCH_TRACE files into the index; see trace_ingest.h. The reader (trace.c)
 * calls back per record; each becomes one trace_records row, its payload a
 * trace_payloads row unless that md5 is already stored. A small direct-mapped
 * cache of recent md5s saves most of those lookups (TORCH_TRACE repeats the
 * same chromium events and cache artifacts over and over).
 */
#include "tt_ingest.h"
#include "strbuf.h"
#include "tt_internal.h"
#include "tt_parallel.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "cmp.h"
#include "glog.h"
#include "numparse.h"
#include "runs.h"
#include "schema.h"
#include "term.h"
#include "torchtrace.h"
#include "xalloc.h"

#define READ_CHUNK (1u << 20)
#define MD5_CACHE 4096	/* entries of 33 bytes */

struct tt_file_ingest {
	struct db *ix;
	struct pt_diag *diag;
	const char *relpath;
	int64_t run_id, file_id;
	long name_rank;
	long long json_rank;		/* the first "rank" seen, -1 none */
	long long json_rank2;		/* the first other "rank" seen, -1 none */
	int rank_from_record;		/* --rank-from=record */
	long long rank;			/* the file's rank as far as known, -1 not yet */
	uint64_t other_rank;		/* records whose "rank" is not the file's */
	int64_t pid;			/* the first record's */
	int64_t first_id, last_id;
	int64_t ref_us;			/* glog times: the previous record's, first the mtime */
	long tz_off;
	struct tt_reader *rd;
	struct db_stmt *ins_rec, *ins_pay, *ins_str;
	char (*cache)[33];
	int failed;
	uint64_t rows;
};

long tt_name_rank(const char *name)
{
	const char *b = strrchr(name, '/'), *p;
	uint64_t r;
	ssize_t k;

	b = b ? b + 1 : name;
	p = strstr(b, "rank_");
	if (!p || (k = pt_dec_u64(p + 5, strlen(p + 5), 1000000000, &r)) <= 0 ||
	    (p[5 + k] != '_' && p[5 + k] != '.'))
		return -1;
	return (long)r;
}

static int payload_known(struct tt_file_ingest *g, const char *md5)
{
	unsigned h = (unsigned)strtoul((char[9]){md5[0], md5[1], md5[2], md5[3], md5[4], md5[5],
						 md5[6], md5[7], 0}, NULL, 16) % MD5_CACHE;

	if (!memcmp(g->cache[h], md5, 32))
		return 1;
	memcpy(g->cache[h], md5, 33);
	return 0;
}

static const char SQL_FIRST_REC[] = "UPDATE trace_files SET first_record = ? WHERE id = ?";

static int on_record(void *ctx, const struct tt_record *rec)
{
	struct tt_file_ingest *g = ctx;
	const struct glog_prefix *gp = &rec->glog;
	int64_t pid = -1, time_us = -1;
	const char *emit = NULL;
	size_t emit_len = 0;
	char emitbuf[512];
	long long rank;

	pid = gp->pid;
	if (g->pid < 0)
		g->pid = pid;
	/* The previous record's time is the reference: a trace that runs over New Year keeps counting. */
	time_us = glog_time_us(gp, g->ref_us, g->tz_off);
	g->ref_us = time_us;
	pt_fmt_trunc(emitbuf, sizeof(emitbuf), "%.*s:%lld", (int)(gp->file_len > 400 ? 400 : gp->file_len),
		 rec->prefix + gp->file_off, (long long)gp->lineno);
	emit = emitbuf;
	emit_len = strlen(emitbuf);
	/*
	 * The rank rule (docs/pttrace-trace.1): every record of a file gets the
	 * file's rank. It is the file name's unless --rank-from=record; without
	 * one the first "rank" of the records decides. Records that say another
	 * rank are kept under the file's and counted.
	 */
	if (rec->rank >= 0) {
		if (g->json_rank < 0)
			g->json_rank = rec->rank;
		else if (rec->rank != g->json_rank && g->json_rank2 < 0)
			g->json_rank2 = rec->rank;
		if (g->rank < 0)
			g->rank = rec->rank;
		if (rec->rank != g->rank)
			g->other_rank++;
	}
	rank = g->rank;
	/* Else NULL for now: records logged before the rank was known get it at the end. */
	/* A payload over the cap is not kept (payload_skipped): no payload row, no md5 stored. */
	int pay = rec->has_payload && !rec->payload_skipped;

	if (pay && !payload_known(g, rec->md5)) {
		if (db_run(g->ins_pay, "tib", rec->md5, (int64_t)rec->payload_len,
			      (const void *)rec->payload, rec->payload_len) < 0)
			goto fail;
	}
	if (!strcmp(rec->kind, "str") && rec->str_value) {
		if (db_run(g->ins_str, "iit", g->file_id, (int64_t)rec->str_index, rec->str_value) < 0)
			goto fail;
	}
	if (db_run(g->ins_rec, "iiitTIIIIIIIITTttT", g->run_id, g->file_id, (int64_t)rec->lineno,
		      rec->kind, rec->name, rec->name ? strlen(rec->name) : (size_t)0,
		      (int64_t)rank, (int64_t)rec->rank, (int64_t)rec->cid.ca, (int64_t)rec->cid.frame,
		      (int64_t)rec->cid.compile, (int64_t)rec->cid.attempt, pid, time_us,
		      emit, emit_len,
		      pay ? rec->md5 : NULL, (size_t)(pay ? 32 : 0),
		      rec->has_payload && !rec->md5_ok ? rec->md5_declared : NULL,
		      pay ? pt_payload_rule_name(rec->rule) : NULL,
		      rec->json, rec->json_len) < 0)
		goto fail;
	g->last_id = db_last_rowid(g->ix);
	if (!g->first_id) {
		/* In the same transaction as the record: a file cut off later still names its start. */
		struct db_stmt *s = NULL;

		g->first_id = g->last_id;
		if (tt_prep(g->ix, &s, SQL_FIRST_REC) < 0 || db_run(s, "ii", g->first_id, g->file_id) < 0)
			goto fail;
	}
	g->rows++;
	if (db_batch_tick(g->ix, 1) < 0)
		goto fail;
	return 0;
fail:
	g->failed = 1;
	return -1;
}

static const char SQL_INS_REC[] =
	"INSERT INTO trace_records(run_id, file_id, lineno, kind, name, rank, json_rank, ca, frame,"
	" compile, attempt, pid, time_us, emitter, payload_md5, md5_declared, payload_rule, envelope)"
	" VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
static const char SQL_INS_PAY[] =
	"INSERT INTO trace_payloads(md5, size, data) VALUES(?,?,?) ON CONFLICT(md5) DO NOTHING";
static const char SQL_INS_STR[] =
	"INSERT OR REPLACE INTO trace_strings(file_id, idx, value) VALUES(?,?,?)";

/* The trigger trace_file_deleted deletes its records, the foreign key its strings. */
static const char SQL_DEL_FILE[] = "DELETE FROM trace_files WHERE run_id = ? AND path = ?";
static const char SQL_RANK_FROM[] =
	"SELECT rank_from FROM trace_sources WHERE run_id = ? AND path = ?";
static const char SQL_INS_FILE[] =
	"INSERT INTO trace_files(run_id, path, size, name_rank) VALUES(?,?,?,?)";
static const char SQL_FILL_RANK[] =
	"UPDATE trace_records SET rank = ? WHERE id BETWEEN ? AND ? AND rank IS NULL";
static const char SQL_FILE_DONE[] =
	"UPDATE trace_files SET json_rank = ?, rank = ?, rank_conflict = ?, rank_source = ?, other_rank = ?,"
	" pid = ?, lines = ?, records = ?,"
	" payloads = ?, blank_lines = ?, damaged = ?, md5_mismatches = ?, first_record = ?,"
	" last_record = ?, size = ? WHERE id = ?";

/* Forget what an earlier indexing of this path stored. */
static int forget_file(struct db *ix, int64_t run_id, const char *relpath)
{
	struct db_stmt *s = NULL;

	return tt_prep(ix, &s, SQL_DEL_FILE) < 0 || db_run(s, "it", run_id, relpath) < 0 ? -1 : 0;
}

/*
 * Files parsed by tt_parallel.c on all cores and written here, on this
 * thread, one after another: one SQLite writer, each file in its own batch
 * of transactions, its records with consecutive ids.
 */
struct ingest_many {
	struct db *ix;
	int64_t run_id;
	int progress;
	int stop_on_error;		/* import: the first file that fails stops the rest */
	struct pt_diag *diag;
	struct tt_ingest_totals *tot;
	struct tt_par_file *files;
	const char **stat_paths;	/* what to stat for size and mtime (the source when copying) */
	const char **sources;		/* import: the source path for trace_sources, else NULL */
	const char *rank_from;		/* import: --rank-from ("record"), NULL: the file name first */
	struct tt_file_ingest g;
	struct pt_progress pg;
	int open;			/* g is set up (begin succeeded) */
	int failed_any;
};

static int many_begin(void *ctx, size_t i)
{
	struct ingest_many *m = ctx;
	struct tt_file_ingest *g = &m->g;
	const char *relpath = m->files[i].name;
	struct db_stmt *s = NULL;
	struct stat st;
	struct tm tm;
	time_t mt;

	memset(g, 0, sizeof(*g));
	m->open = 0;
	if (stat(m->stat_paths[i], &st) < 0) {
		pt_diag_add(m->diag, PT_SEV_ERROR, m->stat_paths[i], NULL, "cannot read: %s",
			    strerror(errno));
		m->failed_any = 1;
		return m->stop_on_error;
	}
	if (m->sources) {
		static const char sql[] = "INSERT OR REPLACE INTO trace_sources(run_id, path, source,"
					  " imported_us, rank_from) VALUES(?,?,?,?,?)";
		if (tt_prep(m->ix, &s, sql) < 0 ||
		    db_run(s, "ittit", m->run_id, relpath, m->sources[i], pt_wall_us(), m->rank_from) < 0 ||
		    runs_add_file(m->ix, m->run_id, relpath, "trace", (int64_t)st.st_size) < 0) {
			m->failed_any = 1;
			return m->stop_on_error;
		}
	}
	g->ix = m->ix;
	g->diag = m->diag;
	g->relpath = relpath;
	g->run_id = m->run_id;
	g->name_rank = tt_name_rank(relpath);
	g->json_rank = g->json_rank2 = g->rank = g->pid = -1;
	/* import --rank-from=record is remembered per file, so that reindex keeps it. */
	if (tt_prep(m->ix, &s, SQL_RANK_FROM) == 0 && db_bind(s, "it", m->run_id, relpath) == 0 &&
	    db_step(s) == 1) {
		const char *rf = db_col_text(s, 0);

		g->rank_from_record = rf && !strcmp(rf, "record");
		db_reset(s);
	}
	if (!g->rank_from_record && g->name_rank >= 0)
		g->rank = g->name_rank;
	g->ref_us = (int64_t)st.st_mtim.tv_sec * 1000000;
	mt = st.st_mtim.tv_sec;
	g->tz_off = localtime_r(&mt, &tm) ? tm.tm_gmtoff : 0;
	g->cache = pt_xcalloc(MD5_CACHE, sizeof(*g->cache));
	m->open = 1;
	pt_progress_init(&m->pg, relpath, m->progress ? (uint64_t)st.st_size : 0);
	if (!m->progress)
		m->pg.on = 0;
	if (db_batch_begin(m->ix, 20000, 1000) < 0 || forget_file(m->ix, m->run_id, relpath) < 0 ||
	    tt_prep(m->ix, &s, SQL_INS_FILE) < 0 ||
	    db_run(s, "itiI", m->run_id, relpath, (int64_t)st.st_size, (int64_t)g->name_rank) < 0)
		goto fail;
	g->file_id = db_last_rowid(m->ix);
	if (tt_prep(m->ix, &g->ins_rec, SQL_INS_REC) < 0 ||
	    tt_prep(m->ix, &g->ins_pay, SQL_INS_PAY) < 0 ||
	    tt_prep(m->ix, &g->ins_str, SQL_INS_STR) < 0)
		goto fail;
	return 0;
fail:
	g->failed = 1;
	return 0;	/* the records are skipped and end() rolls back */
}

static int many_record(void *ctx, const struct tt_record *rec)
{
	struct ingest_many *m = ctx;

	if (!m->open || m->g.failed)
		return 0;
	on_record(&m->g, rec);
	return 0;
}

static void many_progress(void *ctx, size_t i, uint64_t done)
{
	struct ingest_many *m = ctx;

	(void)i;
	if (m->open)
		pt_progress_update(&m->pg, done);
}

/* The file's rank and totals; the batch committed. 0 or -1. */
static int finish_file(struct tt_file_ingest *g, const struct tt_reader_stats *st)
{
	struct db *ix = g->ix;
	struct db_stmt *s = NULL;
	long long frank;
	const char *conflict = NULL, *rank_source;
	char conflict_buf[256];

	/* The file's rank; records logged before it was known get it too. */
	frank = g->rank >= 0 ? g->rank : g->name_rank;
	rank_source = frank < 0 ? NULL : frank == g->name_rank && (!g->rank_from_record || g->json_rank < 0)
		? "file" : "record";
	if (g->json_rank >= 0 && g->name_rank >= 0 && g->json_rank != g->name_rank) {
		pt_fmt_trunc(conflict_buf, sizeof(conflict_buf),
			 "the file name says rank %ld, its records rank %lld; rank %lld used (%s)",
			 g->name_rank, g->json_rank, frank,
			 g->rank_from_record ? "--rank-from=record" : "--rank-from=record uses the records'");
		conflict = conflict_buf;
	} else if (g->json_rank2 >= 0) {
		pt_fmt_trunc(conflict_buf, sizeof(conflict_buf),
			 "records of ranks %lld and %lld in one file; %llu record%s kept under rank %lld",
			 g->json_rank, g->json_rank2, (unsigned long long)g->other_rank,
			 g->other_rank == 1 ? "" : "s", frank);
		conflict = conflict_buf;
	}
	if (conflict)
		pt_diag_add(g->diag, PT_SEV_WARNING, g->relpath, NULL, "%s", conflict);
	if (frank >= 0 && g->first_id &&
	    (tt_prep(ix, &s, SQL_FILL_RANK) < 0 ||
	     db_run(s, "iii", (int64_t)frank, g->first_id, g->last_id) < 0))
		return -1;
	if (tt_prep(ix, &s, SQL_FILE_DONE) < 0 ||
	    db_run(s, "IIttiIiiiiiiIIii", (int64_t)g->json_rank, (int64_t)frank, conflict, rank_source,
		      (int64_t)g->other_rank, g->pid,
		      (int64_t)st->lines, (int64_t)st->records, (int64_t)st->payloads,
		      (int64_t)st->blank_lines, (int64_t)(st->damaged + st->orphan_payload_lines),
		      (int64_t)st->md5_mismatches, g->first_id ? g->first_id : -1,
		      g->first_id ? g->last_id : -1, (int64_t)st->bytes, g->file_id) < 0)
		return -1;
	return db_batch_end(ix);
}

static int many_end(void *ctx, size_t i, const struct tt_reader_stats *st, int io_rc)
{
	struct ingest_many *m = ctx;
	struct tt_file_ingest *g = &m->g;
	int rc = -1;

	(void)i;
	if (!m->open) {
		m->failed_any = 1;
		return m->stop_on_error;
	}
	pt_progress_done(&m->pg);
	if (io_rc == 0 && !g->failed && finish_file(g, st) == 0) {
		rc = 0;
		if (m->tot) {
			m->tot->files++;
			m->tot->bytes += st->bytes;
			m->tot->records += st->records;
			m->tot->payloads += st->payloads;
			m->tot->md5_mismatches += st->md5_mismatches;
			m->tot->damaged += st->damaged;
		}
	}
	if (rc < 0 && db_in_batch(m->ix))
		db_rollback(m->ix);
	free(g->cache);
	g->cache = NULL;
	m->open = 0;
	if (rc < 0) {
		m->failed_any = 1;
		return m->stop_on_error;
	}
	return 0;
}

/* Index files[0..n) (relpaths in the run directory, or copies being made); 0 or -1. */
static int ingest_many(struct ingest_many *m, size_t n)
{
	struct tt_par_cbs cbs = {
		.begin = many_begin,
		.record = many_record,
		.end = many_end,
		.progress = many_progress,
		.ctx = m,
	};
	struct tt_par_cpu cpu = {0};
	int rc;

	cbs.cpu = &cpu;
	/*
	 * An 8 MB page cache (SQLite's default is 2 MB): pages written by a
	 * transaction stay in memory until it commits instead of spilling to
	 * the WAL half-full and being written again, which makes the commit read
	 * the WAL back to redo its checksums. Bounded: RSS stays flat.
	 */
	if (db_exec(m->ix, "PRAGMA cache_size=-8192") < 0)
		return -1;
	rc = tt_par_read(m->files, n, 0, &cbs, m->diag);
	if (m->tot) {
		m->tot->cpu_read += cpu.read;
		m->tot->cpu_parse += cpu.parse;
		m->tot->cpu_write += cpu.deliver;
	}

	if (m->open) {
		/* Stopped inside a file. */
		if (db_in_batch(m->ix))
			db_rollback(m->ix);
		free(m->g.cache);
		m->open = 0;
	}
	return rc < 0 || m->failed_any ? -1 : 0;
}

int tt_ingest_file(struct db *ix, int64_t run_id, const char *relpath, int progress,
		      struct pt_diag *diag, struct tt_ingest_totals *tot)
{
	char *dir = db_run_dir(ix, run_id);
	char *path = pt_xasprintf("%s/%s", dir, relpath);
	struct tt_par_file f = {.path = path, .name = relpath};
	const char *sp = path;
	struct ingest_many m = {
		.ix = ix, .run_id = run_id, .progress = progress, .stop_on_error = 1,
		.diag = diag, .tot = tot, .files = &f, .stat_paths = &sp,
	};
	int rc = ingest_many(&m, 1);

	free(path);
	free(dir);
	return rc;
}

/* Regular files under dir (relative names below prefix), recursively. */
static void list_files(const char *dir, const char *prefix, char ***v, size_t *n, size_t *alloc)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char *p, *rel;
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		p = pt_xasprintf("%s/%s", dir, e->d_name);
		rel = pt_xasprintf("%s/%s", prefix, e->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			list_files(p, rel, v, n, alloc);
			free(rel);
		} else if (S_ISREG(st.st_mode)) {
			PT_GROW(*v, *n, *alloc);
			(*v)[(*n)++] = rel;
		} else {
			free(rel);
		}
		free(p);
	}
	closedir(d);
}

static const char SQL_PROCESS_NO[] =
	"UPDATE trace_files SET process = (SELECT count(*) FROM trace_files f"
	" WHERE f.run_id = trace_files.run_id AND f.path <= trace_files.path) WHERE run_id = ?";
/* The report's key for a file's writer (trace_files.who, tt_schema.c), once per run. */
static const char SQL_WHO[] =
	"UPDATE trace_files SET who = " TT_WHO_SQL("trace_files") " WHERE run_id = ?";
static const char SQL_SAME_RANK[] =
	"SELECT rank, group_concat(path, ', '), group_concat(process, ', '), count(*) FROM"
	" (SELECT rank, path, process FROM trace_files WHERE run_id = ?1 AND rank IS NOT NULL"
	" AND records > 0 ORDER BY path) GROUP BY rank HAVING count(*) > 1 ORDER BY rank";
static const char SQL_UNRANKED[] =
	"SELECT count(*), group_concat(process || ' (pid ' || coalesce(pid, '?') || ')', ', ') FROM"
	" (SELECT process, pid FROM trace_files WHERE run_id = ?1 AND rank IS NULL AND records > 0"
	" ORDER BY path)";

int tt_processes_check(struct db *ix, int64_t run_id, struct pt_diag *diag)
{
	struct db_stmt *s = NULL;
	int rc;

	if (tt_prep(ix, &s, SQL_PROCESS_NO) < 0 || db_run(s, "i", run_id) < 0 ||
	    tt_prep(ix, &s, SQL_WHO) < 0 || db_run(s, "i", run_id) < 0 ||
	    tt_prep(ix, &s, SQL_SAME_RANK) < 0 || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1)
		pt_diag_add(diag, PT_SEV_WARNING, NULL, NULL,
			    "%lld files say rank %lld (%s): kept apart as processes %s, not merged;"
			    " 'pttrace ranks' lists each", (long long)db_col_int(s, 3),
			    (long long)db_col_int(s, 0), db_col_text(s, 1), db_col_text(s, 2));
	if (rc < 0 || tt_prep(ix, &s, SQL_UNRANKED) < 0 || db_bind(s, "i", run_id) < 0 ||
	    db_step(s) != 1)
		return -1;
	if (db_col_int(s, 0) > 1)
		pt_diag_add(diag, PT_SEV_NOTE, NULL, NULL,
			    "%lld processes without a rank (processes %s): kept apart, their compile ids"
			    " are per process (p1, p2 ... in compiles, graph-breaks, recompiles)",
			    (long long)db_col_int(s, 0), db_col_text(s, 1));
	db_reset(s);
	return 0;
}

int tt_index_run(struct db *ix, int64_t run_id, int progress, struct pt_diag *diag,
		 struct tt_ingest_totals *tot)
{
	char *dir = db_run_dir(ix, run_id);
	char *tdir = pt_xasprintf("%s/trace", dir);
	char **v = NULL;
	size_t n = 0, alloc = 0;
	int rc = 0;

	list_files(tdir, "trace", &v, &n, &alloc);
	if (n)
		qsort(v, n, sizeof(*v), pt_cmp_strp);
	if (schema_part_mark(ix, "trace", run_id, "partial") < 0)
		rc = -1;
	if (rc == 0 && n) {
		struct tt_par_file *f = pt_xcalloc(n, sizeof(*f));
		const char **sp = pt_xcalloc(n, sizeof(*sp));
		struct ingest_many m = {
			.ix = ix, .run_id = run_id, .progress = progress, .diag = diag, .tot = tot,
			.files = f, .stat_paths = sp,
		};

		for (size_t i = 0; i < n; i++) {
			f[i].path = sp[i] = pt_xasprintf("%s/%s", dir, v[i]);
			f[i].name = v[i];
		}
		/* A file that cannot be indexed is reported, the others go on; the run is not done. */
		if (ingest_many(&m, n) < 0)
			rc = -1;
		for (size_t i = 0; i < n; i++)
			free((char *)f[i].path);
		free(f);
		free(sp);
	}
	if (rc == 0 && (tt_processes_check(ix, run_id, diag) < 0 ||
			schema_part_mark(ix, "trace", run_id, "done") < 0))
		rc = -1;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	free(tdir);
	free(dir);
	return rc;
}


/* "trace/<base>", or "trace/<base>.2" ... when a file of that name is there. */
static char *dest_name(const char *rundir, const char *base)
{
	for (int i = 1;; i++) {
		char *rel = i == 1 ? pt_xasprintf("trace/%s", base) : pt_xasprintf("trace/%s.%d", base, i);
		char *abs = pt_xasprintf("%s/%s", rundir, rel);
		int taken = access(abs, F_OK) == 0;

		free(abs);
		if (!taken)
			return rel;
		free(rel);
	}
}

int tt_import_files(struct db *ix, int64_t run_id, const char *const *srcs, size_t n,
		       int progress, struct pt_diag *diag, struct tt_ingest_totals *tot)
{
	return tt_import_files_ex(ix, run_id, srcs, n, NULL, progress, diag, tot);
}

int tt_import_files_ex(struct db *ix, int64_t run_id, const char *const *srcs, size_t n,
		       const char *rank_from, int progress, struct pt_diag *diag,
		       struct tt_ingest_totals *tot)
{
	char *rundir = db_run_dir(ix, run_id);
	char *tdir = pt_xasprintf("%s/trace", rundir);
	struct tt_par_file *f = pt_xcalloc(n + 1, sizeof(*f));
	const char **sp = pt_xcalloc(n + 1, sizeof(*sp));
	size_t k = 0;
	int rc = -1, bad_errno = 0;

	if (mkdir(tdir, 0700) < 0 && errno != EEXIST) {
		pt_diag_add(diag, PT_SEV_ERROR, tdir, NULL, "cannot create: %s", strerror(errno));
		goto out;
	}
	/*
	 * Each copy's name is taken (the file created) here, in order, so that two
	 * sources of the same base name get base and base.2 as one after another
	 * would; the reader thread fills them while it parses.
	 */
	for (; k < n; k++) {
		int in = open(srcs[k], O_RDONLY | O_CLOEXEC), out;
		struct stat st;
		char *rel;

		if (in < 0 || fstat(in, &st) < 0) {
			bad_errno = errno;	/* reported after the files before it, as one by one */
			if (in >= 0)
				close(in);
			break;
		}
		close(in);
		const char *base = strrchr(srcs[k], '/') ? strrchr(srcs[k], '/') + 1 : srcs[k];

		rel = dest_name(rundir, base);
		f[k].name = rel;
		f[k].copy_to = pt_xasprintf("%s/%s", rundir, rel);
		f[k].path = srcs[k];
		sp[k] = srcs[k];
		out = open(f[k].copy_to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (out < 0) {
			pt_diag_add(diag, PT_SEV_ERROR, f[k].copy_to, NULL, "cannot create: %s",
				    strerror(errno));
			k++;
			goto out;
		}
		close(out);
	}
	{
		struct ingest_many m = {
			.ix = ix, .run_id = run_id, .progress = progress, .stop_on_error = 1,
			.diag = diag, .tot = tot, .files = f, .stat_paths = sp, .sources = sp,
			.rank_from = rank_from,
		};

		rc = k ? ingest_many(&m, k) : 0;
		if (k < n) {
			if (rc == 0)
				pt_diag_add(diag, PT_SEV_ERROR, srcs[k], NULL, "cannot read: %s",
					    strerror(bad_errno));
			rc = -1;
		}
	}
out:
	for (size_t i = 0; i < k; i++) {
		free((char *)f[i].name);
		free((char *)f[i].copy_to);
	}
	free(f);
	free(sp);
	free(tdir);
	free(rundir);
	return rc;
}

char *tt_source_imported(struct db *ix, int64_t run_id, const char *source)
{
	struct db_stmt *s = db_prepare(ix, "SELECT path FROM trace_sources WHERE run_id = ?1 AND"
					   " source = ?2 ORDER BY path LIMIT 1");
	char *path = NULL;

	if (s && db_bind(s, "it", run_id, source) == 0 && db_step(s) == 1) {
		path = pt_xstrdup(db_col_text(s, 0) ? db_col_text(s, 0) : "");
		db_reset(s);
	}
	return path;
}

int tt_import_file(struct db *ix, int64_t run_id, const char *src, int progress,
		      struct pt_diag *diag, struct tt_ingest_totals *tot)
{
	return tt_import_files(ix, run_id, &src, 1, progress, diag, tot);
}

int tt_forget_orphans(struct db *ix)
{
	/* Payloads are shared by md5 across runs: only those no record names go. */
	return db_exec(ix, "DELETE FROM trace_payloads WHERE md5 NOT IN"
			   " (SELECT payload_md5 FROM trace_records WHERE payload_md5 IS NOT NULL)");
}

int tt_mark_indexed(struct db *ix, int64_t run_id)
{
	return schema_part_mark(ix, "trace", run_id, "done");
}

