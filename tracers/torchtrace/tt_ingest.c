/*
 * TORCH_TRACE files into the index; see tt_ingest.h. The reader (parse/torchtrace.c)
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
#include "db_json.h"
#include "glog.h"
#include "numparse.h"
#include "runs.h"
#include "rundir.h"
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
	const char **finals;		/* import: where each copy goes when complete, else NULL */
	char *done;			/* import: the copy of file i is complete and committed */
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

/* The file's rank and totals, in the batch (the caller commits it). 0 or -1. */
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
	return 0;
}

/*
 * import: the copy of file i is complete; it gets its name (a rename, so
 * that a copy cut off by a kill is never taken for the file) and its
 * trace_sources row says 'done', in the transaction that ends its records.
 */
static int complete_copy(struct ingest_many *m, size_t i)
{
	static const char sql[] = "UPDATE trace_sources SET state = 'done', importer_pid = NULL,"
				  " importer_host = NULL WHERE run_id = ?1 AND path = ?2";
	struct db_stmt *s = NULL;

	if (rename(m->files[i].copy_to, m->finals[i]) < 0) {
		pt_diag_add(m->diag, PT_SEV_ERROR, m->finals[i], NULL, "cannot rename '%s' to it: %s",
			    m->files[i].copy_to, strerror(errno));
		return -1;
	}
	return tt_prep(m->ix, &s, sql) < 0 || db_run(s, "it", m->run_id, m->files[i].name) < 0 ? -1 : 0;
}

static int many_end(void *ctx, size_t i, const struct tt_reader_stats *st, int io_rc)
{
	struct ingest_many *m = ctx;
	struct tt_file_ingest *g = &m->g;
	int rc = -1;

	if (!m->open) {
		m->failed_any = 1;
		return m->stop_on_error;
	}
	pt_progress_done(&m->pg);
	if (io_rc == 0 && !g->failed && finish_file(g, st) == 0 &&
	    (!m->finals || complete_copy(m, i) == 0) && db_batch_end(m->ix) == 0) {
		rc = 0;
		if (m->done)
			m->done[i] = 1;
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
	char *dir = rundir_path(ix, run_id);
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

static char *part_path(const char *rundir, const char *rel);

static int in_sorted(char **v, size_t n, const char *s)
{
	return n && bsearch(&s, v, n, sizeof(*v), pt_cmp_strp) != NULL;
}

/* Forget a registered file that is gone: its rows and registration (a re-import may bring it back). */
static int forget_registered(struct db *ix, int64_t run_id, const char *rel)
{
	struct db_stmt *s = NULL;

	return forget_file(ix, run_id, rel) < 0 ||
	       tt_prep(ix, &s, "DELETE FROM trace_sources WHERE run_id = ?1 AND path = ?2") < 0 ||
	       db_run(s, "it", run_id, rel) < 0 ||
	       tt_prep(ix, &s, "DELETE FROM run_files WHERE run_id = ?1 AND path = ?2") < 0 ||
	       db_run(s, "it", run_id, rel) < 0 ? -1 : 0;
}

/*
 * What reindex indexes: the run's registered trace files (run_files, role
 * trace: those `pttrace run` found its child wrote, or `pttrace import`
 * copied in) that are in trace/ and complete, so that the index is what
 * trace/ holds (issue 34 N17). A registered file that is gone is warned
 * about and forgotten; a file in trace/ the run never registered (a copy
 * renamed to .bak, one put there by hand) is warned about and not indexed;
 * an import that did not complete is reported (and left to a new import of
 * its source, which completes it), one going on now is left alone. A run
 * whose pttrace died before it registered its files (lost, nothing
 * registered; or files from before registration) has them registered now,
 * as it would have. *out: the paths
 * to index, sorted. 0 or -1.
 */
static int plan_reindex(struct db *ix, int64_t run_id, const char *dir, int never_done,
			struct pt_diag *diag, char ***out, size_t *nout)
{
	static const char reg_sql[] =
		"SELECT f.path, s.state, s.importer_pid, s.importer_host, s.imported_us, s.source,"
		" s.source_size FROM run_files f LEFT JOIN trace_sources s ON s.run_id = f.run_id"
		" AND s.path = f.path WHERE f.run_id = ?1 AND f.role = 'trace' ORDER BY f.path";
	char *tdir = pt_xasprintf("%s/trace", dir);
	char **present = NULL, **reg = NULL, **keep = NULL, **v = NULL;
	size_t np = 0, ap = 0, nr = 0, ar = 0, nk = 0, ak = 0, n = 0, a = 0;
	struct db_stmt *s = NULL;
	int rc = -1, step;

	list_files(tdir, "trace", &present, &np, &ap);
	if (np)
		qsort(present, np, sizeof(*present), pt_cmp_strp);
	if (tt_prep(ix, &s, reg_sql) < 0 || db_bind(s, "i", run_id) < 0)
		goto out;
	while ((step = db_step(s)) == 1) {
		const char *rel = db_col_text(s, 0), *state = db_col_text(s, 1);
		int64_t pid = db_col_int(s, 2);

		if (!rel)
			continue;
		PT_GROW(reg, nr, ar);
		reg[nr++] = pt_xstrdup(rel);
		if (state && !strcmp(state, "copying")) {
			if (!runs_recorder_gone(pid, db_col_text(s, 3), db_col_int(s, 4))) {
				pt_diag_add(diag, PT_SEV_NOTE, rel, NULL,
					    "being imported by pttrace import (pid %lld) right now: left as it is",
					    (long long)pid);
				PT_GROW(keep, nk, ak);
				keep[nk++] = pt_xstrdup(rel);
			} else {
				char *part = part_path(dir, rel);
				struct stat st;
				long long have = stat(part, &st) == 0 ? (long long)st.st_size : 0;

				pt_diag_add(diag, PT_SEV_WARNING, rel, NULL,
					    "its import from '%s' did not complete (pttrace import pid %lld is"
					    " gone; %lld of %lld bytes copied): not indexed; 'pttrace import"
					    " --into %lld %s' completes it", db_col_text(s, 5) ?: "?",
					    (long long)pid, have, (long long)db_col_int(s, 6), (long long)run_id,
					    db_col_text(s, 5) ?: "PATH");
				free(part);
			}
			continue;
		}
		if (!in_sorted(present, np, rel)) {
			pt_diag_add(diag, PT_SEV_WARNING, rel, NULL,
				    "a file of run %lld, gone from '%s' (deleted or renamed): its records"
				    " are dropped from the index", (long long)run_id, tdir);
			continue;
		}
		if (!db_col_is_null(s, 6)) {
			char *abs = pt_xasprintf("%s/%s", dir, rel);
			struct stat st;

			if (stat(abs, &st) == 0 && st.st_size < db_col_int(s, 6))
				pt_diag_add(diag, PT_SEV_WARNING, rel, NULL,
					    "%lld bytes, shorter than its source '%s' was when imported (%lld"
					    " bytes): indexed as it is", (long long)st.st_size,
					    db_col_text(s, 5) ?: "?", (long long)db_col_int(s, 6));
			free(abs);
		}
		PT_GROW(v, n, a);
		v[n++] = pt_xstrdup(rel);
	}
	if (step < 0)
		goto out;
	if (!nr && np && never_done) {
		/*
		 * Nothing registered and never indexed: a `pttrace run` that died
		 * before it registered them (lost), or files put there before their
		 * run was first indexed: the run's files are what trace/ holds,
		 * registered now as the recording pttrace would have.
		 */
		for (size_t i = 0; i < np; i++) {
			char *abs = pt_xasprintf("%s/%s", dir, present[i]);
			struct stat st;

			if (stat(abs, &st) == 0 &&
			    runs_add_file(ix, run_id, present[i], "trace", (int64_t)st.st_size) == 0) {
				PT_GROW(v, n, a);
				v[n++] = pt_xstrdup(present[i]);
			}
			free(abs);
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), pt_cmp_strp);
	for (size_t i = 0; i < np; i++)
		if (!in_sorted(v, n, present[i]) && !in_sorted(reg, nr, present[i]))
			pt_diag_add(diag, PT_SEV_WARNING, present[i], NULL,
				    "in '%s' but not a file of run %lld (not imported into it, not written"
				    " by it): not indexed; 'pttrace import --into %lld FILE' adds a file",
				    tdir, (long long)run_id, (long long)run_id);
	/* Registered files that are gone: forgotten. Rows of files not indexed now: dropped. */
	for (size_t i = 0; i < nr; i++)
		if (!in_sorted(present, np, reg[i]) && !in_sorted(keep, nk, reg[i]) &&
		    !in_sorted(v, n, reg[i])) {
			char *part = part_path(dir, reg[i]);
			int copying = access(part, F_OK) == 0;

			free(part);
			if (!copying && forget_registered(ix, run_id, reg[i]) < 0)
				goto out;
		}
	{
		json_t *rows = db_json(ix, "SELECT path FROM trace_files WHERE run_id = ?1", "i", run_id);
		size_t i;
		json_t *e;

		if (!rows)
			goto out;
		json_array_foreach(rows, i, e) {
			const char *p = json_string_value(json_object_get(e, "path"));

			if (p && !in_sorted(v, n, p) && !in_sorted(keep, nk, p) && forget_file(ix, run_id, p) < 0) {
				json_decref(rows);
				goto out;
			}
		}
		json_decref(rows);
	}
	rc = 0;
out:
	for (size_t i = 0; i < np; i++)
		free(present[i]);
	for (size_t i = 0; i < nr; i++)
		free(reg[i]);
	for (size_t i = 0; i < nk; i++)
		free(keep[i]);
	free(present);
	free(reg);
	free(keep);
	free(tdir);
	if (rc < 0) {
		for (size_t i = 0; i < n; i++)
			free(v[i]);
		free(v);
		v = NULL;
		n = 0;
	}
	*out = v;
	*nout = n;
	return rc;
}

int tt_index_run(struct db *ix, int64_t run_id, int progress, struct pt_diag *diag,
		 struct tt_ingest_totals *tot)
{
	char *dir = rundir_path(ix, run_id);
	char **v = NULL;
	size_t n = 0;
	int rc = 0;

	struct db_stmt *s = db_prepare(ix, "SELECT 1 FROM run_parts WHERE run_id = ?1 AND part = 'trace'"
					   " AND state = 'done'");
	int never_done = 1;

	if (s && db_bind(s, "i", run_id) == 0 && db_step(s) == 1) {
		never_done = 0;
		db_reset(s);
	}
	if (schema_part_mark(ix, "trace", run_id, "partial") < 0 ||
	    plan_reindex(ix, run_id, dir, never_done, diag, &v, &n) < 0)
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
	free(dir);
	return rc;
}


/* The hidden name of a copy until it is complete: trace/x.log -> <rundir>/trace/.x.log.part */
static char *part_path(const char *rundir, const char *rel)
{
	const char *b = strrchr(rel, '/');

	return b ? pt_xasprintf("%s/%.*s/.%s.part", rundir, (int)(b - rel), rel, b + 1)
		 : pt_xasprintf("%s/.%s.part", rundir, rel);
}

/* 1 when rel is a file of the run, or being copied, or registered: not a name for another. */
static int name_taken(struct db *ix, int64_t run_id, const char *rundir, const char *rel)
{
	static const char sql[] = "SELECT 1 FROM run_files WHERE run_id = ?1 AND path = ?2"
				  " UNION ALL SELECT 1 FROM trace_sources WHERE run_id = ?1 AND path = ?2";
	char *abs = pt_xasprintf("%s/%s", rundir, rel), *part = part_path(rundir, rel);
	int taken = access(abs, F_OK) == 0 || access(part, F_OK) == 0;
	struct db_stmt *s = NULL;

	free(abs);
	free(part);
	if (!taken && tt_prep(ix, &s, sql) == 0 && db_bind(s, "it", run_id, rel) == 0 && db_step(s) == 1) {
		db_reset(s);
		taken = 1;
	}
	return taken;
}

/* "trace/<base>", or "trace/<base>.2" ... when that name is taken. */
static char *dest_name(struct db *ix, int64_t run_id, const char *rundir, const char *base)
{
	for (int i = 1;; i++) {
		char *rel = i == 1 ? pt_xasprintf("trace/%s", base) : pt_xasprintf("trace/%s.%d", base, i);

		if (!name_taken(ix, run_id, rundir, rel))
			return rel;
		free(rel);
	}
}

enum claim { CLAIM_FAIL = -1, CLAIM_SKIP, CLAIM_NEW, CLAIM_RESUME };

/*
 * Take source src (stat st) for the run, in one write transaction (BEGIN
 * IMMEDIATE: two imports of the same file at once cannot both find it new,
 * issue 34 N9): imported before and complete, or being imported by a live
 * pttrace import: CLAIM_SKIP (a note says so). Else its trace_sources row
 * (state 'copying', this process as importer) and its empty hidden copy
 * are made: CLAIM_NEW, or CLAIM_RESUME when an import of it died before it
 * completed (its partial copy is replaced). *rel: where it goes.
 */
static enum claim claim_source(struct db *ix, int64_t run_id, const char *rundir, const char *src,
			       const struct stat *st, const char *rank_from, struct pt_diag *diag,
			       char **rel)
{
	static const char q_sql[] =
		"SELECT path, state, importer_pid, importer_host, imported_us, source_size"
		" FROM trace_sources WHERE run_id = ?1 AND source = ?2 ORDER BY path LIMIT 1";
	static const char ins_sql[] =
		"INSERT OR REPLACE INTO trace_sources(run_id, path, source, imported_us, rank_from,"
		" source_size, source_mtime_ns, state, importer_pid, importer_host)"
		" VALUES(?,?,?,?,?,?,?,'copying',?,?)";
	const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	char host[256] = "";
	struct db_stmt *s = NULL;
	enum claim c = CLAIM_NEW;
	char *part = NULL;
	int rc, fd;

	*rel = NULL;
	gethostname(host, sizeof(host) - 1);
	if (db_begin(ix) < 0)
		return CLAIM_FAIL;
	if (tt_prep(ix, &s, q_sql) < 0 || db_bind(s, "it", run_id, src) < 0 || (rc = db_step(s)) < 0)
		goto fail;
	if (rc == 1) {
		const char *state = db_col_text(s, 1);
		int64_t pid = db_col_int(s, 2);

		*rel = pt_xstrdup(db_col_text(s, 0) ? db_col_text(s, 0) : "");
		if (!state || !strcmp(state, "done")) {
			int64_t was = db_col_is_null(s, 5) ? -1 : db_col_int(s, 5);

			if (was >= 0 && was != (int64_t)st->st_size)
				pt_diag_add(diag, PT_SEV_NOTE, src, NULL,
					    "already imported into run %lld as %s: not imported again (it has"
					    " changed since: %lld bytes then, %lld now)", (long long)run_id, *rel,
					    (long long)was, (long long)st->st_size);
			else
				pt_diag_add(diag, PT_SEV_NOTE, src, NULL,
					    "already imported into run %lld as %s: not imported again",
					    (long long)run_id, *rel);
			c = CLAIM_SKIP;
		} else if (pid != (int64_t)getpid() &&
			   !runs_recorder_gone(pid, db_col_text(s, 3), db_col_int(s, 4))) {
			pt_diag_add(diag, PT_SEV_NOTE, src, NULL,
				    "being imported into run %lld as %s by pttrace import (pid %lld on %s)"
				    " right now: not imported again", (long long)run_id, *rel, (long long)pid,
				    db_col_text(s, 3) ? db_col_text(s, 3) : "?");
			c = CLAIM_SKIP;
		} else {
			pt_diag_add(diag, PT_SEV_NOTE, src, NULL,
				    "its import into run %lld as %s did not complete (pttrace import pid %lld"
				    " is gone): imported again, the partial copy replaced",
				    (long long)run_id, *rel, (long long)pid);
			c = CLAIM_RESUME;
		}
		db_reset(s);
	}
	if (c == CLAIM_SKIP) {
		if (db_commit(ix) < 0)
			goto fail;
		return CLAIM_SKIP;
	}
	if (c == CLAIM_NEW)
		*rel = dest_name(ix, run_id, rundir, base);
	part = part_path(rundir, *rel);
	if (c == CLAIM_RESUME) {
		/* The partial copy, and the file itself when the dead import had renamed it but not said so. */
		char *abs = pt_xasprintf("%s/%s", rundir, *rel);

		unlink(part);
		unlink(abs);
		free(abs);
	}
	if (tt_prep(ix, &s, ins_sql) < 0 ||
	    db_run(s, "ittitiiit", run_id, *rel, src, pt_wall_us(), rank_from, (int64_t)st->st_size,
		   (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec, (int64_t)getpid(),
		   host) < 0 ||
	    runs_add_file(ix, run_id, *rel, "trace", (int64_t)st->st_size) < 0)
		goto fail;
	fd = open(part, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		pt_diag_add(diag, PT_SEV_ERROR, part, NULL, "cannot create: %s", strerror(errno));
		goto fail;
	}
	close(fd);
	if (db_commit(ix) < 0) {
		unlink(part);
		goto fail_nt;
	}
	free(part);
	return c;
fail:
	db_rollback(ix);
fail_nt:
	free(part);
	free(*rel);
	*rel = NULL;
	return CLAIM_FAIL;
}

/* Imports claimed here that did not complete: their copies and rows go (nothing half-done stays). */
static void unclaim(struct db *ix, int64_t run_id, const char *rundir, const char *rel)
{
	static const char del_src[] = "DELETE FROM trace_sources WHERE run_id = ?1 AND path = ?2";
	static const char del_file[] = "DELETE FROM run_files WHERE run_id = ?1 AND path = ?2";
	char *abs = pt_xasprintf("%s/%s", rundir, rel), *part = part_path(rundir, rel);
	struct db_stmt *s = NULL;

	/* The files first: on a full disk that is what frees the space to write the rest. */
	unlink(part);
	unlink(abs);
	free(part);
	free(abs);
	if (forget_file(ix, run_id, rel) < 0 || tt_prep(ix, &s, del_src) < 0 ||
	    db_run(s, "it", run_id, rel) < 0 || tt_prep(ix, &s, del_file) < 0 || db_run(s, "it", run_id, rel) < 0)
		return;
}

int tt_import_files(struct db *ix, int64_t run_id, const char *const *srcs, size_t n,
		    const char *rank_from, int progress, struct pt_diag *diag,
		    struct tt_ingest_totals *tot)
{
	char *rundir = rundir_path(ix, run_id);
	char *tdir = pt_xasprintf("%s/trace", rundir);
	struct tt_par_file *f = pt_xcalloc(n + 1, sizeof(*f));
	const char **sp = pt_xcalloc(n + 1, sizeof(*sp));
	const char **finals = pt_xcalloc(n + 1, sizeof(*finals));
	char *done = pt_xcalloc(n + 1, 1);
	size_t k = 0, m = 0;
	int rc = -1, bad_errno = 0, failed = 0;

	if (mkdir(tdir, 0700) < 0 && errno != EEXIST) {
		pt_diag_add(diag, PT_SEV_ERROR, tdir, NULL, "cannot create: %s", strerror(errno));
		goto out;
	}
	/*
	 * Each copy's name is taken (its hidden copy created) here, in order, so
	 * that two sources of the same base name get base and base.2 as one after
	 * another would; the reader thread fills them while it parses.
	 */
	for (; k < n; k++) {
		int in = open(srcs[k], O_RDONLY | O_CLOEXEC);
		struct stat st;
		enum claim c;
		char *rel;

		if (in < 0 || fstat(in, &st) < 0) {
			bad_errno = errno;	/* reported after the files before it, as one by one */
			if (in >= 0)
				close(in);
			break;
		}
		close(in);
		c = claim_source(ix, run_id, rundir, srcs[k], &st, rank_from, diag, &rel);
		if (c == CLAIM_FAIL) {
			failed = 1;
			break;
		}
		if (c == CLAIM_SKIP) {
			free(rel);
			continue;
		}
		f[m].name = rel;
		f[m].copy_to = part_path(rundir, rel);
		f[m].path = srcs[k];
		finals[m] = pt_xasprintf("%s/%s", rundir, rel);
		sp[m] = srcs[k];
		m++;
	}
	{
		struct ingest_many im = {
			.ix = ix, .run_id = run_id, .progress = progress, .stop_on_error = 1,
			.diag = diag, .tot = tot, .files = f, .stat_paths = sp, .finals = finals,
			.done = done,
		};

		rc = m ? ingest_many(&im, m) : 0;
		if (failed)
			rc = -1;
		if (k < n && !failed) {
			if (rc == 0)
				pt_diag_add(diag, PT_SEV_ERROR, srcs[k], NULL, "cannot read: %s",
					    strerror(bad_errno));
			rc = -1;
		}
	}
	for (size_t i = 0; i < m; i++)
		if (!done[i])
			unclaim(ix, run_id, rundir, f[i].name);
out:
	for (size_t i = 0; i < m; i++) {
		free((char *)f[i].name);
		free((char *)f[i].copy_to);
		free((char *)finals[i]);
	}
	free(f);
	free(sp);
	free(finals);
	free(done);
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

int64_t tt_import_running(struct db *ix, int64_t run_id, char **host)
{
	struct db_stmt *s = db_prepare(ix, "SELECT importer_pid, importer_host, imported_us FROM trace_sources"
					   " WHERE run_id = ?1 AND state = 'copying'");
	int64_t pid = 0;
	int rc;

	*host = NULL;
	if (!s || db_bind(s, "i", run_id) < 0)
		return 0;
	while ((rc = db_step(s)) == 1) {
		if (!runs_recorder_gone(db_col_int(s, 0), db_col_text(s, 1), db_col_int(s, 2))) {
			pid = db_col_int(s, 0);
			*host = pt_xstrdup(db_col_text(s, 1) ? db_col_text(s, 1) : "?");
			db_reset(s);
			break;
		}
	}
	return pid;
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

