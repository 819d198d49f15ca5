/*
 * The landing page's sections of a `pttrace run` (report_pages.h): the crash,
 * and the run (command, status, torch, output records, errors and tracebacks,
 * the dispatcher call tree).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "logs_query.h"
#include "report.h"
#include "report_pages.h"

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

int write_run_section(struct rctx *c, struct html *h, json_t *run)
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
		char *md5 = NULL, *tv = tt_torch_version(c->ix, c->o->run_id, &md5);

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
	if (!source || strcmp(source, "run"))	/* not a `pttrace run` run: no output records */
		return 0;
	html_raw(h, "<h3>Output records (TORCH_LOGS, dispatcher, C++ and tracebacks)</h3>\n"
		    "<p>By kind and level, by TORCH_LOGS artifact, and the 50 most called "
		    "operators (<code>op:</code>).</p>\n<table class=\"sortable\"><thead><tr><th>what"
		    "</th><th>records</th></tr></thead><tbody>\n");
	rc = rp_run_counts(c->ix, c->o->run_id, on_run_count, h);
	html_raw(h, "</tbody></table>\n");
	html_rawf(h, "<h3 id=\"errors\">Errors and tracebacks</h3>\n<p>The first %d records at level "
		  "ERROR or above and every traceback, as the run printed them "
		  "(<code>pttrace logs RUN --level ERROR</code> has them all).</p>\n<ul>\n",
		  RUN_ERRORS_MAX);
	if (rp_run_errors(c->ix, c->o->run_id, RUN_ERRORS_MAX, on_run_error, h) < 0)
		rc = -1;
	html_raw(h, "</ul>\n");
	{
		struct tree_ctx t = {h, -1, 0};

		html_rawf(h, "<h3 id=\"calls\">Dispatcher call tree</h3>\n<details><summary>The first "
			  "%d calls, callees under their callers (<code>pttrace ops RUN --tree</code> "
			  "has them all)</summary>\n", CALL_TREE_MAX);
		if (rp_call_tree(c->ix, c->o->run_id, CALL_TREE_MAX, on_call, &t) < 0)
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
void write_crash(struct rctx *c, struct html *h)
{
	json_t *cr = rp_run_crash(c->ix, c->o->run_id);
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
