/*
 * The landing page's sections across ranks (report_pages.h): the rank x compile
 * id matrix, pttrace ranks' cross-rank checks, and the compile timeline (SVG).
 */
#include <stdlib.h>
#include <string.h>

#include "render_ranks.h"
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

static const char *const check_title[TT_RANKS_NCHECKS] = {
	[TT_RANKS_COMPILE_IDS] = "compile ids", [TT_RANKS_CACHE] = "cache hit/miss pattern",
	[TT_RANKS_COLLECTIVE_SCHEDULE] = "collective schedules", [TT_RANKS_TENSOR_META] = "tensor metadata",
	[TT_RANKS_RUNTIME] = "runtime estimates", [TT_RANKS_EXECUTION_ORDER] = "graph execution order",
	[TT_RANKS_COLLECTIVES_PARITY] = "collectives parity (code vs schedule)",
};

/* One cross-rank check: its groups of ranks, its details, or its data as `ranks --json` has it. */
static void write_check(struct html *h, const struct tt_ranks_result *r, enum tt_ranks_check k)
{
	static const struct tt_ranks_grouping none = {0};
	const struct tt_ranks_grouping *groups = &none;
	char *const *details = NULL;
	size_t ndetails = 0;
	long nd = -1;	/* members with data, -1: the check does not say */
	int diverge = 0;

	switch (k) {
	case TT_RANKS_COMPILE_IDS:
		diverge = r->compile_ids.diverge;
		details = r->compile_ids.details;
		ndetails = r->compile_ids.ndetails;
		break;
	case TT_RANKS_CACHE:
		groups = &r->cache;
		break;
	case TT_RANKS_COLLECTIVE_SCHEDULE:
		groups = &r->collective_schedule.g;
		break;
	case TT_RANKS_TENSOR_META:
		groups = &r->tensor_meta;
		break;
	case TT_RANKS_RUNTIME:
		diverge = r->runtime.diverge;
		nd = r->runtime.members_with_data;
		break;
	case TT_RANKS_EXECUTION_ORDER:
		diverge = r->execution_order.diverge;
		nd = r->execution_order.members_with_data;
		break;
	default:
		diverge = r->collectives_parity.diverge;
		break;
	}
	if (groups != &none) {
		diverge = groups->diverge;
		nd = groups->members_with_data;
	}
	html_rawf(h, "<tr><td>");
	html_text(h, check_title[k]);
	if (nd >= 0 && nd < 2)
		html_raw(h, "</td><td>no data to compare</td><td>");
	else
		html_rawf(h, "</td><td class=\"%s\">%s</td><td>", diverge ? "bad" : "good",
			  diverge ? "ranks diverge" : "ranks agree");
	if (groups->ngroups > 1) {
		html_raw(h, "<ol>");
		for (size_t i = 0; i < groups->ngroups; i++) {
			const struct tt_ranks_group *g = &groups->groups[i];

			html_raw(h, "<li>");
			for (size_t m = 0; m < g->nmembers; m++) {
				if (m)
					html_raw(h, ", ");
				html_text(h, r->members[g->members[m]].label);
			}
			if (*g->sequence) {
				html_raw(h, ": <code>");
				html_text(h, g->sequence);
				html_raw(h, "</code>");
			}
			html_raw(h, "</li>");
		}
		html_raw(h, "</ol>");
	}
	for (size_t i = 0; i < ndetails; i++) {
		html_raw(h, i ? "<br>" : "");
		html_text(h, details[i]);
	}
	if (diverge && !ndetails && groups->ngroups < 2) {
		json_t *j = render_ranks_check_json(r, k);
		char *all = json_dumps(j, JSON_INDENT(1));

		html_raw(h, "<details><summary>data</summary><pre>");
		html_text(h, all);
		html_raw(h, "</pre></details>");
		free(all);
		json_decref(j);
	}
	html_raw(h, "</td></tr>\n");
}

void write_divergences(struct rctx *c, struct html *h)
{
	struct tt_ranks_result r;

	if (c->nranks <= 1 || tt_ranks_load(c->ix, c->o->run_id, &r) < 0)
		return;
	html_raw(h, "<h3 id=\"checks\">Cross-rank checks</h3>\n");
	if (!r.ndivergences)
		html_raw(h, "<p class=\"good\">No divergence between ranks.</p>\n");
	else
		html_raw(h, "<ul>\n");
	for (size_t i = 0; i < r.ndivergences; i++) {
		html_raw(h, "<li class=\"bad\">");
		html_text(h, r.divergences[i]);
		html_raw(h, "</li>\n");
	}
	if (r.ndivergences)
		html_raw(h, "</ul>\n");
	html_raw(h, "<table><thead><tr><th>check</th><th>verdict</th><th>groups and "
		    "details</th></tr></thead><tbody>\n");
	for (int k = 0; k < TT_RANKS_NCHECKS; k++)
		write_check(h, &r, k);
	html_raw(h, "</tbody></table>\n");
	tt_ranks_result_release(&r);
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
		    "<a href=\"" REPORT_TIMELINE "\">" REPORT_TIMELINE "</a> (open it in Perfetto or "
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
