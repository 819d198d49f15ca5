/*
 * The list pages of pttrace report (report_pages.h): compiles.html (one row per
 * compilation_metrics), frames.html (compiles by frame, the recompile chain),
 * breaks.html (graph breaks de-duplicated) and records.html (payloads no
 * compile page lists).
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_pages.h"
#include "xalloc.h"

static void td_num(struct html *h, long long v)
{
	html_raw(h, "<td class=\"n\">");
	html_num(h, v);
	html_raw(h, "</td>");
}

static void td_secs(struct html *h, double s)
{
	html_raw(h, "<td class=\"n\">");
	html_secs(h, s);
	html_raw(h, "</td>");
}

static void td_text(struct html *h, const char *s)
{
	html_raw(h, "<td>");
	html_text(h, s ? s : "-");
	html_raw(h, "</td>");
}

int write_compiles(struct rctx *c)
{
	struct html h;

	if (page_open(c, &h, "compiles.html", "Compiles", "") < 0)
		return -1;
	html_raw(&h, "<p>One row per compilation_metrics record: a compile id compiled again "
		     "(a cache miss, then a hit) has one row per time. Click a heading to sort.</p>\n"
		     "<p><label>Filter: <input data-filter=\"compiles\" type=\"search\"></label></p>\n"
		     "<table id=\"compiles\" class=\"sortable\"><thead><tr><th>rank</th><th>compile id"
		     "</th><th>#</th><th>frame</th><th>status</th><th>fx cache</th><th>aot cache</th>"
		     "<th>entire s</th><th>backend s</th><th>inductor s</th><th>ops</th><th>nodes</th>"
		     "<th>inputs</th><th>guards</th><th>failure or restart</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < c->occs.n; i++) {
		const struct rp_occ *o = &c->occs.v[i];

		html_rawf(&h, "<tr class=\"s-%s\"><td class=\"n\">", o->status);
		html_who(&h, o->rank);
		html_raw(&h, "</td>");
		html_raw(&h, "<td>");
		cid_link(&h, "", o->rank, &o->cid, o->status);
		html_raw(&h, "</td>");
		td_num(&h, o->nth);
		html_raw(&h, "<td>");
		frame_loc(c, &h, o, "");
		html_raw(&h, "</td>");
		td_text(&h, o->status);
		td_text(&h, o->fx_cache);
		td_text(&h, o->aot_cache);
		td_secs(&h, o->t_entire);
		td_secs(&h, o->t_backend);
		td_secs(&h, o->t_inductor);
		td_num(&h, o->ops);
		td_num(&h, o->nodes);
		td_num(&h, o->inputs);
		td_num(&h, o->guards);
		html_raw(&h, "<td>");
		if (o->fail_type) {
			html_text(&h, o->fail_type);
			html_raw(&h, ": ");
			text_block(&h, o->fail_reason);
			failure_source(&h, o->metrics);
		} else if (o->restart_reasons) {
			for (size_t j = 0; j < json_array_size(o->restart_reasons); j++) {
				json_t *x = json_array_get(o->restart_reasons, j);

				if (j)
					html_raw(&h, "<br>");
				html_text(&h, json_is_string(x) ? json_string_value(x) : "?");
			}
		}
		html_raw(&h, "</td></tr>\n");
	}
	html_raw(&h, "</tbody></table>\n");
	return page_close(c, &h);
}

static int frame_cmp(const void *pa, const void *pb)
{
	const struct rp_occ *a = *(const struct rp_occ *const *)pa, *b = *(const struct rp_occ *const *)pb;
	int64_t ka[] = {a->rank, a->cid.ca, a->cid.frame, a->cid.compile, a->cid.attempt, a->id};
	int64_t kb[] = {b->rank, b->cid.ca, b->cid.frame, b->cid.compile, b->cid.attempt, b->id};

	for (int i = 0; i < 6; i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return 0;
}

int write_frames(struct rctx *c)
{
	struct html h;
	const struct rp_occ **v = pt_xcalloc(c->occs.n + 1, sizeof(*v));
	size_t i = 0;

	for (size_t k = 0; k < c->occs.n; k++)
		v[k] = &c->occs.v[k];
	qsort(v, c->occs.n, sizeof(*v), frame_cmp);
	if (page_open(c, &h, "frames.html", "Frames and recompiles", "") < 0) {
		free(v);
		return -1;
	}
	html_raw(&h, "<p>Compiles grouped by frame: how often each frame was compiled, and why "
		     "each recompile happened (the guard of the previous compile that failed).</p>\n"
		     "<table class=\"sortable\"><thead><tr><th>rank</th><th>frame</th><th>function</th>"
		     "<th>compiles</th><th>recompiles</th><th>chain</th></tr></thead><tbody>\n");
	while (i < c->occs.n) {
		size_t j = i, distinct = 0;
		const struct rp_occ *o = v[i];

		while (j < c->occs.n && v[j]->rank == o->rank && v[j]->cid.ca == o->cid.ca &&
		       v[j]->cid.frame == o->cid.frame)
			j++;
		for (size_t k = i; k < j; k++)
			distinct += k == i || v[k]->cid.compile != v[k - 1]->cid.compile;
		html_raw(&h, "<tr><td class=\"n\">");
		html_who(&h, o->rank);
		html_raw(&h, "</td>");
		td_num(&h, o->cid.frame);
		html_raw(&h, "<td>");
		frame_loc(c, &h, o, "");
		html_raw(&h, "</td>");
		td_num(&h, (long long)(j - i));
		td_num(&h, (long long)(distinct ? distinct - 1 : 0));
		html_raw(&h, "<td>");
		for (size_t k = i; k < j; k++) {
			const struct tt_event *e = recompile_of(c, v[k]->rank, &v[k]->cid);

			if (k > i)
				html_raw(&h, e ? " &rarr; <em>" : " &rarr; ");
			if (e && k > i) {
				html_text(&h, e->what);
				html_raw(&h, "</em> &rarr; ");
			}
			cid_link(&h, "", v[k]->rank, &v[k]->cid, v[k]->status);
		}
		html_raw(&h, "</td></tr>\n");
		i = j;
	}
	html_raw(&h, "</tbody></table>\n");
	free(v);
	return page_close(c, &h);
}

static int break_cmp(const void *pa, const void *pb)
{
	const struct tt_event *a = pa, *b = pb;
	int r = strcmp(a->where ? a->where : "", b->where ? b->where : "");

	return r ? r : strcmp(a->what ? a->what : "", b->what ? b->what : "");
}

int write_breaks(struct rctx *c)
{
	struct html h;
	struct tt_event *v = pt_xcalloc(c->breaks.n + 1, sizeof(*v));
	size_t i = 0, groups = 0;

	if (c->breaks.n)
		memcpy(v, c->breaks.v, c->breaks.n * sizeof(*v));
	qsort(v, c->breaks.n, sizeof(*v), break_cmp);
	if (page_open(c, &h, "breaks.html", "Graph breaks", "") < 0) {
		free(v);
		return -1;
	}
	for (size_t k = 0; k < c->breaks.n; k++)
		groups += k == 0 || break_cmp(&v[k], &v[k - 1]);
	html_rawf(&h, "<p>%zu graph breaks, %zu distinct (same location and reason counted once)."
		  "</p>\n<table class=\"sortable\"><thead><tr><th>times</th><th>where</th><th>reason"
		  "</th><th>occurrences</th></tr></thead><tbody>\n", c->breaks.n, groups);
	while (i < c->breaks.n) {
		size_t j = i + 1;

		while (j < c->breaks.n && !break_cmp(&v[j], &v[i]))
			j++;
		html_raw(&h, "<tr>");
		td_num(&h, (long long)(j - i));
		html_raw(&h, "<td><code>");
		html_text(&h, v[i].where ? v[i].where : "?");
		html_raw(&h, "</code></td><td>");
		html_text(&h, v[i].what);
		html_raw(&h, "</td><td>");
		for (size_t k = i; k < j; k++) {
			cid_link(&h, "", v[k].rank, &v[k].cid, cid_status(c, v[k].rank, &v[k].cid));
			html_raw(&h, " ");
		}
		html_raw(&h, "</td></tr>\n");
		i = j;
	}
	html_raw(&h, "</tbody></table>\n");
	free(v);
	return page_close(c, &h);
}

/*
 * records.html: the payloads of records whose compile id has no page of its own
 * (no compile id at all, a compile id with neither compilation_metrics nor
 * dynamo_start, compiled autograd's captures, vLLM's and other artifacts outside a
 * compile), so that every payload page is reachable from the landing page. Written
 * before the landing page, which links it when it lists something.
 */
struct loose {
	struct rctx *c;
	struct html h;
	int open;
	uint64_t n, more;
	int rc;
};

#define LOOSE_LIST_MAX PAYLOAD_PAGES_MAX

static int on_loose(void *ctx, const struct rp_rec *r)
{
	struct loose *l = ctx;
	struct rctx *c = l->c;
	const char *label = tt_artifact_label(r->kind, r->name);
	char t[COMPILEID_MAX + 2];

	if (occ_entry(c, r->rank, &r->cid) || strlen(r->md5) > 64 ||
	    strspn(r->md5, "0123456789abcdef") != strlen(r->md5) || !has_page(c, r->md5))
		return 0;	/* listed on its compile's page, or no page (on_payload) */
	if (!l->open) {
		if (page_open(c, &l->h, "records.html", "Payloads outside the compile pages", "") < 0)
			return -1;
		l->open = 1;
		html_raw(&l->h, "<p>Records with a payload whose compile id has no page of its own: "
			     "no compile id, a compile id that logged neither <code>dynamo_start</code> "
			     "nor <code>compilation_metrics</code>, compiled autograd's captures.</p>\n"
			     "<table><thead><tr><th>who</th><th>compile id</th><th>payload</th>"
			     "<th>record</th></tr></thead><tbody>\n");
	}
	if (l->n++ >= LOOSE_LIST_MAX) {
		l->more++;
		return 0;
	}
	cid_text(&r->cid, t, sizeof(t));
	html_raw(&l->h, "<tr><td class=\"n\">");
	html_who(&l->h, r->rank);
	html_raw(&l->h, "</td><td>");
	html_text(&l->h, t);
	html_raw(&l->h, "</td><td><a href=\"p/");
	html_attr(&l->h, r->md5);
	html_raw(&l->h, ".html\">");
	html_text(&l->h, label ? label : r->kind);
	html_raw(&l->h, "</a></td><td><small>");
	html_text(&l->h, r->file ? (strrchr(r->file, '/') ? strrchr(r->file, '/') + 1 : r->file) : "?");
	html_rawf(&l->h, ":%lld</small></td></tr>\n", (long long)r->lineno);
	return 0;
}

/* The number of records listed (0: no page written), or -1. */
int64_t write_loose(struct rctx *c)
{
	struct loose l = {.c = c};
	int rc = rp_payload_records(c->ix, c->o->run_id, on_loose, &l);

	if (!l.open)
		return rc < 0 ? -1 : 0;
	html_raw(&l.h, "</tbody></table>\n");
	if (l.more)
		html_rawf(&l.h, "<p>&hellip; and %llu more records, not listed.</p>\n",
			  (unsigned long long)l.more);
	if (page_close(c, &l.h) < 0 || rc < 0)
		return -1;
	return (int64_t)l.n;
}
