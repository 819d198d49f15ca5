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
/*
 * graph-breaks --unique: the events grouped by reason and place, in order of
 * first appearance, each with how many, its compile ids in order and its
 * ranks in order of first appearance. Strings point into the events, which
 * must outlive the groups.
 */
struct tt_event_group {
	const char *what, *where;	/* NULL unknown */
	long count;
	char (*ids)[COMPILEID_MAX];	/* count of them, formatted */
	int64_t *ranks;
	size_t n_ranks;
};
struct tt_event_groups {
	struct tt_event_group *v;
	size_t n;
};
void tt_event_groups_of(const struct tt_events *ev, struct tt_event_groups *out);
void tt_event_groups_release(struct tt_event_groups *g);
/* A graph break reason of torch 2.7+'s many-line shape (the text after "Graph Break
 * Reason: ", or such a restart reason) as "<type>: <explanation>"; NULL for other text. */
char *tt_short_break_reason(const char *text);

/*
 * Cross-rank checks of a run (`pttrace ranks`), tlparse's multi-rank
 * diagnostics (lib.rs generate_multi_rank_landing, parsers.rs) computed from
 * the index instead of an output directory. tt_ranks_load returns them as a
 * struct; render_ranks.h renders it as text and as the `ranks --json` object
 * (whose keys the comments give), the report as HTML.
 *
 * Members are the files with records (one file = one process); a member's
 * label is "rank R", or "p<N>" (its process number) when it has no rank or
 * shares it with another file. A check with fewer than two members that have
 * its data says nothing (diverge 0, and members_with_data says how many).
 * Every "member" below is an index into tt_ranks_result.members.
 */
struct tt_ranks_member {
	char label[48];		/* "rank 0", "p2" */
	int64_t rank;		/* -1: none */
	int64_t process;
	char *path;		/* relative to the run directory */
	int64_t pid;		/* -1: none */
	int64_t records;
	char *rank_conflict;	/* why the file's ranks disagree, NULL: they do not */
	long compiles, graphs, failed;
};

/* Members with one value of a check ("groups"), first-seen order. */
struct tt_ranks_group {
	char *sequence;		/* the value: items joined by the check's separator */
	size_t *members, nmembers;	/* "ranks": their labels */
	long items;
	/* "differs_at", against the first group's sequence (from the second group
	 * on): 1 at item index (here, first_group: the two items, "(end)" past one's
	 * end), -1 nowhere (null), 0 the first group (no key). */
	int differs;
	long index;
	char *here, *first_group;
};

/* cache, collective_schedule, tensor_meta: the members grouped by their value. */
struct tt_ranks_grouping {
	int diverge;		/* more than one group */
	long members_with_data;
	struct tt_ranks_group *groups;
	size_t ngroups;
};

/* tlparse's collective_schedules.json: the ops of one graph's schedule. */
struct tt_ranks_schedule {
	size_t member;		/* "rank" */
	char *graph;		/* its directory, "-_0_0_0" */
	char *compile_id;	/* "[0/0]" */
	char **ops;
	size_t nops;
};

struct tt_ranks_runtime_graph {
	char *graph;
	double delta_ms;	/* rounded to µs as tlparse does */
	size_t fastest, slowest;	/* members */
	double fastest_ms, slowest_ms;
};

struct tt_ranks_exec_cell {
	size_t member;
	char *compile_id;	/* "[0/1]" */
};

struct tt_ranks_exec_row {
	long index;
	struct tt_ranks_exec_cell *cells;	/* "by_rank", members in order */
	size_t ncells;
	int schedule, cache;	/* "issues": collective schedules, cache status differ here */
};

struct tt_ranks_parity_graph {
	size_t member;
	char *graph, *compile_id;
	long offset, missing_waits;
};

/* The checks in the order of the JSON's "checks" object. */
enum tt_ranks_check {
	TT_RANKS_COMPILE_IDS,		/* "compile_ids" */
	TT_RANKS_CACHE,			/* "cache" */
	TT_RANKS_COLLECTIVE_SCHEDULE,	/* "collective_schedule" */
	TT_RANKS_TENSOR_META,		/* "tensor_meta" */
	TT_RANKS_RUNTIME,		/* "runtime" */
	TT_RANKS_EXECUTION_ORDER,	/* "execution_order" */
	TT_RANKS_COLLECTIVES_PARITY,	/* "collectives_parity" */
	TT_RANKS_NCHECKS
};

struct tt_ranks_compile_ids {
	int diverge;
	char **details;	/* graph counts, ids one side lacks, order; against members[0] */
	size_t ndetails;
};

struct tt_ranks_schedules {
	struct tt_ranks_grouping g;	/* the ops of every graph's schedule, "," */
	struct tt_ranks_schedule *schedules;
	size_t nschedules;
};

struct tt_ranks_runtime {
	int diverge;		/* = mismatched_graph_counts; deltas are information */
	long members_with_data;
	int mismatched_graph_counts;
	struct tt_ranks_runtime_graph *graphs;	/* per graph index, same counts only */
	size_t ngraphs;
};

struct tt_ranks_exec_order {
	int diverge;
	long members_with_data;
	int order_differs;
	size_t *schedule_mismatch, nschedule_mismatch;	/* members */
	size_t *cache_mismatch, ncache_mismatch;
	struct tt_ranks_exec_row *rows;
	size_t nrows;
};

struct tt_ranks_parity {
	int diverge;
	long graphs_checked;
	struct tt_ranks_parity_graph *graphs;	/* those whose code and schedule differ */
	size_t ngraphs;
};

struct tt_ranks_result {
	struct tt_ranks_member *members;	/* "members" (and "ranks", the key the first version used) */
	size_t nmembers;
	char **empty_files;	/* paths of the files without records, not compared */
	size_t nempty;
	/* One line per divergence: "rank 1 compiled [0/1], rank 0 did not",
	 * "tensor meta: 2 groups of ranks" ... */
	char **divergences;
	size_t ndivergences;
	int diverge;		/* any check diverges */
	/* The checks; their reference ("reference") is members[0]. */
	struct tt_ranks_compile_ids compile_ids;
	struct tt_ranks_grouping cache;		/* the cache artifacts' markers, "miss hit" */
	struct tt_ranks_schedules collective_schedule;
	struct tt_ranks_grouping tensor_meta;	/* canonical JSON per graph, "\n" */
	struct tt_ranks_runtime runtime;
	struct tt_ranks_exec_order execution_order;
	struct tt_ranks_parity collectives_parity;
};

/* 0 and *out filled, or -1 (the connection's diag) and *out empty. */
int tt_ranks_load(struct db *ix, int64_t run_id, struct tt_ranks_result *out);
void tt_ranks_result_release(struct tt_ranks_result *r);

/*
 * tlparse's collectives parity for one graph (exposed for tests): the
 * collective ops of an inductor_collective_schedule payload against the
 * c10d_functional calls in the graph's output code. *offset: the summed
 * difference of per-op counts, *missing_waits: calls without a wait_tensor.
 */
void tt_collectives_parity(const char *schedule, size_t slen, const char *code, size_t clen,
			      long *offset, long *missing_waits);

/*
 * What `pttrace show` adds from TORCH_TRACE (tt_show.c): records by kind, the
 * files' totals, the ranks, torch's version from the trace, the counts of the
 * compile-level commands and one row per file (process). Owned by the struct
 * (tt_show_release).
 */
#define TT_SHOW_NULL INT64_MIN	/* an integer column that is NULL */
struct tt_show_kind {
	char *kind;
	int64_t records;
};
struct tt_show_process {
	int64_t process, pid, rank, name_rank, json_rank, other_rank, records;	/* or TT_SHOW_NULL */
	char *path, *rank_source, *rank_conflict;	/* NULL when NULL */
};
struct tt_show {
	struct tt_show_kind *by_kind;	/* by kind */
	size_t n_kinds;
	int64_t md5_mismatches, damaged_lines, files, records, bytes;
	int64_t *ranks;		/* distinct, ascending */
	size_t n_ranks;
	char *torch_version;	/* the trace's torch_version artifact, NULL if none */
	int64_t compiles, autograd_captures, failed_compiles, graph_breaks, recompiles;
	struct tt_show_process *processes;	/* by process */
	size_t n_processes;
};
/* 0, or -1 (the connection's diag). */
int tt_show_load(struct db *ix, int64_t run_id, struct tt_show *out);
void tt_show_release(struct tt_show *t);

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

/*
 * Compile-level differences between two runs (`pttrace diff`, tt_diff.c):
 * compiles paired by where their code is (writer, file, first line,
 * function, the how-manieth there), by compile id where the trace names no
 * location.
 */
struct tt_diff_id {
	int64_t rank;			/* -1 unranked */
	char compile_id[COMPILEID_MAX];
	int occurrence;			/* the how-manieth compile of that id in its process */
	char who[32];			/* tt_compile's label, "" none */
	char *name;			/* co_name, NULL unknown */
	char *location;			/* "file:line" (temporary directory masked), NULL unknown */
};

/* What may change in a matched compile, in the order the renderers show it. */
enum tt_diff_field {
	TT_DIFF_STATUS, TT_DIFF_GRAPHS, TT_DIFF_OPS, TT_DIFF_GUARDS, TT_DIFF_RESTART_REASONS,
	TT_DIFF_NFIELDS
};

/* A compile both runs have: [0] the first run's values, [1] the second's. */
struct tt_diff_match {
	struct tt_diff_id id;		/* the first run's (location: either's) */
	char compile_id_b[COMPILEID_MAX];
	int occurrence_b;
	int graph_changed;		/* the graphs' md5s differ */
	unsigned changed;		/* bit 1 << tt_diff_field per field that differs */
	const char *status[2];		/* tt_compile's */
	long graphs[2];
	int64_t ops[2], guards[2];	/* -1 unknown */
	json_t *restart_reasons[2];	/* references of their own, NULL none */
	double t_entire[2];		/* entire frame compile time, s, -1 unknown */
};

struct tt_diff {
	size_t compiles_a, compiles_b;
	struct tt_diff_id *added, *removed;	/* only in the second run / only in the first */
	size_t nadded, nremoved;
	struct tt_diff_match *matched;		/* the first run's order */
	size_t nmatched;
	int have_reasons;	/* 0 when the recompile reasons could not be read (diag) */
	char **reasons_a, **reasons_b;	/* "[0/1] guard text" per recompile */
	size_t nreasons_a, nreasons_b;
	int differ;	/* added, removed, a field or graph changed, other reasons; not times */
};

/* 0 and *out (the caller's, then tt_diff_release), or -1 (the connection's diag). */
int tt_diff_load(struct db *ix, int64_t run_a, int64_t run_b, struct tt_diff *out);
void tt_diff_release(struct tt_diff *d);

#endif
