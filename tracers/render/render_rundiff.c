/*
 * `pttrace diff`'s text and --json output (render_rundiff.h) from
 * run_diff.h's struct.
 */
#include "render_rundiff.h"

#include <stdlib.h>
#include <string.h>

#include "jsonout.h"

/* "[0/1]", "[0/1] #2" (the second compile of that id in the process). */
static void print_id(FILE *f, const char *id, int occurrence)
{
	fprintf(f, "[%s]", id);
	if (occurrence > 1)
		fprintf(f, " #%d", occurrence);
}

/* "  (file:line)" where the trace says where the code is. */
static void print_location(FILE *f, const struct tt_diff_id *v)
{
	if (v->location)
		fprintf(f, "  (%s)", v->location);
}

/* The same code compiled under another id in the second run: shown, not a difference. */
static int renumbered(const struct tt_diff_match *m)
{
	return strcmp(m->id.compile_id, m->compile_id_b) || m->id.occurrence != m->occurrence_b;
}

/* Recompile reasons, the same one more often on one line with its count. */
static void print_reasons(FILE *f, char sign, char *const *r, size_t n)
{
	for (size_t j = 0, same; j < n; j += same) {
		for (same = 1; j + same < n && !strcmp(r[j], r[j + same]); same++)
			;
		if (same > 1)
			fprintf(f, "    %c recompile %s (%zu times)\n", sign, r[j], same);
		else
			fprintf(f, "    %c recompile %s\n", sign, r[j]);
	}
}

/* The TORCH_TRACE compiles part. */
static void print_compiles(FILE *f, const struct run_diff *d)
{
	const struct tt_diff *tc = &d->compiles;
	double ta = 0, tb = 0;

	if (!tc->compiles_a && !tc->compiles_b)
		return;
	fprintf(f, "  compiles: %zu -> %zu\n", tc->compiles_a, tc->compiles_b);
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < (k ? tc->nadded : tc->nremoved); i++) {
			const struct tt_diff_id *v = k ? &tc->added[i] : &tc->removed[i];

			fprintf(f, "    %s [%s]", k ? "+" : "-", v->compile_id);
			if (v->occurrence > 1)
				fprintf(f, " #%d", v->occurrence);
			if (v->rank >= 0)
				fprintf(f, " rank %lld", (long long)v->rank);
			fprintf(f, " %s", v->name ? v->name : "");
			print_location(f, v);
			fputc('\n', f);
		}
	for (size_t i = 0; i < tc->nmatched; i++) {
		const struct tt_diff_match *m = &tc->matched[i];
		int changed = run_diff_changed(m), renum = renumbered(m);

		ta += m->t_entire[0] < 0 ? 0 : m->t_entire[0];
		tb += m->t_entire[1] < 0 ? 0 : m->t_entire[1];
		if (!changed && !renum)
			continue;
		fprintf(f, "    %c ", changed ? '~' : '=');
		print_id(f, m->id.compile_id, m->id.occurrence);
		if (renum) {
			fputs(" -> ", f);
			print_id(f, m->compile_id_b, m->occurrence_b);
		}
		fprintf(f, " %s", m->id.name ? m->id.name : "");
		print_location(f, &m->id);
		fputc(':', f);
		if (!changed)
			fputs(" the same compile under another id;", f);
		if (m->graph_changed)
			fputs(" graph changed;", f);
		for (int fl = 0; fl < TT_DIFF_NFIELDS; fl++) {
			char *x, *y;

			if (!run_diff_field_text(m, fl, &x, &y))
				continue;
			fprintf(f, " %s %s -> %s;", run_diff_compile_fields[fl], x, y);
			free(x);
			free(y);
		}
		fputc('\n', f);
	}
	fprintf(f, "    compile time of the compiles both have: %.3f s -> %.3f s\n", ta, tb);
	/* Recompile reasons one run has more often than the other. */
	print_reasons(f, '-', d->reasons_only_a, d->nreasons_only_a);
	print_reasons(f, '+', d->reasons_only_b, d->nreasons_only_b);
}

void render_rundiff_text(FILE *f, const struct run_diff *d, const struct pt_style *st)
{
	int same = !strcmp(d->status_a, d->status_b);

	(void)st;	/* no colour yet */
	fprintf(f, "runs %lld and %lld\n", (long long)d->a, (long long)d->b);
	fprintf(f, "  status: %s%s%s\n", d->status_a, same ? " (same)" : " -> ", same ? "" : d->status_b);
	for (int s = 0; s < RUN_DIFF_NSECTIONS; s++) {
		const struct keyed_diffs *sec = run_diff_section(d, s);

		/* A section neither run has anything in says nothing. */
		if (!sec->a && !sec->b && !sec->n)
			continue;
		fprintf(f, "  %s: %lld -> %lld\n", run_diff_section_names[s], (long long)sec->a, (long long)sec->b);
		for (size_t i = 0; i < sec->n; i++)
			fprintf(f, "    %5lld -> %-5lld %s\n", (long long)sec->v[i].a, (long long)sec->v[i].b,
				sec->v[i].key);
	}
	print_compiles(f, d);
}

static json_t *strv_json(char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, pt_json_str(v[i]));
	return a;
}

static json_t *id_json(const struct tt_diff_id *v)
{
	json_t *o = json_object();

	json_object_set_new(o, "rank", pt_json_int_known(v->rank));
	json_object_set_new(o, "compile_id", json_string(v->compile_id));
	json_object_set_new(o, "occurrence", json_integer(v->occurrence));
	json_object_set_new(o, "who", v->who[0] ? pt_json_str(v->who) : json_null());
	json_object_set_new(o, "name", pt_json_str(v->name));
	json_object_set_new(o, "location", pt_json_str(v->location));
	return o;
}

static json_t *pair(json_t *x, json_t *y)
{
	json_t *a = json_array();

	json_array_append_new(a, x);
	json_array_append_new(a, y);
	return a;
}

static json_t *reasons_json(const json_t *r)
{
	return r ? json_deep_copy(r) : json_null();
}

static json_t *match_json(const struct tt_diff_match *m)
{
	json_t *o = id_json(&m->id);

	json_object_set_new(o, "compile_id_b", json_string(m->compile_id_b));
	json_object_set_new(o, "occurrence_b", json_integer(m->occurrence_b));
	if (m->graph_changed)
		json_object_set_new(o, "graph_changed", json_true());
	if (m->changed & (1u << TT_DIFF_STATUS))
		json_object_set_new(o, "status", pair(json_string(m->status[0]), json_string(m->status[1])));
	if (m->changed & (1u << TT_DIFF_GRAPHS))
		json_object_set_new(o, "graphs", pair(json_integer(m->graphs[0]), json_integer(m->graphs[1])));
	if (m->changed & (1u << TT_DIFF_OPS))
		json_object_set_new(o, "ops", pair(pt_json_int_known(m->ops[0]), pt_json_int_known(m->ops[1])));
	if (m->changed & (1u << TT_DIFF_GUARDS))
		json_object_set_new(o, "guards", pair(pt_json_int_known(m->guards[0]), pt_json_int_known(m->guards[1])));
	if (m->changed & (1u << TT_DIFF_RESTART_REASONS))
		json_object_set_new(o, "restart_reasons",
				    pair(reasons_json(m->restart_reasons[0]), reasons_json(m->restart_reasons[1])));
	/* Time always reported for matched compiles: it is what users compare. */
	json_object_set_new(o, "changed", json_boolean(run_diff_changed(m)));
	json_object_set_new(o, "entire_frame_compile_time_s",
			    pair(pt_json_num_known(m->t_entire[0]), pt_json_num_known(m->t_entire[1])));
	return o;
}

static json_t *compiles_json(const struct run_diff *d)
{
	const struct tt_diff *tc = &d->compiles;
	json_t *o = json_object(), *added = json_array(), *removed = json_array(), *matched = json_array();
	json_t *rr = json_object();

	for (size_t i = 0; i < tc->nadded; i++)
		json_array_append_new(added, id_json(&tc->added[i]));
	for (size_t i = 0; i < tc->nremoved; i++)
		json_array_append_new(removed, id_json(&tc->removed[i]));
	for (size_t i = 0; i < tc->nmatched; i++)
		json_array_append_new(matched, match_json(&tc->matched[i]));
	if (tc->have_reasons) {
		json_object_set_new(rr, "a", strv_json(tc->reasons_a, tc->nreasons_a));
		json_object_set_new(rr, "b", strv_json(tc->reasons_b, tc->nreasons_b));
	}
	json_object_set_new(o, "differ", json_boolean(tc->differ));
	json_object_set_new(o, "compiles_a", json_integer((json_int_t)tc->compiles_a));
	json_object_set_new(o, "compiles_b", json_integer((json_int_t)tc->compiles_b));
	json_object_set_new(o, "added", added);
	json_object_set_new(o, "removed", removed);
	json_object_set_new(o, "matched", matched);
	json_object_set_new(o, "recompile_reasons", rr);
	json_object_set_new(o, "recompile_reasons_only",
			    json_pack("{s:o,s:o}", "a", strv_json(d->reasons_only_a, d->nreasons_only_a),
				      "b", strv_json(d->reasons_only_b, d->nreasons_only_b)));
	return o;
}

static json_t *section_json(const struct keyed_diffs *sec)
{
	json_t *o = json_object(), *diffs = json_array();

	for (size_t i = 0; i < sec->n; i++) {
		json_t *v = json_object();

		json_object_set_new(v, "key", pt_json_str(sec->v[i].key));
		json_object_set_new(v, "a", json_integer((json_int_t)sec->v[i].a));
		json_object_set_new(v, "b", json_integer((json_int_t)sec->v[i].b));
		json_array_append_new(diffs, v);
	}
	json_object_set_new(o, "a", json_integer((json_int_t)sec->a));
	json_object_set_new(o, "b", json_integer((json_int_t)sec->b));
	json_object_set_new(o, "differences", diffs);
	return o;
}

json_t *render_rundiff_json(const struct run_diff *d)
{
	json_t *doc = json_object(), *st = json_object();

	json_object_set_new(doc, "a", json_integer((json_int_t)d->a));
	json_object_set_new(doc, "b", json_integer((json_int_t)d->b));
	json_object_set_new(st, "a", pt_json_str(d->status_a));
	json_object_set_new(st, "b", pt_json_str(d->status_b));
	json_object_set_new(doc, "status", st);
	for (int s = 0; s < RUN_DIFF_NSECTIONS; s++)
		json_object_set_new(doc, run_diff_section_names[s], section_json(run_diff_section(d, s)));
	json_object_set_new(doc, "compiles", compiles_json(d));
	json_object_set_new(doc, "differ", json_boolean(d->differ));
	return doc;
}
