/*
 * Compile-level differences between two runs (tt_query.h): compiles paired
 * by where their code is (file, first line, function), as a user reads
 * them, since compile ids number frames in the order torch met them and the
 * same id may be another function in the other run; by id only where the
 * trace names no location.
 */
#include "tt_internal.h"

#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "runnorm.h"
#include "xalloc.h"

/*
 * Where a compile's code is, as a user reads it: the code object's
 * co_filename, co_firstlineno and co_name (or dynamo_start's innermost
 * frame), the per-run part of a temporary path masked. *where gets
 * "file:line" (what the text shows), the result the pairing key (with the
 * function); both NULL when the trace names neither file nor function.
 */
static char *loc_key(const struct tt_compile *c, char **where)
{
	char *f, *k;

	*where = NULL;
	if (!c->co_name && !c->co_filename)
		return NULL;
	f = runnorm_text(c->co_filename ? c->co_filename : "?");
	if (c->co_firstlineno >= 0)
		*where = pt_xasprintf("%s:%lld", f, (long long)c->co_firstlineno);
	else
		*where = pt_xstrdup(f);
	k = pt_xasprintf("%s in %s", *where, c->co_name ? c->co_name : "?");
	free(f);
	return k;
}

/*
 * A run's compiles with their locations: loc[i] the key, where[i] its
 * "file:line", nth[i] the how-manieth compile at that location in its
 * process, pair[i] the index of the same compile in the other run or -1.
 */
struct located {
	const struct tt_compiles *cs;
	char **loc, **where;
	int *nth;
	long *pair;
};

static int same_writer(const struct tt_compile *d, const struct tt_compile *c)
{
	return d->rank == c->rank && (c->rank >= 0 || d->process == c->process);
}

static void locate(struct located *l, const struct tt_compiles *cs)
{
	size_t n = cs->n ? cs->n : 1;

	l->cs = cs;
	l->loc = pt_xcalloc(n, sizeof(*l->loc));
	l->where = pt_xcalloc(n, sizeof(*l->where));
	l->nth = pt_xcalloc(n, sizeof(*l->nth));
	l->pair = pt_xcalloc(n, sizeof(*l->pair));
	for (size_t i = 0; i < cs->n; i++) {
		l->loc[i] = loc_key(&cs->v[i], &l->where[i]);
		l->nth[i] = 1;
		l->pair[i] = -1;
		for (size_t k = 0; k < i && l->loc[i]; k++)
			if (l->loc[k] && same_writer(&cs->v[k], &cs->v[i]) && !strcmp(l->loc[k], l->loc[i]))
				l->nth[i]++;
	}
}

static void located_release(struct located *l)
{
	for (size_t i = 0; i < l->cs->n; i++) {
		free(l->loc[i]);
		free(l->where[i]);
	}
	free(l->loc);
	free(l->where);
	free(l->nth);
	free(l->pair);
}

/*
 * Pairs the compiles of a and b: first by writer (rank, or process when
 * unranked), code location and the how-manieth compile there; then those
 * left, where a trace names no location (a cut-off trace), by compile id
 * and occurrence.
 */
static void pair_compiles(struct located *a, struct located *b)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < a->cs->n; i++) {
			const struct tt_compile *c = &a->cs->v[i];

			if (a->pair[i] >= 0 || (pass == 0 && !a->loc[i]))
				continue;
			for (size_t k = 0; k < b->cs->n; k++) {
				const struct tt_compile *d = &b->cs->v[k];

				if (b->pair[k] >= 0 || !same_writer(d, c))
					continue;
				if (pass == 0 ? b->loc[k] && !strcmp(b->loc[k], a->loc[i]) && b->nth[k] == a->nth[i]
					      : (!a->loc[i] || !b->loc[k]) && d->occurrence == c->occurrence &&
						cid_same(d, c->rank, &c->cid)) {
					a->pair[i] = (long)k;
					b->pair[k] = (long)i;
					break;
				}
			}
		}
}

static json_t *cid_json(const struct tt_compile *c, const char *loc)
{
	char id[COMPILEID_MAX];
	json_t *o = json_object();

	compileid_format(&c->cid, id, sizeof(id));
	json_object_set_new(o, "rank", int_or_null(c->rank));
	json_object_set_new(o, "compile_id", json_string(id));
	json_object_set_new(o, "occurrence", json_integer(c->occurrence));
	json_object_set_new(o, "who", c->label[0] ? json_string(c->label) : json_null());
	json_object_set_new(o, "name", pt_json_str(c->co_name));
	json_object_set_new(o, "location", pt_json_str(loc));
	return o;
}

/* 1 when a and b differ (NULL differs from any string). */
static int str_differ(const char *a, const char *b)
{
	return (a == NULL) != (b == NULL) || (a && strcmp(a, b));
}

int tt_diff_json(struct db *ix, int64_t run_a, int64_t run_b, json_t **out)
{
	struct tt_compiles a, b;
	json_t *o, *added, *removed, *changed, *recompiles;
	struct tt_events ra, rb;
	struct located la, lb;

	*out = NULL;
	if (tt_compiles_load(ix, run_a, -1, &a) < 0)
		return -1;
	if (tt_compiles_load(ix, run_b, -1, &b) < 0) {
		tt_compiles_release(&a);
		return -1;
	}
	o = json_object();
	added = json_array();
	removed = json_array();
	changed = json_array();
	locate(&la, &a);
	locate(&lb, &b);
	pair_compiles(&la, &lb);
	for (size_t i = 0; i < b.n; i++)
		if (lb.pair[i] < 0)
			json_array_append_new(added, cid_json(&b.v[i], lb.where[i]));
	for (size_t i = 0; i < a.n; i++) {
		const struct tt_compile *x = &a.v[i], *y = la.pair[i] < 0 ? NULL : &b.v[la.pair[i]];
		json_t *ch;
		size_t base;

		if (!y) {
			json_array_append_new(removed, cid_json(x, la.where[i]));
			continue;
		}
		ch = cid_json(x, la.where[i] ? la.where[i] : lb.where[la.pair[i]]);
		{
			/* Paired by location: the other run may have given it another id. */
			char id[COMPILEID_MAX];

			compileid_format(&y->cid, id, sizeof(id));
			json_object_set_new(ch, "compile_id_b", json_string(id));
			json_object_set_new(ch, "occurrence_b", json_integer(y->occurrence));
		}
		base = json_object_size(ch);
		if (str_differ(x->graph_md5, y->graph_md5))
			json_object_set_new(ch, "graph_changed", json_true());
		if (strcmp(x->status, y->status))
			json_object_set_new(ch, "status", json_pack("[ss]", x->status, y->status));
		if (x->graphs != y->graphs)
			json_object_set_new(ch, "graphs", json_pack("[II]", (json_int_t)x->graphs, (json_int_t)y->graphs));
		if (x->op_count != y->op_count)
			json_object_set_new(ch, "ops", json_pack("[oo]", int_or_null(x->op_count), int_or_null(y->op_count)));
		if (x->guard_count != y->guard_count)
			json_object_set_new(ch, "guards", json_pack("[oo]", int_or_null(x->guard_count), int_or_null(y->guard_count)));
		if ((x->restart_reasons == NULL) != (y->restart_reasons == NULL) ||
		    (x->restart_reasons && !json_equal(x->restart_reasons, y->restart_reasons)))
			json_object_set_new(ch, "restart_reasons",
					    json_pack("[OO]", x->restart_reasons ? x->restart_reasons : json_null(),
						      y->restart_reasons ? y->restart_reasons : json_null()));
		/* Time always reported for matched compiles: it is what users compare. */
		json_object_set_new(ch, "changed", json_boolean(json_object_size(ch) > base));
		json_object_set_new(ch, "entire_frame_compile_time_s", json_pack("[oo]", num_or_null(x->t_entire), num_or_null(y->t_entire)));
		json_array_append_new(changed, ch);
	}
	recompiles = json_object();
	if (tt_recompiles(ix, run_a, &ra) == 0 && tt_recompiles(ix, run_b, &rb) == 0) {
		json_t *ja = json_array(), *jb = json_array();
		char id[COMPILEID_MAX];

		for (size_t i = 0; i < ra.n; i++) {
			compileid_format(&ra.v[i].cid, id, sizeof(id));
			json_array_append_new(ja, json_sprintf("[%s] %s", id, ra.v[i].what ? ra.v[i].what : ""));
		}
		for (size_t i = 0; i < rb.n; i++) {
			compileid_format(&rb.v[i].cid, id, sizeof(id));
			json_array_append_new(jb, json_sprintf("[%s] %s", id, rb.v[i].what ? rb.v[i].what : ""));
		}
		json_object_set_new(recompiles, "a", ja);
		json_object_set_new(recompiles, "b", jb);
		tt_events_release(&ra);
		tt_events_release(&rb);
	}
	{
		/* Differences that matter: ids, graphs/status/counts/reasons, recompile reasons. Not times. */
		int differ = json_array_size(added) || json_array_size(removed) ||
			     !json_equal(json_object_get(recompiles, "a"), json_object_get(recompiles, "b"));
		size_t i;
		json_t *m;

		json_array_foreach(changed, i, m)
			differ |= json_is_true(json_object_get(m, "changed"));
		json_object_set_new(o, "differ", json_boolean(differ));
	}
	located_release(&la);
	located_release(&lb);
	json_object_set_new(o, "compiles_a", json_integer((json_int_t)a.n));
	json_object_set_new(o, "compiles_b", json_integer((json_int_t)b.n));
	json_object_set_new(o, "added", added);
	json_object_set_new(o, "removed", removed);
	json_object_set_new(o, "matched", changed);
	json_object_set_new(o, "recompile_reasons", recompiles);
	tt_compiles_release(&a);
	tt_compiles_release(&b);
	*out = o;
	return 0;
}

int tt_breaks_diff_json(struct db *ix, int64_t run_a, int64_t run_b, json_t *doc, int *differ)
{
	json_t *m[2], *out = json_array(), *v;
	json_int_t total[2] = {0, 0};
	const char *k;

	for (int r = 0; r < 2; r++) {
		struct tt_events ev;

		if (tt_graph_breaks(ix, r ? run_b : run_a, &ev) < 0) {
			if (r)
				json_decref(m[0]);
			json_decref(out);
			return -1;
		}
		m[r] = json_object();
		for (size_t i = 0; i < ev.n; i++) {
			/* Reason and place, as torch wrote them. */
			char *key = pt_xasprintf("%s%s%s%s", ev.v[i].what ? ev.v[i].what : "?",
						 ev.v[i].where ? "  (" : "", ev.v[i].where ? ev.v[i].where : "",
						 ev.v[i].where ? ")" : "");
			json_t *c = json_object_get(m[r], key);

			json_object_set_new(m[r], key, json_integer(c ? json_integer_value(c) + 1 : 1));
			free(key);
		}
		total[r] = (json_int_t)ev.n;
		tt_events_release(&ev);
	}
	json_object_foreach(m[0], k, v)
		if (json_integer_value(v) != json_integer_value(json_object_get(m[1], k)))
			json_array_append_new(out, json_pack("{s:s,s:I,s:I}", "key", k, "a", json_integer_value(v),
							     "b", json_integer_value(json_object_get(m[1], k))));
	json_object_foreach(m[1], k, v)
		if (!json_object_get(m[0], k))
			json_array_append_new(out, json_pack("{s:s,s:I,s:I}", "key", k, "a", (json_int_t)0,
							     "b", json_integer_value(v)));
	*differ |= json_array_size(out) != 0;
	json_object_set_new(doc, "trace_graph_breaks", json_pack("{s:I,s:I,s:o}", "a", total[0], "b", total[1],
								 "differences", out));
	json_decref(m[0]);
	json_decref(m[1]);
	return 0;
}
