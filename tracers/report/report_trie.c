/*
 * The landing page's stack tries (report_pages.h): where each compile started
 * (dynamo_start's stack), and the records with a stack and no compile id.
 */
#include <stdlib.h>
#include <string.h>

#include "cmp.h"
#include "report.h"
#include "report_pages.h"
#include "xalloc.h"

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

int write_trie(struct rctx *c, struct html *h, int unknown)
{
	struct tnode root = {0};
	int rc = rp_stacks(c->ix, c->o->run_id, unknown, trie_add, &root);

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
