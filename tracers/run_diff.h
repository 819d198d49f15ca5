/*
 * The comparison of two runs that `pttrace diff` prints and `pttrace report
 * --diff` renders: one JSON document, built once for both.
 */
#ifndef PT_RUN_DIFF_H
#define PT_RUN_DIFF_H

#include <jansson.h>
#include <stdint.h>

#include "db.h"
#include "diag.h"

/*
 * The document: {"a", "b", "status": {"a", "b"}, one section per input
 * ({"a": total, "b": total, "differences": [{"key", "a", "b"}]}: ops,
 * graph_breaks, recompiles, warnings, errors from the logs, trace_graph_breaks
 * from TORCH_TRACE), "compiles" (tt_diff_json's) and "differ". Returns 0 and
 * sets *out (the caller's), or -1 with the reason in diag.
 */
int run_diff_json(struct db *ix, int64_t run_a, int64_t run_b, json_t **out, struct pt_diag *diag);

#endif
