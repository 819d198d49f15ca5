/*
 * index.html (report_pages.h): the crash first, data health, record kinds
 * pttrace does not know, totals, the pages, then the sections of
 * report_ranks.c, report_trie.c and report_run.c.
 */
#include <string.h>

#include "report.h"
#include "report_pages.h"
#include "strbuf.h"
#include "xalloc.h"

struct health {
	struct html *h;
	int64_t files, ranked, conflicts, records, damaged, mismatches;
};

static int health_file(void *ctx, const struct rp_file *f)
{
	struct health *hc = ctx;
	struct html *h = hc->h;

	hc->files++;
	hc->records += f->records > 0 ? f->records : 0;
	hc->damaged += f->damaged > 0 ? f->damaged : 0;
	hc->mismatches += f->md5_mismatches > 0 ? f->md5_mismatches : 0;
	html_raw(h, "<tr><td><code>");
	html_text(h, f->path);
	html_raw(h, "</code></td><td class=\"n\">");
	html_num(h, f->rank);
	html_raw(h, "</td><td class=\"n\">");
	html_num(h, f->size);
	html_raw(h, "</td><td class=\"n\">");
	html_num(h, f->records);
	html_raw(h, "</td><td class=\"n\">");
	html_num(h, f->payloads);
	html_rawf(h, "</td><td class=\"n%s\">", f->damaged > 0 ? " bad" : "");
	html_num(h, f->damaged);
	html_rawf(h, "</td><td class=\"n%s\">", f->md5_mismatches > 0 ? " bad" : "");
	html_num(h, f->md5_mismatches);
	html_raw(h, "</td><td>");
	if (f->rank_conflict) {
		hc->conflicts++;
		html_raw(h, "<span class=\"bad\">");
		html_text(h, f->rank_conflict);
		html_raw(h, "</span>");
	}
	html_raw(h, "</td></tr>\n");
	return 0;
}

static int health_mismatch(void *ctx, const struct rp_rec *r)
{
	struct html *h = ctx;

	html_raw(h, "<li><code>");
	html_text(h, r->file);
	html_rawf(h, ":%lld</code> ", (long long)r->lineno);
	html_text(h, r->kind);
	html_raw(h, ": computed <code>");
	html_text(h, r->md5);
	html_raw(h, "</code>, declared <code>");
	html_text(h, r->md5_declared);
	html_raw(h, "</code></li>\n");
	return 0;
}

/* Kinds pttrace knows (torch 2.x, tlparse's set and later additions); others are listed. */
static const char *const known_kinds[] = {
	"aot_autograd_backward_compilation_metrics", "aot_backward_graph", "aot_forward_graph",
	"aot_inference_graph", "aot_joint_graph", "artifact", "bwd_compilation_metrics",
	"chromium_event", "compilation_metrics", "compilation_metrics_runtime",
	"compiled_autograd_graph", "create_symbol", "create_unbacked_symbol", "describe_source",
	"describe_storage", "describe_tensor", "dump_file", "dynamo_cpp_guards_str",
	"dynamo_graph_break_reason", "dynamo_guards", "dynamo_output_graph", "dynamo_start",
	"exported_program", "expression_created", "graph_dump", "guard_added", "guard_added_fast",
	"inductor_output_code", "inductor_post_grad_graph", "inductor_pre_grad_graph", "link",
	"mismatched_fake_kernel", "missing_fake_kernel", "optimize_ddp_split_child",
	"optimize_ddp_split_graph", "propagate_real_tensors", "propagate_real_tensors_provenance",
	"str", "symbolic_shape_specialization",
};

static int is_known_kind(const char *k)
{
	for (size_t i = 0; i < PT_ARRAY_SIZE(known_kinds); i++)
		if (!strcmp(known_kinds[i], k))
			return 1;
	return 0;
}

struct kinds_ctx {
	struct rctx *c;
	json_t *unk;
};

static int on_kind(void *ctx, const char *kind, int64_t n)
{
	struct kinds_ctx *k = ctx;

	for (const char *const *e = export_kinds; *e; e++)
		if (!strcmp(*e, kind) && n > 0)
			k->c->has_export = 1;
	if (!is_known_kind(kind))
		json_object_set_new(k->unk, kind, json_integer(n));
	return 0;
}

static void write_totals(struct rctx *c, struct html *h)
{
	size_t ok = 0, failed = 0, restarted = 0, empty = 0, missing = 0, metrics = 0, captures = 0;
	double total = 0;
	const struct rp_occ *slow = NULL;

	for (size_t i = 0; i < c->occs.n; i++) {
		const struct rp_occ *o = &c->occs.v[i];

		if (!strcmp(o->status, "missing")) {
			missing++;
			continue;
		}
		if (!strcmp(o->status, "autograd")) {
			captures++;
			continue;
		}
		metrics++;
		ok += !strcmp(o->status, "ok");
		failed += !strcmp(o->status, "failed");
		restarted += !strcmp(o->status, "restarted");
		empty += !strcmp(o->status, "empty");
		if (o->t_entire > 0) {
			total += o->t_entire;
			if (!slow || o->t_entire > slow->t_entire)
				slow = o;
		}
	}
	c->st->compiles = metrics;
	html_raw(h, "<h2 id=\"totals\">Totals</h2>\n<table>\n");
	html_rawf(h, "<tr><th>compiles (compilation_metrics)</th><td class=\"n\">%zu</td></tr>\n", metrics);
	html_rawf(h, "<tr><th>ok</th><td class=\"n\">%zu</td></tr>\n", ok);
	html_rawf(h, "<tr><th>failed</th><td class=\"n%s\">%zu</td></tr>\n", failed ? " bad" : "", failed);
	html_rawf(h, "<tr><th>restarted</th><td class=\"n\">%zu</td></tr>\n", restarted);
	html_rawf(h, "<tr><th>empty graph</th><td class=\"n\">%zu</td></tr>\n", empty);
	html_rawf(h, "<tr><th>started, no compilation_metrics</th><td class=\"n\">%zu</td></tr>\n", missing);
	if (captures)
		html_rawf(h, "<tr><th><a href=\"compiles.html\">compiled-autograd captures</a> ([!N])</th>"
			  "<td class=\"n\">%zu</td></tr>\n", captures);
	html_rawf(h, "<tr><th><a href=\"breaks.html\">graph breaks</a></th><td class=\"n\">%zu</td></tr>\n",
		  c->breaks.n);
	html_rawf(h, "<tr><th><a href=\"frames.html\">recompiles</a></th><td class=\"n\">%zu</td></tr>\n",
		  c->recompiles.n);
	html_raw(h, "<tr><th>total compile time</th><td class=\"n\">");
	html_secs(h, total);
	html_raw(h, " s</td></tr>\n<tr><th>slowest compile</th><td>");
	if (slow) {
		cid_link(h, "", slow->rank, &slow->cid, slow->status);
		html_raw(h, " ");
		html_secs(h, slow->t_entire);
		html_raw(h, " s");
	} else {
		html_raw(h, "-");
	}
	html_raw(h, "</td></tr>\n</table>\n");
}

static int count_file(void *ctx, const struct rp_file *f)
{
	(void)f;
	++*(int64_t *)ctx;
	return 0;
}

int write_index(struct rctx *c)
{
	struct html h;
	struct health hc = {&h, 0, 0, 0, 0, 0, 0};
	struct kinds_ctx kc = {c, json_object()};
	json_t *run = rp_run_row(c->ix, c->o->run_id);
	int64_t ntrace = 0;
	char title[64];
	const char *k;
	json_t *v;
	int rc = 0;

	pt_fmt_trunc(title, sizeof(title), "pttrace report: run %lld", (long long)c->o->run_id);
	if (page_open(c, &h, "index.html", title, "") < 0) {
		json_decref(run);
		json_decref(kc.unk);
		return -1;
	}
	write_crash(c, &h);
	if (run && rp_files(c->ix, c->o->run_id, count_file, &ntrace) == 0 && ntrace == 0) {
		/*
		 * No TORCH_TRACE file (torch 1.13, TORCH_TRACE off, a crash before the first
		 * compile): the run's output and errors are the report, not an empty data
		 * health table and a table of zeros.
		 */
		html_raw(&h, "<p>No TORCH_TRACE output in this run: TORCH_TRACE was off, this torch "
			     "does not write it (before 2.1), or the program ended before its first "
			     "<code>torch.compile</code>. Below: what the run printed.</p>\n");
		if (write_run_section(c, &h, run) < 0)
			rc = -1;
		html_raw(&h, "<h2 id=\"pages\">Pages</h2>\n<ul>\n<li><a href=\"compiles.html\">every "
			     "compile</a>, <a href=\"frames.html\">frames</a>, <a href=\"breaks.html\">"
			     "graph breaks</a> (empty: nothing was traced)</li>\n");
		if (c->o->diff_run > 0)
			html_raw(&h, "<li><a href=\"diff.html\">diff against the other run</a></li>\n");
		html_raw(&h, "</ul>\n");
		json_decref(run);
		json_decref(kc.unk);
		return page_close(c, &h) < 0 ? -1 : rc;
	}
	/* Data health next: what could not be read is what a reader must know. */
	html_raw(&h, "<h2 id=\"health\">Data health</h2>\n<table><thead><tr><th>file</th><th>rank</th>"
		     "<th>bytes</th><th>records</th><th>payloads</th><th>damaged lines</th>"
		     "<th>md5 mismatches</th><th>rank conflict</th></tr></thead><tbody>\n");
	if (rp_files(c->ix, c->o->run_id, health_file, &hc) < 0)
		rc = -1;
	html_raw(&h, "</tbody></table>\n");
	html_rawf(&h, "<p>%lld files, %lld records, <span class=\"%s\">%lld damaged lines</span>, "
		  "<span class=\"%s\">%lld md5 mismatches</span>, <span class=\"%s\">%lld rank "
		  "conflicts</span>.</p>\n", (long long)hc.files, (long long)hc.records,
		  hc.damaged ? "bad" : "good", (long long)hc.damaged, hc.mismatches ? "bad" : "good",
		  (long long)hc.mismatches, hc.conflicts ? "bad" : "good", (long long)hc.conflicts);
	if (hc.mismatches) {
		html_raw(&h, "<details><summary>Payloads whose md5 differs from the declared one"
			     "</summary><ul>\n");
		if (rp_md5_mismatches(c->ix, c->o->run_id, health_mismatch, &h) < 0)
			rc = -1;
		html_raw(&h, "</ul></details>\n");
	}
	if (rp_kind_counts(c->ix, c->o->run_id, on_kind, &kc) < 0)
		rc = -1;
	if (json_object_size(kc.unk)) {
		html_raw(&h, "<p>Record kinds this pttrace does not know (kept in the index):</p><ul>\n");
		json_object_foreach(kc.unk, k, v) {
			html_raw(&h, "<li><code>");
			html_text(&h, k);
			html_rawf(&h, "</code>: %lld</li>\n", json_integer_value(v));
		}
		html_raw(&h, "</ul>\n");
	}
	json_decref(kc.unk);
	write_totals(c, &h);
	html_raw(&h, "<h2 id=\"pages\">Pages</h2>\n<ul>\n<li><a href=\"compiles.html\">every compile</a>"
		     " (sortable, filterable)</li>\n<li><a href=\"frames.html\">frames and recompiles"
		     "</a></li>\n<li><a href=\"breaks.html\">graph breaks</a></li>\n"
		     "<li><a href=\"" REPORT_TIMELINE "\">" REPORT_TIMELINE "</a></li>\n");
	if (c->has_export)
		html_raw(&h, "<li><a href=\"export.html\">export report</a></li>\n");
	if (c->loose > 0)
		html_rawf(&h, "<li><a href=\"records.html\">payloads outside the compile pages</a> "
			  "(%lld records)</li>\n", (long long)c->loose);
	if (c->o->diff_run > 0)
		html_raw(&h, "<li><a href=\"diff.html\">diff against the other run</a></li>\n");
	html_raw(&h, "</ul>\n");
	if (!c->st->highlight)
		html_raw(&h, "<p>Code is shown without highlighting: Debian's libjs-highlight.js was "
			     "not installed when this report was written.</p>\n");
	if (c->unpaged)
		html_rawf(&h, "<p class=\"warn\">%llu payloads have no page of their own: a report "
			  "writes pages for at most %d (the first used), and lists at most %d artifacts "
			  "on a compile's page. <code>pttrace artifact %lld --out DIR</code> writes "
			  "every payload.</p>\n", (unsigned long long)c->unpaged, PAYLOAD_PAGES_MAX,
			  ART_LIST_MAX, (long long)c->o->run_id);
	write_matrix(c, &h);
	write_divergences(c, &h);
	write_svg_timeline(c, &h);
	if (write_trie(c, &h, 0) < 0 || write_trie(c, &h, 1) < 0)
		rc = -1;
	if (run && write_run_section(c, &h, run) < 0)
		rc = -1;
	json_decref(run);
	if (page_close(c, &h) < 0)
		rc = -1;
	return rc;
}
