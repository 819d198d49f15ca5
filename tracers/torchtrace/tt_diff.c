/*
 * Compile-level differences between two runs (tt_query.h): compiles paired
 * by where their code is (file, first line, function), as a user reads
 * them, since compile ids number frames in the order torch met them and the
 * same id may be another function in the other run; by id only where the
 * trace names no location.
 */
#include "tt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void diff_id(struct tt_diff_id *o, const struct tt_compile *c, const char *loc)
{
	compileid_format(&c->cid, o->compile_id, sizeof(o->compile_id));
	o->rank = c->rank < 0 ? -1 : c->rank;
	o->occurrence = c->occurrence;
	snprintf(o->who, sizeof(o->who), "%s", c->label);
	o->name = c->co_name ? pt_xstrdup(c->co_name) : NULL;
	o->location = loc ? pt_xstrdup(loc) : NULL;
}

static void diff_id_release(struct tt_diff_id *o)
{
	free(o->name);
	free(o->location);
}

/* 1 when a and b differ (NULL differs from any string). */
static int str_differ(const char *a, const char *b)
{
	return (a == NULL) != (b == NULL) || (a && strcmp(a, b));
}

/* The pair x (first run) and y, its location loc. */
static void diff_match(struct tt_diff_match *m, const struct tt_compile *x, const struct tt_compile *y,
		       const char *loc)
{
	const struct tt_compile *c[2] = { x, y };

	memset(m, 0, sizeof(*m));
	diff_id(&m->id, x, loc);
	/* Paired by location: the other run may have given it another id. */
	compileid_format(&y->cid, m->compile_id_b, sizeof(m->compile_id_b));
	m->occurrence_b = y->occurrence;
	m->graph_changed = str_differ(x->graph_md5, y->graph_md5);
	for (int r = 0; r < 2; r++) {
		m->status[r] = c[r]->status;
		m->graphs[r] = c[r]->graphs;
		m->ops[r] = c[r]->op_count < 0 ? -1 : c[r]->op_count;
		m->guards[r] = c[r]->guard_count < 0 ? -1 : c[r]->guard_count;
		m->restart_reasons[r] = c[r]->restart_reasons ? json_incref(c[r]->restart_reasons) : NULL;
		m->t_entire[r] = c[r]->t_entire < 0 ? -1 : c[r]->t_entire;
	}
	if (strcmp(x->status, y->status))
		m->changed |= 1u << TT_DIFF_STATUS;
	if (x->graphs != y->graphs)
		m->changed |= 1u << TT_DIFF_GRAPHS;
	if (x->op_count != y->op_count)
		m->changed |= 1u << TT_DIFF_OPS;
	if (x->guard_count != y->guard_count)
		m->changed |= 1u << TT_DIFF_GUARDS;
	if ((x->restart_reasons == NULL) != (y->restart_reasons == NULL) ||
	    (x->restart_reasons && !json_equal(x->restart_reasons, y->restart_reasons)))
		m->changed |= 1u << TT_DIFF_RESTART_REASONS;
}

/* "[0/1] guard text" per recompile of the run. 0 or -1 (diag). */
static int reasons(struct db *ix, int64_t run, char ***out, size_t *n)
{
	struct tt_events ev;
	char id[COMPILEID_MAX];

	if (tt_recompiles(ix, run, &ev) < 0)
		return -1;
	*out = pt_xcalloc(ev.n ? ev.n : 1, sizeof(**out));
	*n = ev.n;
	for (size_t i = 0; i < ev.n; i++) {
		compileid_format(&ev.v[i].cid, id, sizeof(id));
		(*out)[i] = pt_xasprintf("[%s] %s", id, ev.v[i].what ? ev.v[i].what : "");
	}
	tt_events_release(&ev);
	return 0;
}

static void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int tt_diff_load(struct db *ix, int64_t run_a, int64_t run_b, struct tt_diff *out)
{
	struct tt_compiles a, b;
	struct located la, lb;

	memset(out, 0, sizeof(*out));
	if (tt_compiles_load(ix, run_a, -1, &a) < 0)
		return -1;
	if (tt_compiles_load(ix, run_b, -1, &b) < 0) {
		tt_compiles_release(&a);
		return -1;
	}
	locate(&la, &a);
	locate(&lb, &b);
	pair_compiles(&la, &lb);
	out->added = pt_xcalloc(b.n ? b.n : 1, sizeof(*out->added));
	out->removed = pt_xcalloc(a.n ? a.n : 1, sizeof(*out->removed));
	out->matched = pt_xcalloc(a.n ? a.n : 1, sizeof(*out->matched));
	for (size_t i = 0; i < b.n; i++)
		if (lb.pair[i] < 0)
			diff_id(&out->added[out->nadded++], &b.v[i], lb.where[i]);
	for (size_t i = 0; i < a.n; i++) {
		if (la.pair[i] < 0) {
			diff_id(&out->removed[out->nremoved++], &a.v[i], la.where[i]);
			continue;
		}
		diff_match(&out->matched[out->nmatched++], &a.v[i], &b.v[la.pair[i]],
			   la.where[i] ? la.where[i] : lb.where[la.pair[i]]);
	}
	if (reasons(ix, run_a, &out->reasons_a, &out->nreasons_a) == 0) {
		if (reasons(ix, run_b, &out->reasons_b, &out->nreasons_b) == 0) {
			out->have_reasons = 1;
		} else {
			strv_free(out->reasons_a, out->nreasons_a);
			out->reasons_a = NULL;
			out->nreasons_a = 0;
		}
	}
	/* Differences that matter: ids, graphs/status/counts/reasons, recompile reasons. Not times.
	 * Reasons that could not be read count as different. */
	out->differ = out->nadded || out->nremoved || !out->have_reasons || out->nreasons_a != out->nreasons_b;
	for (size_t i = 0; !out->differ && i < out->nreasons_a; i++)
		out->differ = strcmp(out->reasons_a[i], out->reasons_b[i]) != 0;
	for (size_t i = 0; i < out->nmatched; i++)
		out->differ |= out->matched[i].graph_changed || out->matched[i].changed;
	located_release(&la);
	located_release(&lb);
	out->compiles_a = a.n;
	out->compiles_b = b.n;
	tt_compiles_release(&a);
	tt_compiles_release(&b);
	return 0;
}

void tt_diff_release(struct tt_diff *d)
{
	for (size_t i = 0; i < d->nadded; i++)
		diff_id_release(&d->added[i]);
	for (size_t i = 0; i < d->nremoved; i++)
		diff_id_release(&d->removed[i]);
	for (size_t i = 0; i < d->nmatched; i++) {
		diff_id_release(&d->matched[i].id);
		json_decref(d->matched[i].restart_reasons[0]);
		json_decref(d->matched[i].restart_reasons[1]);
	}
	free(d->added);
	free(d->removed);
	free(d->matched);
	strv_free(d->reasons_a, d->nreasons_a);
	strv_free(d->reasons_b, d->nreasons_b);
	memset(d, 0, sizeof(*d));
}
