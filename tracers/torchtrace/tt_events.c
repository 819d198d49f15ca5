/* Graph breaks and recompiles, from their records' payloads. See tt_query.h. */
#include "tt_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"

static void ev_add(struct tt_events *e, size_t *alloc, int64_t rank, const char *who,
		   const struct compileid *cid, char *where, char *what, char *prev)
{
	PT_GROW(e->v, e->n, *alloc);
	pt_fmt_trunc(e->v[e->n].who, sizeof(e->v[e->n].who), "%s", who ? who : "");
	e->v[e->n].rank = rank;
	e->v[e->n].cid = *cid;
	e->v[e->n].where = where;
	e->v[e->n].what = what;
	e->v[e->n++].prev = prev;
}

void tt_events_release(struct tt_events *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->v[i].where);
		free(e->v[i].what);
		free(e->v[i].prev);
	}
	free(e->v);
	e->v = NULL;
	e->n = 0;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

void tt_event_groups_of(const struct tt_events *ev, struct tt_event_groups *out)
{
	char *done = pt_xcalloc(ev->n + 1, 1);

	out->v = pt_xcalloc(ev->n ? ev->n : 1, sizeof(*out->v));
	out->n = 0;
	for (size_t i = 0; i < ev->n; i++) {
		struct tt_event_group *g;

		if (done[i])
			continue;
		g = &out->v[out->n++];
		g->what = ev->v[i].what;
		g->where = ev->v[i].where;
		g->ids = pt_xcalloc(ev->n - i, sizeof(*g->ids));
		g->ranks = pt_xcalloc(ev->n - i, sizeof(*g->ranks));
		for (size_t j = i; j < ev->n; j++) {
			bool seen = false;

			if (done[j] || !same_str(ev->v[i].what, ev->v[j].what) ||
			    !same_str(ev->v[i].where, ev->v[j].where))
				continue;
			done[j] = 1;
			compileid_format(&ev->v[j].cid, g->ids[g->count++], COMPILEID_MAX);
			if (ev->v[j].rank < 0)
				continue;
			for (size_t k = 0; k < g->n_ranks; k++)
				seen |= g->ranks[k] == ev->v[j].rank;
			if (!seen)
				g->ranks[g->n_ranks++] = ev->v[j].rank;
		}
	}
	free(done);
}

void tt_event_groups_release(struct tt_event_groups *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->v[i].ids);
		free(g->v[i].ranks);
	}
	free(g->v);
	g->v = NULL;
	g->n = 0;
}

/* The text after prefix on the first line that starts with it (trimmed), or NULL. */
static char *line_after(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		if (len >= n && !strncmp(p, prefix, n))
			return pt_xstrndup(p + n, len - n);
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

/* The end of the line at p: its newline or the end of the text. */
static const char *line_end(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl : p + strlen(p);
}

/*
 * The short reason of a graph break in torch 2.7+'s shape (2.14.1):
 *   Graph Break Reason: Encountered graph break when attempting to trace CALL: ...:
 *   <blank>
 *   Failed to trace builtin operator
 *     Explanation: Dynamo does not know how to trace builtin operator `print` ...
 *     Hint: ...
 *     Developer debug context: ...
 *   ... User code traceback: ... Traceback (most recent call last): ...
 * gives "Failed to trace builtin operator: Dynamo does not know how ...": the
 * graph-break type and its explanation, without the hints, the stacks and the
 * user code traceback that differ from one call site to the next. text starts
 * at the reason (after "Graph Break Reason: ", or a restart reason of the same
 * shape). NULL when text is not of that shape (no "Explanation: " below the
 * type, and no "Encountered ...:" line above it).
 */
char *tt_short_break_reason(const char *text)
{
	const char *p = text, *e = line_end(p), *type, *type_end;
	char *expl = NULL, *out;
	int context = 0;

	/* "Encountered graph break when attempting to trace X:" then a blank line. */
	if (e > p && e[-1] == ':' && *e == '\n' && e[1] == '\n') {
		context = 1;
		p = e + 1;
		while (*p == '\n')
			p++;
		e = line_end(p);
	}
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p == e)
		return NULL;
	type = p;
	type_end = e;
	/* The block below the type, up to its first blank line: "Explanation: ". */
	for (p = *e ? e + 1 : e; *p && *p != '\n'; p = *e ? e + 1 : e) {
		const char *q = p;

		e = line_end(p);
		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		if (e - q > 13 && !strncmp(q, "Explanation: ", 13)) {
			expl = pt_xstrndup(q + 13, (size_t)(e - q - 13));
			break;
		}
	}
	if (!expl && !context)
		return NULL;	/* neither an explanation nor the context line: not that shape */
	out = expl ? pt_xasprintf("%.*s: %s", (int)(type_end - type), type, expl)
		   : pt_xstrndup(type, (size_t)(type_end - type));
	free(expl);
	return out;
}

struct breaks_ctx {
	struct db *ix;
	struct tt_events *out;
	size_t alloc;
	int recompiles;
};

/* "File \"F\", line N, in FN" (the last of a "User stack trace:") as "F:N in FN", or NULL. */
static char *stack_where(const char *trace)
{
	const char *last = NULL, *p;
	const char *q, *lq, *ln, *in;

	for (p = trace; (p = strstr(p, "File \"")); p += 6)
		last = p;
	if (!last)
		return NULL;
	q = last + 6;
	lq = strchr(q, '"');
	if (!lq || strncmp(lq, "\", line ", 8))
		return NULL;
	ln = lq + 8;
	in = ln;
	while (*in >= '0' && *in <= '9')
		in++;
	if (in == ln)
		return NULL;
	if (!strncmp(in, ", in ", 5))
		return pt_xasprintf("%.*s:%.*s in %.*s", (int)(lq - q), q, (int)(in - ln), ln,
				    (int)(line_end(in + 5) - (in + 5)), in + 5);
	return pt_xasprintf("%.*s:%.*s", (int)(lq - q), q, (int)(in - ln), ln);
}

static void add_recompile_reasons(struct breaks_ctx *b, const struct tt_rec_row *row, json_t *arr)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v) {
		const char *s = json_string_value(v), *colon, *hash, *end, *st;
		char *prev = NULL, *what, *where = NULL;

		if (!s)
			continue;
		colon = strstr(s, ": ");
		if (colon && colon - s < 40 && strchr("0123456789!", s[0])) {
			prev = pt_xstrndup(s, (size_t)(colon - s));
			s = colon + 2;
		}
		end = line_end(s);	/* the guard's line; below it, 2.14's stack */
		st = strstr(s, "\nUser stack trace:");
		if (st)
			where = stack_where(st);
		for (hash = end; !where && hash > s && hash[-1] != '#';)
			hash--;
		if (!where && hash > s) {
			const char *w = hash;

			while (*w == ' ')
				w++;
			if (memmem(w, (size_t)(end - w), ".py:", 4))
				where = pt_xstrndup(w, (size_t)(end - w));
		}
		hash = strstr(s, "  #");
		what = hash && hash < end ? pt_xstrndup(s, (size_t)(hash - s)) : pt_xstrndup(s, (size_t)(end - s));
		for (size_t k = strlen(what); k && what[k - 1] == ' '; k--)
			what[k - 1] = '\0';
		ev_add(b->out, &b->alloc, row->rank, row->who, &row->cid, where, what, prev);
	}
}

static int on_break(void *ctx, const struct tt_rec_row *row)
{
	struct breaks_ctx *b = ctx;
	char *data = NULL;
	size_t len;

	if (!row->md5 || tt_payload_get(b->ix, row->md5, &data, &len) != 0)
		return 0;
	if (!b->recompiles) {
		/*
		 * "Graph break in user code at FILE:LINE\n" then "Reason: ...\n"
		 * (2.6) or "Graph Break Reason: ..." over many lines (2.7+, 2.14.1):
		 * its short form (tt_short_break_reason), so that the breaks of one
		 * cause group together.
		 */
		char *where = line_after(data, "Graph break in user code at ");
		char *what = line_after(data, "Reason: ");
		const char *gbr = strstr(data, "Graph Break Reason: ");

		if (gbr) {
			char *w = tt_short_break_reason(gbr + strlen("Graph Break Reason: "));

			if (w) {
				free(what);
				what = w;
			}
		}
		if (!where)
			where = line_after(data, "Graph break ");
		ev_add(b->out, &b->alloc, row->rank, row->who, &row->cid, where, what ? what : pt_xstrdup(data), NULL);
	} else {
		/*
		 * A JSON list of "<cid>: <guard>  # <comment>  # <file:line in fn>"
		 * (2.6; 2.14 when several guards failed), or that one reason as
		 * plain text (2.14 when one failed: "0/0: n == 1  # ..."). 2.14
		 * adds "\nUser stack trace:\n  File \"F\", line N, in FN\n..." to a reason.
		 */
		json_t *arr = json_loads(data, JSON_DECODE_ANY, NULL);

		if (!json_is_array(arr)) {
			json_decref(arr);
			arr = json_pack("[s]", data);
		}
		add_recompile_reasons(b, row, arr);
		json_decref(arr);
	}
	free(data);
	return 0;
}

/* A restart reason in its short form when it has 2.14's shape, else a copy. */
static char *short_or_copy(const char *r)
{
	char *s = strchr(r, '\n') ? tt_short_break_reason(r) : NULL;

	return s ? s : pt_xstrdup(r);
}

int tt_graph_breaks(struct db *ix, int64_t run_id, struct tt_events *out)
{
	struct breaks_ctx b = {ix, out, 0, 0};
	struct tt_compiles cs;

	memset(out, 0, sizeof(*out));
	if (tt_records_for(ix, run_id, NULL, -1, "dynamo_graph_break_reason", on_break, &b) < 0)
		return -1;
	if (out->n)
		return 0;
	/* BACKCOMPAT: early-2024 traces have no dynamo_graph_break_reason; the
	 * breaks are the restart reasons in compilation_metrics. */
	if (tt_compiles_load(ix, run_id, -1, &cs) < 0)
		return -1;
	for (size_t i = 0; i < cs.n; i++) {
		size_t k;
		json_t *r;

		/* One break per reason torch logged. */
		json_array_foreach(cs.v[i].restart_reasons, k, r)
			ev_add(out, &b.alloc, cs.v[i].rank, cs.v[i].label, &cs.v[i].cid,
			       cs.v[i].co_filename ? pt_xasprintf("%s:%lld", cs.v[i].co_filename,
								  (long long)cs.v[i].co_firstlineno) : NULL,
			       short_or_copy(json_is_string(r) ? json_string_value(r) : "?"), NULL);
	}
	tt_compiles_release(&cs);
	return 0;
}

int tt_recompiles(struct db *ix, int64_t run_id, struct tt_events *out)
{
	struct breaks_ctx b = {ix, out, 0, 1};

	memset(out, 0, sizeof(*out));
	return tt_records_for(ix, run_id, NULL, -1, "recompile_reasons", on_break, &b);
}
