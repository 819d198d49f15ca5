/*
 * The logs part of `pttrace diff` (records and dispatcher calls of two runs),
 * and the counting by key that run_diff.c also uses for TORCH_TRACE's graph
 * breaks.
 */
#ifndef PT_LOGS_DIFF_H
#define PT_LOGS_DIFF_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "db.h"

/* A key whose count differs between the two runs. */
struct keyed_diff {
	char *key;
	int64_t a, b;
};

/*
 * One section of a comparison: each run's total and the keys whose counts
 * differ, the first run's in the order it met them, then those only the
 * second run has.
 */
struct keyed_diffs {
	int64_t a, b;
	struct keyed_diff *v;
	size_t n;
};

/* Counts by key in the order first met (index: key -> position, internal). */
struct keyed_count {
	char *key;
	int64_t n;
};
struct keyed_counts {
	struct keyed_count *v;
	size_t n, alloc;
	json_t *index;
};

void keyed_counts_init(struct keyed_counts *c);
/* Adds n to key's count or, with replace, sets it to n. */
void keyed_counts_add(struct keyed_counts *c, const char *key, int64_t n, int replace);
void keyed_counts_release(struct keyed_counts *c);
/* out (the caller's, then keyed_diffs_release) from the counts of a and b. */
void keyed_diffs_compare(const struct keyed_counts *a, const struct keyed_counts *b, struct keyed_diffs *out);
void keyed_diffs_release(struct keyed_diffs *d);

/* The sections, in the order both renderers show them. */
enum logs_diff_section {
	LOGS_DIFF_OPS,		/* "aten::add.Tensor [AutogradCPU]": calls */
	LOGS_DIFF_GRAPH_BREAKS,	/* records of artifact graph_breaks, by their Reason: line */
	LOGS_DIFF_RECOMPILES,	/* records of artifact recompiles */
	LOGS_DIFF_WARNINGS,	/* warnings and level 30 lines */
	LOGS_DIFF_ERRORS,	/* level 40 and above, tracebacks */
	LOGS_DIFF_NSECTIONS
};
/* "ops", "graph_breaks", "recompiles", "warnings", "errors". */
extern const char *const logs_diff_names[LOGS_DIFF_NSECTIONS];

struct logs_diff {
	struct keyed_diffs s[LOGS_DIFF_NSECTIONS];
	int differ;	/* 1 when a section has a difference */
};

/*
 * The sections of runs a and b (keys normalised: addresses, /tmp paths and
 * timings masked, with the place a line comes from and a traceback's
 * innermost frame). 0 and *out (the caller's, then logs_diff_release), or -1
 * (the connection's diag; *out is then empty).
 */
int logs_diff_load(struct db *ix, int64_t a, int64_t b, struct logs_diff *out);
void logs_diff_release(struct logs_diff *d);

#endif
