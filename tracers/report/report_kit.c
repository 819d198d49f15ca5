/*
 * The page kit of pttrace report (report_pages.h): the report's files and the
 * pieces every page writes (links to compile and payload pages, frames linked to
 * their dump_file lines, who compiled it), the lookups by compile id. HTML goes
 * through html.h, which escapes everything taken from a trace.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cmp.h"
#include "report.h"
#include "report_pages.h"
#include "strbuf.h"
#include "xalloc.h"

int fail_errno(struct rctx *c, const char *path, const char *what)
{
	pt_diag_add(c->diag, PT_SEV_ERROR, path, NULL, "%s: %s", what, strerror(errno));
	return -1;
}

/* The name of a file of the report in messages: under --out DIR as given. */
char *out_path(struct rctx *c, const char *rel)
{
	return pt_outdir_path(&c->od, rel);
}

int page_open(struct rctx *c, struct html *h, const char *rel, const char *title,
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

int page_close(struct rctx *c, struct html *h)
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

int write_file(struct rctx *c, const char *rel, const void *data, size_t n)
{
	char *path = out_path(c, rel);
	FILE *f = pt_outdir_fopen(&c->od, rel);
	int rc = 0;
	bool written;

	if (!f) {
		rc = fail_errno(c, path, "cannot write");
	} else {
		/* fclose once, whatever fwrite did: a second fclose of the stream is undefined. */
		written = fwrite(data, 1, n, f) == n;
		if (fclose(f) != 0 || !written)
			rc = fail_errno(c, path, "cannot write");
		else
			c->st->bytes += n;
	}
	free(path);
	return rc;
}

int load_payload(struct rctx *c, const char *md5, char **data, size_t *len)
{
	return tt_payload_get(c->ix, md5, data, len);
}

/* The md5 of the dump_file payload named file (length n), or NULL. */
static const char *dump_of(const struct rctx *c, const char *file, size_t n)
{
	for (size_t i = 0; i < c->ndumps; i++)
		if (strlen(c->dump_names[i]) == n && !memcmp(c->dump_names[i], file, n))
			return c->dump_md5s[i];
	return NULL;
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

/* 1 when the payload md5 has its page p/<md5>.html. */
int has_page(const struct rctx *c, const char *md5)
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
void frame_html(const struct rctx *c, struct html *h, const char *label, const char *up)
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

void frame_loc(const struct rctx *c, struct html *h, const struct rp_occ *o, const char *up)
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

/* A record's stack (a list of frames, file names interned in the record's file). */
void write_stack(const struct rctx *c, struct html *h, int64_t file_id, json_t *st,
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

void cid_text(const struct compileid *cid, char *out, size_t n)
{
	char t[COMPILEID_MAX];

	compileid_format(cid, t, sizeof(t));
	pt_fmt_trunc(out, n, "[%s]", t);
}

/* Who compiled it (struct rp_occ's rank): "3" (rank 3), "p2" (process 2 of a run whose
 * files have no rank of their own), "-" (the run's only, unranked file). */
void html_who(struct html *h, int64_t who)
{
	if (who < -1)
		html_rawf(h, "p%lld", (long long)(-1 - who));
	else
		html_num(h, who);
}

/* <a href="{up}c/KEY.html" class="cid s-STATUS">[id]</a> */
void cid_link(struct html *h, const char *up, int64_t rank, const struct compileid *cid,
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

/* The entry of (rank, cid) in by_cid, or NULL. */
const int64_t *occ_entry(struct rctx *c, int64_t rank, const struct compileid *cid)
{
	int64_t k[5];

	cidmap_key(k, rank, cid);
	return cidmap_get(&c->by_cid, k, 0);
}

const struct rp_occ *occ_find(struct rctx *c, int64_t rank, const struct compileid *cid)
{
	const int64_t *v = occ_entry(c, rank, cid);

	return v ? &c->occs.v[v[2]] : NULL;
}

const char *cid_status(struct rctx *c, int64_t rank, const struct compileid *cid)
{
	const struct rp_occ *o = occ_find(c, rank, cid);

	return o ? o->status : "missing";
}

const struct tt_event *recompile_of(struct rctx *c, int64_t rank,
				    const struct compileid *cid)
{
	int64_t k[5];
	const int64_t *v;

	cidmap_key(k, rank, cid);
	v = cidmap_get(&c->recompile_by_cid, k, 0);
	return v ? &c->recompiles.v[v[0]] : NULL;
}

/* Text from a trace: inline, or a block keeping its line breaks when it has any
 * (a compiler's error, a traceback). */
void text_block(struct html *h, const char *s)
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
void failure_source(struct html *h, json_t *m)
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
