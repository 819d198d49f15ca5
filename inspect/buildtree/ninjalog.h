/*
 * .ninja_log: "# ninja log vN" then one line per output built,
 * "START\tEND\tMTIME\tOUTPUT\tHASH" (v5, v6 and v7 share the columns; v4's
 * fifth column is the command itself). Bytes and a length in, records and
 * diagnostics out.
 */
#ifndef PT_NINJALOG_H
#define PT_NINJALOG_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct ninjalog_rec {
	uint32_t start_ms, end_ms;	/* from the start of that ninja run */
	int64_t mtime;			/* restat mtime as ninja recorded it */
	char *output;
	uint64_t hash;			/* command hash (0 for v4) */
	uint32_t run;			/* which ninja run (0 first); see below */
	size_t line;
};

struct ninjalog {
	int version;			/* 4..7 */
	struct ninjalog_rec *v;		/* in file order */
	size_t n, alloc;
	uint32_t n_runs;		/* ninja runs found in the file */
	size_t n_bad;
};

/*
 * A new ninja run starts where an entry's end time is smaller than the one
 * before it (ninja appends, and every run's times start at 0): the heuristic
 * ninjatracing and ninja's own -t recompact readers use; or, for v5 to v7
 * with nanosecond mtimes, where the wall time the run began (the mtime less
 * the start, v6 and v7, or the end, v5) moved on by more than that edge's
 * duration and 2 s: a run whose first edge ended after the run before it
 * had (a slow first edge, a short run before); or where an output comes
 * again (ninja runs an edge once a run). Returns 0, or -1
 * when the header is missing or names an unknown version (an error in d).
 */
int ninjalog_parse(const uint8_t *buf, size_t len, struct ninjalog *l, const char *src,
		   struct pt_diag *d);
void ninjalog_release(struct ninjalog *l);

/*
 * The latest record per output (what ninja itself keeps), file order kept:
 * an array of indexes into l->v, *n set.
 */
size_t *ninjalog_latest(const struct ninjalog *l, size_t *n);

#endif
