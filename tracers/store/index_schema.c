/*
 * The index's schema as text, one comment per column, and the code that
 * creates it or brings it up to date (fossil schema.c + stash.c). Every
 * table belongs to one part (index_schema.h); a part's version is bumped by
 * any change to its text, and the change is logged below with its date.
 *
 * Schema changes (newest first):
 *   2026-11-24  core 2: run_id_seq, the highest run id ever given, so that a
 *               deleted run's id is never given again.
 *   2026-11-22  user_version 1. Parts: core 1 (content: runs, run_env,
 *               run_warnings, run_files), lines 1 (derived: records,
 *               dispatch_calls).
 *   2026-11-22  Parts trace_sources 1 (content) and trace 1 (derived): the
 *               TORCH_TRACE tables, see trace_schema.c (issue 6).
 */
#include "index_schema.h"
#include "trace_schema.h"

#include <stdio.h>
#include <string.h>

/*
 * Bookkeeping tables; their layout is INDEX_SCHEMA_VERSION (user_version).
 * Created before any part.
 */
static const char meta_sql[] =
	"CREATE TABLE IF NOT EXISTS schema_parts(\n"
	"  name TEXT PRIMARY KEY,       -- index_part.name\n"
	"  kind TEXT NOT NULL,          -- 'content' or 'derived'\n"
	"  version INTEGER NOT NULL     -- the part's version this database holds\n"
	") WITHOUT ROWID;\n";

/* Part "core": what a run is; the raw output itself is in runs/<id>/. */
static const char core_sql[] =
	"CREATE TABLE IF NOT EXISTS run_id_seq(\n"
	"  last INTEGER NOT NULL        -- the highest run id ever given (one row); ids are never reused\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS runs(\n"
	"  id INTEGER PRIMARY KEY,      -- run id; its files are in runs/<id>/ beside the database\n"
	"  name TEXT UNIQUE,            -- --name, NULL when not given\n"
	"  tag TEXT,                    -- --tag, free text\n"
	"  source TEXT NOT NULL,        -- 'run' (pttrace run) or 'import' (pttrace import)\n"
	"  argv TEXT NOT NULL,          -- JSON array: the command as executed\n"
	"  cwd TEXT,                    -- working directory of the child\n"
	"  host TEXT,                   -- host name\n"
	"  python TEXT,                 -- interpreter used for a script, NULL for -- CMD\n"
	"  torch_version TEXT,          -- torch.__version__ seen by that interpreter, NULL if unknown\n"
	"  torch_debug INTEGER,         -- torch.version.debug as 0/1, NULL if unknown\n"
	"  torch_build_type TEXT,       -- 'debug' or 'release' (torch.version.debug), NULL if unknown\n"
	"  logs_spec TEXT,              -- TORCH_LOGS given to the child, NULL when not set\n"
	"  dispatch INTEGER NOT NULL DEFAULT 0, -- 1: TORCH_SHOW_DISPATCH_TRACE=1 was set\n"
	"  trace INTEGER NOT NULL DEFAULT 0,    -- 1: TORCH_TRACE pointed at runs/<id>/trace\n"
	"  started_us INTEGER NOT NULL, -- start, UTC microseconds since the epoch\n"
	"  ended_us INTEGER,            -- child reaped, UTC microseconds; NULL while running\n"
	"  tz_offset_s INTEGER NOT NULL DEFAULT 0, -- UTC offset at start (east > 0): glog times are local\n"
	"  pid INTEGER,                 -- the child's process id\n"
	"  pttrace_pid INTEGER,         -- the recording pttrace's pid: a dead one on this host means 'lost'\n"
	"  status TEXT NOT NULL,        -- running, exited, signaled, failed (did not start), lost (pttrace died)\n"
	"  exit_code INTEGER,           -- when exited: the child's exit code\n"
	"  signal INTEGER,              -- when signaled: the signal number\n"
	"  bytes_stdout INTEGER NOT NULL DEFAULT 0, -- bytes spooled to stdout.log\n"
	"  bytes_stderr INTEGER NOT NULL DEFAULT 0, -- bytes spooled to stderr.log\n"
	"  pttrace_version TEXT         -- the pttrace that recorded the run\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS run_env(\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  name TEXT NOT NULL,          -- TORCH_*, PYTORCH_*, CUDA_*, NCCL_*, LD_LIBRARY_PATH, PYTHONPATH\n"
	"  value TEXT NOT NULL,         -- as the child got it\n"
	"  PRIMARY KEY(run_id, name)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS run_warnings(\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL,        -- order of the warnings, from 0\n"
	"  code TEXT NOT NULL,          -- stable key: logs-old-torch, dispatch-release-build, no-torch, ...\n"
	"  message TEXT NOT NULL,       -- the sentence shown to the user\n"
	"  PRIMARY KEY(run_id, seq)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS run_files(\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  path TEXT NOT NULL,          -- relative to runs/<id>/: stdout.log, trace/dedicated_log_...\n"
	"  role TEXT NOT NULL,          -- stdout, stderr, order, trace\n"
	"  bytes INTEGER,               -- size when last indexed\n"
	"  PRIMARY KEY(run_id, path)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS run_parts(\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  part TEXT NOT NULL,          -- a derived part's name (schema_parts.name)\n"
	"  version INTEGER NOT NULL,    -- that part's version when this run was indexed into it\n"
	"  state TEXT NOT NULL,         -- partial (indexing, or interrupted) or done\n"
	"  PRIMARY KEY(run_id, part)\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX IF NOT EXISTS runs_started ON runs(started_us);\n";

/* Part "lines": what the line parsers make of stdout.log and stderr.log. */
static const char lines_sql[] =
	"CREATE TABLE IF NOT EXISTS records(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL,        -- arrival order of the first line among both streams' lines, from 0\n"
	"  nlines INTEGER NOT NULL,     -- lines in the record (seq .. of its stream)\n"
	"  stream INTEGER NOT NULL,     -- 1 stdout, 2 stderr\n"
	"  off INTEGER NOT NULL,        -- byte offset of the first line in the stream's file\n"
	"  len INTEGER NOT NULL,        -- bytes of all the lines, newlines included\n"
	"  kind TEXT NOT NULL,          -- log (TORCH_LOGS), dispatch, cpp (c10/glog), traceback, other\n"
	"  level INTEGER,               -- Python level: 10 V/DEBUG, 20 I, 30 W, 40 E, 50 C/F; NULL if none\n"
	"  ts_us INTEGER,               -- UTC microseconds (year and zone from the run), NULL if no time\n"
	"  pid INTEGER,                 -- pid (or early-2024 thread id) from the prefix\n"
	"  src_file TEXT,               -- emitting file from the prefix\n"
	"  src_line INTEGER,            -- its line number\n"
	"  rank INTEGER,                -- N of a [rankN]: prefix\n"
	"  ca_id INTEGER,               -- compile id parts ([!ca/frame/compile_attempt]), NULL when absent\n"
	"  frame_id INTEGER,\n"
	"  frame_compile_id INTEGER,\n"
	"  attempt INTEGER,\n"
	"  artifact TEXT,               -- artifact logger without the leading __: guards, graph_breaks\n"
	"  text TEXT NOT NULL           -- message lines after their prefix joined by \\n; others verbatim\n"
	");\n"
	"CREATE INDEX IF NOT EXISTS records_run ON records(run_id, seq);\n"
	"CREATE TABLE IF NOT EXISTS dispatch_calls(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  record_id INTEGER NOT NULL,  -- records.id of the line it is on (no FK: deleted by run_id)\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  label TEXT NOT NULL,         -- call, redispatch, callBoxed, redispatchBoxed\n"
	"  op TEXT NOT NULL,            -- operator with namespace: aten::add (torn: what could be read)\n"
	"  overload TEXT NOT NULL,      -- Tensor; '' when none\n"
	"  dispatch_key TEXT,           -- CPU, AutogradCPU, BackendSelect, ...; NULL when torn off\n"
	"  depth INTEGER,               -- leading spaces (torch 2.0+: top level is 1); NULL in 1.13's form\n"
	"  parent_id INTEGER,           -- dispatch_calls.id of the enclosing call; NULL at top level\n"
	"  torn INTEGER NOT NULL DEFAULT 0 -- 1: the line was torn by another thread's writes\n"
	");\n"
	"CREATE INDEX IF NOT EXISTS dispatch_calls_run ON dispatch_calls(run_id, op);\n";

static const char lines_drop_sql[] =
	"DROP TABLE IF EXISTS dispatch_calls;\n"
	"DROP TABLE IF EXISTS records;\n";

/* core 1 -> 2: run_id_seq, seeded with the highest id there is (idempotent). */
static int migrate_core(struct index *ix, int from)
{
	if (from >= 2)
		return 0;
	return index_exec(ix, "CREATE TABLE IF NOT EXISTS run_id_seq(last INTEGER NOT NULL);"
			      " INSERT INTO run_id_seq(last) SELECT coalesce(max(id), 0) FROM runs"
			      " WHERE NOT EXISTS (SELECT 1 FROM run_id_seq);");
}

const struct index_part index_part_core = {
	.name = "core",
	.kind = INDEX_PART_CONTENT,
	.version = 2,
	.create_sql = core_sql,
	.migrate = migrate_core,
};

const struct index_part index_part_lines = {
	.name = "lines",
	.kind = INDEX_PART_DERIVED,
	.version = 1,
	.create_sql = lines_sql,
	.drop_sql = lines_drop_sql,
};

/* Creation order: content first. Other features append their parts here. */
const struct index_part *const index_parts[] = {
	&index_part_core,
	&index_part_lines,
	&index_part_trace_sources,	/* issue 6: trace_schema.c */
	&index_part_trace,
};
const size_t index_nparts = sizeof(index_parts) / sizeof(index_parts[0]);

const struct index_part *index_schema_part(const char *name)
{
	for (size_t i = 0; i < index_nparts; i++)
		if (!strcmp(index_parts[i]->name, name))
			return index_parts[i];
	return NULL;
}

static int pragma_int(struct index *ix, const char *sql, int64_t *v)
{
	struct index_stmt *s = index_prepare(ix, sql);
	int rc;

	if (!s)
		return -1;
	rc = index_step(s);
	*v = rc == 1 ? index_col_int(s, 0) : 0;
	if (rc == 1)
		index_reset(s);
	return rc < 0 ? -1 : 0;
}

/* Version of part name stored in the database; 0 when absent. */
static int stored_version(struct index *ix, const char *name, int64_t *v)
{
	struct index_stmt *s = index_prepare(ix, "SELECT version FROM schema_parts WHERE name = ?1");
	int rc;

	if (!s || index_bind(s, "t", name) < 0)
		return -1;
	rc = index_step(s);
	*v = rc == 1 ? index_col_int(s, 0) : 0;
	if (rc == 1)
		index_reset(s);
	return rc < 0 ? -1 : 0;
}

static int set_version(struct index *ix, const struct index_part *p)
{
	struct index_stmt *s = index_prepare(ix, "INSERT OR REPLACE INTO schema_parts(name, kind, "
						 "version) VALUES (?1, ?2, ?3)");

	if (!s)
		return -1;
	return index_run(s, "tti", p->name, p->kind == INDEX_PART_CONTENT ? "content" : "derived",
			 (int64_t)p->version);
}

static int upgrade_part(struct index *ix, const struct index_part *p, int64_t have)
{
	struct index_stmt *s;

	if (have == p->version)
		return index_exec(ix, p->create_sql);	/* IF NOT EXISTS: repairs a missing index */
	if (have > p->version) {
		pt_diag_add(ix->diag, PT_SEV_ERROR, ix->path, NULL,
			    "schema part '%s' is version %lld, newer than this pttrace (%d)",
			    p->name, (long long)have, p->version);
		return -1;
	}
	if (p->kind == INDEX_PART_DERIVED) {
		/* Rebuilt from content: drop, recreate, forget which runs were indexed. */
		if (index_exec(ix, p->drop_sql) < 0)
			return -1;
		if (index_exec(ix, p->create_sql) < 0)
			return -1;
		s = index_prepare(ix, "DELETE FROM run_parts WHERE part = ?1");
		if (!s || index_run(s, "t", p->name) < 0)
			return -1;
	} else if (have == 0) {
		if (index_exec(ix, p->create_sql) < 0)
			return -1;
	} else {
		if (!p->migrate) {
			pt_diag_add(ix->diag, PT_SEV_ERROR, ix->path, NULL,
				    "BUG: no migration for schema part '%s' from version %lld",
				    p->name, (long long)have);
			return -1;
		}
		if (p->migrate(ix, (int)have) < 0 || index_exec(ix, p->create_sql) < 0)
			return -1;
	}
	return set_version(ix, p);
}

int index_schema_ensure(struct index *ix)
{
	int64_t app, uv, have;
	int stale = 0;

	if (pragma_int(ix, "PRAGMA application_id", &app) < 0 ||
	    pragma_int(ix, "PRAGMA user_version", &uv) < 0)
		return -1;
	if (app != 0 && app != INDEX_APPLICATION_ID) {
		pt_diag_add(ix->diag, PT_SEV_ERROR, ix->path, NULL,
			    "not a pttrace database (application_id 0x%llx)", (unsigned long long)app);
		return -1;
	}
	if (uv > INDEX_SCHEMA_VERSION) {
		pt_diag_add(ix->diag, PT_SEV_ERROR, ix->path, NULL,
			    "database schema %lld is newer than this pttrace (%d)", (long long)uv,
			    INDEX_SCHEMA_VERSION);
		return -1;
	}
	if (ix->readonly) {
		if (app == 0 || uv == 0) {
			pt_diag_add(ix->diag, PT_SEV_ERROR, ix->path, NULL, "not a pttrace database");
			return -1;
		}
		for (size_t i = 0; i < index_nparts; i++) {
			if (stored_version(ix, index_parts[i]->name, &have) < 0)
				return -1;
			if (have != index_parts[i]->version)
				stale = 1;
		}
		if (stale)
			pt_diag_add(ix->diag, PT_SEV_NOTE, ix->path, NULL,
				    "schema is out of date; any writing pttrace command upgrades it");
		return 0;
	}
	if (index_begin(ix) < 0)
		return -1;
	if (app == 0) {
		char sql[96];

		snprintf(sql, sizeof(sql), "PRAGMA application_id=%d; PRAGMA user_version=%d;",
			 INDEX_APPLICATION_ID, INDEX_SCHEMA_VERSION);
		if (index_exec(ix, sql) < 0)
			goto fail;
	}
	if (index_exec(ix, meta_sql) < 0)
		goto fail;
	for (size_t i = 0; i < index_nparts; i++) {
		if (stored_version(ix, index_parts[i]->name, &have) < 0 ||
		    upgrade_part(ix, index_parts[i], have) < 0)
			goto fail;
	}
	return index_commit(ix);
fail:
	index_rollback(ix);
	return -1;
}

int index_part_mark(struct index *ix, const char *part, int64_t run_id, const char *state)
{
	static const char sql[] = "INSERT OR REPLACE INTO run_parts(run_id, part, version, state) "
				  "VALUES (?1, ?2, ?3, ?4)";
	const struct index_part *p = index_schema_part(part);
	struct index_stmt *s;

	if (!p) {
		pt_diag_add(ix->diag, PT_SEV_ERROR, ix->path, NULL, "BUG: unknown schema part '%s'",
			    part);
		return -1;
	}
	s = index_prepare(ix, sql);
	if (!s)
		return -1;
	return index_run(s, "itit", run_id, part, (int64_t)p->version, state);
}

int index_part_current(struct index *ix, const char *part, int64_t run_id)
{
	const struct index_part *p = index_schema_part(part);
	struct index_stmt *s;
	int rc, cur = 0;

	if (!p)
		return -1;
	s = index_prepare(ix, "SELECT version = ?3 AND state = 'done' FROM run_parts "
			      "WHERE run_id = ?1 AND part = ?2");
	if (!s || index_bind(s, "iti", run_id, part, (int64_t)p->version) < 0)
		return -1;
	rc = index_step(s);
	if (rc == 1) {
		cur = (int)index_col_int(s, 0);
		index_reset(s);
	}
	return rc < 0 ? -1 : cur;
}
