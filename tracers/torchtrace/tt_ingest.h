/*
 * TORCH_TRACE files into the index (tables: tt_schema.c). One streaming
 * pass per file with a fixed-size read buffer: memory does not grow with the
 * file. Ranks: every record gets its file's rank: rank_<R>_ in the file name,
 * else the first "rank" of its records (import --rank-from=record: the
 * records' first, else the name's); disagreements are warnings, and records
 * of other ranks are kept under the file's rank and counted.
 */
#ifndef PT_TT_INGEST_H
#define PT_TT_INGEST_H

#include <stdint.h>

#include "diag.h"
#include "db.h"
#include "schema.h"

/* The TORCH_TRACE schema parts (tt_schema.c has the tables, column by column). */
extern const struct schema_part tt_sources_part;
extern const struct schema_part tt_records_part;

struct tt_ingest_totals {
	uint64_t files, bytes, records, payloads, md5_mismatches, damaged;
	/* CPU seconds: reading (and copying), parsing on the workers, writing the index */
	double cpu_read, cpu_parse, cpu_write;
};

/* rank_<R> in a TORCH_TRACE file name (dedicated_log_torch_trace_rank_3_ab.log), or -1. */
long tt_name_rank(const char *name);

/*
 * Index one file that lies in the run's directory (relpath relative to it,
 * e.g. "trace/x.log"). Re-indexing a path first removes its old rows.
 * progress: show a progress line on a tty. Returns 0 (problems in the file
 * are warnings in diag) or -1 (unreadable, database error).
 */
int tt_ingest_file(struct db *ix, int64_t run_id, const char *relpath, int progress,
		      struct pt_diag *diag, struct tt_ingest_totals *tot);

/*
 * Where in the run a file imported earlier from source (an absolute path,
 * as trace_sources keeps it) went ("trace/<name>"), or NULL when none was.
 * Caller frees.
 */
char *tt_source_imported(struct db *ix, int64_t run_id, const char *source);

/*
 * The pid of a live pttrace import that is copying a file into the run now
 * (*host: its host, caller frees), or 0 when none is.
 */
int64_t tt_import_running(struct db *ix, int64_t run_id, char **host);

/*
 * `pttrace import` of files: each source (a regular file) is copied into
 * <run dir>/trace/ (its base name, ".2" ... appended when taken), where it
 * came from recorded (trace_sources, run_files), and indexed: parsed on all
 * cores (tt_parallel.h), written one after another in the order given, on
 * this thread. rank_from is the rank rule, "file" (NULL) or "record", kept in
 * trace_sources. Each source is taken in one write transaction with the
 * check that it is new (a note, and skipped, when it was imported before or
 * is being imported by a live pttrace import; one whose import died is
 * imported again over its partial copy), copied under a hidden name
 * (trace/.<name>.part) and renamed when complete. A file that fails leaves
 * nothing behind: its copy and rows are removed.
 */
int tt_import_files(struct db *ix, int64_t run_id, const char *const *srcs, size_t n,
		    const char *rank_from, int progress, struct pt_diag *diag,
		    struct tt_ingest_totals *tot);

/*
 * After the files of a run are indexed: number its files as processes (1, 2
 * ... by path; TORCH_TRACE writes one file per process) and report what the
 * rank rule cannot settle: several files of one rank (a warning: kept apart,
 * never merged) and several processes without a rank (a note). 0 or -1.
 */
int tt_processes_check(struct db *ix, int64_t run_id, struct pt_diag *diag);

/* After runs were deleted: drop the payloads no record refers to any more. 0 or -1. */
int tt_forget_orphans(struct db *ix);

/* Mark the run's "trace" part as built by this version (schema.h). */
int tt_mark_indexed(struct db *ix, int64_t run_id);

/*
 * Index every regular file under <run dir>/trace/ (the run's TORCH_TRACE
 * directory; what `pttrace run` points TORCH_TRACE at and `import` copies
 * into), in name order, and mark the "trace" part done for the run.
 * A run without that directory is fine (0, nothing indexed). A file that
 * cannot be indexed (unreadable, database error) makes it -1 and leaves the
 * part "partial" (`pttrace reindex` retries it); the other files are still
 * indexed. progress and tot as tt_ingest_file (tot may be NULL).
 */
int tt_index_run(struct db *ix, int64_t run_id, int progress, struct pt_diag *diag,
		 struct tt_ingest_totals *tot);

#endif
