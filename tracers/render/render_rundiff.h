/*
 * `pttrace diff`'s output over run_diff.h's struct: the text a reader sees
 * and the --json document (report_rundiff.c shows the same document on its
 * page).
 */
#ifndef PT_RENDER_RUNDIFF_H
#define PT_RENDER_RUNDIFF_H

#include <jansson.h>
#include <stdio.h>

#include "run_diff.h"
#include "term.h"

/*
 * "runs A and B", the exit status, each section either run has something in
 * ("  ops: 4 -> 2" and one line per key whose count differs), then the
 * compiles (when either run has one): removed (-), added (+), changed (~) or
 * renumbered (=), the compile time of those both have, and the recompile
 * reasons one run has more often.
 */
void render_rundiff_text(FILE *f, const struct run_diff *d, const struct pt_style *st);

/*
 * {"a", "b", "status": {"a", "b"}, one object per section ("ops",
 * "graph_breaks", "recompiles", "warnings", "errors", "trace_graph_breaks":
 * {"a": total, "b": total, "differences": [{"key", "a", "b"}]}), "compiles"
 * {"differ", "compiles_a", "compiles_b", "added", "removed", "matched",
 * "recompile_reasons": {"a", "b"} ({} when they could not be read),
 * "recompile_reasons_only": {"a", "b"}}, "differ"}; docs/pttrace.1 and
 * docs/pttrace-trace.1 describe it.
 */
json_t *render_rundiff_json(const struct run_diff *d);

#endif
