/*
 * diff.html of pttrace report --diff (report_pages.h): run_diff.h's comparison
 * of two runs, as pttrace diff prints it, and its JSON.
 */
#include <stdlib.h>

#include "report.h"
#include "report_pages.h"
#include "run_diff.h"

/* One table of a diff section: what one run has more or less of (logs_diff's
 * and tt_breaks_diff's {a, b, differences: [{key, a, b}]}). */
static void diff_section(struct html *h, const char *name, json_t *sec)
{
	json_t *d = json_object_get(sec, "differences"), *v;
	size_t i;

	html_raw(h, "<h2>");
	html_text(h, name);
	html_rawf(h, ": %lld &rarr; %lld</h2>\n", (long long)json_integer_value(json_object_get(sec, "a")),
		  (long long)json_integer_value(json_object_get(sec, "b")));
	if (!json_array_size(d)) {
		html_raw(h, "<p>Both runs have the same.</p>\n");
		return;
	}
	html_raw(h, "<table class=\"sortable\"><thead><tr><th>first run</th><th>second run</th>"
		    "<th>what</th></tr></thead><tbody>\n");
	json_array_foreach(d, i, v) {
		html_raw(h, "<tr><td class=\"num\">");
		html_num(h, (long long)json_integer_value(json_object_get(v, "a")));
		html_raw(h, "</td><td class=\"num\">");
		html_num(h, (long long)json_integer_value(json_object_get(v, "b")));
		html_raw(h, "</td><td><code>");
		html_text(h, json_string_value(json_object_get(v, "key")));
		html_raw(h, "</code></td></tr>\n");
	}
	html_raw(h, "</tbody></table>\n");
}

static void diff_compile_id(struct html *h, json_t *v)
{
	json_t *r = json_object_get(v, "rank");

	html_raw(h, "<td><code>[");
	html_text(h, json_string_value(json_object_get(v, "compile_id")));
	html_raw(h, "]</code>");
	if (json_integer_value(json_object_get(v, "occurrence")) > 1)
		html_rawf(h, " #%lld", (long long)json_integer_value(json_object_get(v, "occurrence")));
	html_raw(h, "</td><td>");
	if (r && !json_is_null(r))
		html_num(h, (long long)json_integer_value(r));
	html_raw(h, "</td><td>");
	html_text(h, json_string_value(json_object_get(v, "name")));
	html_raw(h, "</td>");
}

/* The TORCH_TRACE compiles part (tt_diff_json's document), as cmd_diff prints it. */
static void diff_compiles(struct html *h, json_t *tc)
{
	json_t *v;
	size_t i;
	double ta = 0, tb = 0;
	int rows = 0;

	html_rawf(h, "<h2>compiles: %lld &rarr; %lld</h2>\n",
		  (long long)json_integer_value(json_object_get(tc, "compiles_a")),
		  (long long)json_integer_value(json_object_get(tc, "compiles_b")));
	html_raw(h, "<table class=\"sortable\"><thead><tr><th></th><th>compile</th><th>rank</th>"
		    "<th>frame</th><th>what changed</th></tr></thead><tbody>\n");
	for (int k = 0; k < 2; k++)
		json_array_foreach(json_object_get(tc, k ? "added" : "removed"), i, v) {
			html_raw(h, k ? "<tr><td>+</td>" : "<tr><td>&minus;</td>");
			diff_compile_id(h, v);
			html_raw(h, k ? "<td>only in the second run</td></tr>\n" : "<td>only in the first run</td></tr>\n");
			rows++;
		}
	json_array_foreach(json_object_get(tc, "matched"), i, v) {
		json_t *t = json_object_get(v, "entire_frame_compile_time_s");

		ta += json_number_value(json_array_get(t, 0));
		tb += json_number_value(json_array_get(t, 1));
		if (!json_is_true(json_object_get(v, "changed")))
			continue;
		html_raw(h, "<tr><td>~</td>");
		diff_compile_id(h, v);
		html_raw(h, "<td>");
		if (json_is_true(json_object_get(v, "graph_changed")))
			html_raw(h, "graph changed; ");
		for (size_t f = 0; f < run_diff_n_compile_fields; f++) {
			json_t *p = json_object_get(v, run_diff_compile_fields[f]);
			char *x, *y;

			if (!p)
				continue;
			x = run_diff_value_text(json_array_get(p, 0));
			y = run_diff_value_text(json_array_get(p, 1));
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
		json_array_foreach(json_object_get(json_object_get(tc, "recompile_reasons_only"), k ? "b" : "a"), i, v) {
			html_raw(h, k ? "<li>second run: <code>" : "<li>first run: <code>");
			html_text(h, json_string_value(v));
			html_raw(h, "</code></li>\n");
			rows++;
		}
	html_raw(h, rows ? "</ul>\n" : "<li>none</li></ul>\n");
}

int write_diff(struct rctx *c)
{
	struct html h;
	json_t *doc, *sec;
	const char *k;
	char *s;

	if (run_diff_json(c->ix, c->o->run_id, c->o->diff_run, &doc, c->diag) < 0)
		return -1;
	if (page_open(c, &h, "diff.html", "Diff", "") < 0) {
		json_decref(doc);
		return -1;
	}
	html_rawf(&h, "<p>Run %lld (first) against run %lld (second): %s. Counts are per normalised "
		  "text and place, as <code>pttrace diff</code> compares them.</p>\n",
		  (long long)c->o->run_id, (long long)c->o->diff_run,
		  json_is_true(json_object_get(doc, "differ")) ? "they differ" : "no differences");
	sec = json_object_get(doc, "status");
	html_raw(&h, "<h2>exit status</h2>\n<p>");
	html_text(&h, json_string_value(json_object_get(sec, "a")));
	html_raw(&h, " &rarr; ");
	html_text(&h, json_string_value(json_object_get(sec, "b")));
	html_raw(&h, "</p>\n");
	/* Sections neither run has anything in: one line, as the text output leaves them out. */
	{
		int n = 0;

		json_object_foreach(doc, k, sec) {
			json_t *d = json_object_get(sec, "differences");

			if (!d || json_integer_value(json_object_get(sec, "a")) ||
			    json_integer_value(json_object_get(sec, "b")) || json_array_size(d))
				continue;
			html_raw(&h, n++ ? ", " : "<p>Nothing in either run: ");
			html_text(&h, k);
		}
		if (n)
			html_raw(&h, ".</p>\n");
		json_object_foreach(doc, k, sec) {
			json_t *d = json_object_get(sec, "differences");

			if (d && (json_integer_value(json_object_get(sec, "a")) ||
				  json_integer_value(json_object_get(sec, "b")) || json_array_size(d)))
				diff_section(&h, k, sec);
		}
	}
	diff_compiles(&h, json_object_get(doc, "compiles"));
	html_raw(&h, "<details><summary>The same comparison as <code>pttrace diff --json</code></summary>"
		     "\n<pre class=\"code\" data-lang=\"json\">");
	s = json_dumps(doc, JSON_INDENT(2));
	html_text(&h, s);
	free(s);
	html_raw(&h, "</pre></details>\n");
	json_decref(doc);
	return page_close(c, &h);
}
