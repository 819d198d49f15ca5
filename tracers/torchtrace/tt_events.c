/* Graph breaks and recompiles, from their records' payloads. See tt_query.h. */
#include "tt_internal.h"

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

struct breaks_ctx {
	struct db *ix;
	struct tt_events *out;
	size_t alloc;
	struct pt_diag *diag;
	int recompiles;
};

static int on_break(void *ctx, const struct tt_rec_row *row)
{
	struct breaks_ctx *b = ctx;
	char *data = NULL;
	size_t len;

	if (!row->md5 || tt_payload_get(b->ix, row->md5, &data, &len, b->diag) != 0)
		return 0;
	if (!b->recompiles) {
		/* "Graph break in user code at FILE:LINE\nReason: ...\n" (2.6+) */
		char *where = line_after(data, "Graph break in user code at ");
		char *what = line_after(data, "Reason: ");

		if (!where)
			where = line_after(data, "Graph break ");
		ev_add(b->out, &b->alloc, row->rank, row->who, &row->cid, where, what ? what : pt_xstrdup(data), NULL);
	} else {
		/* A JSON list of "<cid>: <guard>  # <comment>  # <file:line in fn>". */
		json_t *arr = json_loads(data, 0, NULL);
		size_t i;
		json_t *v;

		json_array_foreach(arr, i, v) {
			const char *s = json_string_value(v), *colon, *hash;
			char *prev = NULL, *what, *where = NULL;

			if (!s)
				continue;
			colon = strstr(s, ": ");
			if (colon && colon - s < 40 && strchr("0123456789!", s[0])) {
				prev = pt_xstrndup(s, (size_t)(colon - s));
				s = colon + 2;
			}
			hash = strrchr(s, '#');
			if (hash && strstr(hash, ".py:")) {
				const char *w = hash + 1;

				while (*w == ' ')
					w++;
				where = pt_xstrdup(w);
			}
			hash = strstr(s, "  #");
			what = hash ? pt_xstrndup(s, (size_t)(hash - s)) : pt_xstrdup(s);
			for (size_t k = strlen(what); k && what[k - 1] == ' '; k--)
				what[k - 1] = '\0';
			ev_add(b->out, &b->alloc, row->rank, row->who, &row->cid, where, what, prev);
		}
		json_decref(arr);
	}
	free(data);
	return 0;
}

int tt_graph_breaks(struct db *ix, int64_t run_id, struct tt_events *out, struct pt_diag *diag)
{
	struct breaks_ctx b = {ix, out, 0, diag, 0};
	struct tt_compiles cs;

	memset(out, 0, sizeof(*out));
	if (tt_records_for(ix, run_id, NULL, -1, "dynamo_graph_break_reason", on_break, &b, diag) < 0)
		return -1;
	if (out->n)
		return 0;
	/* BACKCOMPAT: early-2024 traces have no dynamo_graph_break_reason; the
	 * breaks are the restart reasons in compilation_metrics. */
	if (tt_compiles_load(ix, run_id, -1, &cs, diag) < 0)
		return -1;
	for (size_t i = 0; i < cs.n; i++) {
		size_t k;
		json_t *r;

		/* One break per reason torch logged. */
		json_array_foreach(cs.v[i].restart_reasons, k, r)
			ev_add(out, &b.alloc, cs.v[i].rank, cs.v[i].label, &cs.v[i].cid,
			       cs.v[i].co_filename ? pt_xasprintf("%s:%lld", cs.v[i].co_filename,
								  (long long)cs.v[i].co_firstlineno) : NULL,
			       pt_xstrdup(json_is_string(r) ? json_string_value(r) : "?"), NULL);
	}
	tt_compiles_release(&cs);
	return 0;
}

int tt_recompiles(struct db *ix, int64_t run_id, struct tt_events *out, struct pt_diag *diag)
{
	struct breaks_ctx b = {ix, out, 0, diag, 1};

	memset(out, 0, sizeof(*out));
	return tt_records_for(ix, run_id, NULL, -1, "recompile_reasons", on_break, &b, diag);
}
