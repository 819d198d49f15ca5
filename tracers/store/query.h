/*
 * The read side the cmd_*.c front ends use: RUN resolution (an id, a name
 * or "last"), a run's row, and the queries behind ls/show/logs/ops/diff.
 * All SQL the front ends need lives here or in index*.c.
 */
#ifndef PT_QUERY_H
#define PT_QUERY_H

#include <jansson.h>
#include <stdint.h>

#include "compileid.h"
#include "db.h"

/*
 * Resolve RUN: all digits = an id; "last" = the run started last (highest
 * id); otherwise a name. Returns 0 and *run_id, or -1 with "no run 'x'" (or
 * an SQL error) in the index's diag.
 */
int query_resolve_run(struct db *ix, const char *spec, int64_t *run_id);

/* 1 when name can be a run name: not empty, not all digits, not "last". */
int query_name_ok(const char *name);

/* 1 found (*run_id set), 0 no such name, -1 error. */
int query_run_by_name(struct db *ix, const char *name, int64_t *run_id);

/* One runs row; strings are owned by the struct (query_run_release). */
struct run_row {
	int64_t id;
	char *name, *tag, *source, *argv_json, *cwd, *host, *python;
	char *torch_version, *torch_build_type, *logs_spec, *status, *pttrace_version;
	int64_t torch_debug;	/* -1 unknown */
	int dispatch, trace;
	int64_t started_us, ended_us;	/* ended_us -1 while running */
	int64_t tz_offset_s, pid;	/* pid -1 unknown */
	int64_t exit_code, signal;	/* -1 when not applicable */
	int64_t bytes_stdout, bytes_stderr;
};

/*
 * Run sql with the values bound as db_bind's fmt says, and return every
 * row as a JSON object (column name -> integer, real, string or null; blobs
 * as lossy strings) in an array. NULL on error (diag). Caller decrefs.
 */
json_t *query_json(struct db *ix, const char *sql, const char *fmt, ...);

/* The same for a statement already prepared and bound. */
json_t *query_rows_json(struct db_stmt *s);

/* Filters of `pttrace logs`; NULL / -1 / COMPILEID_NONE parts: no filter. */
struct logs_filter {
	int min_level;		/* records.level >= this; 0: any (records without a level too) */
	const char *artifact;	/* records.artifact = this */
	struct compileid cid;	/* each part that is not COMPILEID_NONE must match */
	int has_cid;
	int rank;		/* -1: any */
	const char *grep;	/* POSIX ERE on the text */
	const char *kind;	/* records.kind */
	int stream;		/* 1, 2; 0: both */
	int64_t limit;		/* 0: no limit */
};

/*
 * The run's records matching f, in arrival order: seq, stream, off, len,
 * nlines, kind, level, ts_us, pid, src_file, src_line, rank, ca_id, frame_id,
 * frame_compile_id, attempt, artifact, text. NULL on error (diag).
 */
json_t *query_logs(struct db *ix, int64_t run_id, const struct logs_filter *f);

/* Level letter or name ("W", "warning", "DEBUG", "V") → Python level number; -1 unknown. */
int query_parse_level(const char *s);

/* Dispatcher calls by operator, overload and key: op, overload, dispatch_key, calls, torn. */
json_t *query_ops(struct db *ix, int64_t run_id);

/* Every call in arrival order: id, seq, label, op, overload, dispatch_key, depth, parent_id, torn. */
json_t *query_calls(struct db *ix, int64_t run_id);

/* 0, or -1 (diag: "no run N"). */
int query_run_load(struct db *ix, int64_t run_id, struct run_row *r);
void query_run_release(struct run_row *r);

#endif
