/*
 * `pttrace ls` and `pttrace show RUN`: the text and --json renderings of
 * the runs (runs.h's struct run_list) and of one run (struct run_show,
 * logs_query.h's struct logs_show, tt_query.h's struct tt_show).
 */
#ifndef PT_RENDER_RUNS_H
#define PT_RENDER_RUNS_H

#include <jansson.h>
#include <stdio.h>

#include "logs_query.h"
#include "runs.h"
#include "term.h"
#include "tt_query.h"

/* ls: the table (nothing when there are no runs), or the array of rows. */
void render_runs_text(FILE *f, const struct run_list *l, const struct pt_style *st);
json_t *render_runs_json(const struct run_list *l);

/* What show renders: the run, its TORCH_LOGS part, its TORCH_TRACE part. */
struct run_show_view {
	const struct run_show *run;
	const struct logs_show *logs;
	const struct tt_show *tt;
};

struct render_run_show_opts {
	int cut;	/* --short: cut each record's line at 100 columns */
};

void render_run_show_text(FILE *f, const struct run_show_view *v,
			  const struct render_run_show_opts *o, const struct pt_style *st);
json_t *render_run_show_json(const struct run_show_view *v);

#endif
