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
#ifndef PT_TRACE_XRANK_H
#define PT_TRACE_XRANK_H

#include <jansson.h>
#include <stdint.h>

#include "diag.h"
#include "index.h"

/* 0 and *out (a new reference), or -1 (diag). */
int trace_xrank_json(struct index *ix, int64_t run_id, json_t **out, struct pt_diag *diag);

/*
 * tlparse's collectives parity for one graph (exposed for tests): the
 * collective ops of an inductor_collective_schedule payload against the
 * c10d_functional calls in the graph's output code. *offset: the summed
 * difference of per-op counts, *missing_waits: calls without a wait_tensor.
 */
void trace_collectives_parity(const char *schedule, size_t slen, const char *code, size_t clen,
			      long *offset, long *missing_waits);

#endif
