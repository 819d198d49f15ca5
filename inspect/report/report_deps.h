/*
 * Rendering of a resolved dependency graph: the tree (libtree's shape, with
 * why each library was found), the flat load-order list, and the "deps"
 * JSON array whose keys are a contract (docs/ptinspect.1).
 */
#ifndef PT_REPORT_DEPS_H
#define PT_REPORT_DEPS_H

#include <jansson.h>
#include <stdio.h>

#include "resolve.h"

struct pt_style;

struct deps_view {
	int max_depth;		/* --depth: deeper levels are not printed; 0 = no limit */
	int flat;		/* --no-tree: one line per edge in load order */
	int verbose;		/* -v: show already-loaded edges too */
};

void report_deps_text(FILE *f, const struct resolve_result *r, const struct deps_view *v,
		      const struct pt_style *st);
json_t *report_deps_json(const struct resolve_result *r);

/*
 * The summary of the default report (`ptinspect FILE`): the counts, the
 * direct NEEDED entries grouped by how and where each resolved, how many
 * indirect dependencies the tree holds (--tree shows it), and one line per
 * problem anywhere in the tree (missing, unmet version, no version
 * information, fragile) with the chain of objects that leads to it.
 */
void report_deps_summary_text(FILE *f, const struct resolve_result *r, const struct pt_style *st);

#endif
