/*
 * The schema part "core" (content): what a run is, its environment, warnings
 * and files, and the per-run bookkeeping of derived parts (run_parts). The
 * raw output itself is in runs/<id>/ (db.h). Change log: schema.c.
 */
#include "runs.h"

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
"CREATE TABLE IF NOT EXISTS run_crash(\n"
	"  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  signal INTEGER NOT NULL,     -- the signal that killed the child (one that dumps core)\n"
	"  core_dumped INTEGER NOT NULL, -- 1: the kernel says it dumped core (WCOREDUMP)\n"
	"  core_limit INTEGER,          -- the child's RLIMIT_CORE soft limit in bytes, -1 unlimited\n"
	"  core_pattern TEXT,           -- /proc/sys/kernel/core_pattern when the run ended\n"
	"  core_path TEXT,              -- the core file found, NULL when none\n"
	"  core_note TEXT NOT NULL,     -- where the core is, or why there is none (as shown)\n"
	"  gdb TEXT                     -- shell command that opens the core in gdb with ptgdb, or NULL\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS run_parts(\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  part TEXT NOT NULL,          -- a derived part's name (schema_parts.name)\n"
	"  version INTEGER NOT NULL,    -- that part's version when this run was indexed into it\n"
	"  state TEXT NOT NULL,         -- partial (indexing, or interrupted) or done\n"
	"  PRIMARY KEY(run_id, part)\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX IF NOT EXISTS runs_started ON runs(started_us);\n";

/*
 * core 1 -> 2: run_id_seq, seeded with the highest id there is; 2 -> 3:
 * run_crash (created by core_sql, which runs after: IF NOT EXISTS).
 * Idempotent.
 */
static int migrate_core(struct db *ix, int from)
{
	if (from >= 2)
		return 0;
	return db_exec(ix, "CREATE TABLE IF NOT EXISTS run_id_seq(last INTEGER NOT NULL);"
			   " INSERT INTO run_id_seq(last) SELECT coalesce(max(id), 0) FROM runs"
			   " WHERE NOT EXISTS (SELECT 1 FROM run_id_seq);");
}

const struct schema_part core_part = {
	.name = "core",
	.kind = SCHEMA_PART_CONTENT,
	.version = 3,
	.create_sql = core_sql,
	.migrate = migrate_core,
};
