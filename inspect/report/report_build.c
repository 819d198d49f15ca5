/* Text and JSON of `ptinspect build`; see report_build.h. */
#include "report_build.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "jsonout.h"
#include "strbuf.h"
#include "term.h"
#include "report_elf.h"

#define SHORT_N 5

const char *report_duration(char *buf, size_t n, uint64_t ms)
{
	if (ms < 60000)
		pt_fmt_trunc(buf, n, "%" PRIu64 ".%" PRIu64 " s", ms / 1000, (ms % 1000) / 100);
	else if (ms < 3600000)
		pt_fmt_trunc(buf, n, "%" PRIu64 " min %02" PRIu64 " s", ms / 60000, (ms / 1000) % 60);
	else
		pt_fmt_trunc(buf, n, "%" PRIu64 " h %02" PRIu64 " min", ms / 3600000, (ms / 60000) % 60);
	return buf;
}

static void field_line(FILE *f, const char *name, const char *value, const char *env, int c)
{
	fprintf(f, "  %-22s %s", name, value && *value ? value : value ? "(empty)" : "(not in the cache)");
	if (env)
		fprintf(f, "  %s<- %s%s", pt_c(c, PT_C_DIM), env, pt_c(c, PT_C_RESET));
	fputc('\n', f);
}

static void options_line(FILE *f, const struct build_config *cfg, int on, int c, int details)
{
	size_t shown = 0, n = 0, col = 25;

	for (size_t i = 0; i < cfg->n; i++)
		if (!strcmp(cfg->v[i].group, "options") && !strncmp(cfg->v[i].name, "USE_", 4) &&
		    cfg->v[i].value && cmake_is_true(cfg->v[i].value) == on)
			n++;
	fprintf(f, "  %-22s %s%zu%s:", on ? "USE_* on" : "USE_* off", pt_c(c, on ? PT_C_GREEN : PT_C_DIM), n,
		pt_c(c, PT_C_RESET));
	for (size_t i = 0; i < cfg->n; i++) {
		const struct build_field *fl = &cfg->v[i];

		if (strcmp(fl->group, "options") || strncmp(fl->name, "USE_", 4) || !fl->value ||
		    cmake_is_true(fl->value) != on)
			continue;
		if (!details && shown == 12) {
			fprintf(f, " ... (--details)");
			break;
		}
		if (col + strlen(fl->name) + 1 > 100) {
			fprintf(f, "\n%25s", "");
			col = 25;
		}
		fprintf(f, " %s", fl->name + 4);
		col += strlen(fl->name + 4) + 1;
		shown++;
	}
	fputc('\n', f);
}

static const struct build_field *find(const struct build_config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->n; i++)
		if (!strcmp(cfg->v[i].name, name))
			return &cfg->v[i];
	return NULL;
}

static void edge_list(FILE *f, const char *title, const struct build_edge_time *v, size_t n, size_t max)
{
	char d[32];

	for (size_t i = 0; i < n && i < max; i++)
		fprintf(f, "  %-22s %10s  %s\n", i ? "" : title, report_duration(d, sizeof(d), v[i].ms), v[i].output);
}

static void group_list(FILE *f, const char *title, const struct build_group_time *v, size_t n, size_t max)
{
	char d[32];

	for (size_t i = 0; i < n && i < max; i++)
		fprintf(f, "  %-22s %10s  %s (%zu edge%s)\n", i ? "" : title, report_duration(d, sizeof(d), v[i].ms),
			v[i].name, v[i].edges, PT_PLURAL(v[i].edges));
}


/* "2,913". */
static const char *count_str(char *buf, size_t n, size_t v)
{
	char tmp[32];
	size_t len, w = 0;

	pt_fmt_trunc(tmp, sizeof(tmp), "%zu", v);
	len = strlen(tmp);
	for (size_t i = 0; i < len && w + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[w++] = ',';
		buf[w++] = tmp[i];
	}
	buf[w] = '\0';
	return buf;
}

/* "a, b, c" then " ... N more" past max, on the rest of a line. */
static void name_list(FILE *f, const char *const *v, size_t n, size_t max)
{
	for (size_t i = 0; i < n && i < max; i++)
		fprintf(f, "%s%s", i ? ", " : "", v[i]);
	if (n > max)
		fprintf(f, ", ... %zu more", n - max);
}

static void since_text(FILE *f, const struct build_since *s, int details, int c)
{
	size_t max = details ? SIZE_MAX : 10, shown = 0, list = details ? SIZE_MAX : 3;
	const char *label = "inputs";
	char n1[32];

	for (size_t i = 0; i < s->n_causes; i++) {
		const struct since_cause *k = &s->causes[i];

		if (shown == max) {
			fprintf(f, "  %-22s ... %zu more changed inputs (--details)\n", "", s->n_causes - shown);
			break;
		}
		if (k->built && (i == 0 || !s->causes[i - 1].built))
			label = "knock-on";
		fprintf(f, "  %-22s %s%s%s %s -> %s %s%s", label, pt_c(c, k->built ? PT_C_RESET : PT_C_BOLD), k->shown,
			pt_c(c, PT_C_RESET), k->built ? "rebuilt" : "changed", count_str(n1, sizeof(n1), k->n),
			k->all_objects ? "object" : "output", PT_PLURAL(k->n));
		if (details || k->n <= 3) {
			fputs(": ", f);
			name_list(f, k->outputs, k->n, list);
		}
		fputc('\n', f);
		label = "";
		shown++;
	}
	if (s->n_several) {
		fprintf(f, "  %-22s several rebuilt inputs -> %s output%s: ", s->n_causes && s->causes[s->n_causes - 1].built ? "" : "knock-on",
			count_str(n1, sizeof(n1), s->n_several), PT_PLURAL(s->n_several));
		name_list(f, s->several, s->n_several, list);
		fputc('\n', f);
	}
	if (s->n_unexplained) {
		fprintf(f, "  %-22s %s output%s (deleted, or its previous build was cut short): ", "no newer input",
			count_str(n1, sizeof(n1), s->n_unexplained), PT_PLURAL(s->n_unexplained));
		name_list(f, s->unexplained, s->n_unexplained, list);
		fputc('\n', f);
	}
	if (s->n_new) {
		fprintf(f, "  %-22s %s output%s: ", "new", count_str(n1, sizeof(n1), s->n_new), PT_PLURAL(s->n_new));
		name_list(f, s->new_outputs, s->n_new, list);
		fputc('\n', f);
	}
	if (s->n_commands) {
		fprintf(f, "  %-22s %s output%s", "command changed", count_str(n1, sizeof(n1), s->n_commands),
			PT_PLURAL(s->n_commands));
		if (details || s->n_commands <= 3) {
			fputs(": ", f);
			for (size_t i = 0; i < s->n_commands; i++)
				fprintf(f, "%s%s", i ? ", " : "", s->commands[i].output);
		} else {
			fputs(", by target:", f);
		}
		for (size_t i = 0, shown_t = 0; !details && s->n_commands > 3 && i < s->n_commands;) {
			size_t j = i;
			const char *tg = s->commands[i].target;

			while (j < s->n_commands && !strcmp(s->commands[j].target ? s->commands[j].target : "", tg ? tg : ""))
				j++;
			if (shown_t == 5) {
				fprintf(f, " ...");
				break;
			}
			fprintf(f, "%s %s %zu", shown_t ? "," : "", tg ? tg : "(custom commands)", j - i);
			shown_t++;
			i = j;
		}
		fputc('\n', f);
		/* Alike changes grouped: the flag diff against the recorded command (buildcmds.h). */
		for (size_t i = 0; i < s->n_cmd_groups; i++) {
			const struct since_cmd_group *g = &s->cmd_groups[i];

			fprintf(f, "  %-22s %s: %s %s%s", "", g->text, count_str(n1, sizeof(n1), g->n),
				g->all_objects ? "object" : "output", PT_PLURAL(g->n));
			fputs(": ", f);
			name_list(f, g->outputs, g->n, list);
			fputc('\n', f);
		}
	}
	if (s->n_pending) {
		fprintf(f, "  %-22s %s output%s whose build.ninja command changed after the last run (ninja rebuilds them next)\n",
			"command now", count_str(n1, sizeof(n1), s->n_pending_outputs), PT_PLURAL(s->n_pending_outputs));
		for (size_t i = 0; i < s->n_pending; i++) {
			const struct since_cmd_group *g = &s->pending[i];

			fprintf(f, "  %-22s %s: %s %s%s: ", "", g->text, count_str(n1, sizeof(n1), g->n),
				g->all_objects ? "object" : "output", PT_PLURAL(g->n));
			name_list(f, g->outputs, g->n, list);
			fputc('\n', f);
		}
	}
	if (!s->inputs_known && s->n_changed)
		fprintf(f, "  %-22s not known: no build.ninja, no .ninja_deps (%s output%s rebuilt for an input)\n", "inputs",
			count_str(n1, sizeof(n1), s->n_changed), PT_PLURAL(s->n_changed));
	else if (!s->have_deps && s->n_changed)
		fprintf(f, "  %-22s no .ninja_deps: only build.ninja's inputs looked at, not the depfiles' headers\n", "");
	if (s->uses_ccache) {
		const struct ccache_stats *cs = &s->ccache;
		uint64_t hits = cs->direct_hit + cs->preprocessed_hit;

		if (cs->ran) {
			char sz[32];

			fprintf(f, "  %-22s %.1f%% hit rate (%" PRIu64 " hit%s: %" PRIu64 " direct, %" PRIu64 " preprocessed; %" PRIu64
				" miss%s; %" PRIu64 " uncacheable), cache %s in %" PRIu64 " files\n", "ccache",
				hits + cs->miss ? 100.0 * (double)hits / (double)(hits + cs->miss) : 0.0, hits, hits == 1 ? "" : "s", cs->direct_hit,
				cs->preprocessed_hit, cs->miss, cs->miss == 1 ? "" : "es", cs->uncacheable,
				report_size(sz, sizeof(sz), (unsigned long long)cs->size_kib * 1024), cs->files);
			fprintf(f, "  %-22s %s\n", "",
				s->ccache_this_build	 ? "the last run's alone: the stats were zeroed after the build before it"
				: s->ccache_zeroed_after ? "not the last run's: the stats were zeroed after it began"
							 : "counted since the stats were last zeroed, before earlier builds too ('ccache -z' before a build counts that build alone)");
		} else {
			fprintf(f, "  %-22s the tree compiles through it (%s), but no figures\n", "ccache", s->ccache_how);
		}
	}
}

void report_build_text(FILE *f, const struct build_report *r, const struct pt_style *st)
{
	const struct buildtree *t = r->tree;
	const struct build_config *cfg = r->config;
	const struct build_profile *p = r->profile;
	int c = st ? st->color : 0;
	size_t max = r->details ? 25 : SHORT_N;
	char d[32], d2[32];

	fprintf(f, "%sbuild tree%s  %s\n", pt_c(c, PT_C_BOLD), pt_c(c, PT_C_RESET), t->dir);
	fprintf(f, "  files: CMakeCache.txt (%zu %s)", t->cache.n, t->cache.n == 1 ? "entry" : "entries");
	if (t->have_ninja)
		fprintf(f, ", build.ninja (%zu edge%s)", t->ninja.n_edges, PT_PLURAL(t->ninja.n_edges));
	if (t->have_log)
		fprintf(f, ", .ninja_log v%d (%zu records)", t->log.version, t->log.n);
	if (t->have_compdb)
		fprintf(f, ", compile_commands.json (%zu units)", t->compdb.n);
	fputc('\n', f);

	fprintf(f, "\n%sconfiguration%s\n", pt_c(c, PT_C_BOLD), pt_c(c, PT_C_RESET));
	for (size_t i = 0; i < cfg->n; i++) {
		const struct build_field *fl = &cfg->v[i];

		if (!strcmp(fl->group, "options"))
			continue;
		/* One screen: CUDA fields only when CUDA is on, empty lines only with --details. */
		if (!strcmp(fl->group, "cuda") && !r->details) {
			const struct build_field *u = find(cfg, "USE_CUDA");

			if (!u || !u->value || !cmake_is_true(u->value))
				continue;
		}
		if (!r->details && (!fl->value || !*fl->value))
			continue;
		field_line(f, fl->name, fl->value, r->details ? fl->env : NULL, c);
	}
	{
		const struct build_field *u = find(cfg, "USE_CUDA");

		if (!r->details && (!u || !u->value || !cmake_is_true(u->value)))
			fprintf(f, "  %-22s off (USE_CUDA=%s)\n", "CUDA", u && u->value ? u->value : "?");
	}
	options_line(f, cfg, 1, c, r->details);
	options_line(f, cfg, 0, c, r->details);

	if (r->check && r->check->n_libs) {
		fprintf(f, "\n%slibraries%s\n", pt_c(c, PT_C_BOLD), pt_c(c, PT_C_RESET));
		for (size_t i = 0; i < r->check->n_libs; i++) {
			const struct build_lib_check *l = &r->check->libs[i];
			const char *rel = strncmp(l->path, t->dir, strlen(t->dir)) ? l->path : l->path + strlen(t->dir) + 1;

			fprintf(f, "  %-22s DWARF %s", rel, l->dwarf ? "yes" : "no");
			if (l->runpath)
				fprintf(f, ", RUNPATH %s", l->runpath);
			else if (l->rpath)
				fprintf(f, ", RPATH %s", l->rpath);
			else
				fprintf(f, ", no RPATH/RUNPATH");
			if (l->dispatch_trace)
				fprintf(f, ", dispatch trace %s", l->dispatch_trace);
			if (l->cuda_arch_list)
				fprintf(f, ", CUDA %s", l->cuda_arch_list);
			if (l->older_than_inputs)
				fprintf(f, ", %sSTALE%s (older than %s)", pt_c(c, PT_C_RED), pt_c(c, PT_C_RESET), l->newer_input);
			fputc('\n', f);
		}
	}

	if (t->have_log && p->n_records) {
		const struct build_run *last = &p->runs[p->n_runs - 1];
		uint64_t all_sum = 0;
		size_t all_edges = 0;

		for (size_t i = 0; i < p->n_runs; i++) {
			all_sum += p->runs[i].sum_ms;
			all_edges += p->runs[i].edges;
		}
		fprintf(f, "\n%sprofile%s (.ninja_log v%d: %zu record%s, %zu output%s, %zu run%s)\n", pt_c(c, PT_C_BOLD),
			pt_c(c, PT_C_RESET), t->log.version, p->n_records, PT_PLURAL(p->n_records), p->n_outputs,
			PT_PLURAL(p->n_outputs), p->n_runs, PT_PLURAL(p->n_runs));
		fprintf(f, "  %-22s %zu edges, %s wall, %s of work, parallelism %.2f (at most %u at once)\n", "last run",
			last->edges, report_duration(d, sizeof(d), last->wall_ms), report_duration(d2, sizeof(d2), last->sum_ms),
			last->parallelism, last->max_concurrent);
		fprintf(f, "  %-22s %zu edges, %s of work\n", "all runs", all_edges, report_duration(d, sizeof(d), all_sum));
		edge_list(f, "slowest edges", p->slowest, p->n_slowest, max);
		group_list(f, "by target", p->targets, p->n_targets, max);
		group_list(f, "by folder", p->folders, p->n_folders, max);
		if (p->n_critical) {
			fprintf(f, "  %-22s %s in %zu edges (last run)\n", "critical path",
				report_duration(d, sizeof(d), p->critical_ms), p->n_critical);
			for (size_t i = 0; i < p->n_critical; i++) {
				if (!r->details && p->n_critical > 4 && i == 2) {
					fprintf(f, "  %-22s %10s  ... %zu more\n", "", "", p->n_critical - 3);
					i = p->n_critical - 2;
					continue;
				}
				fprintf(f, "  %-22s %10s  %s\n", "", report_duration(d, sizeof(d), p->critical[i].ms),
					p->critical[i].output);
			}
		}
	}
	if (r->since_last) {
		size_t counts[3] = { 0 };

		for (size_t i = 0; i < r->n_rebuilt; i++)
			counts[r->rebuilt[i].reason]++;
		fprintf(f, "\n%ssince the last build%s: %zu outputs rebuilt (%zu new, %zu command changed, %zu inputs changed)\n",
			pt_c(c, PT_C_BOLD), pt_c(c, PT_C_RESET), r->n_rebuilt, counts[BUILD_REBUILT_NEW],
			counts[BUILD_REBUILT_COMMAND], counts[BUILD_REBUILT_INPUTS]);
		if (r->since)
			since_text(f, r->since, r->details, c);
		for (size_t i = 0; i < r->n_rebuilt && i < (r->details ? r->n_rebuilt : 15); i++)
			fprintf(f, "  %-22s %10s  %-16s %s\n", i ? "" : "slowest", report_duration(d, sizeof(d), r->rebuilt[i].ms),
				build_rebuild_reason_key(r->rebuilt[i].reason), r->rebuilt[i].output);
		if (!r->details && r->n_rebuilt > 15)
			fprintf(f, "  %-22s ... %zu more (--details)\n", "", r->n_rebuilt - 15);
	}
	if (r->explain && r->explain->ran) {
		const struct ninja_explain *x = r->explain;

		fprintf(f, "\n%sninja would run now%s: %zu edges (ninja -n -d explain, exit %d)\n", pt_c(c, PT_C_BOLD),
			pt_c(c, PT_C_RESET), x->n_would_run, x->status);
		for (size_t i = 0; i < x->n && i < (r->details ? x->n : 10); i++)
			fprintf(f, "  %s\n", x->lines[i]);
		if (!r->details && x->n > 10)
			fprintf(f, "  ... %zu more (--details)\n", x->n - 10);
	}
	if (r->memory) {
		const struct build_memory *m = r->memory;
		char sz[32];
		long jobs = m->max_jobs > 0 ? m->max_jobs : m->jobs_default;

		fprintf(f, "\n%smemory%s\n", pt_c(c, PT_C_BOLD), pt_c(c, PT_C_RESET));
		fprintf(f, "  %-22s %s RAM, MAX_JOBS=%s", "jobs", report_size(sz, sizeof(sz), m->ram_bytes),
			m->max_jobs > 0 ? "" : "unset");
		if (m->max_jobs > 0)
			fprintf(f, "%ld", m->max_jobs);
		else
			fprintf(f, " (setup.py runs %ld jobs: the CPU count)", m->jobs_default);
		if (jobs > 0)
			fprintf(f, ", %s per job", report_size(sz, sizeof(sz), m->ram_bytes / (uint64_t)jobs));
		fprintf(f, "; the log saw %u at once\n", m->observed_max_concurrent);
		if (m->n_units)
			fprintf(f, "  %-22s %zu of %zu translation units\n", "known heavy units", m->n_heavy, m->n_units);
		for (size_t i = 0; i < m->n_heavy && i < max; i++)
			fprintf(f, "  %-22s %10s  %s\n", "", m->heavy[i].ms ? report_duration(d, sizeof(d), m->heavy[i].ms) : "-",
				m->heavy[i].file);
	}
	if (r->check && r->check->findings.n) {
		fputc('\n', f);
		pt_diag_print(&r->check->findings, f, "ptinspect", c);
	}
}

static json_t *edges_json(const struct build_edge_time *v, size_t n, size_t max)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n && i < max; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "output", pt_json_str(v[i].output));
		json_object_set_new(o, "ms", json_integer(v[i].ms));
		json_object_set_new(o, "start_ms", json_integer(v[i].start_ms));
		json_object_set_new(o, "run", json_integer(v[i].run));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *groups_json(const struct build_group_time *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "name", pt_json_str(v[i].name));
		json_object_set_new(o, "ms", json_integer((json_int_t)v[i].ms));
		json_object_set_new(o, "edges", json_integer((json_int_t)v[i].edges));
		json_array_append_new(a, o);
	}
	return a;
}


static json_t *strs_json(const char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, pt_json_str(v[i]));
	return a;
}

static json_t *since_json(const struct build_since *s)
{
	json_t *j = json_object(), *causes = json_array(), *cmds = json_array();

	if (s->have_deps) {
		json_t *o = json_object();

		json_object_set_new(o, "version", json_integer(s->deps.version));
		json_object_set_new(o, "paths", json_integer((json_int_t)s->deps.n_paths));
		json_object_set_new(o, "outputs", json_integer((json_int_t)s->deps.n_outputs));
		json_object_set_new(o, "records", json_integer((json_int_t)s->deps.n_deps_records));
		json_object_set_new(o, "damaged", json_boolean(s->deps.damaged));
		json_object_set_new(j, "deps_log", o);
	} else {
		json_object_set_new(j, "deps_log", json_null());
	}
	if (s->moved) {
		json_t *o = json_object();

		json_object_set_new(o, "from", pt_json_str(s->map_from));
		json_object_set_new(o, "to", pt_json_str(s->map_to));
		json_object_set_new(j, "paths_mapped", o);
	} else {
		json_object_set_new(j, "paths_mapped", json_null());
	}
	for (size_t i = 0; i < s->n_causes; i++) {
		const struct since_cause *k = &s->causes[i];
		json_t *o = json_object();

		json_object_set_new(o, "input", pt_json_str(k->input));
		json_object_set_new(o, "shown", pt_json_str(k->shown));
		json_object_set_new(o, "rebuilt_by_this_run", json_boolean(k->built));
		json_object_set_new(o, "mtime_ns", json_integer(k->mtime));
		json_object_set_new(o, "count", json_integer((json_int_t)k->n));
		json_object_set_new(o, "outputs", strs_json(k->outputs, k->n));
		json_array_append_new(causes, o);
	}
	json_object_set_new(j, "changed_inputs", causes);
	json_object_set_new(j, "outputs_for_inputs", json_integer((json_int_t)s->n_changed));
	json_object_set_new(j, "inputs_known", json_boolean(s->inputs_known));
	json_object_set_new(j, "from_several_rebuilt_inputs", strs_json(s->several, s->n_several));
	json_object_set_new(j, "no_newer_input", strs_json(s->unexplained, s->n_unexplained));
	json_object_set_new(j, "new", strs_json(s->new_outputs, s->n_new));
	for (size_t i = 0; i < s->n_commands; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "output", pt_json_str(s->commands[i].output));
		json_object_set_new(o, "target", pt_json_str(s->commands[i].target));
		json_array_append_new(cmds, o);
	}
	json_object_set_new(j, "command_changed", cmds);
	for (int pass = 0; pass < 2; pass++) {
		json_t *groups = json_array();
		const struct since_cmd_group *gv = pass ? s->pending : s->cmd_groups;
		size_t gn = pass ? s->n_pending : s->n_cmd_groups;

		for (size_t i = 0; i < gn; i++) {
			const struct since_cmd_group *g = &gv[i];
			json_t *o = json_object(), *ch = json_array();

			json_object_set_new(o, "state", json_string(since_cmd_state_key(g->state)));
			json_object_set_new(o, "text", pt_json_str(g->text));
			for (size_t k = 0; k < g->diff.n; k++) {
				json_t *c = json_object();

				json_object_set_new(c, "from", pt_json_str(g->diff.v[k].from));
				json_object_set_new(c, "to", pt_json_str(g->diff.v[k].to));
				json_array_append_new(ch, c);
			}
			json_object_set_new(o, "changes", ch);
			json_object_set_new(o, "count", json_integer((json_int_t)g->n));
			json_object_set_new(o, "outputs", strs_json(g->outputs, g->n));
			json_array_append_new(groups, o);
		}
		json_object_set_new(j, pass ? "command_pending" : "command_changes", groups);
	}
	if (s->uses_ccache) {
		json_t *o = json_object();
		const struct ccache_stats *cs = &s->ccache;

		json_object_set_new(o, "how", pt_json_str(s->ccache_how));
		json_object_set_new(o, "stats", json_boolean(cs->ran));
		json_object_set_new(o, "direct_hit", json_integer((json_int_t)cs->direct_hit));
		json_object_set_new(o, "preprocessed_hit", json_integer((json_int_t)cs->preprocessed_hit));
		json_object_set_new(o, "miss", json_integer((json_int_t)cs->miss));
		json_object_set_new(o, "uncacheable", json_integer((json_int_t)cs->uncacheable));
		json_object_set_new(o, "size_kib", json_integer((json_int_t)cs->size_kib));
		json_object_set_new(o, "files", json_integer((json_int_t)cs->files));
		json_object_set_new(o, "zeroed_s", json_integer(cs->zeroed));
		json_object_set_new(o, "this_build_alone", json_boolean(s->ccache_this_build));
		json_object_set_new(o, "zeroed_after_it_began", json_boolean(s->ccache_zeroed_after));
		json_object_set_new(j, "ccache", o);
	} else {
		json_object_set_new(j, "ccache", json_null());
	}
	return j;
}

json_t *report_build_json(const struct build_report *r)
{
	const struct buildtree *t = r->tree;
	json_t *j = json_object(), *files = json_object(), *cfg = json_object(), *setup = json_array();

	json_object_set_new(j, "dir", pt_json_str(t->dir));
	json_object_set_new(j, "source_dir", pt_json_str(t->source_dir));
	json_object_set_new(files, "cmake_cache_entries", json_integer((json_int_t)t->cache.n));
	json_object_set_new(files, "ninja_edges", t->have_ninja ? json_integer((json_int_t)t->ninja.n_edges) : json_null());
	json_object_set_new(files, "ninja_log_version", t->have_log ? json_integer(t->log.version) : json_null());
	json_object_set_new(files, "ninja_log_records", t->have_log ? json_integer((json_int_t)t->log.n) : json_null());
	json_object_set_new(files, "compile_commands", t->have_compdb ? json_integer((json_int_t)t->compdb.n) : json_null());
	json_object_set_new(j, "files", files);
	for (size_t i = 0; i < r->config->n; i++) {
		const struct build_field *fl = &r->config->v[i];
		json_t *o = json_object();

		json_object_set_new(o, "group", pt_json_str(fl->group));
		json_object_set_new(o, "value", pt_json_str(fl->value));
		json_object_set_new(o, "cache_key", pt_json_str(fl->key));
		json_object_set_new(o, "env", pt_json_str(fl->env));
		pt_json_set_lossy(cfg, fl->name, o);
	}
	json_object_set_new(j, "config", cfg);
	for (size_t i = 0; setup_env_map[i].env; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "env", pt_json_str(setup_env_map[i].env));
		json_object_set_new(o, "cache_key", pt_json_str(setup_env_map[i].key));
		json_object_set_new(o, "how", pt_json_str(setup_env_map[i].how));
		json_array_append_new(setup, o);
	}
	json_object_set_new(j, "setup_py_env", setup);
	if (r->check) {
		json_t *libs = json_array();

		for (size_t i = 0; i < r->check->n_libs; i++) {
			const struct build_lib_check *l = &r->check->libs[i];
			json_t *o = json_object();

			json_object_set_new(o, "path", pt_json_str(l->path));
			json_object_set_new(o, "dwarf", json_boolean(l->dwarf));
			json_object_set_new(o, "rpath", pt_json_str(l->rpath));
			json_object_set_new(o, "runpath", pt_json_str(l->runpath));
			json_object_set_new(o, "older_than_inputs", json_boolean(l->older_than_inputs));
			json_object_set_new(o, "newer_input", pt_json_str(l->newer_input));
			json_object_set_new(o, "dispatch_trace", pt_json_str(l->dispatch_trace));
			json_object_set_new(o, "cuda_arch_list", pt_json_str(l->cuda_arch_list));
			json_object_set_new(o, "object", json_boolean(l->is_object));
			json_array_append_new(libs, o);
		}
		json_object_set_new(j, "libraries", libs);
		json_object_set_new(j, "findings", report_problems_json(&r->check->findings));
	}
	if (t->have_log) {
		const struct build_profile *p = r->profile;
		json_t *pj = json_object(), *runs = json_array(), *crit;

		json_object_set_new(pj, "records", json_integer((json_int_t)p->n_records));
		json_object_set_new(pj, "outputs", json_integer((json_int_t)p->n_outputs));
		for (size_t i = 0; i < p->n_runs; i++) {
			json_t *o = json_object();

			json_object_set_new(o, "edges", json_integer((json_int_t)p->runs[i].edges));
			json_object_set_new(o, "sum_ms", json_integer((json_int_t)p->runs[i].sum_ms));
			json_object_set_new(o, "wall_ms", json_integer(p->runs[i].wall_ms));
			json_object_set_new(o, "parallelism", json_real(p->runs[i].parallelism));
			json_object_set_new(o, "max_concurrent", json_integer(p->runs[i].max_concurrent));
			json_array_append_new(runs, o);
		}
		json_object_set_new(pj, "runs", runs);
		json_object_set_new(pj, "slowest", edges_json(p->slowest, p->n_slowest, r->details ? p->n_slowest : 25));
		json_object_set_new(pj, "targets", groups_json(p->targets, p->n_targets));
		json_object_set_new(pj, "folders", groups_json(p->folders, p->n_folders));
		crit = json_object();
		json_object_set_new(crit, "ms", json_integer((json_int_t)p->critical_ms));
		json_object_set_new(crit, "edges", edges_json(p->critical, p->n_critical, p->n_critical));
		json_object_set_new(pj, "critical_path", crit);
		json_object_set_new(j, "profile", pj);
	} else {
		json_object_set_new(j, "profile", json_null());
	}
	if (r->since_last) {
		json_t *a = json_array();

		for (size_t i = 0; i < r->n_rebuilt; i++) {
			json_t *o = json_object();

			json_object_set_new(o, "output", pt_json_str(r->rebuilt[i].output));
			json_object_set_new(o, "ms", json_integer(r->rebuilt[i].ms));
			json_object_set_new(o, "reason", pt_json_str(build_rebuild_reason_key(r->rebuilt[i].reason)));
			json_array_append_new(a, o);
		}
		json_object_set_new(j, "since_last", a);
		json_object_set_new(j, "since_last_causes", r->since ? since_json(r->since) : json_null());
		if (r->explain && r->explain->ran) {
			json_t *x = json_object();

			json_object_set_new(x, "status", json_integer(r->explain->status));
			json_object_set_new(x, "would_run", json_integer((json_int_t)r->explain->n_would_run));
			json_object_set_new(x, "explanations", pt_json_strv(r->explain->lines, r->explain->n));
			json_object_set_new(j, "ninja_explain", x);
		} else {
			json_object_set_new(j, "ninja_explain", json_null());
		}
	}
	if (r->memory) {
		const struct build_memory *m = r->memory;
		json_t *o = json_object(), *h = json_array();

		json_object_set_new(o, "ram_bytes", json_integer((json_int_t)m->ram_bytes));
		json_object_set_new(o, "max_jobs", m->max_jobs > 0 ? json_integer(m->max_jobs) : json_null());
		json_object_set_new(o, "jobs_default", json_integer(m->jobs_default));
		json_object_set_new(o, "observed_max_concurrent", json_integer(m->observed_max_concurrent));
		json_object_set_new(o, "units", json_integer((json_int_t)m->n_units));
		for (size_t i = 0; i < m->n_heavy; i++) {
			json_t *e = json_object();

			json_object_set_new(e, "file", pt_json_str(m->heavy[i].file));
			json_object_set_new(e, "why", pt_json_str(m->heavy[i].why));
			json_object_set_new(e, "ms", m->heavy[i].ms ? json_integer(m->heavy[i].ms) : json_null());
			json_array_append_new(h, e);
		}
		json_object_set_new(o, "heavy_units", h);
		json_object_set_new(j, "memory", o);
	}
	return j;
}

static void dispatch_rows(FILE *f, const struct nf_entry *e, const struct nf_entry *own)
{
	char title[64];

	pt_fmt_trunc(title, sizeof(title), "dispatch (%s)", e->name);
	if (e != own && own->n_dispatch)
		dispatch_rows(f, own, own);
	for (size_t i = 0; i < e->n_dispatch; i++)
		fprintf(f, "  %-22s %s: %s\n", i ? "" : title, e->dispatch[i].keys, e->dispatch[i].kernel);
	if (e->ufunc)
		fprintf(f, "  %-22s %s\n", e->n_dispatch ? "" : title, "CPU, CUDA: generated from ufunc_inner_loop");
	if (!e->n_dispatch)
		if (!e->ufunc)
			fprintf(f, "  %-22s (none: CompositeImplicitAutograd)\n", title);
}

void report_source_text(FILE *f, const struct build_source *s, const struct pt_style *st)
{
	int c = st ? st->color : 0;

	if (s->path) {
		fprintf(f, "%s%s%s", pt_c(c, PT_C_BOLD), s->path, pt_c(c, PT_C_RESET));
		if (s->line)
			fprintf(f, ":%zu", s->line);
		if (s->generated)
			fprintf(f, " is %sgenerated%s by %s: every build rewrites it\n", pt_c(c, PT_C_YELLOW),
				pt_c(c, PT_C_RESET), s->generated_by);
		else
			fprintf(f, " is not generated (no build.ninja edge makes it)\n");
		if (s->edge_line)
			fprintf(f, "  %-22s build.ninja line %zu%s%s\n", "made by", s->edge_line,
				s->gen_script ? ", running " : "", s->gen_script ? s->gen_script : "");
		if (s->template_path)
			fprintf(f, "  %-22s %s\n", "from template", s->template_path);
		for (size_t i = 0; i < s->n_yaml_inputs; i++)
			fprintf(f, "  %-22s %s\n", i ? "" : "from yaml", s->yaml_inputs[i]);
	} else {
		fprintf(f, "%s%s%s\n", pt_c(c, PT_C_BOLD), s->query, pt_c(c, PT_C_RESET));
	}
	if (s->function)
		fprintf(f, "  %-22s %s%s%s%s\n", "function", s->function, s->dispatch_key ? "  (dispatch key " : "",
			s->dispatch_key ? s->dispatch_key : "", s->dispatch_key ? ")" : "");
	if (s->klass)
		fprintf(f, "  %-22s %s\n", "member of", s->klass);
	if (s->node)
		fprintf(f, "  %-22s %s\n", "autograd node", s->node);
	if (!s->entry) {
		if (s->helper)
			fprintf(f, "  %-22s none: a helper of the generated code (edit torchgen/ or its template)\n",
				"operator");
		else if (s->function || !s->path)
			fprintf(f, "  %-22s none found in %s\n", "operator", s->yaml);
		return;
	}
	fprintf(f, "  %-22s %s  (%s:%zu)\n", "operator", s->entry->name, s->yaml, s->entry->line);
	if (s->via)
		fprintf(f, "  %-22s %s\n", "found by", s->via);
	fprintf(f, "  %-22s %s\n", "func", s->entry->func);
	if (s->entry->structured_delegate && s->kernel_entry && s->kernel_entry != s->entry)
		fprintf(f, "  %-22s %s (line %zu)\n", "structured via", s->entry->structured_delegate,
			s->kernel_entry->line);
	else if (s->entry->structured_delegate)
		fprintf(f, "  %-22s %s\n", "structured via", s->entry->structured_delegate);
	dispatch_rows(f, s->kernel_entry ? s->kernel_entry : s->entry, s->entry);
	for (size_t i = 0; i < s->n_kernels; i++) {
		const struct build_kernel *k = &s->kernels[i];

		fprintf(f, "  %-22s %s%s%s  [%s]\n", i ? "" : "forwards to", pt_c(c, PT_C_GREEN), k->kernel,
			pt_c(c, PT_C_RESET), k->keys);
		if (k->file)
			fprintf(f, "  %-22s   defined at %s:%zu\n", "", k->file, k->line);
	}
	if (s->node && s->derivative)
		fprintf(f, "  %-22s %s  (%s:%zu)\n", "derivatives", s->derivative->func, s->derivatives_yaml,
			s->derivative->line);
	else if (s->node)
		fprintf(f, "  %-22s none found for %s in %s\n", "derivatives", s->entry->name,
			s->derivatives_yaml ? s->derivatives_yaml : "tools/autograd/derivatives.yaml");
	if (s->node && s->derivative)
		fprintf(f, "  %-22s the derivatives.yaml entry above (formulas), never the generated file\n", "edit");
	else if (s->handwritten)
		fprintf(f, "  %-22s %s is hand-written (aten/src/ATen/native/); its registration is the entry above\n",
			"edit", s->function);
	else if (s->composite_implicit && s->n_kernels && s->kernels[0].file)
		fprintf(f, "  %-22s %s is hand-written (CompositeImplicitAutograd): %s:%zu\n", "edit",
			s->kernels[0].kernel, s->kernels[0].file, s->kernels[0].line);
	else if (s->composite_implicit && s->n_kernels)
		fprintf(f, "  %-22s %s is hand-written (CompositeImplicitAutograd) under aten/src/ATen/native/\n",
			"edit", s->kernels[0].kernel);
	else if (s->generated || s->function)
		fprintf(f, "  %-22s native_functions.yaml (the entry above) or torchgen/, never the generated file\n",
			"edit");
}

json_t *report_source_json(const struct build_source *s)
{
	json_t *j = json_object();

	json_object_set_new(j, "query", pt_json_str(s->query));
	json_object_set_new(j, "path", pt_json_str(s->path));
	json_object_set_new(j, "line", s->line ? json_integer((json_int_t)s->line) : json_null());
	json_object_set_new(j, "generated", json_boolean(s->generated));
	json_object_set_new(j, "generated_by", pt_json_str(s->generated_by));
	json_object_set_new(j, "generator_script", pt_json_str(s->gen_script));
	json_object_set_new(j, "build_ninja_line", s->edge_line ? json_integer((json_int_t)s->edge_line) : json_null());
	json_object_set_new(j, "function", pt_json_str(s->function));
	json_object_set_new(j, "dispatch_key", pt_json_str(s->dispatch_key));
	json_object_set_new(j, "native_functions_yaml", pt_json_str(s->yaml));
	if (s->entry) {
		const struct nf_entry *k = s->kernel_entry ? s->kernel_entry : s->entry;
		json_t *e = json_object(), *disp = json_object();

		json_object_set_new(e, "name", pt_json_str(s->entry->name));
		json_object_set_new(e, "func", pt_json_str(s->entry->func));
		json_object_set_new(e, "line", json_integer((json_int_t)s->entry->line));
		json_object_set_new(e, "structured_delegate", pt_json_str(s->entry->structured_delegate));
		for (size_t i = 0; i < k->n_dispatch; i++)
			pt_json_set_lossy(disp, k->dispatch[i].keys, pt_json_str(k->dispatch[i].kernel));
		json_object_set_new(e, "dispatch", disp);
		json_object_set_new(e, "dispatch_from", pt_json_str(k->name));
		json_object_set_new(j, "operator", e);
	} else {
		json_object_set_new(j, "operator", json_null());
	}
	json_object_set_new(j, "kernel", pt_json_str(s->kernel));
	json_object_set_new(j, "kernel_dispatch_keys", pt_json_str(s->kernel_keys));
	{
		json_t *ks = json_array(), *ys = json_array();

		for (size_t i = 0; i < s->n_kernels; i++) {
			json_t *k = json_object();

			json_object_set_new(k, "kernel", pt_json_str(s->kernels[i].kernel));
			json_object_set_new(k, "dispatch_keys", pt_json_str(s->kernels[i].keys));
			json_object_set_new(k, "file", pt_json_str(s->kernels[i].file));
			json_object_set_new(k, "line", s->kernels[i].line ? json_integer((json_int_t)s->kernels[i].line)
									 : json_null());
			json_array_append_new(ks, k);
		}
		json_object_set_new(j, "kernels", ks);
		for (size_t i = 0; i < s->n_yaml_inputs; i++)
			json_array_append_new(ys, pt_json_str(s->yaml_inputs[i]));
		json_object_set_new(j, "template", pt_json_str(s->template_path));
		json_object_set_new(j, "yaml_inputs", ys);
	}
	json_object_set_new(j, "class", pt_json_str(s->klass));
	json_object_set_new(j, "found_by", pt_json_str(s->via));
	json_object_set_new(j, "helper", json_boolean(s->helper));
	json_object_set_new(j, "handwritten", json_boolean(s->handwritten));
	json_object_set_new(j, "composite_implicit", json_boolean(s->composite_implicit));
	json_object_set_new(j, "autograd_node", pt_json_str(s->node));
	if (s->derivative) {
		json_t *dv = json_object();

		json_object_set_new(dv, "name", pt_json_str(s->derivative->name));
		json_object_set_new(dv, "schema", pt_json_str(s->derivative->func));
		json_object_set_new(dv, "line", json_integer((json_int_t)s->derivative->line));
		json_object_set_new(dv, "yaml", pt_json_str(s->derivatives_yaml));
		json_object_set_new(j, "derivative", dv);
	} else {
		json_object_set_new(j, "derivative", json_null());
	}
	return j;
}
