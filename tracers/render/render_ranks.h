/*
 * `pttrace ranks`: the cross-rank checks of tt_ranks_load (tt_query.h) as
 * text and as the `--json` object. The report's ranks section renders the
 * same struct (report_ranks.c) and shows a check's JSON for the checks it has
 * no table for.
 */
#ifndef PT_RENDER_RANKS_H
#define PT_RENDER_RANKS_H

#include <jansson.h>
#include <stdio.h>

#include "term.h"
#include "tt_query.h"

/* One row per member, the files without records, then each check. */
void render_ranks_text(FILE *f, const struct tt_ranks_result *r, const struct pt_style *st);

/*
 * {"divergences": [...], "ranks": [members], "members": [{"label", "rank",
 *  "process", "path", "pid", "records", "rank_conflict", "compiles", "graphs",
 *  "failed"}], "empty_files": [{"path"}], "reference": "rank 0" (null: no
 *  member), "checks": {name: check}, "diverge": bool}; a new reference.
 */
json_t *render_ranks_json(const struct tt_ranks_result *r);

/* The key of check c in "checks" ("compile_ids" ...). */
const char *render_ranks_check_name(enum tt_ranks_check c);

/*
 * Check c as it stands in "checks": "compile_ids" {"diverge", "details"};
 * "cache", "tensor_meta" {"diverge", "members_with_data", "groups":
 * [{"sequence", "ranks", "items", "differs_at": {"index", "here",
 * "first_group"}}]}; "collective_schedule" the same and "schedules": [{"rank",
 * "graph", "compile_id", "ops"}]; "runtime" {"members_with_data",
 * "mismatched_graph_counts", "graphs": [{"graph", "delta_ms", "fastest":
 * {"rank", "runtime_ms"}, "slowest"}], "diverge"}; "execution_order"
 * {"members_with_data", "order_differs", "schedule_mismatch": [labels],
 * "cache_mismatch", "diverge", "rows": [{"index", "by_rank": {label: "[0/1]"},
 * "issues": ["schedule", "cache"]}]}; "collectives_parity" {"diverge",
 * "graphs_checked", "graphs": [{"rank", "graph", "compile_id", "offset",
 * "missing_waits"}]}. A new reference.
 */
json_t *render_ranks_check_json(const struct tt_ranks_result *r, enum tt_ranks_check c);

#endif
