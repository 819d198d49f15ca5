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

/* One compile id of one rank (attempts are separate rows: [0/0] and [0/0_1]). */
struct tt_compile {
	int64_t rank;		/* -1 unranked */
	struct compileid cid;	/* a missing attempt with a frame is folded into 0 */
	int64_t first_id;	/* first record (file order) */
	char *co_name, *co_filename;
	int64_t co_firstlineno;	/* -1 unknown */
	const char *status;	/* "ok", "restarted", "failed", "missing" (no compilation_metrics) */
	const char *cache;	/* "hit", "miss", "bypass" or NULL (fx graph / aot autograd cache artifacts) */
	long graphs;		/* dynamo_output_graph records */
	int64_t op_count, guard_count;	/* from compilation_metrics, -1 unknown */
	double t_entire, t_backend, t_inductor; /* seconds, -1 unknown */
	char *fail_type, *fail_reason;
	char *restart_reasons;	/* "; "-joined, NULL when none */
	struct tt_artifact_count *arts;
	size_t narts;
	json_t *stack;		/* dynamo_start's frames as "file:line in name" strings, or NULL */
};

struct tt_compiles {
	struct tt_compile *v;
	size_t n;
};

/* Compiles of a run in first-seen order, all ranks or only rank (>= 0). */
int tt_compiles_load(struct db *ix, int64_t run_id, int64_t rank,
			struct tt_compiles *out, struct pt_diag *diag);
void tt_compiles_release(struct tt_compiles *c);
json_t *tt_compile_json(const struct tt_compile *c);

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

/* A payload's bytes by md5 (malloc'd, caller frees). 0 found, 1 none, -1 error. */
int tt_payload_get(struct db *ix, const char *md5, char **data, size_t *len,
		      struct pt_diag *diag);

/*
 * Call cb for every record of compile cid (any rank when rank < 0) whose
 * label (tt_artifact_label) or kind equals what (NULL: every record with
 * a payload), in file order.
 */
struct tt_rec_row {
	int64_t id, rank, lineno;
	struct compileid cid;
	const char *kind, *name, *md5, *envelope, *file;
};
typedef int (*tt_rec_cb)(void *ctx, const struct tt_rec_row *row);
int tt_records_for(struct db *ix, int64_t run_id, const struct compileid *cid, int64_t rank,
		      const char *what, tt_rec_cb cb, void *ctx, struct pt_diag *diag);

/* Graph breaks and recompiles: one row each. */
struct tt_event {
	int64_t rank;
	struct compileid cid;
	char *where;	/* "file.py:4" (graph break) / the failed guard's location */
	char *what;	/* the reason / the failed guard */
	char *prev;	/* recompiles: the compile whose guard failed ("3/0"), else NULL */
};
struct tt_events {
	struct tt_event *v;
	size_t n;
};
int tt_graph_breaks(struct db *ix, int64_t run_id, struct tt_events *out, struct pt_diag *diag);
int tt_recompiles(struct db *ix, int64_t run_id, struct tt_events *out, struct pt_diag *diag);
void tt_events_release(struct tt_events *e);

/*
 * Ranks of a run and where they diverge: a JSON object
 * {"ranks": [{"rank", "files", "records", "compiles", "graphs", "failed"}...],
 *  "divergences": ["rank 1 compiled 5 graphs, rank 0 3", ...]}.
 */
int tt_ranks_json(struct db *ix, int64_t run_id, json_t **out, struct pt_diag *diag);

/* Distinct ranks of the run's records (0 when none is ranked), or -1 on error. */
int64_t tt_rank_count(struct db *ix, int64_t run_id);

/* The `show --json` additions: records_by_kind, payload_md5_mismatches, ranks. */
int tt_show_json(struct db *ix, int64_t run_id, json_t *obj, struct pt_diag *diag);

/*
 * Every chromium_event of every rank as one Chrome trace ({"traceEvents": [...]})
 * written to f, pid = rank (0 when unranked), tid kept, and one process_name
 * metadata event ("rank N") per rank before its first event. Events whose payload is
 * not JSON are counted in *skipped.
 */
int tt_timeline_write(struct db *ix, int64_t run_id, FILE *f, uint64_t *nevents,
			 uint64_t *skipped, struct pt_diag *diag);

/* Compile-level differences between two runs as a JSON object (see docs/pttrace-trace.1). */
int tt_diff_json(struct db *ix, int64_t run_a, int64_t run_b, json_t **out,
		    struct pt_diag *diag);

#endif
