/* Ranks of a run and where they diverge. See tt_query.h. */
#include "tt_internal.h"

#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"

static const char SQL_RANK_FILES[] =
	"SELECT rank, count(*), sum(records), group_concat(coalesce(rank_conflict, ''), '') FROM trace_files"
	" WHERE run_id = ? GROUP BY rank ORDER BY rank";

/* The compile ids of one rank in order, as text, for order comparisons. */
static char *rank_sequence(const struct tt_compiles *cs, int64_t rank, long *graphs, long *n, long *failed)
{
	struct pt_strbuf sb;

	pt_strbuf_init(&sb, 1 << 24);
	*graphs = *n = *failed = 0;
	for (size_t i = 0; i < cs->n; i++) {
		char id[COMPILEID_MAX];

		if (cs->v[i].rank != rank)
			continue;
		compileid_format(&cs->v[i].cid, id, sizeof(id));
		pt_strbuf_addf(&sb, "%s%s", sb.len ? " " : "", id);
		*graphs += cs->v[i].graphs;
		*failed += !strcmp(cs->v[i].status, "failed");
		(*n)++;
	}
	return pt_strbuf_detach(&sb);
}

static int in_seq(const char *seq, const char *id)
{
	size_t n = strlen(id);

	for (const char *p = seq; (p = strstr(p, id)) != NULL; p += n)
		if ((p == seq || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

int tt_ranks_json(struct db *ix, int64_t run_id, json_t **out, struct pt_diag *diag)
{
	struct db_stmt *s = NULL;
	struct tt_compiles cs;
	json_t *o = json_object(), *ranks = json_array(), *div = json_array();
	char **seqs = NULL;
	int64_t *rk = NULL;
	long *gr = NULL, *nc = NULL;
	size_t n = 0;
	int rc;

	*out = NULL;
	if (tt_compiles_load(ix, run_id, -1, &cs, diag) < 0)
		goto fail0;
	if (tt_prep(ix, &s, SQL_RANK_FILES) < 0 || db_bind(s, "i", run_id) < 0)
		goto fail;
	while ((rc = db_step(s)) == 1) {
		json_t *r = json_object();
		int64_t rank = db_col_is_null(s, 0) ? -1 : db_col_int(s, 0);
		const char *conf = db_col_text(s, 3);
		long failed;

		seqs = pt_xreallocarray(seqs, n + 1, sizeof(*seqs));
		rk = pt_xreallocarray(rk, n + 1, sizeof(*rk));
		gr = pt_xreallocarray(gr, n + 1, sizeof(*gr));
		nc = pt_xreallocarray(nc, n + 1, sizeof(*nc));
		rk[n] = rank;
		seqs[n] = rank_sequence(&cs, rank, &gr[n], &nc[n], &failed);
		json_object_set_new(r, "rank", int_or_null(rank));
		json_object_set_new(r, "files", json_integer(db_col_int(s, 1)));
		json_object_set_new(r, "records", json_integer(db_col_int(s, 2)));
		json_object_set_new(r, "compiles", json_integer(nc[n]));
		json_object_set_new(r, "graphs", json_integer(gr[n]));
		json_object_set_new(r, "failed", json_integer(failed));
		json_object_set_new(r, "rank_conflict", conf && *conf ? json_string(conf) : json_null());
		json_array_append_new(ranks, r);
		n++;
	}
	if (rc < 0)
		goto fail;
	/* Divergences against the first rank: counts, order, ids only one side has. */
	for (size_t i = 1; i < n; i++) {
		if (gr[i] != gr[0])
			json_array_append_new(div, json_sprintf("rank %lld compiled %ld graphs, rank %lld %ld",
								(long long)rk[i], gr[i], (long long)rk[0], gr[0]));
		for (int side = 0; side < 2; side++) {
			const char *a = side ? seqs[0] : seqs[i], *b = side ? seqs[i] : seqs[0];
			char *copy = pt_xstrdup(a), *save = NULL;

			for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
				if (!in_seq(b, t))
					json_array_append_new(div, json_sprintf("rank %lld compiled [%s], rank %lld did not",
										(long long)(side ? rk[0] : rk[i]), t,
										(long long)(side ? rk[i] : rk[0])));
			free(copy);
		}
		if (nc[i] == nc[0] && strcmp(seqs[i], seqs[0]))
			json_array_append_new(div, json_sprintf("rank %lld compiled in another order than rank %lld",
								(long long)rk[i], (long long)rk[0]));
	}
	json_object_set_new(o, "ranks", ranks);
	json_object_set_new(o, "divergences", div);
	*out = o;
	ranks = div = o = NULL;
fail:
	tt_compiles_release(&cs);
fail0:
	for (size_t i = 0; i < n; i++)
		free(seqs[i]);
	free(seqs);
	free(rk);
	free(gr);
	free(nc);
	json_decref(o);
	json_decref(ranks);
	json_decref(div);
	return *out ? 0 : -1;
}
