/*
 * `pttrace ls` and `pttrace show RUN`: the text and --json renderings of
 * the runs (runs.h's struct run_list) and of one run (struct run_show, the
 * logs part logs_show_json fills, TORCH_TRACE's struct tt_show).
 */
#ifndef PT_RENDER_RUNS_H
#define PT_RENDER_RUNS_H

#include <jansson.h>
#include <stdio.h>

#include "runs.h"
#include "term.h"
#include "tt_query.h"

/* ls: the table (nothing when there are no runs), or the array of rows. */
void render_runs_text(FILE *f, const struct run_list *l, const struct pt_style *st);
json_t *render_runs_json(const struct run_list *l);

/* What show renders: the run, its TORCH_LOGS part, its TORCH_TRACE part. */
struct run_show_view {
	const struct run_show *run;
	/*
	 * logs_show_json's object: lines_by_kind, graph_breaks, recompiles,
	 * errors, crashes (arrays of records rows), read here by key until
	 * logs_query.c returns a struct.
	 */
	const json_t *logs;
	const struct tt_show *tt;
};

struct render_run_show_opts {
	int cut;	/* --short: cut each record's line at 100 columns */
};

void render_run_show_text(FILE *f, const struct run_show_view *v,
			  const struct render_run_show_opts *o, const struct pt_style *st);
json_t *render_run_show_json(const struct run_show_view *v);

#endif
