/*
 * The read side of the logs part (records, dispatch_calls): what `pttrace
 * logs`, `ops` and `diff` show. Results are JSON arrays of rows (db_json.h);
 * NULL on error (the connection's diag).
 */
#ifndef PT_LOGS_QUERY_H
#define PT_LOGS_QUERY_H

#include <jansson.h>
#include <stdint.h>

#include "compileid.h"
#include "db.h"

/*
 * The rowids carry the key (logs_schema.c): records.id = (run_id << 40) | seq,
 * dispatch_calls.id = (run_id << 40) | n. Runs up to LOGS_RUN_MAX, lines per
 * run up to LOGS_SEQ_MAX.
 */
#define LOGS_ID_BITS 40
#define LOGS_SEQ_MAX ((INT64_C(1) << LOGS_ID_BITS) - 1)
#define LOGS_RUN_MAX ((INT64_C(1) << (63 - LOGS_ID_BITS)) - 1)
#define LOGS_ID(run, n) (((int64_t)(run) << LOGS_ID_BITS) | (int64_t)(n))
/* SQL: col (a rowid of records or dispatch_calls) is one of run ?N's rows (a range scan). */
#define LOGS_RUN_RANGE(col, n) \
	" " col " BETWEEN (?" n " << 40) AND ((?" n " << 40) | 0xffffffffff) "
/* SQL: the number of the row within its run (dispatch_calls ids as shown). */
#define LOGS_ID_IN_RUN(col) "(" col " & 0xffffffffff)"

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
 * frame_compile_id, attempt, artifact, text. The statement, prepared and
 * bound, for the caller to step row by row (db_step; db_row_json for a row as
 * JSON): a run's records need no memory beyond the current one. NULL on
 * error (diag).
 */
struct db_stmt *logs_query_records(struct db *ix, int64_t run_id, const struct logs_filter *f);
enum logs_rec_col { LOGS_COL_SEQ, LOGS_COL_STREAM, LOGS_COL_OFF, LOGS_COL_LEN, LOGS_COL_TEXT = 17 };

/* Level letter or name ("W", "warning", "DEBUG", "V") → Python level number; -1 unknown. */
int logs_parse_level(const char *s);

/* Dispatcher calls by operator, overload and key: op, overload, dispatch_key, calls, torn. */
json_t *logs_query_ops(struct db *ix, int64_t run_id);

/*
 * Every call in arrival order: id, seq, label, op, overload, dispatch_key,
 * depth, parent_id, torn. The statement, bound, to step row by row (as
 * logs_query_records); NULL on error (diag).
 */
struct db_stmt *logs_query_calls(struct db *ix, int64_t run_id);

/*
 * The `pttrace show` additions of the logs part, each in record order:
 * lines by kind, graph_breaks and recompiles (the records of those TORCH_LOGS
 * artifacts), errors (crash records, tracebacks and lines of level ERROR and
 * up) and crashes (the crash records with their Python place). Owned by the
 * struct (logs_show_release).
 */
#define LOGS_NULL INT64_MIN	/* an integer column that is NULL */
struct logs_show_kind {
	char *kind;
	int64_t lines, records;
};
struct logs_show_text {	/* a record's text: NUL-terminated, len bytes (NULs kept) */
	char *s;
	size_t len;
};
struct logs_show_event {	/* graph_breaks, recompiles */
	int64_t seq, rank, frame_id, frame_compile_id, attempt;	/* or LOGS_NULL */
	struct logs_show_text text;
};
struct logs_show_error {
	int64_t seq, level, rank;	/* or LOGS_NULL */
	char *kind;
	struct logs_show_text text;
};
struct logs_show_crash {
	int64_t seq, stream, src_line;	/* or LOGS_NULL */
	char *src_file;		/* NULL when unknown */
	struct logs_show_text text;
};
struct logs_show {
	struct logs_show_kind *kinds;
	size_t n_kinds;
	struct logs_show_event *breaks, *recompiles;
	size_t n_breaks, n_recompiles;
	struct logs_show_error *errors;
	size_t n_errors;
	struct logs_show_crash *crashes;
	size_t n_crashes;
};
/* 0, or -1 (the connection's diag). */
int logs_show_load(struct db *ix, int64_t id, struct logs_show *out);
void logs_show_release(struct logs_show *l);

/*
 * A crash record's text (bytes and a length) in one line: faulthandler's
 * "Fatal Python error: Segmentation fault", with what std::terminate said
 * before it, "Fatal Python error: Aborted (c10::Error: what() text)". New
 * string; the record's first line when it has neither.
 */
char *logs_crash_summary(const char *text, size_t len);

/*
 * The run's first crash record: its summary (logs_crash_summary) and its
 * innermost Python frame (file NULL, line -1 when none). 1 found (*what and
 * *file new strings), 0 none, -1 error (diag).
 */
int logs_crash_first(struct db *ix, int64_t run_id, char **what, char **file, int64_t *line);

#endif
