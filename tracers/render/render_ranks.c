/* `pttrace ranks` as text and JSON; see render_ranks.h. */
#include "render_ranks.h"

#include <string.h>

#include "jsonout.h"
#include "strbuf.h"

static const char *label(const struct tt_ranks_result *r, size_t m)
{
	return r->members[m].label;
}

/* --- text --- */

static void labels_text(FILE *f, const struct tt_ranks_result *r, const size_t *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? ", " : "", label(r, m[i]));
}

static int short_seq(const char *seq)
{
	return strlen(seq) <= 60 && !strchr(seq, '\n');
}

/* A check that groups members: "same in every rank" or the groups. */
static void groups_text(FILE *f, const struct tt_ranks_result *r, const char *title, const char *unit,
			const struct tt_ranks_grouping *c, int color)
{
	fprintf(f, "%s: ", title);
	if (c->members_with_data < 2) {
		fprintf(f, "not compared (%ld rank%s with data)\n", c->members_with_data, PT_PLURAL(c->members_with_data));
		return;
	}
	if (!c->diverge) {
		const char *seq = c->ngroups ? c->groups[0].sequence : NULL;

		if (seq && *seq && short_seq(seq))
			fprintf(f, "same in every rank (%s)\n", seq);
		else
			fprintf(f, "same in every rank (%ld %s)\n", c->ngroups ? c->groups[0].items : 0, unit);
		return;
	}
	fprintf(f, "%s%zu groups%s\n", pt_c(color, PT_C_YELLOW), c->ngroups, pt_c(color, PT_C_RESET));
	for (size_t i = 0; i < c->ngroups; i++) {
		const struct tt_ranks_group *g = &c->groups[i];

		fputs("  ", f);
		labels_text(f, r, g->members, g->nmembers);
		if (!*g->sequence)
			fputs(": none\n", f);
		else if (short_seq(g->sequence))
			fprintf(f, ": %s\n", g->sequence);
		else
			fprintf(f, ": %ld %s\n", g->items, unit);
		if (g->differs == 1 && !strchr(g->here, '{'))
			fprintf(f, "    differs from the first group at %.*s %ld: %.60s, not %.60s\n", (int)strlen(unit) - 1,
				unit, g->index, *g->here ? g->here : "(end)", *g->first_group ? g->first_group : "(end)");
		else if (g->differs == 1)
			fprintf(f, "    differs from the first group at %.*s %ld\n", (int)strlen(unit) - 1, unit, g->index);
	}
}

static void parity_text(FILE *f, const struct tt_ranks_result *r, int color)
{
	const struct tt_ranks_parity *c = &r->collectives_parity;

	fprintf(f, "collectives parity: %ld graphs checked", c->graphs_checked);
	if (!c->ngraphs) {
		fputs(", schedules and output code agree\n", f);
		return;
	}
	fprintf(f, ", %s%zu differ%s\n", pt_c(color, PT_C_YELLOW), c->ngraphs, pt_c(color, PT_C_RESET));
	for (size_t i = 0; i < c->ngraphs; i++) {
		const struct tt_ranks_parity_graph *g = &c->graphs[i];

		fprintf(f, "  %s %s %s: schedule and code differ by %ld collective%s, %ld call%s without a wait\n",
			label(r, g->member), g->compile_id, g->graph, g->offset, PT_PLURAL(g->offset), g->missing_waits,
			PT_PLURAL(g->missing_waits));
	}
}

static void members_text(FILE *f, const struct tt_ranks_result *r, int color)
{
	fprintf(f, "%-8s %5s %9s %8s %8s %6s %6s  %s\n", "process", "rank", "pid", "records", "compiles", "graphs",
		"failed", "file");
	for (size_t i = 0; i < r->nmembers; i++) {
		const struct tt_ranks_member *m = &r->members[i];
		char rk[24] = "-", pid[24] = "-";

		if (m->rank >= 0)
			pt_fmt_trunc(rk, sizeof(rk), "%lld", (long long)m->rank);
		if (m->pid >= 0)
			pt_fmt_trunc(pid, sizeof(pid), "%lld", (long long)m->pid);
		fprintf(f, "%-8s %5s %9s %8lld %8ld %6ld %6ld  %s\n", m->label, rk, pid, (long long)m->records,
			m->compiles, m->graphs, m->failed, m->path ? m->path : "");
		if (m->rank_conflict)
			fprintf(f, "         %sconflict:%s %s\n", pt_c(color, PT_C_YELLOW), pt_c(color, PT_C_RESET),
				m->rank_conflict);
	}
	for (size_t i = 0; i < r->nempty; i++)
		fprintf(f, "%-8s %5s %9s %8d %8s %6s %6s  %s (no records, not compared)\n", "-", "-", "-", 0, "-", "-",
			"-", r->empty_files[i]);
}

static void runtime_text(FILE *f, const struct tt_ranks_result *r, int color)
{
	const struct tt_ranks_runtime *c = &r->runtime;

	fputs("runtime estimates: ", f);
	if (c->mismatched_graph_counts) {
		fprintf(f, "%sranks estimated different numbers of graphs%s\n", pt_c(color, PT_C_YELLOW),
			pt_c(color, PT_C_RESET));
		return;
	}
	if (c->members_with_data < 2) {
		fprintf(f, "not compared (%ld ranks with data)\n", c->members_with_data);
		return;
	}
	fprintf(f, "%zu graphs\n", c->ngraphs);
	for (size_t i = 0; i < c->ngraphs; i++) {
		const struct tt_ranks_runtime_graph *g = &c->graphs[i];

		if (g->delta_ms == 0)
			fprintf(f, "  %s: %.3f ms in every rank\n", g->graph, g->fastest_ms);
		else
			fprintf(f, "  %s: delta %.3f ms (%s %.3f ms, %s %.3f ms)\n", g->graph, g->delta_ms,
				label(r, g->fastest), g->fastest_ms, label(r, g->slowest), g->slowest_ms);
	}
}

static void exec_order_text(FILE *f, const struct tt_ranks_result *r, int color)
{
	const struct tt_ranks_exec_order *c = &r->execution_order;

	fputs("graph execution order: ", f);
	if (c->members_with_data < 2) {
		fprintf(f, "not compared (%ld ranks with data)\n", c->members_with_data);
		return;
	}
	if (!c->diverge) {
		fprintf(f, "the same in every rank (%zu graphs)\n", c->nrows);
		return;
	}
	fprintf(f, "%s%s%s\n", pt_c(color, PT_C_YELLOW), c->order_differs ? "differs" : "same order, different graphs",
		pt_c(color, PT_C_RESET));
	for (size_t i = 0; i < c->nrows; i++) {
		const struct tt_ranks_exec_row *row = &c->rows[i];

		fprintf(f, "  %ld:", row->index);
		for (size_t k = 0; k < row->ncells; k++)
			fprintf(f, " %s %s", label(r, row->cells[k].member), row->cells[k].compile_id);
		if (row->schedule)
			fputs("; schedule mismatch", f);
		if (row->cache)
			fprintf(f, "%scache mismatch", row->schedule ? ", " : "; ");
		fputc('\n', f);
	}
}

void render_ranks_text(FILE *f, const struct tt_ranks_result *r, const struct pt_style *st)
{
	const struct tt_ranks_compile_ids *ci = &r->compile_ids;
	int color = st->color;

	members_text(f, r, color);
	if (r->nmembers < 2) {
		/* One process: nothing to compare; the parity of its graphs still counts. */
		fprintf(f, "\n%s\n", r->nmembers ? "one process: nothing to compare across ranks" : "no TORCH_TRACE records");
		if (r->nmembers)
			parity_text(f, r, color);
		return;
	}
	fprintf(f, "\ncompared with %s:\n", label(r, 0));
	if (!ci->diverge) {
		fputs("compile ids: all ranks compiled the same compile ids in the same order\n", f);
	} else {
		fprintf(f, "compile ids: %s%zu differences%s\n", pt_c(color, PT_C_YELLOW), ci->ndetails,
			pt_c(color, PT_C_RESET));
		for (size_t i = 0; i < ci->ndetails; i++) {
			/* The rest is in --json; a terminal wants the first few. */
			if (i == 20) {
				fprintf(f, "  ... %zu more (--json lists all)\n", ci->ndetails - 20);
				break;
			}
			fprintf(f, "  %s\n", ci->details[i]);
		}
	}
	groups_text(f, r, "cache hit/miss", "artifacts", &r->cache, color);
	groups_text(f, r, "collective schedules", "ops", &r->collective_schedule.g, color);
	groups_text(f, r, "tensor meta", "graphs", &r->tensor_meta, color);
	runtime_text(f, r, color);
	exec_order_text(f, r, color);
	parity_text(f, r, color);
}

/* --- JSON --- */

static json_t *labels_json(const struct tt_ranks_result *r, const size_t *m, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(label(r, m[i])));
	return a;
}

static json_t *strings_json(char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *grouping_json(const struct tt_ranks_result *r, const struct tt_ranks_grouping *c)
{
	json_t *o = json_object(), *groups = json_array();

	for (size_t i = 0; i < c->ngroups; i++) {
		const struct tt_ranks_group *g = &c->groups[i];
		json_t *j = json_pack("{s:s, s:o, s:I}", "sequence", g->sequence, "ranks",
				      labels_json(r, g->members, g->nmembers), "items", (json_int_t)g->items);

		if (g->differs == 1)
			json_object_set_new(j, "differs_at", json_pack("{s:I, s:s, s:s}", "index", (json_int_t)g->index,
								       "here", g->here, "first_group", g->first_group));
		else if (g->differs == -1)
			json_object_set_new(j, "differs_at", json_null());
		json_array_append_new(groups, j);
	}
	json_object_set_new(o, "diverge", json_boolean(c->diverge));
	json_object_set_new(o, "members_with_data", json_integer((json_int_t)c->members_with_data));
	json_object_set_new(o, "groups", groups);
	return o;
}

static json_t *schedules_json(const struct tt_ranks_result *r)
{
	const struct tt_ranks_schedules *c = &r->collective_schedule;
	json_t *o = grouping_json(r, &c->g), *list = json_array();

	for (size_t i = 0; i < c->nschedules; i++) {
		const struct tt_ranks_schedule *s = &c->schedules[i];

		json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:o}", "rank", label(r, s->member), "graph",
						      s->graph, "compile_id", s->compile_id, "ops",
						      strings_json(s->ops, s->nops)));
	}
	json_object_set_new(o, "schedules", list);
	return o;
}

static json_t *runtime_json(const struct tt_ranks_result *r)
{
	const struct tt_ranks_runtime *c = &r->runtime;
	json_t *o = json_object(), *graphs = json_array();

	for (size_t i = 0; i < c->ngraphs; i++) {
		const struct tt_ranks_runtime_graph *g = &c->graphs[i];

		json_array_append_new(graphs, json_pack("{s:s, s:f, s:{s:s, s:f}, s:{s:s, s:f}}", "graph", g->graph,
							"delta_ms", g->delta_ms, "fastest", "rank", label(r, g->fastest),
							"runtime_ms", g->fastest_ms, "slowest", "rank",
							label(r, g->slowest), "runtime_ms", g->slowest_ms));
	}
	json_object_set_new(o, "members_with_data", json_integer((json_int_t)c->members_with_data));
	json_object_set_new(o, "mismatched_graph_counts", json_boolean(c->mismatched_graph_counts));
	json_object_set_new(o, "graphs", graphs);
	json_object_set_new(o, "diverge", json_boolean(c->diverge));
	return o;
}

static json_t *exec_order_json(const struct tt_ranks_result *r)
{
	const struct tt_ranks_exec_order *c = &r->execution_order;
	json_t *o = json_object(), *rows = json_array();

	for (size_t i = 0; i < c->nrows; i++) {
		const struct tt_ranks_exec_row *row = &c->rows[i];
		json_t *by = json_object(), *issues = json_array();

		for (size_t k = 0; k < row->ncells; k++)
			json_object_set_new(by, label(r, row->cells[k].member), json_string(row->cells[k].compile_id));
		if (row->schedule)
			json_array_append_new(issues, json_string("schedule"));
		if (row->cache)
			json_array_append_new(issues, json_string("cache"));
		json_array_append_new(rows, json_pack("{s:I, s:o, s:o}", "index", (json_int_t)row->index, "by_rank", by,
						      "issues", issues));
	}
	json_object_set_new(o, "members_with_data", json_integer((json_int_t)c->members_with_data));
	json_object_set_new(o, "order_differs", json_boolean(c->order_differs));
	json_object_set_new(o, "schedule_mismatch", labels_json(r, c->schedule_mismatch, c->nschedule_mismatch));
	json_object_set_new(o, "cache_mismatch", labels_json(r, c->cache_mismatch, c->ncache_mismatch));
	json_object_set_new(o, "diverge", json_boolean(c->diverge));
	json_object_set_new(o, "rows", rows);
	return o;
}

static json_t *parity_json(const struct tt_ranks_result *r)
{
	const struct tt_ranks_parity *c = &r->collectives_parity;
	json_t *graphs = json_array();

	for (size_t i = 0; i < c->ngraphs; i++) {
		const struct tt_ranks_parity_graph *g = &c->graphs[i];

		json_array_append_new(graphs, json_pack("{s:s, s:s, s:s, s:I, s:I}", "rank", label(r, g->member), "graph",
							g->graph, "compile_id", g->compile_id, "offset",
							(json_int_t)g->offset, "missing_waits", (json_int_t)g->missing_waits));
	}
	return json_pack("{s:b, s:I, s:o}", "diverge", c->diverge, "graphs_checked", (json_int_t)c->graphs_checked,
			 "graphs", graphs);
}

const char *render_ranks_check_name(enum tt_ranks_check c)
{
	static const char *const names[TT_RANKS_NCHECKS] = {
		[TT_RANKS_COMPILE_IDS] = "compile_ids", [TT_RANKS_CACHE] = "cache",
		[TT_RANKS_COLLECTIVE_SCHEDULE] = "collective_schedule", [TT_RANKS_TENSOR_META] = "tensor_meta",
		[TT_RANKS_RUNTIME] = "runtime", [TT_RANKS_EXECUTION_ORDER] = "execution_order",
		[TT_RANKS_COLLECTIVES_PARITY] = "collectives_parity",
	};

	return (unsigned)c < TT_RANKS_NCHECKS ? names[c] : "";
}

json_t *render_ranks_check_json(const struct tt_ranks_result *r, enum tt_ranks_check c)
{
	switch (c) {
	case TT_RANKS_COMPILE_IDS:
		return json_pack("{s:b, s:o}", "diverge", r->compile_ids.diverge, "details",
				 strings_json(r->compile_ids.details, r->compile_ids.ndetails));
	case TT_RANKS_CACHE:
		return grouping_json(r, &r->cache);
	case TT_RANKS_COLLECTIVE_SCHEDULE:
		return schedules_json(r);
	case TT_RANKS_TENSOR_META:
		return grouping_json(r, &r->tensor_meta);
	case TT_RANKS_RUNTIME:
		return runtime_json(r);
	case TT_RANKS_EXECUTION_ORDER:
		return exec_order_json(r);
	case TT_RANKS_COLLECTIVES_PARITY:
		return parity_json(r);
	default:
		return json_null();
	}
}

json_t *render_ranks_json(const struct tt_ranks_result *r)
{
	json_t *o = json_object(), *members = json_array(), *empty = json_array(), *checks = json_object();

	for (size_t i = 0; i < r->nmembers; i++) {
		const struct tt_ranks_member *m = &r->members[i];
		json_t *j = json_object();

		json_object_set_new(j, "label", json_string(m->label));
		json_object_set_new(j, "rank", m->rank >= 0 ? json_integer(m->rank) : json_null());
		json_object_set_new(j, "process", json_integer(m->process));
		json_object_set_new(j, "path", json_string(m->path));
		json_object_set_new(j, "pid", m->pid >= 0 ? json_integer(m->pid) : json_null());
		json_object_set_new(j, "records", json_integer(m->records));
		json_object_set_new(j, "rank_conflict", m->rank_conflict ? json_string(m->rank_conflict) : json_null());
		json_object_set_new(j, "compiles", json_integer(m->compiles));
		json_object_set_new(j, "graphs", json_integer(m->graphs));
		json_object_set_new(j, "failed", json_integer(m->failed));
		json_array_append_new(members, j);
	}
	for (size_t i = 0; i < r->nempty; i++)
		json_array_append_new(empty, json_pack("{s:o}", "path",
						       pt_json_strn_lossy(r->empty_files[i], strlen(r->empty_files[i]))));
	for (int c = 0; c < TT_RANKS_NCHECKS; c++)
		json_object_set_new(checks, render_ranks_check_name(c), render_ranks_check_json(r, c));
	json_object_set_new(o, "divergences", strings_json(r->divergences, r->ndivergences));
	/* "ranks": the members under the name the first version of `ranks --json` used. */
	json_object_set_new(o, "ranks", json_incref(members));
	json_object_set_new(o, "members", members);
	json_object_set_new(o, "empty_files", empty);
	json_object_set_new(o, "reference", r->nmembers ? json_string(label(r, 0)) : json_null());
	json_object_set_new(o, "checks", checks);
	json_object_set_new(o, "diverge", json_boolean(r->diverge));
	return o;
}
