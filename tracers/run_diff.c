/*
 * The comparison of two runs (run_diff.h): the exit status, the logs'
 * sections (logs_diff), TORCH_TRACE's graph breaks and compiles (tt_diff).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "run_diff.h"
#include "runs.h"
#include "xalloc.h"

const char *const run_diff_section_names[RUN_DIFF_NSECTIONS] = {
	"ops", "graph_breaks", "recompiles", "warnings", "errors", "trace_graph_breaks",
};

const char *const run_diff_compile_fields[TT_DIFF_NFIELDS] = {
	"status", "graphs", "ops", "guards", "restart_reasons",
};

/* "exit N", "signal N", or the run's state ("running", "interrupted", ...). */
static char *status_of(struct db *ix, int64_t run)
{
	struct run_row r;
	char *s;

	if (runs_load(ix, run, &r) < 0)
		return NULL;
	if (!strcmp(r.status, "exited"))
		s = pt_xasprintf("exit %lld", (long long)r.exit_code);
	else if (!strcmp(r.status, "signaled"))
		s = pt_xasprintf("signal %lld", (long long)r.signal);
	else
		s = pt_xstrdup(r.status);
	runs_row_release(&r);
	return s;
}

/* The reasons of mine that other has not, as many times as mine has more (a multiset difference). */
static void reasons_only(char *const *mine, size_t nmine, char *const *other, size_t nother, char ***out,
			 size_t *n)
{
	char *used = pt_xcalloc(nother ? nother : 1, 1);

	*out = pt_xcalloc(nmine ? nmine : 1, sizeof(**out));
	*n = 0;
	for (size_t i = 0; i < nmine; i++) {
		size_t j;

		for (j = 0; j < nother; j++)
			if (!used[j] && !strcmp(mine[i], other[j])) {
				used[j] = 1;
				break;
			}
		if (j == nother)
			(*out)[(*n)++] = pt_xstrdup(mine[i]);
	}
	free(used);
}

/* TORCH_TRACE graph breaks of a run counted by reason and place, as torch wrote them. 0 or -1 (diag). */
static int break_counts(struct db *ix, int64_t run, struct keyed_counts *m)
{
	struct tt_events ev;

	if (tt_graph_breaks(ix, run, &ev) < 0)
		return -1;
	for (size_t i = 0; i < ev.n; i++) {
		char *key = pt_xasprintf("%s%s%s%s", ev.v[i].what ? ev.v[i].what : "?",
					 ev.v[i].where ? "  (" : "", ev.v[i].where ? ev.v[i].where : "",
					 ev.v[i].where ? ")" : "");

		keyed_counts_add(m, key, 1, 0);
		free(key);
	}
	tt_events_release(&ev);
	return 0;
}

static int breaks_diff(struct db *ix, int64_t a, int64_t b, struct keyed_diffs *out)
{
	struct keyed_counts ma, mb;
	int rc;

	keyed_counts_init(&ma);
	keyed_counts_init(&mb);
	rc = break_counts(ix, a, &ma) < 0 || break_counts(ix, b, &mb) < 0 ? -1 : 0;
	if (rc == 0)
		keyed_diffs_compare(&ma, &mb, out);
	keyed_counts_release(&ma);
	keyed_counts_release(&mb);
	return rc;
}

int run_diff_load(struct db *ix, int64_t a, int64_t b, struct run_diff *out)
{
	struct pt_diag *diag = db_diag(ix);
	const struct tt_diff *tc = &out->compiles;

	memset(out, 0, sizeof(*out));
	out->a = a;
	out->b = b;
	out->status_a = status_of(ix, a);
	out->status_b = status_of(ix, b);
	if (!out->status_a || !out->status_b) {
		pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL, "no run %lld", (long long)(out->status_a ? b : a));
		goto fail;
	}
	if (logs_diff_load(ix, a, b, &out->logs) < 0) {
		pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL, "cannot compare the output of runs %lld and %lld",
			    (long long)a, (long long)b);
		goto fail;
	}
	if (breaks_diff(ix, a, b, &out->trace_graph_breaks) < 0 || tt_diff_load(ix, a, b, &out->compiles) < 0)
		goto fail;
	reasons_only(tc->reasons_a, tc->nreasons_a, tc->reasons_b, tc->nreasons_b, &out->reasons_only_a,
		     &out->nreasons_only_a);
	reasons_only(tc->reasons_b, tc->nreasons_b, tc->reasons_a, tc->nreasons_a, &out->reasons_only_b,
		     &out->nreasons_only_b);
	out->differ = strcmp(out->status_a, out->status_b) != 0 || out->logs.differ ||
		      out->trace_graph_breaks.n != 0 || tc->differ;
	return 0;
fail:
	run_diff_release(out);
	return -1;
}

void run_diff_release(struct run_diff *d)
{
	free(d->status_a);
	free(d->status_b);
	logs_diff_release(&d->logs);
	keyed_diffs_release(&d->trace_graph_breaks);
	tt_diff_release(&d->compiles);
	for (size_t i = 0; i < d->nreasons_only_a; i++)
		free(d->reasons_only_a[i]);
	for (size_t i = 0; i < d->nreasons_only_b; i++)
		free(d->reasons_only_b[i]);
	free(d->reasons_only_a);
	free(d->reasons_only_b);
	memset(d, 0, sizeof(*d));
}

const struct keyed_diffs *run_diff_section(const struct run_diff *d, int s)
{
	return s == RUN_DIFF_TRACE_GRAPH_BREAKS ? &d->trace_graph_breaks : &d->logs.s[s];
}

int run_diff_changed(const struct tt_diff_match *m)
{
	return m->graph_changed || m->changed;
}

static char *int_text(int64_t v)
{
	return v < 0 ? pt_xstrdup("-") : pt_xasprintf("%lld", (long long)v);
}

/* A JSON value as text: "-" for none, strings bare, others as JSON. */
static char *json_text(const json_t *v)
{
	char *t;

	if (!v || json_is_null(v))
		return pt_xstrdup("-");
	if (json_is_string(v))
		return pt_xstrdup(json_string_value(v));
	t = json_dumps(v, JSON_ENCODE_ANY);
	return t ? t : pt_xstrdup("?");	/* jansson out of memory: the field still shows */
}

int run_diff_field_text(const struct tt_diff_match *m, int f, char **x, char **y)
{
	if (!(m->changed & (1u << f)))
		return 0;
	switch (f) {
	case TT_DIFF_STATUS:
		*x = pt_xstrdup(m->status[0]);
		*y = pt_xstrdup(m->status[1]);
		break;
	case TT_DIFF_GRAPHS:
		*x = pt_xasprintf("%ld", m->graphs[0]);
		*y = pt_xasprintf("%ld", m->graphs[1]);
		break;
	case TT_DIFF_OPS:
		*x = int_text(m->ops[0]);
		*y = int_text(m->ops[1]);
		break;
	case TT_DIFF_GUARDS:
		*x = int_text(m->guards[0]);
		*y = int_text(m->guards[1]);
		break;
	default:
		*x = json_text(m->restart_reasons[0]);
		*y = json_text(m->restart_reasons[1]);
		break;
	}
	return 1;
}
