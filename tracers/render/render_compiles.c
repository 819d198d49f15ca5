/* The compile-level views of a run's TORCH_TRACE as text and JSON; see render_compiles.h. */
#include "render_compiles.h"

#include <string.h>

#include "jsonout.h"
#include "strbuf.h"

static void fmt_time(char *buf, size_t n, double s)
{
	if (s < 0)
		pt_fmt_trunc(buf, n, "-");
	else
		pt_fmt_trunc(buf, n, "%.3f", s);
}

static void fmt_int(char *buf, size_t n, int64_t v)
{
	if (v < 0)
		pt_fmt_trunc(buf, n, "-");
	else
		pt_fmt_trunc(buf, n, "%lld", (long long)v);
}

static void compile_text(FILE *f, const struct tt_compile *c, int color)
{
	char id[COMPILEID_MAX], t[32], rank[40] = "", ops[24], guards[24];
	const char *col = !strcmp(c->status, "ok") || !strcmp(c->status, "empty") ? PT_C_GREEN
			  : !strcmp(c->status, "failed") ? PT_C_RED : PT_C_YELLOW;

	compileid_format(&c->cid, id, sizeof(id));
	fmt_time(t, sizeof(t), c->t_entire);
	if (c->label[0])
		pt_fmt_trunc(rank, sizeof(rank), "%s ", c->label);
	else if (c->rank >= 0)
		pt_fmt_trunc(rank, sizeof(rank), "rank %lld ", (long long)c->rank);
	if (c->occurrence > 1)
		pt_fmt_trunc(id + strlen(id), sizeof(id) - strlen(id), " #%d", c->occurrence);
	fprintf(f, "%s[%s] %s%-9s%s", rank, id, pt_c(color, col), c->status, pt_c(color, PT_C_RESET));
	fprintf(f, " %s", c->co_name ? c->co_name : "?");
	if (c->co_filename)
		fprintf(f, " %s:%lld", c->co_filename, (long long)c->co_firstlineno);
	fmt_int(ops, sizeof(ops), c->op_count);
	fmt_int(guards, sizeof(guards), c->guard_count);
	fprintf(f, "\n    graphs %ld, ops %s, guards %s, %s s", c->graphs, ops, guards, t);
	if (c->t_backend >= 0)
		fprintf(f, " (backend %.3f s)", c->t_backend);
	if (c->cache)
		fprintf(f, ", cache %s", c->cache);
	fprintf(f, "\n");
	if (c->fail_type)
		fprintf(f, "    failed: %s: %s\n", c->fail_type, c->fail_reason ? c->fail_reason : "");
	{
		size_t k;
		json_t *r;

		json_array_foreach(c->restart_reasons, k, r)
			fprintf(f, "    restart: %s\n", json_is_string(r) ? json_string_value(r) : "?");
	}
	if (c->narts) {
		fprintf(f, "    artifacts:");
		for (size_t i = 0; i < c->narts; i++)
			if (c->arts[i].n > 1)
				fprintf(f, " %s(%ld)", c->arts[i].kind, c->arts[i].n);
			else
				fprintf(f, " %s", c->arts[i].kind);
		fprintf(f, "\n");
	}
}

void render_compiles_text(FILE *f, const struct tt_compiles *cs, const struct pt_style *st)
{
	for (size_t i = 0; i < cs->n; i++)
		compile_text(f, &cs->v[i], st->color);
	if (!cs->n)
		fprintf(f, "no compiles (the run has no TORCH_TRACE records with compile ids)\n");
}

static json_t *compile_json(const struct tt_compile *c)
{
	char id[COMPILEID_MAX], dir[COMPILEID_MAX];
	json_t *o = json_object(), *arts = json_object();

	compileid_format(&c->cid, id, sizeof(id));
	compileid_format_dir(&c->cid, dir, sizeof(dir));
	json_object_set_new(o, "rank", pt_json_int_known(c->rank));
	json_object_set_new(o, "process", json_integer(c->process));
	json_object_set_new(o, "who", c->label[0] ? json_string(c->label) : json_null());
	json_object_set_new(o, "compile_id", json_string(id));
	json_object_set_new(o, "occurrence", json_integer(c->occurrence));
	json_object_set_new(o, "tlparse_dir", json_string(dir));
	json_object_set_new(o, "name", pt_json_str(c->co_name));
	json_object_set_new(o, "file", pt_json_str(c->co_filename));
	json_object_set_new(o, "line", pt_json_int_known(c->co_firstlineno));
	json_object_set_new(o, "status", json_string(c->status));
	json_object_set_new(o, "cache", pt_json_str(c->cache));
	json_object_set_new(o, "graphs", json_integer(c->graphs));
	json_object_set_new(o, "ops", pt_json_int_known(c->op_count));
	json_object_set_new(o, "guards", pt_json_int_known(c->guard_count));
	json_object_set_new(o, "entire_frame_compile_time_s", pt_json_num_known(c->t_entire));
	json_object_set_new(o, "backend_compile_time_s", pt_json_num_known(c->t_backend));
	json_object_set_new(o, "inductor_compile_time_s", pt_json_num_known(c->t_inductor));
	json_object_set_new(o, "fail_type", pt_json_str(c->fail_type));
	json_object_set_new(o, "fail_reason", pt_json_str(c->fail_reason));
	json_object_set_new(o, "restart_reasons", c->restart_reasons ? json_incref(c->restart_reasons) : json_array());
	for (size_t i = 0; i < c->narts; i++)
		json_object_set_new(arts, c->arts[i].kind, json_integer(c->arts[i].n));
	json_object_set_new(o, "artifacts", arts);
	json_object_set_new(o, "stack", c->stack ? json_incref(c->stack) : json_array());
	return o;
}

json_t *render_compiles_json(const struct tt_compiles *cs)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < cs->n; i++)
		json_array_append_new(arr, compile_json(&cs->v[i]));
	return arr;
}

void render_events_text(FILE *f, const struct tt_events *ev, bool recompiles, const struct pt_style *st)
{
	for (size_t i = 0; i < ev->n; i++) {
		const struct tt_event *e = &ev->v[i];
		char id[COMPILEID_MAX];

		compileid_format(&e->cid, id, sizeof(id));
		if (e->who[0])
			fprintf(f, "%s ", e->who);
		else if (e->rank >= 0)
			fprintf(f, "rank %lld ", (long long)e->rank);
		fprintf(f, "%s[%s]%s", pt_c(st->color, PT_C_BOLD), id, pt_c(st->color, PT_C_RESET));
		if (recompiles)
			fprintf(f, " guard of [%s] failed: %s\n", e->prev ? e->prev : "?", e->what ? e->what : "?");
		else
			fprintf(f, " %s\n", e->what ? e->what : "?");
		if (e->where)
			fprintf(f, "    at %s\n", e->where);
	}
	if (!ev->n)
		fprintf(f, "no %s\n", recompiles ? "recompiles" : "graph breaks");
}

json_t *render_events_json(const struct tt_events *ev, bool recompiles)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < ev->n; i++) {
		const struct tt_event *e = &ev->v[i];
		char id[COMPILEID_MAX];
		json_t *o = json_object();

		compileid_format(&e->cid, id, sizeof(id));
		json_object_set_new(o, "rank", e->rank >= 0 ? json_integer(e->rank) : json_null());
		json_object_set_new(o, "who", e->who[0] ? json_string(e->who) : json_null());
		json_object_set_new(o, "compile_id", json_string(id));
		if (recompiles)
			json_object_set_new(o, "guard_of", pt_json_str(e->prev));
		json_object_set_new(o, recompiles ? "failed_guard" : "reason", pt_json_str(e->what));
		json_object_set_new(o, "where", pt_json_str(e->where));
		json_array_append_new(arr, o);
	}
	return arr;
}

void render_event_groups_text(FILE *f, const struct tt_event_groups *g, const struct pt_style *st)
{
	for (size_t i = 0; i < g->n; i++) {
		const struct tt_event_group *e = &g->v[i];

		fprintf(f, "%s%ldx%s %s\n", pt_c(st->color, PT_C_BOLD), e->count, pt_c(st->color, PT_C_RESET),
			e->what ? e->what : "?");
		if (e->where)
			fprintf(f, "    at %s\n", e->where);
		fprintf(f, "    in");
		for (long k = 0; k < e->count; k++) {
			if (k == 12) {
				fprintf(f, " ... %ld more", e->count - 12);
				break;
			}
			fprintf(f, "%s [%s]", k ? "," : "", e->ids[k]);
		}
		if (e->n_ranks) {
			fprintf(f, " (rank%s", e->n_ranks > 1 ? "s" : "");
			for (size_t k = 0; k < e->n_ranks; k++)
				fprintf(f, "%s %lld", k ? "," : "", (long long)e->ranks[k]);
			fprintf(f, ")");
		}
		fputc('\n', f);
	}
}

json_t *render_event_groups_json(const struct tt_event_groups *g)
{
	json_t *out = json_array();

	for (size_t i = 0; i < g->n; i++) {
		const struct tt_event_group *e = &g->v[i];
		json_t *ids = json_array(), *ranks = json_array();

		for (long k = 0; k < e->count; k++)
			json_array_append_new(ids, json_string(e->ids[k]));
		for (size_t k = 0; k < e->n_ranks; k++)
			json_array_append_new(ranks, json_integer(e->ranks[k]));
		json_array_append_new(out, json_pack("{s:o, s:o, s:I, s:o, s:o}", "reason", pt_json_str(e->what),
						     "where", pt_json_str(e->where), "count", (json_int_t)e->count,
						     "compile_ids", ids, "ranks", ranks));
	}
	return out;
}
