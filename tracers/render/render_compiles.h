/*
 * `pttrace compiles`, `graph-breaks` and `recompiles`: tt_compiles_load's
 * compiles and tt_graph_breaks / tt_recompiles' events (tt_query.h) as text
 * and as the `--json` arrays.
 */
#ifndef PT_RENDER_COMPILES_H
#define PT_RENDER_COMPILES_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "term.h"
#include "tt_query.h"

/* Two lines a compile (and its failure, restarts, artifacts); a line when there are none. */
void render_compiles_text(FILE *f, const struct tt_compiles *cs, const struct pt_style *st);

/*
 * [{"rank", "process", "who", "compile_id", "occurrence", "tlparse_dir",
 *   "name", "file", "line", "status", "cache", "graphs", "ops", "guards",
 *   "entire_frame_compile_time_s", "backend_compile_time_s",
 *   "inductor_compile_time_s", "fail_type", "fail_reason", "restart_reasons",
 *   "artifacts": {kind: n}, "stack"}]; a new reference.
 */
json_t *render_compiles_json(const struct tt_compiles *cs);

/* Graph breaks (recompiles false) or recompiles, a line each and where; a line when none. */
void render_events_text(FILE *f, const struct tt_events *ev, bool recompiles, const struct pt_style *st);

/*
 * [{"rank", "who", "compile_id", "reason", "where"}], recompiles
 * [{"rank", "who", "compile_id", "guard_of", "failed_guard", "where"}].
 */
json_t *render_events_json(const struct tt_events *ev, bool recompiles);

/* graph-breaks --unique: "Nx reason", where, the first 12 compile ids and the ranks. */
void render_event_groups_text(FILE *f, const struct tt_event_groups *g, const struct pt_style *st);

/* [{"reason", "where", "count", "compile_ids", "ranks"}]. */
json_t *render_event_groups_json(const struct tt_event_groups *g);

#endif
