/*
 * TORCH_TRACE files into the index (tables: trace_schema.c). One streaming
 * pass per file with a fixed-size read buffer: memory does not grow with the
 * file. Ranks: every record gets its file's rank: rank_<R>_ in the file name,
 * else the first "rank" of its records (import --rank-from=record: the
 * records' first, else the name's); disagreements are warnings, and records
 * of other ranks are kept under the file's rank and counted.
 */
#ifndef PT_TRACE_INGEST_H
#define PT_TRACE_INGEST_H

#include <stdint.h>

#include "diag.h"
#include "index.h"

struct trace_ingest_totals {
	uint64_t files, bytes, records, payloads, md5_mismatches, damaged;
};

/* index_prepare in the 0/-1 convention: *sp is the cached statement. */
int trace_prep(struct index *ix, struct index_stmt **sp, const char *sql);

/* rank_<R> in a TORCH_TRACE file name (dedicated_log_torch_trace_rank_3_ab.log), or -1. */
long trace_name_rank(const char *name);

/*
 * Index one file that lies in the run's directory (relpath relative to it,
 * e.g. "trace/x.log"). Re-indexing a path first removes its old rows.
 * progress: show a progress line on a tty. Returns 0 (problems in the file
 * are warnings in diag) or -1 (unreadable, database error).
 */
int trace_ingest_file(struct index *ix, int64_t run_id, const char *relpath, int progress,
		      struct pt_diag *diag, struct trace_ingest_totals *tot);

/*
 * `pttrace import` of one file: copy src (must be a regular file) into
 * <run dir>/trace/ (its base name, ".2" ... appended when taken), record
 * where it came from (trace_sources, run_files) and index it.
 */
int trace_import_file(struct index *ix, int64_t run_id, const char *src, int progress,
		      struct pt_diag *diag, struct trace_ingest_totals *tot);
/* The same with the rank rule: rank_from "file" (NULL) or "record", kept in trace_sources. */
int trace_import_file_ex(struct index *ix, int64_t run_id, const char *src, const char *rank_from,
			 int progress, struct pt_diag *diag, struct trace_ingest_totals *tot);

/*
 * After the files of a run are indexed: number its files as processes (1, 2
 * ... by path; TORCH_TRACE writes one file per process) and report what the
 * rank rule cannot settle: several files of one rank (a warning: kept apart,
 * never merged) and several processes without a rank (a note). 0 or -1.
 */
int trace_processes_check(struct index *ix, int64_t run_id, struct pt_diag *diag);

/* After runs were deleted: drop the payloads no record refers to any more. 0 or -1. */
int trace_forget_orphans(struct index *ix);

/* Mark the run's "trace" part as built by this version (index_schema.h). */
int trace_mark_indexed(struct index *ix, int64_t run_id);

/*
 * Index every regular file under <run dir>/trace/ (the run's TORCH_TRACE
 * directory; what `pttrace run` points TORCH_TRACE at and `import` copies
 * into), in name order, and mark the "trace" part done for the run.
 * A run without that directory is fine (0, nothing indexed).
 */
int trace_index_run_dir(struct index *ix, int64_t run_id, struct pt_diag *diag);
int trace_index_run_dir_ex(struct index *ix, int64_t run_id, int progress,
			   struct pt_diag *diag, struct trace_ingest_totals *tot);

#endif
