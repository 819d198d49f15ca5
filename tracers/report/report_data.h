/*
 * The report's reads from the index (report_data.c holds its SQL): compile
 * occurrences, stacks, payload lists. Plain structs out; nothing prints.
 * Every function returns 0 or -1; errors go to the connection's diag (db_diag).
 */
#ifndef PT_REPORT_DATA_H
#define PT_REPORT_DATA_H

#include <jansson.h>
#include <stdint.h>

#include "compileid.h"
#include "db.h"
#include "tt_query.h"

/* One compilation_metrics record (or a compile id that has none: "missing"). */
struct rp_occ {
	int64_t id;		/* the metrics record (trace_records.id); the dynamo_start when missing */
	int64_t rank;		/* who: the rank, -1 the run's only unranked file, -1 - process
				 * (<= -2) when several files and this one has no rank of its own */
	int64_t file_id;	/* the trace file (one per rank or process) */
	struct compileid cid;	/* all parts NONE: AOTInductor metrics without a compile id */
	int64_t nth;		/* 1 for the first occurrence of this (rank, cid), 2 for the next ... */
	char *co_name, *co_filename;
	int64_t co_firstlineno;
	const char *status;	/* ok, restarted, failed, empty, missing */
	char *fx_cache, *aot_cache;	/* hit, miss, bypass or NULL, from the artifacts before it */
	double t_entire, t_backend, t_inductor, start_time;	/* -1 unknown */
	int64_t ops, nodes, inputs, guards, shape_guards;	/* -1 unknown */
	char *fail_type, *fail_reason;
	json_t *restart_reasons;	/* the list as logged, or NULL */
	json_t *metrics;	/* the whole metadata object, or NULL */
};

/* Where each compile's records are in its file (report_data.c): built per file on first use. */
struct rp_cindex;

struct rp_occs {
	struct rp_occ *v;
	size_t n;
	struct rp_cindex *ci;	/* the index rp_compile_records reads through */
};

int rp_occs_load(struct db *ix, int64_t run_id, struct rp_occs *out);

void rp_occs_release(struct rp_occs *o);

/* The page key of a compile id and who: "r0_-_0_0_0", "p2_-_0_0_0", "-_-_1_0_0" (file-name safe). */
void rp_occ_key(int64_t rank, const struct compileid *cid, char *out, size_t n);

/*
 * One frame of a stack as "file:line in name", then "\n" and its source line
 * (`loc`) when the frame has one; an interned file name (an index, as torch
 * writes it) read from the trace file's string table, "?" when absent.
 */
char *rp_frame_text(struct db *ix, int64_t file_id, json_t *frame);

/* Stream the dynamo_start stacks (rank: who, as in struct rp_occ) (and, with unknown, the stacks of records without a
 * compile id) as frames rp_frame_text makes, outermost first. */
typedef int (*rp_stack_cb)(void *ctx, int64_t rank, const struct compileid *cid,
			   char **frames, size_t nframes, const char *kind);
int rp_stacks(struct db *ix, int64_t run_id, int unknown, rp_stack_cb cb, void *ctx);

/* One record of the run, as the pages need it (rank: who, as in struct rp_occ). */
struct rp_rec {
	int64_t id, rank, lineno, file_id;
	struct compileid cid;
	const char *kind, *name, *md5, *md5_declared, *envelope, *file;
};
typedef int (*rp_rec_cb)(void *ctx, const struct rp_rec *r);

/*
 * Every record of one compile id in one trace file (a rank or process; a missing attempt
 * counts as 0), in file order, chromium events and str records left out. The first
 * call for a file reads its id range once (ids and compile ids only) and notes the
 * stretches of ids each compile's records take; each call then reads only those, so
 * a report's compile pages read each record a bounded number of times, however many
 * compiles the file has (N4). occs: as rp_occs_load filled it.
 */
int rp_compile_records(struct db *ix, struct rp_occs *occs, int64_t run_id, int64_t file_id,
		       const struct compileid *cid, rp_rec_cb cb, void *ctx);
/* Rows the compile record reads have stepped through since rp_occs_load (tests, --json). */
uint64_t rp_compile_rows_read(const struct rp_occs *occs);
/* Every record of the kinds in kinds[] (NULL-terminated), in file order. */
int rp_records_of_kinds(struct db *ix, int64_t run_id, const char *const *kinds,
			rp_rec_cb cb, void *ctx);
/* Every record with a payload but chromium events, in file order. */
int rp_payload_records(struct db *ix, int64_t run_id, rp_rec_cb cb, void *ctx);
/* Records whose md5 did not match, and with declared md5s (file:line). */
int rp_md5_mismatches(struct db *ix, int64_t run_id, rp_rec_cb cb, void *ctx);

/* Distinct payloads but chromium events': md5, first kind/name, uses; cb per payload. */
typedef int (*rp_payload_cb)(void *ctx, const char *md5, const char *kind, const char *name,
			     const char *envelope, int64_t uses);
int rp_payloads(struct db *ix, int64_t run_id, rp_payload_cb cb, void *ctx);

/* Count of records per kind: cb(kind, n) in kind order. */
typedef int (*rp_count_cb)(void *ctx, const char *key, int64_t n);
int rp_kind_counts(struct db *ix, int64_t run_id, rp_count_cb cb, void *ctx);

/* The run's trace files. */
struct rp_file {
	const char *path;
	int64_t size, rank, name_rank, json_rank, lines, records, payloads, damaged, md5_mismatches;
	const char *rank_conflict;
};
typedef int (*rp_file_cb)(void *ctx, const struct rp_file *f);
int rp_files(struct db *ix, int64_t run_id, rp_file_cb cb, void *ctx);

/* A `pttrace run` run's records by kind and level, TORCH_LOGS artifact and
 * dispatcher ops: cb(key, n) with keys "level:WARNING", "artifact:graph_breaks",
 * "op:aten::add". */
int rp_run_counts(struct db *ix, int64_t run_id, rp_count_cb cb, void *ctx);

/*
 * The run's crash, or NULL: {signal, core_note, gdb (run_crash, pttrace
 * run), text, src_file, src_line (its first crash record)}, missing parts
 * null. (torch's version from the trace: tt_torch_version, tt_query.h.)
 */
json_t *rp_run_crash(struct db *ix, int64_t run_id);

/* A `pttrace run` run's error records (level >= ERROR, tracebacks, C++ errors), in
 * arrival order, at most limit: cb(kind, level, text). */
typedef int (*rp_err_cb)(void *ctx, const char *kind, int64_t level, const char *text);
int rp_run_errors(struct db *ix, int64_t run_id, size_t limit, rp_err_cb cb, void *ctx);

/* The dispatcher call tree of a run, depth first: cb(depth, op, overload, key, id) for
 * at most limit calls (roots in call order, each followed by its callees). */
typedef int (*rp_call_cb)(void *ctx, int depth, const char *op, const char *overload,
			  const char *key);
int rp_call_tree(struct db *ix, int64_t run_id, size_t limit, rp_call_cb cb, void *ctx);

/* 1 when the run is in the index, 0 when not, -1 on error (diag). */
int rp_run_exists(struct db *ix, int64_t run_id);

/* The run's row as a JSON object (id, name, source, argv, status, exit_code, signal,
 * started_us, ended_us, torch_version), or NULL when there is no such run. */
json_t *rp_run_row(struct db *ix, int64_t run_id);

/* ---- the row readers report_data.c and report_occs.c share (this folder only) ---- */

/*
 * Who wrote the file f, as the report groups compiles (the same rule as the
 * labels of tt_compiles and tt_records; the values: TT_WHO_SQL, tt_query.h):
 * stored in trace_files.who, computed for a run not fully indexed.
 */
#define WHO(f) "coalesce(" f ".who, " TT_WHO_SQL(f) ")"

/* Columns every record query selects, in this order (rp_rec_from_row). */
#define REC_COLS "r.id, " WHO("f") ", r.lineno, r.file_id, r.ca, r.frame, r.compile, r.attempt," \
	" r.kind, r.name, r.payload_md5, r.md5_declared, r.envelope, f.path"
#define REC_FROM " FROM trace_records r JOIN trace_files f ON f.id = r.file_id"

/* A compile id column of s: COMPILEID_NONE where it is NULL. */
int64_t rp_col_id(struct db_stmt *s, int col);

/* The row s stands on (REC_COLS) as r; its strings are the statement's until its next step. */
void rp_rec_from_row(struct db_stmt *s, struct rp_rec *r);

/* Step s to the end, calling cb per row; 0, or -1 when a step fails or cb returns < 0. */
int rp_rec_loop(struct db_stmt *s, rp_rec_cb cb, void *ctx);

#endif
