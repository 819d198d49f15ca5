/*
 * The read side of the TORCH_TRACE index, for cmd_compiles.c, cmd_artifact.c,
 * cmd_ranks.c, cmd_timeline.c, show and diff (tt_compiles.c, tt_records.c,
 * tt_events.c, tt_ranks.c, tt_timeline.c, tt_diff.c). Results are plain structs
 * or JSON documents the front ends render; only tt_timeline_write writes, to
 * the FILE * it is given. Functions return 0 or -1 (diag) unless they say.
 */
#ifndef PT_TT_QUERY_H
#define PT_TT_QUERY_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "compileid.h"
#include "diag.h"
#include "db.h"

/* What one artifact kind a compile produced, and how many times. */
struct tt_artifact_count {
	char *kind;	/* "dynamo_output_graph", "artifact:fx_graph_runnable" style: see tt_artifact_label */
	long n;
};

/*
 * One compile occurrence: one compile id of one process (file), compiled once.
 * A frame compiled again under the same id (miss/hit/miss after a reset,
 * three compilation_metrics records) gives one entry per compilation:
 * occurrence 1, 2, 3. compilation_metrics without a compile id (AOTInductor)
 * are occurrences of [-/-].
 */
struct tt_compile {
	int64_t rank;		/* the file's rank, -1 unranked */
	int64_t file_id;	/* trace_files.id: the process */
	int64_t process;	/* its number in the run (trace_files.process) */
	char label[32];		/* who compiled it: "rank 1", "p2", "" (one process) */
	int occurrence;		/* 1, 2 ...: the how-manieth compilation of this id in this process */
	struct compileid cid;	/* a missing attempt with a frame is folded into 0 */
	int64_t first_id;	/* first record (file order) */
	char *co_name, *co_filename;
	int64_t co_firstlineno;	/* -1 unknown */
	int has_metrics;	/* a compilation_metrics record closed it */
	const char *status;	/* "ok", "empty" (graph_op_count 0), "restarted", "failed", "missing" (no compilation_metrics) */
	const char *cache;	/* "hit", "miss", "bypass" or NULL (fx graph / aot autograd cache artifacts) */
	long graphs;		/* dynamo_output_graph records */
	char *graph_md5;	/* their payloads' md5s, comma-separated, or NULL */
	int64_t op_count, guard_count;	/* from compilation_metrics, -1 unknown */
	double t_entire, t_backend, t_inductor; /* seconds, -1 unknown */
	char *fail_type, *fail_reason;
	json_t *restart_reasons;	/* the list torch logged, NULL when none */
	struct tt_artifact_count *arts;
	size_t narts;
	size_t aarts;
	json_t *stack;		/* dynamo_start's frames as "file:line in name" strings, or NULL */
};

struct tt_compiles {
	struct tt_compile *v;
	size_t n;
};

/* Compile occurrences of a run in first-seen order, all ranks or only rank (>= 0). */
int tt_compiles_load(struct db *ix, int64_t run_id, int64_t rank,
			struct tt_compiles *out);
void tt_compiles_release(struct tt_compiles *c);
json_t *tt_compile_json(const struct tt_compile *c);

/*
 * SQL for a file's writer as the report keys it, f being a trace_files row:
 * the rank when the file is the only one of the run with records or the only
 * one with its rank; -1 - process (p2 is -3) when the run has several files
 * and this one has no rank of its own; -1 for the run's only, unranked file.
 * trace_files.who holds it, set once per run (tt_processes_check); the report
 * computes it only where that is NULL.
 */
#define TT_WHO_SQL(f) "(CASE WHEN (SELECT count(*) FROM trace_files o WHERE o.run_id = " f ".run_id" \
	" AND o.records > 0) <= 1 THEN coalesce(" f ".rank, -1) WHEN " f ".rank IS NOT NULL AND" \
	" (SELECT count(*) FROM trace_files o WHERE o.run_id = " f ".run_id AND o.records > 0" \
	" AND o.rank = " f ".rank) = 1 THEN " f ".rank ELSE -1 - " f ".process END)"

/* "dynamo_output_graph", or the artifact/graph_dump name for those kinds. */
const char *tt_artifact_label(const char *kind, const char *name);

/*
 * The tlparse file name of a record's payload (without the "_<N>" suffix
 * and extension split): sets base ("inductor_output_code_cxyz") and ext
 * ("txt" or "json"). Returns 0, or -1 for kinds tlparse writes no payload
 * file for (chromium_event, compilation_metrics, str ...).
 */
int tt_tlparse_name(const char *kind, const char *name, const char *envelope,
		       char *base, size_t nbase, const char **ext);

/*
 * torch's version as the trace says it (the torch_version artifact's
 * pytorch_version, torch 2.14 on), malloc'd, or NULL when it has none; md5
 * (may be NULL) gets that artifact's payload md5, malloc'd.
 */
char *tt_torch_version(struct db *ix, int64_t run_id, char **md5);

/* A payload's bytes by md5 (malloc'd, caller frees). 0 found, 1 none, -1 error. */
int tt_payload_get(struct db *ix, const char *md5, char **data, size_t *len);

/*
 * Call cb for every record of compile cid (any rank when rank < 0) whose
 * label (tt_artifact_label) or kind equals what (NULL: every record with
 * a payload), in file order.
 */
struct tt_rec_row {
	int64_t id, rank, lineno;
	struct compileid cid;
	const char *kind, *name, *md5, *envelope, *file;
	const char *who;	/* "rank 1", "p2" when the run has several processes, else NULL */
};
typedef int (*tt_rec_cb)(void *ctx, const struct tt_rec_row *row);
int tt_records_for(struct db *ix, int64_t run_id, const struct compileid *cid, int64_t rank,
		      const char *what, tt_rec_cb cb, void *ctx);

/* Graph breaks and recompiles: one row each. */
struct tt_event {
	int64_t rank;
	char who[32];	/* "rank 1", "p2" when the run has several processes, else "" */
	struct compileid cid;
	char *where;	/* "file.py:4" (graph break) / the failed guard's location */
	char *what;	/* the reason / the failed guard */
	char *prev;	/* recompiles: the compile whose guard failed ("3/0"), else NULL */
};
struct tt_events {
	struct tt_event *v;
	size_t n;
};
int tt_graph_breaks(struct db *ix, int64_t run_id, struct tt_events *out);
int tt_recompiles(struct db *ix, int64_t run_id, struct tt_events *out);
void tt_events_release(struct tt_events *e);
/* A graph break reason of torch 2.7+'s many-line shape (the text after "Graph Break
 * Reason: ", or such a restart reason) as "<type>: <explanation>"; NULL for other text. */
char *tt_short_break_reason(const char *text);

/*
 * Cross-rank checks of a run (`pttrace ranks`), tlparse's multi-rank
 * diagnostics (lib.rs generate_multi_rank_landing, parsers.rs) computed from
 * the index instead of an output directory. The result is data: one JSON
 * object that `ranks --json` prints and the report builds on:
 *
 * {"members": [{"label": "rank 0", "rank": 0, "process": 1, "path", "pid",
 *               "records", "compiles", "graphs", "failed", "rank_conflict"}...],
 *  "empty_files": [...paths without records...],
 *  "reference": "rank 0",
 *  "checks": {
 *   "compile_ids":   {"diverge", "details": ["rank 1 compiled [0/1], rank 0 did not", ...]},
 *   "cache":         {"diverge", "groups": [{"sequence": "miss hit", "ranks": ["rank 0", ...]}]},
 *   "collective_schedule": {"diverge", "groups": [...]},
 *   "tensor_meta":   {"diverge", "groups": [...]},
 *   "runtime":       {"diverge", "mismatched_graph_counts", "graphs": [{"graph",
 *                     "delta_ms", "fastest": {"rank", "runtime_ms"}, "slowest": {...}}]},
 *   "execution_order": {"diverge", "order_differs", "schedule_mismatch": [ranks],
 *                     "cache_mismatch": [ranks], "rows": [{"index", "by_rank": {label: "[0/1]"},
 *                     "issues": ["schedule", "cache"]}]},
 *   "collectives_parity": {"diverge", "graphs": [{"rank", "graph", "compile_id",
 *                     "offset", "missing_waits"}]}},
 *  "divergences": ["rank 1 compiled [0/1], rank 0 did not", "tensor meta: 2 groups of ranks", ...],
 *  "ranks": (the members again, the key the first version used),
 *  "diverge": true}
 *
 * Members are the files with records (one file = one process); a member's
 * label is "rank R", or "p<N>" (its process number) when it has no rank or
 * shares it with another file. A check with fewer than two members that have
 * its data says nothing ("diverge": false, and "members_with_data" says how many).
 */
/* 0 and *out (a new reference), or -1 (diag). */
int tt_ranks_json(struct db *ix, int64_t run_id, json_t **out, struct pt_diag *diag);

/*
 * tlparse's collectives parity for one graph (exposed for tests): the
 * collective ops of an inductor_collective_schedule payload against the
 * c10d_functional calls in the graph's output code. *offset: the summed
 * difference of per-op counts, *missing_waits: calls without a wait_tensor.
 */
void tt_collectives_parity(const char *schedule, size_t slen, const char *code, size_t clen,
			      long *offset, long *missing_waits);

/* The `show --json` additions (tt_show.c): records_by_kind, payload_md5_mismatches, ranks,
 * torch_trace (files, records, torch_version, compiles, graph breaks, recompiles) and
 * processes. */
int tt_show_json(struct db *ix, int64_t run_id, json_t *obj, struct pt_diag *diag);

/*
 * Every chromium_event of every rank as one Chrome trace ({"traceEvents": [...]})
 * written to f, pid = rank (0 when unranked), tid kept, and one process_name
 * metadata event ("rank N") per rank before its first event. Events whose payload is
 * not JSON are counted in *skipped. Events as torch writes them (md5 as declared, "pid"
 * the last member) are copied byte for byte but the pid; others are re-serialised.
 */
/* The span [*key, *vend) of the top-level "pid" member of a chromium event text when
 * only simple "ident": "ident" members follow it (torch's json.dumps order): 1, else 0
 * (tt_timeline.c explains). */
int tt_chromium_pid_span(const char *text, size_t len, size_t *key, size_t *vend);
int tt_timeline_write(struct db *ix, int64_t run_id, FILE *f, uint64_t *nevents,
			 uint64_t *skipped);

/* Compile-level differences between two runs as a JSON object (see docs/pttrace-trace.1). */
int tt_diff_json(struct db *ix, int64_t run_a, int64_t run_b, json_t **out);

/*
 * TORCH_TRACE graph breaks of two runs compared by reason and place: adds
 * doc["trace_graph_breaks"] = {"a", "b", "differences": [{key, a, b}]};
 * *differ |= 1 when they differ. 0 or -1 (diag).
 */
int tt_breaks_diff_json(struct db *ix, int64_t run_a, int64_t run_b, json_t *doc, int *differ);

#endif
