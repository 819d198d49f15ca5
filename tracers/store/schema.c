/*
 * The index's schema as text, one comment per column, and the code that
 * creates it or brings it up to date (fossil schema.c + stash.c). Every
 * table belongs to one part (schema.h); a part's version is bumped by
 * any change to its text, and the change is logged below with its date.
 *
 * Schema changes (newest first):
 *   2026-12-02  core 3: run_crash (a crash's signal, core file or why none,
 *               gdb command line; migrated: created). lines 3: record kind
 *               crash (faulthandler's dump), see logs_ingest.h.
 *   2026-12-02  trace_sources 3: source_size, source_mtime_ns, state,
 *               importer_pid, importer_host: an import's copy is complete or
 *               not, and who makes it (issue 34 N7, N9), see tt_schema.c.
 *   2026-11-29  trace 4: no foreign key on trace_records.file_id (its cascade
 *               scanned the table once per deleted file); the trigger
 *               trace_file_deleted deletes a file's id range, first_record
 *               is written with its first record. See tt_schema.c.
 *   2026-11-25  lines 2: the rowids carry the run (records.id = run_id << 40 |
 *               seq, dispatch_calls.id = run_id << 40 | n; run_id and seq
 *               generated from it), no records_run/dispatch_calls_run
 *               indexes and no foreign keys (trigger lines_run_deleted),
 *               see logs_schema.c.
 *   2026-11-24  core 2: run_id_seq, the highest run id ever given, so that a
 *               deleted run's id is never given again. trace_sources 2
 *               (rank_from) and trace 2 (trace_files: rank_source,
 *               other_rank, pid, process; the rank rule), see tt_schema.c.
 *   2026-11-22  user_version 1. Parts: core 1 (content: runs, run_env,
 *               run_warnings, run_files), lines 1 (derived: records,
 *               dispatch_calls).
 *   2026-11-22  Parts trace_sources 1 (content) and trace 1 (derived): the
 *               TORCH_TRACE tables, see tt_schema.c.
 */
#include "schema.h"

#include "db_json.h"
#include "strbuf.h"

#include <stdio.h>
#include <string.h>

/*
 * Bookkeeping tables; their layout is DB_SCHEMA_VERSION (user_version).
 * Created before any part.
 */
static const char meta_sql[] =
	"CREATE TABLE IF NOT EXISTS schema_parts(\n"
	"  name TEXT PRIMARY KEY,       -- schema_part.name\n"
	"  kind TEXT NOT NULL,          -- 'content' or 'derived'\n"
	"  version INTEGER NOT NULL     -- the part's version this database holds\n"
	") WITHOUT ROWID;\n";

const struct schema_part *schema_part_find(struct db *ix, const char *name)
{
	size_t n;
	const struct schema_part *const *parts = db_parts(ix, &n);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(parts[i]->name, name))
			return parts[i];
	return NULL;
}

static int pragma_int(struct db *ix, const char *sql, int64_t *v)
{
	struct db_stmt *s = db_prepare(ix, sql);
	int rc;

	if (!s)
		return -1;
	rc = db_step(s);
	*v = rc == 1 ? db_col_int(s, 0) : 0;
	if (rc == 1)
		db_reset(s);
	return rc < 0 ? -1 : 0;
}

/* Version of part name stored in the database; 0 when absent. */
static int stored_version(struct db *ix, const char *name, int64_t *v)
{
	struct db_stmt *s = db_prepare(ix, "SELECT version FROM schema_parts WHERE name = ?1");
	int rc;

	if (!s || db_bind(s, "t", name) < 0)
		return -1;
	rc = db_step(s);
	*v = rc == 1 ? db_col_int(s, 0) : 0;
	if (rc == 1)
		db_reset(s);
	return rc < 0 ? -1 : 0;
}

static int set_version(struct db *ix, const struct schema_part *p)
{
	struct db_stmt *s = db_prepare(ix, "INSERT OR REPLACE INTO schema_parts(name, kind, "
						 "version) VALUES (?1, ?2, ?3)");

	if (!s)
		return -1;
	return db_run(s, "tti", p->name, p->kind == SCHEMA_PART_CONTENT ? "content" : "derived",
			 (int64_t)p->version);
}

static int upgrade_part(struct db *ix, const struct schema_part *p, int64_t have)
{
	struct db_stmt *s;

	if (have == p->version)
		return db_exec(ix, p->create_sql);	/* IF NOT EXISTS: repairs a missing index */
	if (have > p->version) {
		pt_diag_add(db_diag(ix), PT_SEV_ERROR, db_path(ix), NULL,
			    "schema part '%s' is version %lld, newer than this pttrace (%d)",
			    p->name, (long long)have, p->version);
		return -1;
	}
	if (p->kind == SCHEMA_PART_DERIVED) {
		/* Rebuilt from content: drop, recreate, forget which runs were indexed. */
		if (db_exec(ix, p->drop_sql) < 0)
			return -1;
		if (db_exec(ix, p->create_sql) < 0)
			return -1;
		s = db_prepare(ix, "DELETE FROM run_parts WHERE part = ?1");
		if (!s || db_run(s, "t", p->name) < 0)
			return -1;
	} else if (have == 0) {
		if (db_exec(ix, p->create_sql) < 0)
			return -1;
	} else {
		if (!p->migrate)
			PT_BUG("no migration for schema part '%s' from version %lld", p->name,
			       (long long)have);
		if (p->migrate(ix, (int)have) < 0 || db_exec(ix, p->create_sql) < 0)
			return -1;
	}
	return set_version(ix, p);
}

static int schema_ensure(struct db *ix)
{
	int64_t app, uv, have;
	int stale = 0;
	size_t nparts;
	const struct schema_part *const *parts = db_parts(ix, &nparts);

	if (pragma_int(ix, "PRAGMA application_id", &app) < 0 ||
	    pragma_int(ix, "PRAGMA user_version", &uv) < 0)
		return -1;
	if (app != 0 && app != DB_APPLICATION_ID) {
		pt_diag_add(db_diag(ix), PT_SEV_ERROR, db_path(ix), NULL,
			    "not a pttrace database (application_id 0x%llx)", (unsigned long long)app);
		return -1;
	}
	if (uv > DB_SCHEMA_VERSION) {
		pt_diag_add(db_diag(ix), PT_SEV_ERROR, db_path(ix), NULL,
			    "database schema %lld is newer than this pttrace (%d)", (long long)uv,
			    DB_SCHEMA_VERSION);
		return -1;
	}
	if (db_readonly(ix)) {
		if (app == 0 || uv == 0) {
			pt_diag_add(db_diag(ix), PT_SEV_ERROR, db_path(ix), NULL, "not a pttrace database");
			return -1;
		}
		for (size_t i = 0; i < nparts; i++) {
			if (stored_version(ix, parts[i]->name, &have) < 0)
				return -1;
			if (have > parts[i]->version) {
				/* No writing command upgrades this: a newer pttrace wrote it. */
				pt_diag_add(db_diag(ix), PT_SEV_WARNING, db_path(ix), NULL,
					    "schema part '%s' is version %lld, newer than this pttrace (%d):"
					    " read as far as this pttrace knows it; writing commands refuse it",
					    parts[i]->name, (long long)have, parts[i]->version);
			} else if (have != parts[i]->version) {
				stale = 1;
			}
		}
		if (stale)
			pt_diag_add(db_diag(ix), PT_SEV_NOTE, db_path(ix), NULL,
				    "schema is out of date; any writing pttrace command upgrades it");
		return 0;
	}
	if (db_begin(ix) < 0)
		return -1;
	if (app == 0) {
		char sql[96];

		pt_fmt_trunc(sql, sizeof(sql), "PRAGMA application_id=%d; PRAGMA user_version=%d;",
			 DB_APPLICATION_ID, DB_SCHEMA_VERSION);
		if (db_exec(ix, sql) < 0)
			goto fail;
	}
	if (db_exec(ix, meta_sql) < 0)
		goto fail;
	for (size_t i = 0; i < nparts; i++) {
		if (stored_version(ix, parts[i]->name, &have) < 0 ||
		    upgrade_part(ix, parts[i], have) < 0)
			goto fail;
	}
	return db_commit(ix);
fail:
	db_rollback(ix);
	return -1;
}

int schema_part_mark(struct db *ix, const char *part, int64_t run_id, const char *state)
{
	static const char sql[] = "INSERT OR REPLACE INTO run_parts(run_id, part, version, state) "
				  "VALUES (?1, ?2, ?3, ?4)";
	const struct schema_part *p = schema_part_find(ix, part);
	struct db_stmt *s;

	if (!p)
		PT_BUG("unknown schema part '%s'", part);
	s = db_prepare(ix, sql);
	if (!s)
		return -1;
	return db_run(s, "itit", run_id, part, (int64_t)p->version, state);
}

int schema_part_current(struct db *ix, const char *part, int64_t run_id)
{
	const struct schema_part *p = schema_part_find(ix, part);
	struct db_stmt *s;
	int rc, cur = 0;

	if (!p)
		return -1;
	s = db_prepare(ix, "SELECT version = ?3 AND state = 'done' FROM run_parts "
			      "WHERE run_id = ?1 AND part = ?2");
	if (!s || db_bind(s, "iti", run_id, part, (int64_t)p->version) < 0)
		return -1;
	rc = db_step(s);
	if (rc == 1) {
		cur = (int)db_col_int(s, 0);
		db_reset(s);
	}
	return rc < 0 ? -1 : cur;
}

int schema_open(struct db **out, const char *path, unsigned flags,
		const struct schema_part *const *parts, size_t n, struct pt_diag *diag)
{
	if (db_open(out, path, flags, diag) < 0)
		return -1;
	db_set_parts(*out, parts, n);
	if (schema_ensure(*out) < 0) {
		db_close(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

json_t *schema_stale_runs(struct db *ix, const struct schema_part *p, int all, const char *source)
{
	return db_json(ix, "SELECT r.id FROM runs r LEFT JOIN run_parts p ON p.run_id = r.id"
			   " AND p.part = ?3 WHERE (?4 IS NULL OR r.source = ?4) AND r.status <> 'running'"
			   " AND (?1 OR p.version IS NOT ?2 OR p.state IS NOT 'done') ORDER BY r.id",
		       "iitt", (int64_t)all, (int64_t)p->version, p->name, source);
}
