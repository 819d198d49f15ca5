/*
 * pttrace report: a static HTML report of one run (imported TORCH_TRACE
 * job or `pttrace run`), written from the index with bounded memory:
 * records are streamed from SQLite, payload pages are written one payload
 * at a time, and only per-compile summaries are held. No printing; errors
 * go to diag.
 *
 * Files under the output directory (common/outdir.h: written into a private
 * directory beside it, which then replaces it whole):
 *   index.html        data health, totals, links, ranks, stack trie, run output
 *   compiles.html     one row per compilation_metrics occurrence (sortable)
 *   frames.html       compiles grouped by frame with the recompile chain
 *   breaks.html       graph breaks de-duplicated by reason and location
 *   c/<key>.html      one page per compile id and rank (metrics, guards, artifacts)
 *   p/<md5>.html      one page per distinct payload (highlighted, line anchors),
 *                     for the first 50,000 by first use (report_pages.h PAYLOAD_PAGES_MAX)
 *   p/<md5>.txt       the payload's raw bytes (md5 as indexed), only where the page
 *                     shows it otherwise (pretty-printed JSON, bytes HTML cannot carry)
 *   export.html       export records (only when there are some)
 *   chromium_events.json.gz  every chromium_event, gzip-compressed (Perfetto and
 *                     chrome://tracing open it as it is; zcat gives the JSON)
 *   report.css, report.js, highlight.min.js (when Debian's libjs-highlight.js is installed)
 */
#ifndef PT_REPORT_H
#define PT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "db.h"

/* The Chrome trace's name in the report (the pages link it). */
#define REPORT_TIMELINE "chromium_events.json.gz"

struct report_opts {
	const char *outdir;	/* missing, empty or an earlier report, the caller's (report_dir_refusal) */
	const char *hljs;	/* highlight.min.js to copy; NULL: Debian's path */
	int64_t run_id;
	int64_t diff_run;	/* > 0: also write diff.html against this run */
};

struct report_stats {
	size_t pages;		/* HTML pages written */
	size_t payloads;	/* distinct payloads written */
	size_t compiles;	/* compilation_metrics occurrences */
	uint64_t bytes;		/* bytes written in all */
	int highlight;		/* 1 when highlight.js was copied */
	uint64_t records_read;	/* trace_records rows the compile pages' reads went through */
};

/*
 * NULL when dir may receive a report: missing, an empty directory of the
 * caller's, or an earlier report of the caller's (report.css, a file); else
 * why not (in buf: "exists and is not empty nor an earlier pttrace report",
 * "belongs to another user ...").
 */
const char *report_dir_refusal(const char *dir, char *buf, size_t n);

/* The default output directory of a run's report, "pttrace-report-<id>"; caller frees. */
char *report_default_dir(int64_t run_id);

/*
 * Write the report from one snapshot of the index (a read transaction), into
 * a fresh directory beside outdir that then takes its place (common/outdir.h:
 * nothing is written through a link, nothing of an earlier report stays).
 * 0, or -1 (diag): then nothing is written and outdir stays as it was.
 */
int report_write(struct db *ix, const struct report_opts *o, struct report_stats *st,
		 struct pt_diag *diag);

#endif
