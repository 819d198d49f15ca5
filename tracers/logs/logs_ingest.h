/*
 * The indexer of a run's output: bytes of stdout and stderr in arrival order
 * go in, records come out into the "lines" part of the index (records,
 * dispatch_calls). Each line is classified (torchlogs.h, dispatch.h, Python
 * tracebacks and warnings, a crash's faulthandler dump with what
 * std::terminate printed before it, everything else "other"); consecutive
 * lines of one stream that share a TORCH_LOGS prefix, or belong to one
 * traceback or crash, form one record. A crash record's src_file/src_line
 * are the innermost Python frame of the thread that crashed. Every line lands in exactly one record: the sum of
 * records.nlines is the number of lines. Memory is bounded: a record's text
 * is capped (LOGS_MAX_TEXT; a longer one continues in a new record).
 *
 * ingest batches its own inserts (db_batch_*, committed every
 * LOGS_COMMIT_MS or 20,000 rows, and when the input pauses: see
 * logs_ingest_idle), so readers see progress: hold no transaction around it.
 *
 * Two threads: the caller's splits and parses lines into batches of rows; a
 * writer thread of the ingest's own, started by logs_ingest_new, puts them
 * into SQLite in order. From logs_ingest_new to logs_ingest_finish (or
 * _free) the connection ix belongs to that writer: the caller must not use
 * it. The calls below may come from different threads one after another
 * (pttrace run hands the ingest from its indexing thread to its main
 * thread), never at the same time.
 */
#ifndef PT_LOGS_INGEST_H
#define PT_LOGS_INGEST_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "schema.h"

/* The schema part "lines": records and dispatch_calls (logs_schema.c). */
extern const struct schema_part logs_part;

#define LOGS_MAX_TEXT (4u << 20)	/* bytes of one record's text */

#define LOGS_COMMIT_MS 200	/* a commit at least this often while rows come in */
#define LOGS_IDLE_COMMIT_MS 50	/* ...and when the input pauses, once the last is this old */

enum logs_kind {
	LOGS_OTHER,
	LOGS_LOG,
	LOGS_DISPATCH,
	LOGS_CPP,
	LOGS_TRACEBACK,
	LOGS_WARNING,
	LOGS_CRASH,	/* what a dying process printed: faulthandler's stacks, std::terminate's */
	LOGS_NKINDS,
};

/* "other", "log", "dispatch", "cpp", "traceback", "warning", "crash" (records.kind). */
const char *logs_kind_name(enum logs_kind k);

struct logs_ingest_stats {
	uint64_t lines[LOGS_NKINDS];
	uint64_t records[LOGS_NKINDS];
	uint64_t bytes;		/* bytes fed */
	uint64_t torn_joined;	/* dispatcher calls rebuilt from two torn lines */
	double writer_cpu_seconds;	/* CPU time of the writer thread (after finish) */
};

struct logs_ingest;

/*
 * Start indexing run run_id: ref_us and tz_off_s give glog times their year
 * and zone (runs.started_us, runs.tz_offset_s). Deletes rows this run may
 * already have in the part (reindex), marks the part "partial" for the run.
 * NULL on error (diag of ix).
 */
struct logs_ingest *logs_ingest_new(struct db *ix, int64_t run_id, int64_t ref_us, long tz_off_s);

/* Bytes of stream (1 stdout, 2 stderr), in arrival order. 0 or -1 (diag). */
int logs_ingest_feed(struct logs_ingest *ig, int stream, const uint8_t *buf, size_t len);

/*
 * The input is quiet for now (a live run's reader caught up with the child):
 * when rows wait, or a record is still open, and the last commit is
 * LOGS_IDLE_COMMIT_MS old, open records are written as they are so far
 * (completed later in place: same row, nothing counted twice) and all is
 * committed, with no transaction held until the next write. 0 or -1.
 */
int logs_ingest_idle(struct logs_ingest *ig);

/*
 * The SQLite writer thread (see logs_ingest_new) is replaced by one created
 * by the calling thread, so with its priority: `pttrace run` indexes at nice
 * 10 while the child runs, and calls this from the main thread after the
 * child's exit. The new writer goes on with the queue. 0 or -1.
 */
int logs_ingest_writer_here(struct logs_ingest *ig);

/* End of both streams: last lines and open records out, commit, mark "done". 0 or -1. */
int logs_ingest_finish(struct logs_ingest *ig);

const struct logs_ingest_stats *logs_ingest_get_stats(const struct logs_ingest *ig);

/* Free (an unfinished ingest rolls nothing back: what was committed stays, "partial"). */
void logs_ingest_free(struct logs_ingest *ig);

/*
 * Index a run from its spool files (pttrace reindex, or after a crash):
 * logs_ingest_new + every chunk of spool_read + logs_ingest_finish. 0 or -1 (diag).
 */
int logs_ingest_run_dir(struct db *ix, int64_t run_id, int64_t ref_us, long tz_off_s,
		   struct logs_ingest_stats *stats);

#endif
