/*
 * The index parts of TORCH_TRACE ; the framework is schema.h.
 *
 *  trace_sources (CONTENT): where imported files came from. The files
 *    themselves are content kept in <run dir>/trace/.
 *  trace (DERIVED): everything the reader makes of those files; dropped and
 *    rebuilt from them by `pttrace reindex` when its version changes.
 *
 * Change log:
 *  2026-12-02 trace_sources 3: source_size, source_mtime_ns, state,
 *             importer_pid, importer_host (issue 34 N7, N9): an import
 *             copies to a hidden temporary name (trace/.<name>.part) and
 *             renames it when the copy is complete (state 'done'); one that
 *             died leaves state 'copying' with a dead importer, which a new
 *             import of the same source completes and reindex reports. The
 *             "already imported" check and the row are one transaction.
 *  2026-11-29 trace 4: trace_records.file_id has no foreign key: its cascade
 *             looked for a deleted file's records by scanning the whole
 *             table (no index on file_id, which would cost every import),
 *             once per file, so deleting or re-importing a run of N ranks
 *             read the table N times (256 rank files of 3.4 MB: `pttrace
 *             rm` 14-30 s). The trigger trace_file_deleted deletes the file's
 *             id range instead; trace_files.first_record is written with the
 *             file's first record, so a file cut off mid-way (a crash, an
 *             error after a commit) still names where its records start.
 *             trace_files.who: the report's key for a file's writer, set once
 *             per run with process, instead of two subqueries per record read.
 *  2026-11-25 trace 3: one index on trace_records, (run_id, kind, frame,
 *             compile), instead of (run_id, kind) and (run_id, frame,
 *             compile): every query of the second also names the kind or
 *             goes by run alone, and each index costs the import about
 *             0.05 s of CPU per 200 MB (bench/README.md "pttrace import").
 *  2026-11-24 trace_sources 2: rank_from (import --rank-from). trace 2:
 *             trace_files gains rank_source, other_rank, pid, process; a
 *             record's rank is its file's (the rank rule, docs/pttrace-trace.1).
 *  2026-11-22 trace_sources 1, trace 1: first version.
 */
#include "tt_ingest.h"

#include "db.h"

/* Add column `name` (with its declaration) to trace_sources unless it is there. 0 or -1. */
static int add_column(struct db *ix, const char *name, const char *sql)
{
	struct db_stmt *s;
	int have = 0;

	s = db_prepare(ix, "SELECT count(*) FROM pragma_table_info('trace_sources') WHERE name = ?1");
	if (!s || db_bind(s, "t", name) < 0 || db_step(s) != 1)
		return -1;
	have = (int)db_col_int(s, 0);
	db_reset(s);
	return have ? 0 : db_exec(ix, sql);
}

/* 1 -> 2: rank_from; 2 -> 3: what the import knew of its source, and whether it completed
   (rows from before are complete imports: state NULL). Idempotent. */
static int migrate_sources(struct db *ix, int from)
{
	if (from < 2 && add_column(ix, "rank_from", "ALTER TABLE trace_sources ADD COLUMN rank_from TEXT") < 0)
		return -1;
	if (from < 3 &&
	    (add_column(ix, "source_size", "ALTER TABLE trace_sources ADD COLUMN source_size INTEGER") < 0 ||
	     add_column(ix, "source_mtime_ns", "ALTER TABLE trace_sources ADD COLUMN source_mtime_ns INTEGER") < 0 ||
	     add_column(ix, "state", "ALTER TABLE trace_sources ADD COLUMN state TEXT") < 0 ||
	     add_column(ix, "importer_pid", "ALTER TABLE trace_sources ADD COLUMN importer_pid INTEGER") < 0 ||
	     add_column(ix, "importer_host", "ALTER TABLE trace_sources ADD COLUMN importer_host TEXT") < 0))
		return -1;
	return 0;
}

const struct schema_part tt_sources_part = {
	.name = "trace_sources",
	.kind = SCHEMA_PART_CONTENT,
	.version = 3,
	.migrate = migrate_sources,
	.create_sql =
	"CREATE TABLE IF NOT EXISTS trace_sources (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  path TEXT NOT NULL,      -- relative to the run directory: trace/<name>\n"
	"  source TEXT NOT NULL,    -- the path given to `pttrace import`, absolute\n"
	"  imported_us INTEGER NOT NULL, -- UTC microseconds\n"
	"  rank_from TEXT,          -- 'file' or 'record': import --rank-from; NULL = 'file'\n"
	"  source_size INTEGER,     -- the source's size in bytes when the import began\n"
	"  source_mtime_ns INTEGER, -- its modification time then, ns since the epoch\n"
	"  state TEXT,              -- 'copying' (to trace/.<name>.part, being indexed; or the import\n"
	"                           -- died: importer gone), 'done' (the copy is complete, renamed to\n"
	"                           -- path); NULL: imported before trace_sources 3, complete\n"
	"  importer_pid INTEGER,    -- the pttrace import that copies it (state 'copying')\n"
	"  importer_host TEXT,      -- its host (a pid says nothing on another one)\n"
	"  PRIMARY KEY (run_id, path)\n"
	");\n",
};

const struct schema_part tt_records_part = {
	.name = "trace",
	.kind = SCHEMA_PART_DERIVED,
	.version = 4,
	.create_sql =
	/* One row per TORCH_TRACE file of a run. */
	"CREATE TABLE IF NOT EXISTS trace_files (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  path TEXT NOT NULL,      -- relative to the run directory\n"
	"  size INTEGER NOT NULL,   -- bytes read\n"
	"  name_rank INTEGER,       -- rank_<R>_ in the file name, NULL if none\n"
	"  json_rank INTEGER,       -- the first \"rank\" of its records, NULL if none\n"
	"  rank INTEGER,            -- the file's rank by the rank rule: name_rank, else json_rank\n"
	"                           -- (--rank-from=record: json_rank, else name_rank); NULL: unranked\n"
	"  rank_source TEXT,        -- 'file' or 'record': where rank came from; NULL when unranked\n"
	"  rank_conflict TEXT,      -- why the ranks disagree, NULL if they do not\n"
	"  other_rank INTEGER,      -- records whose \"rank\" differs from the file's rank (kept, under rank)\n"
	"  pid INTEGER,             -- the first record's glog pid: the process that wrote the file\n"
	"  process INTEGER,         -- 1, 2 ...: the file's place in the run by path; one file = one process\n"
	"  who INTEGER,             -- the file's writer as the report keys it (set with process): its rank\n"
	"                           -- when no other file has it, -1 - process when the run has several\n"
	"                           -- files and this one no rank of its own, rank or -1 for a single file\n"
	"  lines INTEGER, records INTEGER, payloads INTEGER, blank_lines INTEGER,\n"
	"  damaged INTEGER,         -- lines reported and skipped\n"
	"  md5_mismatches INTEGER,\n"
	"  first_record INTEGER,    -- trace_records.id of its first record, written with it; -1: none\n"
	"  last_record INTEGER,     -- of its last, written when the file is done; NULL: not done\n"
	"  UNIQUE (run_id, path)\n"
	");\n"
	/* Payloads byte-exact, once per distinct content. */
	"CREATE TABLE IF NOT EXISTS trace_payloads (\n"
	"  md5 TEXT PRIMARY KEY,    -- lowercase hex md5 of data, as computed\n"
	"  size INTEGER NOT NULL,\n"
	"  data BLOB NOT NULL\n"
	");\n"
	/* Every record, in file order (id). */
	"CREATE TABLE IF NOT EXISTS trace_records (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run_id INTEGER NOT NULL,\n"
	"  file_id INTEGER NOT NULL, -- trace_files.id; its records are that file's id range\n"
	"  lineno INTEGER NOT NULL, -- line of the envelope, from 1\n"
	"  kind TEXT NOT NULL,      -- the envelope's kind key (str included)\n"
	"  name TEXT,               -- metadata name/filename (artifact, graph_dump, link, dump_file, inductor_output_code ...)\n"
	"  rank INTEGER,            -- the file's rank (trace_files.rank), NULL when unranked\n"
	"  json_rank INTEGER,       -- \"rank\" as written, NULL when absent\n"
	"  ca INTEGER, frame INTEGER, compile INTEGER, attempt INTEGER, -- compile id parts, NULL when absent\n"
	"  pid INTEGER,             -- glog prefix pid (or early-2024 thread id)\n"
	"  time_us INTEGER,         -- glog local time as UTC microseconds (year/zone from the file's mtime)\n"
	"  emitter TEXT,            -- glog prefix path:line\n"
	"  payload_md5 TEXT,        -- trace_payloads.md5, NULL without payload\n"
	"  md5_declared TEXT,       -- has_payload when it differs from payload_md5, else NULL\n"
	"  payload_rule TEXT,       -- plain, blank_kept, blank_dropped (torchtrace.h)\n"
	"  envelope TEXT NOT NULL   -- the JSON envelope as written\n"
	");\n"
	"CREATE INDEX IF NOT EXISTS trace_records_kind ON trace_records(run_id, kind, frame, compile);\n"
	/*
	 * A file's records are one id range (one writer, file after file), so
	 * deleting a file deletes the range: no foreign key, whose cascade would
	 * scan trace_records for the file_id. A file not done (last_record NULL)
	 * has nothing after its records but later files' ones, told apart by
	 * file_id.
	 */
	"CREATE TRIGGER IF NOT EXISTS trace_file_deleted AFTER DELETE ON trace_files BEGIN\n"
	"  DELETE FROM trace_records WHERE id BETWEEN old.first_record AND old.last_record;\n"
	"  DELETE FROM trace_records WHERE old.last_record IS NULL AND id >= old.first_record\n"
	"    AND file_id = old.id;\n"
	"END;\n"
	/* The per-file `str` intern tables. */
	"CREATE TABLE IF NOT EXISTS trace_strings (\n"
	"  file_id INTEGER NOT NULL REFERENCES trace_files(id) ON DELETE CASCADE,\n"
	"  idx INTEGER NOT NULL,\n"
	"  value TEXT NOT NULL,\n"
	"  PRIMARY KEY (file_id, idx)\n"
	") WITHOUT ROWID;\n",
	.drop_sql =
	"DROP TRIGGER IF EXISTS trace_file_deleted;\n"
	"DROP TABLE IF EXISTS trace_strings;\n"
	"DROP TABLE IF EXISTS trace_records;\n"
	"DROP TABLE IF EXISTS trace_payloads;\n"
	"DROP TABLE IF EXISTS trace_files;\n",
};
