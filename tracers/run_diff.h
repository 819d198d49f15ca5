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
 * from TORCH_TRACE), "compiles" (tt_diff_json's, with "recompile_reasons_only": {"a",
 * "b"}: the recompile reasons one run has more often than the other) and "differ". Returns 0 and
 * sets *out (the caller's), or -1 with the reason in diag.
 */
int run_diff_json(struct db *ix, int64_t run_a, int64_t run_b, json_t **out, struct pt_diag *diag);

/*
 * The fields of a matched compile ("compiles"."matched"[i]) that may change,
 * in the order both renderers show them; each present one is [a, b].
 */
extern const char *const run_diff_compile_fields[];
extern const size_t run_diff_n_compile_fields;

/* A changed field's value as text for both renderers: "-" where a run does not know it (null), strings bare. */
char *run_diff_value_text(const json_t *v);

#endif
