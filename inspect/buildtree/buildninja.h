/*
 * build.ninja: what `ptinspect build` needs of it, the build edges (outputs,
 * inputs, rule), the rules' names, the includes, the top-level variables.
 * Bytes and a length in, a graph and diagnostics out.
 */
#ifndef PT_BUILDNINJA_H
#define PT_BUILDNINJA_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct ninja_edge {
	char *rule;
	char **outs;		/* explicit then implicit outputs */
	size_t n_outs, n_explicit_outs;
	char **ins;		/* explicit, implicit ("|"), order-only ("||") inputs */
	size_t n_ins, n_explicit_ins, n_implicit_ins;
	size_t line;
};

struct ninja_var {
	char *name, *value;
};

struct buildninja {
	struct ninja_edge *edges;
	size_t n_edges, alloc_edges;
	char **includes;	/* "include" and "subninja" paths, as written */
	size_t n_includes, alloc_includes;
	char **rules;
	size_t n_rules, alloc_rules;
	struct ninja_var *vars;	/* top-level bindings, file order */
	size_t n_vars, alloc_vars;
	size_t n_bad;
	/* Built by buildninja_index: outputs sorted, for lookups. */
	struct ninja_out { const char *path; size_t edge; } *out_index;
	size_t n_out_index;
};

/* Returns 0 (bad lines are warnings); -1 only for a file ninja cannot have made. */
int buildninja_parse(const uint8_t *buf, size_t len, struct buildninja *b, const char *src,
		     struct pt_diag *d);
void buildninja_release(struct buildninja *b);

void buildninja_index(struct buildninja *b);
/* The edge producing path, or (size_t)-1. buildninja_index first. */
size_t buildninja_producer(const struct buildninja *b, const char *path);
/* A top-level variable's value, or NULL. */
const char *buildninja_var(const struct buildninja *b, const char *name);

#endif
