/*
 * The landing page's sections across ranks (report_pages.h): the rank x compile
 * id matrix, pttrace ranks' cross-rank checks, and the compile timeline (SVG).
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_pages.h"
#include "xalloc.h"

/* The rank x compile id matrix (only with more than one rank). */
void write_matrix(struct rctx *c, struct html *h)
{
	struct compileid *cols = NULL;
	int64_t *ranks = NULL;
	size_t ncols = 0, nranks = 0, a_cols = 0, a_ranks = 0;
	struct cidmap seen = {0};	/* compile ids (who 0) and ranks (ca, frame, compile -2) */

	for (size_t i = 0; i < c->occs.n; i++) {
		const struct rp_occ *o = &c->occs.v[i];
		int64_t k[5], *v;

		cidmap_key(k, 0, &o->cid);
		if ((v = cidmap_get(&seen, k, 1))[0] < 0) {
			v[0] = 1;
			PT_GROW(cols, ncols, a_cols);
			cols[ncols++] = o->cid;
		}
		if ((v = cidmap_get(&seen, (int64_t[5]){o->rank, -2, -2, -2, -2}, 1))[0] < 0) {
			v[0] = 1;
			PT_GROW(ranks, nranks, a_ranks);
			ranks[nranks++] = o->rank;
		}
	}
	cidmap_release(&seen);
	c->nranks = (int64_t)nranks;
	if (nranks > 1) {
		html_raw(h, "<h2 id=\"ranks\">Ranks</h2>\n<p>Status of each compile id on each rank "
			    "(p1, p2 ...: processes without a rank of their own; a blank cell: the rank "
			    "never compiled it).</p>\n<table><thead><tr><th>rank</th>");
		for (size_t j = 0; j < ncols; j++) {
			char t[COMPILEID_MAX + 2];

			cid_text(&cols[j], t, sizeof(t));
			html_raw(h, "<th>");
			html_text(h, t);
			html_raw(h, "</th>");
		}
		html_raw(h, "</tr></thead><tbody>\n");
		for (size_t r = 0; r < nranks; r++) {
			html_raw(h, "<tr><th>");
			html_who(h, ranks[r]);
			html_raw(h, "</th>");
			for (size_t j = 0; j < ncols; j++) {
				const struct rp_occ *o = occ_find(c, ranks[r], &cols[j]);

				if (!o) {
					html_raw(h, "<td></td>");
					continue;
				}
				html_rawf(h, "<td class=\"s-%s\">", o->status);
				cid_link(h, "", o->rank, &o->cid, o->status);
				html_raw(h, " ");
				html_text(h, o->status);
				html_raw(h, "</td>");
			}
			html_raw(h, "</tr>\n");
		}
		html_raw(h, "</tbody></table>\n");
	}
	free(cols);
	free(ranks);
}

static const char *check_title(const char *k)
{
	static const char *const t[][2] = {
		{"compile_ids", "compile ids"}, {"cache", "cache hit/miss pattern"},
		{"collective_schedule", "collective schedules"}, {"tensor_meta", "tensor metadata"},
		{"runtime", "runtime estimates"}, {"execution_order", "graph execution order"},
		{"collectives_parity", "collectives parity (code vs schedule)"},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++)
		if (!strcmp(t[i][0], k))
			return t[i][1];
	return k;
}

static void json_text(struct html *h, json_t *v)
{
	char *s = json_is_string(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

	html_text(h, s ? s : json_string_value(v));
	free(s);
}

/* One cross-rank check (pttrace ranks' "checks" object): its groups of ranks, its
 * details, or its data as JSON. */
static void write_check(struct html *h, const char *name, json_t *chk)
{
	json_t *groups = json_object_get(chk, "groups"), *details = json_object_get(chk, "details");
	json_t *nd = json_object_get(chk, "members_with_data");
	int diverge = json_is_true(json_object_get(chk, "diverge"));
	char *all;

	html_rawf(h, "<tr><td>");
	html_text(h, check_title(name));
	if (json_is_integer(nd) && json_integer_value(nd) < 2)
		html_raw(h, "</td><td>no data to compare</td><td>");
	else
		html_rawf(h, "</td><td class=\"%s\">%s</td><td>", diverge ? "bad" : "good",
			  diverge ? "ranks diverge" : "ranks agree");
	if (json_array_size(groups) > 1) {
		html_raw(h, "<ol>");
		for (size_t i = 0; i < json_array_size(groups); i++) {
			json_t *g = json_array_get(groups, i), *r = json_object_get(g, "ranks");

			html_raw(h, "<li>");
			for (size_t k = 0; k < json_array_size(r); k++) {
				if (k)
					html_raw(h, ", ");
				json_text(h, json_array_get(r, k));
			}
			if (json_is_string(json_object_get(g, "sequence")) &&
			    *json_string_value(json_object_get(g, "sequence"))) {
				html_raw(h, ": <code>");
				json_text(h, json_object_get(g, "sequence"));
				html_raw(h, "</code>");
			}
			html_raw(h, "</li>");
		}
		html_raw(h, "</ol>");
	}
	for (size_t i = 0; i < json_array_size(details); i++) {
		html_raw(h, i ? "<br>" : "");
		json_text(h, json_array_get(details, i));
	}
	if (diverge && !json_array_size(details) && json_array_size(groups) < 2) {
		all = json_dumps(chk, JSON_INDENT(1));
		html_raw(h, "<details><summary>data</summary><pre>");
		html_text(h, all);
		html_raw(h, "</pre></details>");
		free(all);
	}
	html_raw(h, "</td></tr>\n");
}

void write_divergences(struct rctx *c, struct html *h)
{
	json_t *j = NULL, *d, *checks, *v;
	struct pt_diag tmp;
	const char *k;

	pt_diag_init(&tmp);
	if (c->nranks > 1 && tt_ranks_json(c->ix, c->o->run_id, &j, &tmp) == 0) {
		d = json_object_get(j, "divergences");
		checks = json_object_get(j, "checks");
		html_raw(h, "<h3 id=\"checks\">Cross-rank checks</h3>\n");
		if (!json_array_size(d))
			html_raw(h, "<p class=\"good\">No divergence between ranks.</p>\n");
		else
			html_raw(h, "<ul>\n");
		for (size_t i = 0; i < json_array_size(d); i++) {
			html_raw(h, "<li class=\"bad\">");
			json_text(h, json_array_get(d, i));
			html_raw(h, "</li>\n");
		}
		if (json_array_size(d))
			html_raw(h, "</ul>\n");
		if (json_object_size(checks)) {
			html_raw(h, "<table><thead><tr><th>check</th><th>verdict</th><th>groups and "
				    "details</th></tr></thead><tbody>\n");
			json_object_foreach(checks, k, v)
				write_check(h, k, v);
			html_raw(h, "</tbody></table>\n");
		}
	}
	json_decref(j);
	pt_diag_release(&tmp);
}

/* Compile phases per rank as an inline SVG: one bar per compile from its start_time. */
void write_svg_timeline(struct rctx *c, struct html *h)
{
	double t0 = -1, t1 = -1;
	int64_t rmin = 0, rmax = 0;
	int any = 0;
	const double W = 1000;

	for (size_t i = 0; i < c->occs.n; i++) {
		const struct rp_occ *o = &c->occs.v[i];

		if (o->start_time < 0 || o->t_entire < 0)
			continue;
		if (!any || o->start_time < t0)
			t0 = o->start_time;
		if (!any || o->start_time + o->t_entire > t1)
			t1 = o->start_time + o->t_entire;
		if (!any || o->rank < rmin)
			rmin = o->rank;
		if (!any || o->rank > rmax)
			rmax = o->rank;
		any = 1;
	}
	if (!any || rmax - rmin > 4096)
		return;
	if (t1 <= t0)
		t1 = t0 + 1;
	html_raw(h, "<h2 id=\"timeline\">Timeline</h2>\n<p>Compile time per rank (bars from each "
		    "compile's start_time, as long as entire_frame_compile_time_s). The full trace: "
		    "<a href=\"chromium_events.json\">chromium_events.json</a> (open it in Perfetto or "
		    "chrome://tracing).</p>\n");
	html_rawf(h, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%lld\" "
		  "role=\"img\" aria-label=\"compile timeline\">\n", (int)W + 80,
		  (long long)((rmax - rmin + 1) * 22 + 20));
	for (int64_t r = rmin; r <= rmax; r++) {
		html_rawf(h, "<text x=\"0\" y=\"%lld\" font-size=\"12\">", (long long)((r - rmin) * 22 + 15));
		if (r >= 0)
			html_rawf(h, "rank %lld", (long long)r);
		else
			html_who(h, r);
		html_raw(h, "</text>\n");
	}
	for (size_t i = 0; i < c->occs.n; i++) {
		const struct rp_occ *o = &c->occs.v[i];
		char t[COMPILEID_MAX + 2];
		double x, w;

		if (o->start_time < 0 || o->t_entire < 0)
			continue;
		x = 70 + (o->start_time - t0) / (t1 - t0) * W;
		w = o->t_entire / (t1 - t0) * W;
		cid_text(&o->cid, t, sizeof(t));
		html_rawf(h, "<rect class=\"s-%s\" x=\"%.1f\" y=\"%lld\" width=\"%.1f\" height=\"16\" "
			  "fill=\"%s\" stroke=\"#555\"><title>", o->status, x,
			  (long long)((o->rank - rmin) * 22 + 2), w < 1 ? 1 : w,
			  !strcmp(o->status, "failed") ? "#e88" : !strcmp(o->status, "ok") ? "#8c8" : "#ec6");
		html_text(h, t);
		html_rawf(h, " %.3f s</title></rect>\n", o->t_entire);
	}
	html_raw(h, "</svg>\n");
}
