/*
 * diff.html of pttrace report --diff (report_pages.h): run_diff.h's comparison
 * of two runs, as pttrace diff prints it, and its JSON (render_rundiff.h's).
 */
#include <stdlib.h>

#include "render_rundiff.h"
#include "report.h"
#include "report_pages.h"
#include "run_diff.h"

/* One table of a diff section: what one run has more or less of. */
static void diff_section(struct html *h, const char *name, const struct keyed_diffs *sec)
{
	html_raw(h, "<h2>");
	html_text(h, name);
	html_rawf(h, ": %lld &rarr; %lld</h2>\n", (long long)sec->a, (long long)sec->b);
	if (!sec->n) {
		html_raw(h, "<p>Both runs have the same.</p>\n");
		return;
	}
	html_raw(h, "<table class=\"sortable\"><thead><tr><th>first run</th><th>second run</th>"
		    "<th>what</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < sec->n; i++) {
		html_raw(h, "<tr><td class=\"num\">");
		html_num(h, (long long)sec->v[i].a);
		html_raw(h, "</td><td class=\"num\">");
		html_num(h, (long long)sec->v[i].b);
		html_raw(h, "</td><td><code>");
		html_text(h, sec->v[i].key);
		html_raw(h, "</code></td></tr>\n");
	}
	html_raw(h, "</tbody></table>\n");
}

static void diff_compile_id(struct html *h, const struct tt_diff_id *v)
{
	html_raw(h, "<td><code>[");
	html_text(h, v->compile_id);
	html_raw(h, "]</code>");
	if (v->occurrence > 1)
		html_rawf(h, " #%d", v->occurrence);
	html_raw(h, "</td><td>");
	if (v->rank >= 0)
		html_num(h, (long long)v->rank);
	html_raw(h, "</td><td>");
	html_text(h, v->name);
	html_raw(h, "</td>");
}

/* The TORCH_TRACE compiles part, as cmd_diff prints it. */
static void diff_compiles(struct html *h, const struct run_diff *d)
{
	const struct tt_diff *tc = &d->compiles;
	double ta = 0, tb = 0;
	int rows = 0;

	html_rawf(h, "<h2>compiles: %lld &rarr; %lld</h2>\n", (long long)tc->compiles_a,
		  (long long)tc->compiles_b);
	html_raw(h, "<table class=\"sortable\"><thead><tr><th></th><th>compile</th><th>rank</th>"
		    "<th>frame</th><th>what changed</th></tr></thead><tbody>\n");
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < (k ? tc->nadded : tc->nremoved); i++) {
			html_raw(h, k ? "<tr><td>+</td>" : "<tr><td>&minus;</td>");
			diff_compile_id(h, k ? &tc->added[i] : &tc->removed[i]);
			html_raw(h, k ? "<td>only in the second run</td></tr>\n" : "<td>only in the first run</td></tr>\n");
			rows++;
		}
	for (size_t i = 0; i < tc->nmatched; i++) {
		const struct tt_diff_match *m = &tc->matched[i];

		ta += m->t_entire[0] < 0 ? 0 : m->t_entire[0];
		tb += m->t_entire[1] < 0 ? 0 : m->t_entire[1];
		if (!run_diff_changed(m))
			continue;
		html_raw(h, "<tr><td>~</td>");
		diff_compile_id(h, &m->id);
		html_raw(h, "<td>");
		if (m->graph_changed)
			html_raw(h, "graph changed; ");
		for (int f = 0; f < TT_DIFF_NFIELDS; f++) {
			char *x, *y;

			if (!run_diff_field_text(m, f, &x, &y))
				continue;
			html_text(h, run_diff_compile_fields[f]);
			html_raw(h, " <code>");
			html_text(h, x);
			html_raw(h, "</code> &rarr; <code>");
			html_text(h, y);
			html_raw(h, "</code>; ");
			free(x);
			free(y);
		}
		html_raw(h, "</td></tr>\n");
		rows++;
	}
	html_raw(h, "</tbody></table>\n");
	if (!rows)
		html_raw(h, "<p>The same compiles, none changed.</p>\n");
	html_raw(h, "<p>Compile time of the compiles both runs have: ");
	html_secs(h, ta);
	html_raw(h, " s &rarr; ");
	html_secs(h, tb);
	html_raw(h, " s</p>\n");
	/* Recompile reasons one run has more often than the other. */
	html_raw(h, "<h3>Recompile reasons in one run only</h3>\n<ul>\n");
	rows = 0;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < (k ? d->nreasons_only_b : d->nreasons_only_a); i++) {
			html_raw(h, k ? "<li>second run: <code>" : "<li>first run: <code>");
			html_text(h, k ? d->reasons_only_b[i] : d->reasons_only_a[i]);
			html_raw(h, "</code></li>\n");
			rows++;
		}
	html_raw(h, rows ? "</ul>\n" : "<li>none</li></ul>\n");
}

/* A section neither run has anything in. */
static int empty(const struct keyed_diffs *sec)
{
	return !sec->a && !sec->b && !sec->n;
}

int write_diff(struct rctx *c)
{
	struct html h;
	struct run_diff d;
	json_t *doc;
	char *s;
	int n = 0;

	if (run_diff_load(c->ix, c->o->run_id, c->o->diff_run, &d) < 0)
		return -1;
	if (page_open(c, &h, "diff.html", "Diff", "") < 0) {
		run_diff_release(&d);
		return -1;
	}
	html_rawf(&h, "<p>Run %lld (first) against run %lld (second): %s. Counts are per normalised "
		  "text and place, as <code>pttrace diff</code> compares them.</p>\n",
		  (long long)c->o->run_id, (long long)c->o->diff_run, d.differ ? "they differ" : "no differences");
	html_raw(&h, "<h2>exit status</h2>\n<p>");
	html_text(&h, d.status_a);
	html_raw(&h, " &rarr; ");
	html_text(&h, d.status_b);
	html_raw(&h, "</p>\n");
	/* Sections neither run has anything in: one line, as the text output leaves them out. */
	for (int k = 0; k < RUN_DIFF_NSECTIONS; k++)
		if (empty(run_diff_section(&d, k))) {
			html_raw(&h, n++ ? ", " : "<p>Nothing in either run: ");
			html_text(&h, run_diff_section_names[k]);
		}
	if (n)
		html_raw(&h, ".</p>\n");
	for (int k = 0; k < RUN_DIFF_NSECTIONS; k++)
		if (!empty(run_diff_section(&d, k)))
			diff_section(&h, run_diff_section_names[k], run_diff_section(&d, k));
	diff_compiles(&h, &d);
	html_raw(&h, "<details><summary>The same comparison as <code>pttrace diff --json</code></summary>"
		     "\n<pre class=\"code\" data-lang=\"json\">");
	doc = render_rundiff_json(&d);
	s = json_dumps(doc, JSON_INDENT(2));
	html_text(&h, s);
	free(s);
	json_decref(doc);
	html_raw(&h, "</pre></details>\n");
	run_diff_release(&d);
	return page_close(c, &h);
}
