/*
 * export.html of pttrace report (report_pages.h): torch.export's records, with
 * where each symbolic expression came from.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_pages.h"
#include "strbuf.h"

const char *const export_kinds[] = {
	"exported_program", "guard_added", "create_unbacked_symbol", "expression_created",
	"missing_fake_kernel", "mismatched_fake_kernel", "propagate_real_tensors",
	"propagate_real_tensors_provenance", NULL,
};

struct export_ctx {
	struct rctx *c;
	struct html *h;
	/* The symbolic expressions by id (expression_created's result_id,
	 * create_unbacked_symbol's node_id): {result, method, arguments, argument_ids}. */
	json_t *exprs;
};

static int on_expr(void *ctx, const struct rp_rec *r)
{
	struct export_ctx *x = ctx;
	json_t *env = json_loads(r->envelope, 0, NULL);
	json_t *m = json_object_get(env, r->kind);
	int unbacked = !strcmp(r->kind, "create_unbacked_symbol");
	json_t *id = json_object_get(m, unbacked ? "node_id" : "result_id");
	char key[32];

	if (json_is_integer(id)) {
		pt_fmt_trunc(key, sizeof(key), "%lld", (long long)json_integer_value(id));
		json_object_set_new(x->exprs, key, json_pack("{s:O?, s:O?, s:O?, s:O?}",
			"result", json_object_get(m, unbacked ? "symbol" : "result"),
			"method", json_object_get(m, "method"), "arguments", json_object_get(m, "arguments"),
			"argument_ids", json_object_get(m, "argument_ids")));
	}
	json_decref(env);
	return 0;
}

/* Where an expression came from, as tlparse's symbolic-guard page shows it: the
 * expression, the method that made it and its arguments, and so on down the
 * arguments' own ids (each expression once). */
static void write_expr_tree(struct export_ctx *x, json_int_t id, json_t *seen, int depth)
{
	char key[32];
	json_t *e, *ids, *v;
	size_t i;

	pt_fmt_trunc(key, sizeof(key), "%lld", (long long)id);
	if (depth > TRIE_MAX_DEPTH || json_object_get(seen, key) || !(e = json_object_get(x->exprs, key)))
		return;
	json_object_set_new(seen, key, json_true());
	html_raw(x->h, "<li><code>");
	html_text(x->h, json_string_value(json_object_get(e, "result")));
	html_raw(x->h, "</code>");
	if (json_is_string(json_object_get(e, "method"))) {
		char *args = json_dumps(json_object_get(e, "arguments"), JSON_ENCODE_ANY | JSON_COMPACT);

		html_raw(x->h, " = <b>");
		html_text(x->h, json_string_value(json_object_get(e, "method")));
		html_raw(x->h, "</b>");
		if (args) {
			html_raw(x->h, " <code>");
			html_text(x->h, args);
			html_raw(x->h, "</code>");
		}
		free(args);
	} else {
		html_raw(x->h, " <small>(unbacked symbol)</small>");
	}
	ids = json_object_get(e, "argument_ids");
	if (json_array_size(ids)) {
		html_raw(x->h, "<ul>");
		json_array_foreach(ids, i, v)
			if (json_is_integer(v))
				write_expr_tree(x, json_integer_value(v), seen, depth + 1);
		html_raw(x->h, "</ul>");
	}
	html_raw(x->h, "</li>");
}

static int on_export(void *ctx, const struct rp_rec *r)
{
	struct export_ctx *x = ctx;
	struct rctx *c = x->c;
	struct html *h = x->h;
	json_t *env = json_loads(r->envelope, 0, NULL);
	json_t *m = json_object_get(env, r->kind);
	static const char *const keys[] = {"expr", "symbol", "op", "method", "result", "reason", "vr", NULL};

	html_raw(h, "<tr><td>");
	html_text(h, r->kind);
	html_raw(h, "</td><td>");
	for (const char *const *k = keys; *k; k++) {
		json_t *v = json_object_get(m, *k);
		char *s;

		if (!v || json_is_null(v))
			continue;
		s = json_is_string(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		html_raw(h, "<b>");
		html_text(h, *k);
		html_raw(h, "</b> <code>");
		html_text(h, s ? s : json_string_value(v));
		html_raw(h, "</code> ");
		free(s);
	}
	if (r->md5 && has_page(c, r->md5)) {
		html_raw(h, "<a href=\"p/");
		html_attr(h, r->md5);
		html_raw(h, ".html\">payload</a>");
	}
	if (json_is_integer(json_object_get(m, "expr_node_id"))) {
		json_t *seen = json_object();

		html_raw(h, "<details open><summary>provenance of the expression</summary><ul class=\"trie\">");
		write_expr_tree(x, json_integer_value(json_object_get(m, "expr_node_id")), seen, 0);
		html_raw(h, "</ul></details>");
		json_decref(seen);
	}
	write_stack(c, h, r->file_id, json_object_get(m, "user_stack"), "");
	html_raw(h, "</td></tr>\n");
	json_decref(env);
	return 0;
}

int write_export(struct rctx *c)
{
	static const char *const expr_kinds[] = {"expression_created", "create_unbacked_symbol", NULL};
	struct html h;
	struct export_ctx x = {c, &h, NULL};
	int rc;

	if (page_open(c, &h, "export.html", "Export report", "") < 0)
		return -1;
	html_raw(&h, "<p>torch.export records: the exported program, guards added, unbacked symbols "
		     "and data-dependent expressions, fake-kernel problems, the results "
		     "<code>propagate_real_tensors</code> took from real tensors (with where each "
		     "expression came from, from <code>expression_created</code> and "
		     "<code>create_unbacked_symbol</code>).</p>\n<table><thead><tr><th>"
		     "kind</th><th>what</th></tr></thead><tbody>\n");
	x.exprs = json_object();
	rc = rp_records_of_kinds(c->ix, c->o->run_id, expr_kinds, on_expr, &x);
	if (rc == 0)
		rc = rp_records_of_kinds(c->ix, c->o->run_id, export_kinds, on_export, &x);
	json_decref(x.exprs);
	html_raw(&h, "</tbody></table>\n");
	return page_close(c, &h) < 0 ? -1 : rc;
}
