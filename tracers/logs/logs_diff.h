/*
 * The logs part of `pttrace diff` (records and dispatcher calls of two runs).
 */
#ifndef PT_LOGS_DIFF_H
#define PT_LOGS_DIFF_H

#include <jansson.h>
#include <stdint.h>

#include "db.h"

/*
 * Add to doc one object per section ("ops", "graph_breaks", "recompiles",
 * "warnings", "errors"; keys normalised: addresses, /tmp paths and timings
 * masked, with the place a line comes from and a traceback's innermost frame): {"a": total, "b": total, "differences": [{key, a, b}...]} for
 * runs a and b; *differ |= 1 when a section differs. 0, or -1 (the
 * connection's diag).
 */
int logs_diff_json(struct db *ix, int64_t a, int64_t b, json_t *doc, int *differ);

#endif
