/*
 * The pttrace database as a whole: the one list of schema parts, above the
 * store (store/) and the per-input stacks (logs/, torchtrace/) that define
 * them, so that neither the connection nor the schema framework knows about
 * the features built on it.
 */
#ifndef PT_PARTS_H
#define PT_PARTS_H

#include <stddef.h>

#include "db.h"
#include "schema.h"

/* Every part, in creation order (content before the derived parts that refer to it). */
extern const struct schema_part *const pttrace_parts[];
extern const size_t pttrace_nparts;

/* schema_open with pttrace_parts: what every pttrace command opens. 0 or -1 (diag). */
int pttrace_db_open(struct db **out, const char *path, unsigned flags, struct pt_diag *diag);

#endif
