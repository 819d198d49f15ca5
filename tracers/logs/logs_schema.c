/*
 * The schema part "lines" (derived): the records the line parsers make of
 * stdout.log and stderr.log, and the dispatcher call tree. Dropped and rebuilt
 * from the run's files by `pttrace reindex` when its version changes. The
 * part keeps its stored name "lines" (schema_parts/run_parts rows of existing
 * databases); in C it is logs_part. Change log: schema.c.
 */
#include "logs_ingest.h"

/*
 * Part "lines": what the line parsers make of stdout.log and stderr.log.
 *
 * The rowid carries the key (version 2): records.id is (run_id << 40) | seq
 * and dispatch_calls.id is (run_id << 40) | the call's number in the run
 * (from 1), so a run's rows are one rowid range, appended in order, and no
 * secondary index is kept up while a run is indexed (the two indexes of
 * version 1 were about 40 % of SQLite's cost per row: bench/README.md).
 * run_id and seq are computed from the rowid (VIRTUAL: not stored), so
 * `WHERE run_id = ?` still works, as a scan; pttrace's own queries ask for
 * the range (LOGS_RUN_RANGE). Deleting a run deletes its range (the trigger;
 * no foreign key, whose cascade would scan the table).
 */
static const char lines_sql[] =
	"CREATE TABLE IF NOT EXISTS records(\n"
	"  id INTEGER PRIMARY KEY,      -- (run_id << 40) | seq\n"
	"  run_id INTEGER GENERATED ALWAYS AS (id >> 40) VIRTUAL, -- runs.id\n"
	"  seq INTEGER GENERATED ALWAYS AS (id & 0xffffffffff) VIRTUAL, -- arrival order of the first line among both streams' lines, from 0\n"
	"  nlines INTEGER NOT NULL,     -- lines in the record (seq .. of its stream)\n"
	"  stream INTEGER NOT NULL,     -- 1 stdout, 2 stderr\n"
	"  off INTEGER NOT NULL,        -- byte offset of the first line in the stream's file\n"
	"  len INTEGER NOT NULL,        -- bytes of all the lines, newlines included\n"
	"  kind TEXT NOT NULL,          -- log (TORCH_LOGS), dispatch, cpp (c10/glog), traceback, warning, crash, other\n"
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
	"CREATE TABLE IF NOT EXISTS dispatch_calls(\n"
	"  id INTEGER PRIMARY KEY,      -- (run_id << 40) | number of the call in the run, from 1\n"
	"  record_id INTEGER NOT NULL,  -- records.id of the line it is on\n"
	"  run_id INTEGER GENERATED ALWAYS AS (id >> 40) VIRTUAL, -- runs.id\n"
	"  label TEXT NOT NULL,         -- call, redispatch, callBoxed, redispatchBoxed\n"
	"  op TEXT NOT NULL,            -- operator with namespace: aten::add (torn: what could be read)\n"
	"  overload TEXT NOT NULL,      -- Tensor; '' when none\n"
	"  dispatch_key TEXT,           -- CPU, AutogradCPU, BackendSelect, ...; NULL when torn off\n"
	"  depth INTEGER,               -- leading spaces (torch 2.0+: top level is 1); NULL in 1.13's form\n"
	"  parent_id INTEGER,           -- dispatch_calls.id of the enclosing call; NULL at top level\n"
	"  torn INTEGER NOT NULL DEFAULT 0 -- 1: the line was torn by another thread's writes\n"
	");\n"
	"CREATE TRIGGER IF NOT EXISTS lines_run_deleted AFTER DELETE ON runs BEGIN\n"
	"  DELETE FROM dispatch_calls WHERE id BETWEEN old.id << 40 AND (old.id << 40) | 0xffffffffff;\n"
	"  DELETE FROM records WHERE id BETWEEN old.id << 40 AND (old.id << 40) | 0xffffffffff;\n"
	"END;\n";

static const char lines_drop_sql[] =
	"DROP TRIGGER IF EXISTS lines_run_deleted;\n"
	"DROP TABLE IF EXISTS dispatch_calls;\n"
	"DROP TABLE IF EXISTS records;\n";

const struct schema_part logs_part = {
	.name = "lines",
	.kind = SCHEMA_PART_DERIVED,
	.version = 3,
	.create_sql = lines_sql,
	.drop_sql = lines_drop_sql,
};
