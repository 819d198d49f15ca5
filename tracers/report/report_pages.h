/*
 * What the pages of pttrace report share (report.h), for tracers/report only:
 * the context one report is written with, the page kit (report_kit.c) and the
 * entry of each page and of each section of the landing page. report.c loads
 * the context and writes the pages in order; each page is a file of its own:
 *   report_payload.c  p/<md5>.html (and p/<md5>.txt where the page cannot hold the raw bytes; first: the others link only to those)
 *   report_lists.c    compiles.html, frames.html, breaks.html, records.html
 *   report_index.c    index.html: data health, record kinds, totals, the pages
 *   report_run.c        its crash and run sections (output, errors, call tree)
 *   report_ranks.c      its rank matrix, cross-rank checks and compile timeline
 *   report_trie.c       its stack tries
 *   report_compile.c  c/<key>.html and c/<key>.provenance.html
 *   report_export.c   export.html
 *   report_rundiff.c  diff.html (report --diff)
 */
#ifndef PT_REPORT_PAGES_H
#define PT_REPORT_PAGES_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "compileid.h"
#include "html.h"
#include "outdir.h"
#include "report_data.h"
#include "tt_query.h"

struct report_opts;	/* report.h */
struct report_stats;

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
	/* The payloads that have a page (sorted, once the payload pages are written) and
	 * how many do not (past PAYLOAD_PAGES_MAX). */
	char **paged;
	size_t npaged, apaged;
	uint64_t unpaged;
	/* dump_file payloads ("<eval_with_key>.4" and its md5): frames in them link to lines. */
	char **dump_names, **dump_md5s;
	size_t ndumps, a_dump_names, a_dump_md5s;
};

/* ---- the page kit (report_kit.c) ---- */

/* The report's files, by their name under the output directory (rel); -1 has its
 * error in c->diag, naming the file as under --out DIR (out_path, caller frees). */
int fail_errno(struct rctx *c, const char *path, const char *what);
char *out_path(struct rctx *c, const char *rel);
int page_open(struct rctx *c, struct html *h, const char *rel, const char *title,
	      const char *up);
int page_close(struct rctx *c, struct html *h);
int write_file(struct rctx *c, const char *rel, const void *data, size_t n);
int load_payload(struct rctx *c, const char *md5, char **data, size_t *len);

/* Links (up: "" on a page at the root, "../" under c/ and p/). */
int has_page(const struct rctx *c, const char *md5);
void frame_html(const struct rctx *c, struct html *h, const char *label, const char *up);
void frame_loc(const struct rctx *c, struct html *h, const struct rp_occ *o, const char *up);
void write_stack(const struct rctx *c, struct html *h, int64_t file_id, json_t *st,
		 const char *up);
void cid_text(const struct compileid *cid, char *out, size_t n);
void html_who(struct html *h, int64_t who);
void cid_link(struct html *h, const char *up, int64_t rank, const struct compileid *cid,
	      const char *status);

/* The lookups of struct rctx. */
const int64_t *occ_entry(struct rctx *c, int64_t rank, const struct compileid *cid);
const struct rp_occ *occ_find(struct rctx *c, int64_t rank, const struct compileid *cid);
const char *cid_status(struct rctx *c, int64_t rank, const struct compileid *cid);
const struct tt_event *recompile_of(struct rctx *c, int64_t rank,
				    const struct compileid *cid);

/* Text of a failed compile. */
void text_block(struct html *h, const char *s);
void failure_source(struct html *h, json_t *m);

/* ---- the landing page's sections ---- */

void write_crash(struct rctx *c, struct html *h);			/* report_run.c */
int write_run_section(struct rctx *c, struct html *h, json_t *run);
void write_matrix(struct rctx *c, struct html *h);			/* report_ranks.c */
void write_divergences(struct rctx *c, struct html *h);
void write_svg_timeline(struct rctx *c, struct html *h);
int write_trie(struct rctx *c, struct html *h, int unknown);		/* report_trie.c */
/* The record kinds of export.html (report_export.c): the landing page links it when
 * the run has one. NULL-terminated. */
extern const char *const export_kinds[];

/* ---- the pages, in the order report_write writes them: 0 or -1 (c->diag) ---- */

int write_payloads(struct rctx *c);
int64_t write_loose(struct rctx *c);	/* records listed (0: no page), or -1 */
int write_index(struct rctx *c);
int write_compiles(struct rctx *c);
int write_frames(struct rctx *c);
int write_breaks(struct rctx *c);
int write_compile_pages(struct rctx *c);
int write_export(struct rctx *c);
int write_diff(struct rctx *c);

#endif
