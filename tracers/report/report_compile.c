/*
 * The compile pages of pttrace report (report_pages.h): c/<key>.html, one per
 * compile id and rank (why it recompiled, its failure, metrics and shape guards,
 * artifacts, guards and their diff against the frame's previous compile), and
 * c/<key>.provenance.html where inductor logged its provenance mappings.
 */
#include <stdlib.h>
#include <string.h>

#include "cmp.h"
#include "report.h"
#include "report_pages.h"
#include "report_provenance.h"
#include "strbuf.h"
#include "xalloc.h"

/* Guard lines of a record: dynamo_guards' codes, or dynamo_cpp_guards_str's lines. */
struct guards {
	char **v;
	size_t n, alloc;
};

static void guards_add(struct guards *g, const char *s, size_t n)
{
	while (n && (s[0] == ' ' || s[0] == '|' || s[0] == '+' || s[0] == '-'))
		s++, n--;
	if (!n)
		return;
	PT_GROW(g->v, g->n, g->alloc);
	g->v[g->n] = pt_xmalloc(n + 1);
	memcpy(g->v[g->n], s, n);
	g->v[g->n++][n] = 0;
}

static void guards_release(struct guards *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->v[i]);
	free(g->v);
	memset(g, 0, sizeof(*g));
}

struct cpage {
	struct rctx *c;
	struct html *h;
	struct guards guards;
	size_t shown;	/* records written in the metrics-and-guards section */
};

static void guard_lines_from(struct rctx *c, const struct rp_rec *r, struct guards *g)
{
	char *data = NULL;
	size_t len = 0;

	if (!r->md5 || load_payload(c, r->md5, &data, &len) != 0)
		return;
	if (!strcmp(r->kind, "dynamo_cpp_guards_str")) {
		for (size_t i = 0; i < len;) {
			size_t j = i;

			while (j < len && data[j] != '\n')
				j++;
			guards_add(g, data + i, j - i);
			i = j + 1;
		}
	}
	free(data);
}

static int prev_guards(void *ctx, const struct rp_rec *r)
{
	struct cpage *p = ctx;

	if (!strcmp(r->kind, "dynamo_cpp_guards_str"))
		guard_lines_from(p->c, r, &p->guards);
	return 0;
}

static void write_metrics(struct html *h, json_t *m)
{
	const char *k;
	json_t *v;

	html_raw(h, "<table>\n");
	json_object_foreach(m, k, v) {
		html_raw(h, "<tr><th>");
		html_text(h, k);
		html_raw(h, "</th><td>");
		if (json_is_array(v) && json_array_size(v)) {
			html_raw(h, "<ul>");
			for (size_t i = 0; i < json_array_size(v); i++) {
				json_t *x = json_array_get(v, i);
				char *s = json_is_string(x) ? NULL : json_dumps(x, JSON_ENCODE_ANY);

				html_raw(h, "<li>");
				html_text(h, s ? s : json_string_value(x));
				html_raw(h, "</li>");
				free(s);
			}
			html_raw(h, "</ul>");
		} else if (json_is_string(v)) {
			text_block(h, json_string_value(v));
		} else {
			char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

			html_text(h, s);
			free(s);
		}
		html_raw(h, "</td></tr>\n");
	}
	html_raw(h, "</table>\n");
}

static int on_compile_rec(void *ctx, const struct rp_rec *r)
{
	struct cpage *p = ctx;
	struct html *h = p->h;
	json_t *env = json_loads(r->envelope, 0, NULL);
	json_t *meta = json_object_get(env, r->kind);

	if (!strcmp(r->kind, "compilation_metrics")) {
		html_rawf(h, "<h3>compilation_metrics (line %lld)</h3>\n", (long long)r->lineno);
		write_metrics(h, meta);
		p->shown++;
	} else if (!strcmp(r->kind, "symbolic_shape_specialization") ||
		   !strcmp(r->kind, "guard_added_fast")) {
		html_raw(h, "<h3>");
		html_text(h, r->kind);
		html_raw(h, "</h3>\n<p><code>");
		html_text(h, json_string_value(json_object_get(meta, "expr")) ?
			     json_string_value(json_object_get(meta, "expr")) :
			     json_string_value(json_object_get(meta, "symbol")));
		html_raw(h, "</code> ");
		html_text(h, json_string_value(json_object_get(meta, "reason")));
		html_raw(h, "</p>");
		write_stack(p->c, h, r->file_id, json_object_get(meta, "user_stack"), "../");
		write_stack(p->c, h, r->file_id, json_object_get(meta, "stack"), "../");
		p->shown++;
	} else if (!strcmp(r->kind, "dynamo_start")) {
		json_t *st = json_object_get(meta, "stack");

		html_rawf(h, "<h3>dynamo_start (line %lld): where the compile started</h3>\n",
			  (long long)r->lineno);
		write_stack(p->c, h, r->file_id, json_is_array(st) ? st : json_object_get(env, "stack"), "../");
	}
	if (!strcmp(r->kind, "dynamo_cpp_guards_str"))
		guard_lines_from(p->c, r, &p->guards);
	json_decref(env);
	return 0;
}

/* Artifacts list written after the records pass, in record order. */
struct arts {
	struct rctx *c;
	struct html *h;
	size_t n;
	size_t more;	/* past ART_LIST_MAX: counted, not listed */
	/* The payloads the provenance pane needs (md5s, NULL when absent). */
	char *pre, *post, *code, *mappings;
};

static void set_md5(char **slot, const char *md5)
{
	free(*slot);
	*slot = pt_xstrdup(md5);
}

static int on_art(void *ctx, const struct rp_rec *r)
{
	struct arts *a = ctx;
	const char *label;

	if (!r->md5 && strcmp(r->kind, "link"))
		return 0;
	label = tt_artifact_label(r->kind, r->name);
	if (r->md5 && label) {
		if (!strcmp(label, "after_pre_grad_graph") || !strcmp(label, "inductor_pre_grad_graph"))
			set_md5(&a->pre, r->md5);
		else if (!strcmp(label, "after_post_grad_graph") || !strcmp(label, "inductor_post_grad_graph"))
			set_md5(&a->post, r->md5);
		else if (!strcmp(r->kind, "inductor_output_code"))
			set_md5(&a->code, r->md5);
		else if (!strcmp(label, "inductor_provenance_tracking_node_mappings"))
			set_md5(&a->mappings, r->md5);
	}
	if (a->n >= ART_LIST_MAX) {
		a->more++;
		return 0;
	}
	html_raw(a->h, "<li>");
	if (r->md5 && !has_page(a->c, r->md5)) {
		html_text(a->h, label ? label : r->kind);
		html_rawf(a->h, " <small>(no page: a report has at most %d payload pages)</small>",
			  PAYLOAD_PAGES_MAX);
	} else if (r->md5) {
		html_raw(a->h, "<a href=\"../p/");
		html_attr(a->h, r->md5);
		html_raw(a->h, ".html\">");
		html_text(a->h, label ? label : r->kind);
		html_raw(a->h, "</a>");
	} else {
		json_t *env = json_loads(r->envelope, 0, NULL);
		json_t *m = json_object_get(env, "link");

		html_raw(a->h, "link ");
		html_text(a->h, json_string_value(json_object_get(m, "name")));
		html_raw(a->h, ": <code>");
		html_text(a->h, json_string_value(json_object_get(m, "url")));
		html_raw(a->h, "</code>");
		json_decref(env);
	}
	html_rawf(a->h, " <small>line %lld</small></li>\n", (long long)r->lineno);
	a->n++;
	return 0;
}

/* c/KEY.provenance.html: 0 written, -1 not (an error is in diag when it was one). */
static int write_provenance(struct rctx *c, const struct rp_occ *o, const char *key,
			    const char *title, const struct arts *a)
{
	char *map = NULL, *pre = NULL, *post = NULL, *code = NULL, *rel, *t;
	size_t nmap = 0, npre = 0, npost = 0, ncode = 0;
	json_t *m = NULL;
	struct html h;
	int rc = -1;

	(void)o;
	if (load_payload(c, a->mappings, &map, &nmap) != 0 ||
	    !(m = json_loadb(map, nmap, 0, NULL)) || !json_is_object(m))
		goto out;
	if (a->pre)
		load_payload(c, a->pre, &pre, &npre);
	if (a->post)
		load_payload(c, a->post, &post, &npost);
	if (a->code)
		load_payload(c, a->code, &code, &ncode);
	rel = pt_xasprintf("c/%s.provenance.html", key);
	t = pt_xasprintf("%s: provenance", title);
	if (page_open(c, &h, rel, t, "../") == 0) {
		report_provenance_write(&h, m, pre, npre, post, npost, code, ncode);
		rc = page_close(c, &h);
	}
	free(rel);
	free(t);
out:
	json_decref(m);
	free(map);
	free(pre);
	free(post);
	free(code);
	return rc;
}

static int write_compile_page(struct rctx *c, const struct rp_occ *o, const struct rp_occ *prev)
{
	struct html h;
	char key[160], rel[200], title[COMPILEID_MAX + 64];
	struct cpage p = {c, &h, {0}, 0};
	struct cpage pp = {c, NULL, {0}, 0};
	const struct tt_event *re = recompile_of(c, o->rank, &o->cid);
	struct arts a = {c, &h, 0, 0, NULL, NULL, NULL, NULL};
	size_t n = (size_t)occ_entry(c, o->rank, &o->cid)[0];
	int rc = 0;

	rp_occ_key(o->rank, &o->cid, key, sizeof(key));
	pt_fmt_trunc(rel, sizeof(rel), "c/%s.html", key);
	cid_text(&o->cid, title, sizeof(title));
	if (o->rank >= 0)
		pt_fmt_trunc(title + strlen(title), sizeof(title) - strlen(title), " rank %lld",
			 (long long)o->rank);
	else if (o->rank < -1)
		pt_fmt_trunc(title + strlen(title), sizeof(title) - strlen(title), " process %lld",
			 (long long)(-1 - o->rank));
	if (page_open(c, &h, rel, title, "../") < 0)
		return -1;
	html_raw(&h, "<p>");
	frame_loc(c, &h, o, "../");
	html_rawf(&h, " &mdash; status <span class=\"cid s-%s\">", o->status);
	html_text(&h, o->status);
	html_rawf(&h, "</span>, compiled %zu time%s.</p>\n", n, n == 1 ? "" : "s");
	if (re) {
		html_raw(&h, "<h2>Why it recompiled</h2>\n<p>The guard that failed");
		if (re->prev) {
			html_raw(&h, " (of [");
			html_text(&h, re->prev);
			html_raw(&h, "])");
		}
		html_raw(&h, ": <code>");
		html_text(&h, re->what);
		html_raw(&h, "</code>");
		if (re->where) {
			html_raw(&h, " at <code>");
			html_text(&h, re->where);
			html_raw(&h, "</code>");
		}
		html_raw(&h, "</p>\n");
	}
	if (o->fail_type) {
		html_raw(&h, "<h2>Failure</h2>\n<p><b>");
		html_text(&h, o->fail_type);
		html_raw(&h, "</b></p>\n");
		if (o->fail_reason) {
			html_raw(&h, "<pre class=\"text\">");
			html_text(&h, o->fail_reason);
			html_raw(&h, "</pre>\n");
		}
		failure_source(&h, o->metrics);
		html_raw(&h, "\n");
	}
	html_raw(&h, "<h2>Metrics and shape guards</h2>\n");
	if (rp_compile_records(c->ix, &c->occs, c->o->run_id, o->file_id, &o->cid, on_compile_rec, &p) < 0)
		rc = -1;
	if (!p.shown)
		html_raw(&h, "<p>No compilation_metrics, symbolic_shape_specialization or "
			     "guard_added_fast record has this compile id.</p>\n");
	html_raw(&h, "<h2>Artifacts, in record order</h2>\n<ol>\n");
	if (rp_compile_records(c->ix, &c->occs, c->o->run_id, o->file_id, &o->cid, on_art, &a) < 0)
		rc = -1;
	if (a.more)
		html_rawf(&h, "<li>&hellip; and %zu more, not listed (a compile's page lists %d; "
			  "<code>pttrace artifact %lld --out DIR</code> writes them all)</li>\n", a.more,
			  ART_LIST_MAX, (long long)c->o->run_id);
	html_raw(&h, "</ol>\n");
	if (a.mappings && write_provenance(c, o, key, title, &a) == 0) {
		html_raw(&h, "<p><a href=\"");
		html_attr(&h, key);
		html_raw(&h, ".provenance.html\">Provenance: pre-grad graph, post-grad graph and output "
			     "code, line-linked</a></p>\n");
	}
	free(a.pre);
	free(a.post);
	free(a.code);
	free(a.mappings);
	if (p.guards.n) {
		html_rawf(&h, "<h2>Guards (%zu)</h2>\n<pre class=\"code\">", p.guards.n);
		for (size_t i = 0; i < p.guards.n; i++) {
			html_raw(&h, "<span class=\"l\">");
			html_text(&h, p.guards.v[i]);
			html_raw(&h, "</span>\n");
		}
		html_raw(&h, "</pre>\n");
	}
	if (prev && p.guards.n) {
		size_t i = 0, j = 0, changes = 0;

		if (rp_compile_records(c->ix, &c->occs, c->o->run_id, prev->file_id, &prev->cid, prev_guards, &pp) < 0)
			rc = -1;
		if (p.guards.n > 1)
			qsort(p.guards.v, p.guards.n, sizeof(char *), pt_cmp_strp);
		if (pp.guards.n > 1)
			qsort(pp.guards.v, pp.guards.n, sizeof(char *), pt_cmp_strp);
		html_raw(&h, "<h2>Guard diff against the previous compile of this frame (");
		cid_link(&h, "../", prev->rank, &prev->cid, prev->status);
		html_raw(&h, ")</h2>\n<pre class=\"diff\">");
		while (i < p.guards.n || j < pp.guards.n) {
			int cmp = i == p.guards.n ? 1 : j == pp.guards.n ? -1
				  : strcmp(p.guards.v[i], pp.guards.v[j]);

			if (cmp == 0) {
				i++, j++;
				continue;
			}
			changes++;
			html_raw(&h, cmp < 0 ? "<span class=\"add\">+ " : "<span class=\"del\">- ");
			html_text(&h, cmp < 0 ? p.guards.v[i++] : pp.guards.v[j++]);
			html_raw(&h, "</span>\n");
		}
		if (!changes)
			html_raw(&h, "(same guards)\n");
		html_raw(&h, "</pre>\n");
		guards_release(&pp.guards);
	}
	guards_release(&p.guards);
	if (page_close(c, &h) < 0)
		rc = -1;
	return rc;
}

int write_compile_pages(struct rctx *c)
{
	for (size_t i = 0; i < c->occs.n; i++) {
		const struct rp_occ *o = &c->occs.v[i], *prev = NULL;
		const int64_t *v;

		/* One page per (rank, compile id): the first occurrence writes it. */
		if (occ_entry(c, o->rank, &o->cid)[1] != (int64_t)i)
			continue;
		/* The previous compile of the frame: the last occurrence of compile - 1, any attempt. */
		if (o->cid.frame != COMPILEID_NONE &&
		    (v = cidmap_get(&c->by_compile, (int64_t[5]){o->rank, o->cid.ca, o->cid.frame,
								    o->cid.compile - 1, 0}, 0)))
			prev = &c->occs.v[v[0]];
		if (write_compile_page(c, o, prev) < 0)
			return -1;
	}
	return 0;
}
