/*
 * pttrace report: the pages (report.h). Reads through report_data.h and the
 * TORCH_TRACE queries (graph breaks, recompiles, ranks, timeline, diff);
 * writes HTML through html.h, which escapes everything taken from a trace.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmp.h"
#include "html.h"
#include "logs_query.h"
#include "outdir.h"
#include "report.h"
#include "report_assets.h"
#include "report_data.h"
#include "report_provenance.h"
#include "run_diff.h"
#include "strbuf.h"
#include "tt_query.h"
#include "xalloc.h"

#define HLJS_DEBIAN "/usr/share/javascript/highlight.js/highlight.min.js"
#define TRIE_MAX_DEPTH 256	/* deeper stacks are cut (hostile input) */
/*
 * What one report writes at most (N15: a trace of 200,000 distinct payloads made
 * 400,000 files): payload pages for the first 50,000 distinct payloads (by first
 * use; the others are named but not linked), and 1,000 artifacts listed on one
 * compile's page (the rest counted). `pttrace artifact RUN --out DIR` writes them all.
 */
#define PAYLOAD_PAGES_MAX 50000
#define ART_LIST_MAX 1000

struct rctx {
	struct db *ix;
	const struct report_opts *o;
	struct pt_outdir od;	/* the fresh directory the report is written into */
	struct report_stats *st;
	struct pt_diag *diag;
	struct rp_occs occs;
	struct tt_events breaks, recompiles;
	/* Lookups by compile id (none searches every compile, N4): (who, compile id) ->
	 * {occurrences, first, last index in occs}; (who, ca, frame, compile, 0) -> the last
	 * index with that compile (any attempt); (who, compile id) -> first recompile. */
	struct cidmap by_cid, by_compile, recompile_by_cid;
	int64_t nranks;
	int has_export;
	int64_t loose;		/* records listed on records.html (0: no such page) */
	int is_run;		/* a `pttrace run` run (stdout/stderr records) */
	/* The payloads that have a page (sorted, once the payload pages are written) and
	 * how many do not (past PAYLOAD_PAGES_MAX). */
	char **paged;
	size_t npaged, apaged;
	uint64_t unpaged;
	/* dump_file payloads ("<eval_with_key>.4" and its md5): frames in them link to lines. */
	char **dump_names, **dump_md5s;
	size_t ndumps, a_dump_names, a_dump_md5s;
};

static int on_dump(void *ctx, const struct rp_rec *r)
{
	struct rctx *c = ctx;
	json_t *env;
	const char *name;

	if (!r->md5)
		return 0;
	env = json_loads(r->envelope, 0, NULL);
	name = json_string_value(json_object_get(json_object_get(env, "dump_file"), "name"));
	if (name) {
		PT_GROW(c->dump_names, c->ndumps, c->a_dump_names);
		PT_GROW(c->dump_md5s, c->ndumps, c->a_dump_md5s);
		c->dump_names[c->ndumps] = pt_xstrdup(name);
		c->dump_md5s[c->ndumps++] = pt_xstrdup(r->md5);
	}
	json_decref(env);
	return 0;
}

/* The md5 of the dump_file payload named file (length n), or NULL. */
static const char *dump_of(const struct rctx *c, const char *file, size_t n)
{
	for (size_t i = 0; i < c->ndumps; i++)
		if (strlen(c->dump_names[i]) == n && !memcmp(c->dump_names[i], file, n))
			return c->dump_md5s[i];
	return NULL;
}

static const char *short_frame(const char *label);

/* 1 when the payload md5 has its page p/<md5>.html. */
static int has_page(const struct rctx *c, const char *md5)
{
	return !c->unpaged || bsearch(&md5, c->paged, c->npaged, sizeof(*c->paged), pt_cmp_strp);
}

/* Text of a frame "file:line in name", linked to the line of its dump_file page when
 * the file is one ("<eval_with_key>.4"). up: "" or "../". */
static void frame_text_linked(const struct rctx *c, struct html *h, const char *label,
			      const char *up)
{
	const char *in = strstr(label, " in ");
	const char *colon = NULL, *md5;

	for (const char *p = label; p && (!in || p < in); p = strchr(p + 1, ':'))
		if (*p == ':')
			colon = p;
	md5 = colon ? dump_of(c, label, (size_t)(colon - label)) : NULL;
	if (md5 && !has_page(c, md5))
		md5 = NULL;
	if (md5) {
		html_rawf(h, "<a href=\"%sp/", up);
		html_attr(h, md5);
		html_rawf(h, ".html#L%lld\">", strtoll(colon + 1, NULL, 10));
	}
	html_text(h, short_frame(label));
	if (md5)
		html_raw(h, "</a>");
}

/* A frame of rp_frame_text: its place (linked as frame_text_linked links it), then its
 * source line below it when it has one, as tlparse's stack trie shows it. */
static void frame_html(const struct rctx *c, struct html *h, const char *label, const char *up)
{
	const char *nl = strchr(label, '\n');
	char *head = nl ? pt_xstrndup(label, (size_t)(nl - label)) : NULL;

	frame_text_linked(c, h, head ? head : label, up);
	if (nl) {
		html_raw(h, "<br>&nbsp;&nbsp;&nbsp;&nbsp;<span class=\"loc\">");
		html_text(h, nl + 1);
		html_raw(h, "</span>");
	}
	free(head);
}

static int fail_errno(struct rctx *c, const char *path, const char *what)
{
	pt_diag_add(c->diag, PT_SEV_ERROR, path, NULL, "%s: %s", what, strerror(errno));
	return -1;
}

/* The name of a file of the report in messages: under --out DIR as given. */
static char *out_path(struct rctx *c, const char *rel)
{
	return pt_outdir_path(&c->od, rel);
}

static int page_open(struct rctx *c, struct html *h, const char *rel, const char *title,
		     const char *up)
{
	char *path = out_path(c, rel);
	/* Pages under p/ and c/ show code: they load highlight.js when the report has it. */
	int rc = html_open(h, pt_outdir_fopen(&c->od, rel), path, title, up, c->st->highlight && *up);

	if (rc < 0)
		fail_errno(c, path, "cannot write");
	free(path);
	return rc;
}

static int page_close(struct rctx *c, struct html *h)
{
	char *path = pt_xstrdup(h->path);
	int rc = html_close(h);

	if (rc < 0)
		fail_errno(c, path, "cannot write");
	else if (h->bytes > 0)
		c->st->bytes += (uint64_t)h->bytes;
	c->st->pages++;
	free(path);
	return rc;
}

static int write_file(struct rctx *c, const char *rel, const void *data, size_t n)
{
	char *path = out_path(c, rel);
	FILE *f = pt_outdir_fopen(&c->od, rel);
	int rc = 0;

	if (!f || fwrite(data, 1, n, f) != n || fclose(f)) {
		rc = fail_errno(c, path, "cannot write");
		if (f)
			fclose(f);
	} else {
		c->st->bytes += n;
	}
	free(path);
	return rc;
}

static int copy_hljs(struct rctx *c)
{
	const char *src = c->o->hljs ? c->o->hljs : HLJS_DEBIAN;
	FILE *f = fopen(src, "r");
	char *buf = NULL;
	size_t n = 0, alloc = 0, got;
	int rc;

	if (!f)
		return 0;	/* not installed: code stays plain, the pages say so */
	do {
		PT_RESERVE(buf, n + 65536, alloc);
		got = fread(buf + n, 1, alloc - n, f);
		n += got;
	} while (got);
	fclose(f);
	rc = write_file(c, "highlight.min.js", buf, n);
	free(buf);
	if (rc == 0)
		c->st->highlight = 1;
	return rc;
}

static void cid_text(const struct compileid *cid, char *out, size_t n)
{
	char t[COMPILEID_MAX];

	compileid_format(cid, t, sizeof(t));
	pt_fmt_trunc(out, n, "[%s]", t);
}

/* Graph breaks and recompiles keyed as the compiles are (struct rp_occ's rank): their
 * label says "p2" when the run has several processes and this one has no rank of its own. */
static void events_to_who(struct tt_events *e)
{
	for (size_t i = 0; i < e->n; i++)
		if (e->v[i].who[0] == 'p')
			e->v[i].rank = -1 - strtoll(e->v[i].who + 1, NULL, 10);
}

/* Who compiled it (struct rp_occ's rank): "3" (rank 3), "p2" (process 2 of a run whose
 * files have no rank of their own), "-" (the run's only, unranked file). */
static void html_who(struct html *h, int64_t who)
{
	if (who < -1)
		html_rawf(h, "p%lld", (long long)(-1 - who));
	else
		html_num(h, who);
}

/* <a href="{up}c/KEY.html" class="cid s-STATUS">[id]</a> */
static void cid_link(struct html *h, const char *up, int64_t rank, const struct compileid *cid,
		     const char *status)
{
	char key[160], t[COMPILEID_MAX + 2];

	rp_occ_key(rank, cid, key, sizeof(key));
	cid_text(cid, t, sizeof(t));
	html_rawf(h, "<a class=\"cid s-%s\" href=\"%sc/", status ? status : "ok", up);
	html_attr(h, key);
	html_raw(h, ".html\">");
	if (rank >= 0)
		html_rawf(h, "r%lld ", (long long)rank);
	else if (rank < -1)
		html_rawf(h, "p%lld ", (long long)(-1 - rank));
	html_text(h, t);
	html_raw(h, "</a>");
}

/* Fill the lookups of struct rctx once the occurrences and recompiles are loaded. */
static void index_occs(struct rctx *c)
{
	for (size_t i = 0; i < c->occs.n; i++) {
		const struct rp_occ *o = &c->occs.v[i];
		int64_t k[5], *v;

		cidmap_key(k, o->rank, &o->cid);
		v = cidmap_get(&c->by_cid, k, 1);
		v[0] = v[0] < 0 ? 1 : v[0] + 1;
		if (v[1] < 0)
			v[1] = (int64_t)i;
		v[2] = (int64_t)i;
		cidmap_get(&c->by_compile, (int64_t[5]){o->rank, o->cid.ca, o->cid.frame, o->cid.compile, 0},
			      1)[0] = (int64_t)i;
	}
	for (size_t i = 0; i < c->recompiles.n; i++) {
		int64_t k[5], *v;

		cidmap_key(k, c->recompiles.v[i].rank, &c->recompiles.v[i].cid);
		v = cidmap_get(&c->recompile_by_cid, k, 1);
		if (v[0] < 0)
			v[0] = (int64_t)i;
	}
}

/* The entry of (rank, cid) in by_cid, or NULL. */
static const int64_t *occ_entry(struct rctx *c, int64_t rank, const struct compileid *cid)
{
	int64_t k[5];

	cidmap_key(k, rank, cid);
	return cidmap_get(&c->by_cid, k, 0);
}

static const struct rp_occ *occ_find(struct rctx *c, int64_t rank, const struct compileid *cid)
{
	const int64_t *v = occ_entry(c, rank, cid);

	return v ? &c->occs.v[v[2]] : NULL;
}

static const char *cid_status(struct rctx *c, int64_t rank, const struct compileid *cid)
{
	const struct rp_occ *o = occ_find(c, rank, cid);

	return o ? o->status : "missing";
}

/* ---- the stack trie ---- */

struct tleaf {
	int64_t rank;
	struct compileid cid;
	char *kind;
};

struct tnode {
	char *label;
	struct tnode *kids;
	size_t nkids, akids;
	struct tleaf *leaves;
	size_t nleaves, aleaves;
	size_t *hidx, hcap;	/* kids by label: 1 + index, open addressing (a node with many kids) */
};

static void trie_hash_put(struct tnode *n, size_t kid)
{
	size_t i = pt_hash_str(n->kids[kid].label) & (n->hcap - 1);

	while (n->hidx[i])
		i = (i + 1) & (n->hcap - 1);
	n->hidx[i] = kid + 1;
}

/* The kid labelled label, made when missing; a node's kids are found by a hash once
 * it has more than a few (a frame compiled from thousands of places). */
static struct tnode *trie_child(struct tnode *n, const char *label)
{
	if (n->hcap) {
		for (size_t i = pt_hash_str(label) & (n->hcap - 1); n->hidx[i]; i = (i + 1) & (n->hcap - 1))
			if (!strcmp(n->kids[n->hidx[i] - 1].label, label))
				return &n->kids[n->hidx[i] - 1];
	} else {
		for (size_t i = 0; i < n->nkids; i++)
			if (!strcmp(n->kids[i].label, label))
				return &n->kids[i];
	}
	PT_GROW(n->kids, n->nkids, n->akids);
	memset(&n->kids[n->nkids], 0, sizeof(*n->kids));
	n->kids[n->nkids].label = pt_xstrdup(label);
	n->nkids++;
	if (n->nkids > 16 && n->nkids * 2 > n->hcap) {
		free(n->hidx);
		n->hcap = n->hcap ? n->hcap * 2 : 64;
		n->hidx = pt_xcalloc(n->hcap, sizeof(*n->hidx));
		for (size_t i = 0; i < n->nkids; i++)
			trie_hash_put(n, i);
	} else if (n->hcap) {
		trie_hash_put(n, n->nkids - 1);
	}
	return &n->kids[n->nkids - 1];
}

static int trie_add(void *ctx, int64_t rank, const struct compileid *cid, char **frames,
		    size_t nframes, const char *kind)
{
	struct tnode *n = ctx;
	struct tleaf *l;

	for (size_t i = 0; i < nframes && i < TRIE_MAX_DEPTH; i++)
		n = trie_child(n, frames[i]);
	PT_GROW(n->leaves, n->nleaves, n->aleaves);
	l = &n->leaves[n->nleaves++];
	l->rank = rank;
	l->cid = *cid;
	l->kind = pt_xstrdup(kind ? kind : "");
	return 0;
}

static void trie_free(struct tnode *n)
{
	for (size_t i = 0; i < n->nkids; i++)
		trie_free(&n->kids[i]);
	for (size_t i = 0; i < n->nleaves; i++)
		free(n->leaves[i].kind);
	free(n->kids);
	free(n->leaves);
	free(n->label);
	free(n->hidx);
}

/* Shorten a frame's path as tlparse does: drop everything before site-packages/ or the
 * last "torch/" style package root, keep the file name and line. */
static const char *short_frame(const char *label)
{
	const char *p = strstr(label, "site-packages/");

	if (p)
		return p + strlen("site-packages/");
	p = strstr(label, "dist-packages/");
	if (p)
		return p + strlen("dist-packages/");
	p = strstr(label, "/pytorch/");	/* a source checkout: from its root */
	if (p)
		return p + strlen("/pytorch/");
	return label;
}

static void trie_write(struct rctx *c, struct html *h, const struct tnode *n, int unknown, int depth)
{
	html_raw(h, "<ul class=\"trie\">");
	for (size_t i = 0; i < n->nkids; i++) {
		const struct tnode *k = &n->kids[i];

		html_raw(h, "<li><details open><summary><code>");
		frame_html(c, h, k->label, "");
		html_raw(h, "</code>");
		for (size_t j = 0; j < k->nleaves; j++) {
			if (unknown) {
				html_raw(h, " <span class=\"cid\">");
				html_text(h, k->leaves[j].kind);
				html_raw(h, "</span>");
			} else {
				html_raw(h, " ");
				cid_link(h, "", k->leaves[j].rank, &k->leaves[j].cid,
					 cid_status(c, k->leaves[j].rank, &k->leaves[j].cid));
			}
		}
		html_raw(h, "</summary>");
		if (depth < TRIE_MAX_DEPTH)
			trie_write(c, h, k, unknown, depth + 1);
		html_raw(h, "</details></li>");
	}
	html_raw(h, "</ul>\n");
}

static int write_trie(struct rctx *c, struct html *h, int unknown)
{
	struct tnode root = {0};
	int rc = rp_stacks(c->ix, c->o->run_id, unknown, trie_add, &root, c->diag);

	if (rc == 0 && root.nkids) {
		html_raw(h, unknown ? "<h2 id=\"unknown-stacks\">Unknown stacks</h2>\n"
				      "<p>Records with a stack and no compile id.</p>\n"
				    : "<h2 id=\"stacks\">Stack trie</h2>\n"
				      "<p>Where each compile started (dynamo_start), coloured by status: "
				      "<span class=\"cid s-ok\">ok</span><span class=\"cid s-restarted\">"
				      "restarted (graph break)</span><span class=\"cid s-empty\">empty graph"
				      "</span><span class=\"cid s-failed\">failed</span><span class=\"cid "
				      "s-missing\">no compilation_metrics</span></p>\n");
		trie_write(c, h, &root, unknown, 0);
	}
	trie_free(&root);
	return rc;
}

/* ---- the landing page ---- */

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

static const char *const export_kinds[] = {
	"exported_program", "guard_added", "create_unbacked_symbol", "expression_created",
	"missing_fake_kernel", "mismatched_fake_kernel", "propagate_real_tensors",
	"propagate_real_tensors_provenance", NULL,
};

static int is_known_kind(const char *k)
{
	for (size_t i = 0; i < sizeof(known_kinds) / sizeof(*known_kinds); i++)
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

/* The rank x compile id matrix (only with more than one rank). */
static void write_matrix(struct rctx *c, struct html *h)
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

static void write_divergences(struct rctx *c, struct html *h)
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
static void write_svg_timeline(struct rctx *c, struct html *h)
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

static int on_run_count(void *ctx, const char *key, int64_t n)
{
	struct html *h = ctx;

	html_raw(h, "<tr><td>");
	html_text(h, key);
	html_rawf(h, "</td><td class=\"n\">%lld</td></tr>\n", (long long)n);
	return 0;
}

static int on_run_error(void *ctx, const char *kind, int64_t level, const char *text)
{
	struct html *h = ctx;
	static const char *const names[] = {"", "DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"};

	html_raw(h, "<li><b>");
	html_text(h, kind);
	if (level >= 10 && level <= 50)
		html_rawf(h, " %s", names[level / 10]);
	html_raw(h, "</b><pre>");
	html_text(h, text);
	html_raw(h, "</pre></li>\n");
	return 0;
}

struct tree_ctx {
	struct html *h;
	int depth;	/* depth of the last <li> written, -1 before the first */
	size_t n;
};

/* Nested lists: an <li> stays open until the next call says whether it has callees. */
static int on_call(void *ctx, int depth, const char *op, const char *overload, const char *key)
{
	struct tree_ctx *t = ctx;

	if (depth > t->depth) {
		for (int d = t->depth; d < depth; d++)
			html_raw(t->h, "<ul class=\"trie\">");
	} else {
		html_raw(t->h, "</li>");
		for (int d = depth; d < t->depth; d++)
			html_raw(t->h, "</ul></li>");
	}
	t->depth = depth;
	html_raw(t->h, "<li><code>");
	html_text(t->h, op);
	if (overload && *overload) {
		html_raw(t->h, ".");
		html_text(t->h, overload);
	}
	html_raw(t->h, "</code>");
	if (key) {
		html_raw(t->h, " <small>");
		html_text(t->h, key);
		html_raw(t->h, "</small>");
	}
	html_raw(t->h, "\n");
	t->n++;
	return 0;
}

static void tree_close(struct tree_ctx *t)
{
	if (t->depth < 0)
		return;
	html_raw(t->h, "</li>");
	for (int d = 0; d < t->depth; d++)
		html_raw(t->h, "</ul></li>");
	html_raw(t->h, "</ul>\n");
}

#define RUN_ERRORS_MAX 200
#define CALL_TREE_MAX 2000

static int write_run_section(struct rctx *c, struct html *h, json_t *run)
{
	const char *source = json_string_value(json_object_get(run, "source"));
	char *argv = json_dumps(json_object_get(run, "argv"), JSON_COMPACT);
	int rc;

	html_raw(h, "<h2 id=\"run\">Run</h2>\n<table>\n<tr><th>command</th><td><code>");
	html_text(h, argv);
	html_raw(h, "</code></td></tr>\n<tr><th>source</th><td>");
	html_text(h, source);
	html_raw(h, "</td></tr>\n<tr><th>status</th><td>");
	html_text(h, json_string_value(json_object_get(run, "status")));
	if (json_is_integer(json_object_get(run, "exit_code")))
		html_rawf(h, ", exit code %lld", json_integer_value(json_object_get(run, "exit_code")));
	if (json_is_integer(json_object_get(run, "signal")))
		html_rawf(h, ", signal %lld", json_integer_value(json_object_get(run, "signal")));
	html_raw(h, "</td></tr>\n<tr><th>torch</th><td>");
	if (json_string_value(json_object_get(run, "torch_version"))) {
		html_text(h, json_string_value(json_object_get(run, "torch_version")));
	} else {
		/* An imported trace: torch 2.14 says its version in a torch_version artifact. */
		char *md5 = NULL, *tv = rp_trace_torch_version(c->ix, c->o->run_id, &md5, c->diag);

		if (tv) {
			html_text(h, tv);
			html_raw(h, " <small>(the trace's ");
			if (has_page(c, md5)) {
				html_raw(h, "<a href=\"p/");
				html_attr(h, md5);
				html_raw(h, ".html\">torch_version</a>");
			} else {
				html_raw(h, "torch_version");
			}
			html_raw(h, " artifact)</small>");
		}
		free(tv);
		free(md5);
	}
	html_raw(h, "</td></tr>\n</table>\n");
	free(argv);
	c->is_run = source && !strcmp(source, "run");
	if (!c->is_run)
		return 0;
	html_raw(h, "<h3>Output records (TORCH_LOGS, dispatcher, C++ and tracebacks)</h3>\n"
		    "<p>By kind and level, by TORCH_LOGS artifact, and the 50 most called "
		    "operators (<code>op:</code>).</p>\n<table class=\"sortable\"><thead><tr><th>what"
		    "</th><th>records</th></tr></thead><tbody>\n");
	rc = rp_run_counts(c->ix, c->o->run_id, on_run_count, h, c->diag);
	html_raw(h, "</tbody></table>\n");
	html_rawf(h, "<h3 id=\"errors\">Errors and tracebacks</h3>\n<p>The first %d records at level "
		  "ERROR or above and every traceback, as the run printed them "
		  "(<code>pttrace logs RUN --level ERROR</code> has them all).</p>\n<ul>\n",
		  RUN_ERRORS_MAX);
	if (rp_run_errors(c->ix, c->o->run_id, RUN_ERRORS_MAX, on_run_error, h, c->diag) < 0)
		rc = -1;
	html_raw(h, "</ul>\n");
	{
		struct tree_ctx t = {h, -1, 0};

		html_rawf(h, "<h3 id=\"calls\">Dispatcher call tree</h3>\n<details><summary>The first "
			  "%d calls, callees under their callers (<code>pttrace ops RUN --tree</code> "
			  "has them all)</summary>\n", CALL_TREE_MAX);
		if (rp_call_tree(c->ix, c->o->run_id, CALL_TREE_MAX, on_call, &t, c->diag) < 0)
			rc = -1;
		tree_close(&t);
		if (!t.n)
			html_raw(h, "<p>No dispatcher calls (TORCH_SHOW_DISPATCH_TRACE was off, or the "
				    "torch build has no dispatcher trace).</p>");
		html_raw(h, "</details>\n");
	}
	return rc;
}

/* A crash comes first: the signal, the Python frame, what was printed, the core and gdb. */
static void write_crash(struct rctx *c, struct html *h)
{
	json_t *cr = rp_run_crash(c->ix, c->o->run_id, c->diag);
	const char *text, *s;
	int sig;

	if (!cr)
		return;
	text = json_string_value(json_object_get(cr, "text"));
	sig = (int)json_integer_value(json_object_get(cr, "signal"));
	html_raw(h, "<h2 id=\"crash\" class=\"bad\">Crash</h2>\n<p>");
	if (sig > 0)
		html_rawf(h, "Killed by signal %d", sig);
	else
		html_raw(h, "A fatal error");
	if (sig > 0 && sigabbrev_np(sig))
		html_rawf(h, " (SIG%s)", sigabbrev_np(sig));
	if ((s = json_string_value(json_object_get(cr, "src_file")))) {
		html_raw(h, " at <code>");
		html_text(h, s);
		html_rawf(h, ":%lld</code>", (long long)json_integer_value(json_object_get(cr, "src_line")));
	}
	if (text) {
		char *what = logs_crash_summary(text, strlen(text));

		html_raw(h, ": ");
		html_text(h, what);
		free(what);
	}
	html_raw(h, ".</p>\n");
	if (text) {
		html_raw(h, "<pre>");
		html_text(h, text);
		html_raw(h, "</pre>\n");
	}
	if ((s = json_string_value(json_object_get(cr, "core_note")))) {
		html_raw(h, "<p>");
		html_text(h, s);
		html_raw(h, "</p>\n");
	}
	if ((s = json_string_value(json_object_get(cr, "gdb")))) {
		html_raw(h, "<p>Open it in gdb with ptgdb:</p>\n<pre>");
		html_text(h, s);
		html_raw(h, "</pre>\n");
	}
	json_decref(cr);
}

static int count_file(void *ctx, const struct rp_file *f)
{
	(void)f;
	++*(int64_t *)ctx;
	return 0;
}

static int write_index(struct rctx *c)
{
	struct html h;
	struct health hc = {&h, 0, 0, 0, 0, 0, 0};
	struct kinds_ctx kc = {c, json_object()};
	json_t *run = rp_run_row(c->ix, c->o->run_id, c->diag);
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
	if (run && rp_files(c->ix, c->o->run_id, count_file, &ntrace, c->diag) == 0 && ntrace == 0) {
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
	if (rp_files(c->ix, c->o->run_id, health_file, &hc, c->diag) < 0)
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
		if (rp_md5_mismatches(c->ix, c->o->run_id, health_mismatch, &h, c->diag) < 0)
			rc = -1;
		html_raw(&h, "</ul></details>\n");
	}
	if (rp_kind_counts(c->ix, c->o->run_id, on_kind, &kc, c->diag) < 0)
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
		     "<li><a href=\"chromium_events.json\">chromium_events.json</a></li>\n");
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

/* ---- compiles, frames, graph breaks ---- */

/* Text from a trace: inline, or a block keeping its line breaks when it has any
 * (a compiler's error, a traceback). */
static void text_block(struct html *h, const char *s)
{
	if (s && strchr(s, '\n')) {
		html_raw(h, "<pre class=\"text\">");
		html_text(h, s);
		html_raw(h, "</pre>");
	} else {
		html_text(h, s);
	}
}

/* The user's line a failed compile stopped at (fail_user_frame_filename:lineno of its
 * compilation_metrics, tlparse's "Failure Source"), or nothing. */
static void failure_source(struct html *h, json_t *m)
{
	const char *f = json_string_value(json_object_get(m, "fail_user_frame_filename"));
	json_t *l = json_object_get(m, "fail_user_frame_lineno");

	if (!f)
		return;
	html_raw(h, "<p>Failure source: <code>");
	html_text(h, f);
	if (json_is_integer(l))
		html_rawf(h, ":%lld", (long long)json_integer_value(l));
	html_raw(h, "</code></p>");
}

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

static void frame_loc(const struct rctx *c, struct html *h, const struct rp_occ *o, const char *up)
{
	html_text(h, o->co_name ? o->co_name : "?");
	if (o->co_filename) {
		char *label = pt_xasprintf("%s:%lld", o->co_filename, (long long)o->co_firstlineno);

		html_raw(h, " <code>");
		frame_text_linked(c, h, label, up);
		html_raw(h, "</code>");
		free(label);
	}
}

static int write_compiles(struct rctx *c)
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

static const struct tt_event *recompile_of(struct rctx *c, int64_t rank,
					       const struct compileid *cid)
{
	int64_t k[5];
	const int64_t *v;

	cidmap_key(k, rank, cid);
	v = cidmap_get(&c->recompile_by_cid, k, 0);
	return v ? &c->recompiles.v[v[0]] : NULL;
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

static int write_frames(struct rctx *c)
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

static int write_breaks(struct rctx *c)
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

/* ---- compile pages ---- */

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

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct cpage {
	struct rctx *c;
	struct html *h;
	struct guards guards;
	size_t shown;	/* records written in the metrics-and-guards section */
};

static int load_payload(struct rctx *c, const char *md5, char **data, size_t *len)
{
	return tt_payload_get(c->ix, md5, data, len, c->diag);
}

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

/* A record's stack (a list of frames, file names interned in the record's file). */
static void write_stack(const struct rctx *c, struct html *h, int64_t file_id, json_t *st,
			const char *up)
{
	if (!json_is_array(st) || !json_array_size(st))
		return;
	html_raw(h, "<details><summary>stack</summary><ol>");
	for (size_t i = 0; i < json_array_size(st); i++) {
		char *label = rp_frame_text(c->ix, file_id, json_array_get(st, i));

		html_raw(h, "<li><code>");
		frame_html(c, h, label, up);
		html_raw(h, "</code></li>");
		free(label);
	}
	html_raw(h, "</ol></details>");
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

static int write_compile_page(struct rctx *c, const struct rp_occ *o, const struct rp_occ *prev_of_frame);

static int write_compile_pages(struct rctx *c)
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

static int load_payload(struct rctx *c, const char *md5, char **data, size_t *len);

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
	if (rp_compile_records(c->ix, &c->occs, c->o->run_id, o->file_id, &o->cid, on_compile_rec, &p, c->diag) < 0)
		rc = -1;
	if (!p.shown)
		html_raw(&h, "<p>No compilation_metrics, symbolic_shape_specialization or "
			     "guard_added_fast record has this compile id.</p>\n");
	html_raw(&h, "<h2>Artifacts, in record order</h2>\n<ol>\n");
	if (rp_compile_records(c->ix, &c->occs, c->o->run_id, o->file_id, &o->cid, on_art, &a, c->diag) < 0)
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

		if (rp_compile_records(c->ix, &c->occs, c->o->run_id, prev->file_id, &prev->cid, prev_guards, &pp,
				       c->diag) < 0)
			rc = -1;
		if (p.guards.n > 1)
			qsort(p.guards.v, p.guards.n, sizeof(char *), str_cmp);
		if (pp.guards.n > 1)
			qsort(pp.guards.v, pp.guards.n, sizeof(char *), str_cmp);
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

/* ---- payload pages ---- */

static const char *payload_lang(const char *kind, const char *name, const char *envelope,
				const char *data, size_t len)
{
	static const char *const py[] = {
		"dynamo_output_graph", "aot_forward_graph", "aot_backward_graph", "aot_inference_graph",
		"aot_joint_graph", "inductor_pre_grad_graph", "inductor_post_grad_graph",
		"optimize_ddp_split_graph", "optimize_ddp_split_child", "compiled_autograd_graph",
		"graph_dump", "dump_file", "exported_program", NULL,
	};

	if (!strcmp(kind, "inductor_output_code"))
		return envelope && strstr(envelope, ".cpp\"") ? "cpp" : "python";
	for (const char *const *p = py; *p; p++)
		if (!strcmp(kind, *p))
			return "python";
	if (!strcmp(kind, "dynamo_guards") || (envelope && strstr(envelope, "\"encoding\": \"json\"")))
		return "json";
	(void)name;
	while (len && (*data == ' ' || *data == '\n'))
		data++, len--;
	if (len && (*data == '{' || *data == '['))
		return "json";
	return NULL;
}

struct ppage {
	struct rctx *c;
	int rc;
};

static int on_payload(void *ctx, const char *md5, const char *kind, const char *name,
		      const char *envelope, int64_t uses)
{
	struct ppage *pp = ctx;
	struct rctx *c = pp->c;
	char *data = NULL, *pretty = NULL;
	size_t len = 0;
	const char *lang;
	char rel[96], title[160];
	struct html h;

	if (strlen(md5) > 64 || strspn(md5, "0123456789abcdef") != strlen(md5))
		return 0;	/* never a path component that is not hex */
	if (c->npaged >= PAYLOAD_PAGES_MAX) {
		c->unpaged++;
		return 0;
	}
	PT_GROW(c->paged, c->npaged, c->apaged);
	c->paged[c->npaged++] = pt_xstrdup(md5);
	if (load_payload(c, md5, &data, &len) != 0) {
		pp->rc = -1;
		return 0;
	}
	pt_fmt_trunc(rel, sizeof(rel), "p/%s.txt", md5);
	if (write_file(c, rel, data, len) < 0) {
		free(data);
		return -1;
	}
	lang = payload_lang(kind, name, envelope, data, len);
	if (lang && !strcmp(lang, "json") && len < (64u << 20)) {
		json_t *j = json_loadb(data, len, JSON_DECODE_ANY, NULL);

		if (j)
			pretty = json_dumps(j, JSON_INDENT(2) | JSON_ENCODE_ANY);
		json_decref(j);
	}
	pt_fmt_trunc(rel, sizeof(rel), "p/%s.html", md5);
	pt_fmt_trunc(title, sizeof(title), "%s%s%s", kind, name ? ": " : "", name ? name : "");
	if (page_open(c, &h, rel, title, "../") < 0) {
		free(data);
		free(pretty);
		return -1;
	}
	html_rawf(&h, "<p>md5 <code>%s</code>, %zu bytes, used by %lld record%s. "
		  "<a href=\"%s.txt\" download>raw bytes</a>%s</p>\n", md5, len, (long long)uses,
		  uses == 1 ? "" : "s", md5, pretty ? " (shown pretty-printed)" : "");
	html_raw(&h, "<pre class=\"code\"");
	if (lang)
		html_rawf(&h, " data-lang=\"%s\"", lang);
	html_raw(&h, ">");
	{
		const char *s = pretty ? pretty : data;
		size_t n = pretty ? strlen(pretty) : len, line = 1;

		for (size_t i = 0; i <= n;) {
			size_t j = i;

			while (j < n && s[j] != '\n')
				j++;
			if (j == n && i == n && n)
				break;
			html_rawf(&h, "<span class=\"l\" id=\"L%zu\">", line++);
			html_textn(&h, s + i, j - i);
			html_raw(&h, "</span>");
			i = j + 1;
		}
	}
	html_raw(&h, "</pre>\n");
	free(data);
	free(pretty);
	c->st->payloads++;
	return page_close(c, &h);
}

/* ---- export, diff ---- */

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

static int write_export(struct rctx *c)
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
	rc = rp_records_of_kinds(c->ix, c->o->run_id, expr_kinds, on_expr, &x, c->diag);
	if (rc == 0)
		rc = rp_records_of_kinds(c->ix, c->o->run_id, export_kinds, on_export, &x, c->diag);
	json_decref(x.exprs);
	html_raw(&h, "</tbody></table>\n");
	return page_close(c, &h) < 0 ? -1 : rc;
}

/* ---- payloads no compile page lists ---- */

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
static int64_t write_loose(struct rctx *c)
{
	struct loose l = {.c = c};
	int rc = rp_payload_records(c->ix, c->o->run_id, on_loose, &l, c->diag);

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

static int write_diff(struct rctx *c)
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

static int mkdir_in(struct rctx *c, const char *rel)
{
	char *path;

	if (pt_outdir_mkdirs(&c->od, rel) == 0)
		return 0;
	path = out_path(c, rel);
	fail_errno(c, path, "cannot create directory");
	free(path);
	return -1;
}

static int write_timeline(struct rctx *c)
{
	char *path = out_path(c, "chromium_events.json");
	FILE *f = pt_outdir_fopen(&c->od, "chromium_events.json");
	uint64_t n = 0, skipped = 0;
	int rc;

	if (!f) {
		rc = fail_errno(c, path, "cannot write");
		free(path);
		return rc;
	}
	rc = tt_timeline_write(c->ix, c->o->run_id, f, &n, &skipped, c->diag);
	if (rc == 0 && ftell(f) > 0)
		c->st->bytes += (uint64_t)ftell(f);
	if (fclose(f) && rc == 0)
		rc = fail_errno(c, path, "cannot write");
	free(path);
	return rc;
}

/* An earlier report: report.css is there, a file of its own (not a link). */
static int report_earlier(int dirfd)
{
	struct stat sb;

	return fstatat(dirfd, "report.css", &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode);
}

const char *report_dir_refusal(const char *dir, char *buf, size_t n)
{
	return pt_outdir_refusal(pt_outdir_check(dir, report_earlier), "pttrace report", buf, n);
}

char *report_default_dir(int64_t run_id)
{
	return pt_xasprintf("pttrace-report-%lld", (long long)run_id);
}

int report_write(struct db *ix, const struct report_opts *o, struct report_stats *st,
		 struct pt_diag *diag)
{
	struct rctx c = {.ix = ix, .o = o, .st = st, .diag = diag};
	struct ppage pp = {&c, 0};
	/* One snapshot for the whole report (WAL: writers go on meanwhile), unless the
	 * connection is inside a transaction already (pttrace run's batch). */
	int txn = !db_in_batch(ix);
	int rc = 0, alive;

	memset(st, 0, sizeof(*st));
	if (txn && db_exec(ix, "BEGIN DEFERRED") < 0)
		return -1;
	/* The snapshot starts here: the run is in it, whole, or the report fails. */
	if ((alive = rp_run_exists(ix, o->run_id)) <= 0) {
		if (alive == 0)
			pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL, "run %lld no longer exists "
				    "(deleted before the report could read it): no report written",
				    (long long)o->run_id);
		if (txn)
			db_exec(ix, "COMMIT");
		return -1;
	}
	if (pt_outdir_begin(&c.od, o->outdir, "pttrace report", report_earlier, 0, diag) < 0) {
		if (txn)
			db_exec(ix, "COMMIT");
		return -1;
	}
	if (mkdir_in(&c, "p") < 0 || mkdir_in(&c, "c") < 0 ||
	    write_file(&c, "report.css", report_css, strlen(report_css)) < 0 ||
	    write_file(&c, "report.js", report_js, strlen(report_js)) < 0 || copy_hljs(&c) < 0) {
		rc = -1;
		goto out;
	}
	static const char *const dump_kinds[] = {"dump_file", NULL};

	if (rp_records_of_kinds(ix, o->run_id, dump_kinds, on_dump, &c, diag) < 0 ||
	    rp_occs_load(ix, o->run_id, &c.occs, diag) < 0 ||
	    tt_graph_breaks(ix, o->run_id, &c.breaks, diag) < 0 ||
	    tt_recompiles(ix, o->run_id, &c.recompiles, diag) < 0) {
		rc = -1;
		goto out;
	}
	events_to_who(&c.breaks);
	events_to_who(&c.recompiles);
	index_occs(&c);
	/* The payload pages first: the other pages link only to those written. */
	if (rp_payloads(ix, o->run_id, on_payload, &pp, diag) < 0 || pp.rc < 0) {
		rc = -1;
		goto out;
	}
	if (c.npaged > 1)
		qsort(c.paged, c.npaged, sizeof(*c.paged), pt_cmp_strp);
	if ((c.loose = write_loose(&c)) < 0 ||
	    write_index(&c) < 0 || write_compiles(&c) < 0 || write_frames(&c) < 0 ||
	    write_breaks(&c) < 0 || write_compile_pages(&c) < 0 || write_timeline(&c) < 0 ||
	    (c.has_export && write_export(&c) < 0) || (o->diff_run > 0 && write_diff(&c) < 0))
		rc = -1;
out:
	if (txn && db_exec(ix, "COMMIT") < 0)
		rc = -1;
	/* In place only when whole: a failed report leaves the target as it was. */
	if (rc == 0)
		rc = pt_outdir_commit(&c.od, diag);
	else
		pt_outdir_abort(&c.od);
	for (size_t i = 0; i < c.ndumps; i++) {
		free(c.dump_names[i]);
		free(c.dump_md5s[i]);
	}
	free(c.dump_names);
	free(c.dump_md5s);
	for (size_t i = 0; i < c.npaged; i++)
		free(c.paged[i]);
	free(c.paged);
	st->records_read = rp_compile_rows_read(&c.occs);
	rp_occs_release(&c.occs);
	cidmap_release(&c.by_cid);
	cidmap_release(&c.by_compile);
	cidmap_release(&c.recompile_by_cid);
	tt_events_release(&c.breaks);
	tt_events_release(&c.recompiles);
	return rc;
}
