/*
 * The comparison of two runs that `pttrace diff` prints and `pttrace report
 * --diff` renders: one struct, loaded once for both (render_rundiff.h writes
 * its text and JSON, report_rundiff.c its page).
 */
#ifndef PT_RUN_DIFF_H
#define PT_RUN_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "logs_diff.h"
#include "tt_query.h"

/* The keyed sections, in the order the renderers show them (their "--json" keys: run_diff_section_names). */
enum run_diff_section {
	RUN_DIFF_OPS = LOGS_DIFF_OPS,
	RUN_DIFF_GRAPH_BREAKS = LOGS_DIFF_GRAPH_BREAKS,
	RUN_DIFF_RECOMPILES = LOGS_DIFF_RECOMPILES,
	RUN_DIFF_WARNINGS = LOGS_DIFF_WARNINGS,
	RUN_DIFF_ERRORS = LOGS_DIFF_ERRORS,
	RUN_DIFF_TRACE_GRAPH_BREAKS = LOGS_DIFF_NSECTIONS,	/* TORCH_TRACE's, by reason and place */
	RUN_DIFF_NSECTIONS
};
/* "ops", "graph_breaks", "recompiles", "warnings", "errors", "trace_graph_breaks". */
extern const char *const run_diff_section_names[RUN_DIFF_NSECTIONS];

struct run_diff {
	int64_t a, b;			/* the runs' ids */
	char *status_a, *status_b;	/* "exit N", "signal N", or the run's state ("running", ...) */
	struct logs_diff logs;		/* the logs' sections: RUN_DIFF_OPS ... RUN_DIFF_ERRORS */
	struct keyed_diffs trace_graph_breaks;
	struct tt_diff compiles;
	/* The recompile reasons one run has more often than the other (a multiset difference). */
	char **reasons_only_a, **reasons_only_b;
	size_t nreasons_only_a, nreasons_only_b;
	int differ;			/* exit status, a section, the compiles: exit 1 */
};

/* Section s of d (RUN_DIFF_OPS ... RUN_DIFF_TRACE_GRAPH_BREAKS). */
const struct keyed_diffs *run_diff_section(const struct run_diff *d, int s);

/*
 * Runs a and b compared. 0 and *out (the caller's, then run_diff_release), or
 * -1 with the reason in the connection's diag (*out is then empty).
 */
int run_diff_load(struct db *ix, int64_t run_a, int64_t run_b, struct run_diff *out);
void run_diff_release(struct run_diff *d);

/* The names of tt_diff_field's fields ("status", "graphs", "ops", "guards", "restart_reasons"). */
extern const char *const run_diff_compile_fields[TT_DIFF_NFIELDS];

/* 1 when the matched compile changed (a field or its graph): the "~" rows. */
int run_diff_changed(const struct tt_diff_match *m);

/*
 * Field f of m as text for the renderers, both runs' values ("-" where a run
 * does not know it, strings bare); the caller frees *x and *y. 0 when f did
 * not change (nothing set), 1 when it did.
 */
int run_diff_field_text(const struct tt_diff_match *m, int f, char **x, char **y);

#endif
