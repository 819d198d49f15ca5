/*
 * The analyses of a build tree: the .ninja_log profile (slowest edges, per
 * target and folder, parallelism, critical path of the last run), memory
 * risk, and the cross-check against the libraries produced.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildtree.h"
#include "debuginfo.h"
#include "dispatchtrace.h"
#include "elfobj.h"
#include "xalloc.h"

#define TOP_N 25

char *build_output_target(const char *output)
{
	const char *p = strstr(output, "CMakeFiles/"), *e;

	if (!p)
		return NULL;
	p += 11;
	e = strstr(p, ".dir/");
	if (!e || e == p)
		return NULL;
	return pt_xstrndup(p, (size_t)(e - p));
}

char *build_output_folder(const char *output)
{
	const char *cm = strstr(output, "CMakeFiles/"), *dot;
	char *path, *out, *slash;
	size_t w = 0;

	if (cm && (dot = strstr(cm, ".dir/")) != NULL) {
		/* prefix + object path, "__" standing for "..". */
		path = pt_xasprintf("%.*s%s", (int)(cm - output), output, dot + 5);
	} else {
		path = pt_xstrdup(output);
	}
	/* Normalise "x/__/" and "x/../" away. */
	out = pt_xmalloc(strlen(path) + 1);
	for (char *seg = path, *next; seg && *seg; seg = next) {
		next = strchr(seg, '/');
		if (next)
			*next++ = '\0';
		if (!strcmp(seg, "__") || !strcmp(seg, "..")) {
			while (w > 0 && out[w - 1] != '/')
				w--;
			if (w > 0)
				w--;
			while (w > 0 && out[w - 1] != '/')
				w--;
			continue;
		}
		if (!next)
			break;	/* the file name itself */
		w += (size_t)sprintf(out + w, "%s/", seg);
	}
	if (w > 0)
		w--;
	out[w] = '\0';
	slash = out;
	if (!*slash) {
		free(out);
		out = pt_xstrdup(".");
	}
	free(path);
	return out;
}

static int cmp_time_desc(const void *a, const void *b)
{
	const struct build_edge_time *x = a, *y = b;

	if (x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	return strcmp(x->output, y->output);
}

static int cmp_group_name(const void *a, const void *b)
{
	return strcmp(((const struct build_group_time *)a)->name, ((const struct build_group_time *)b)->name);
}

static int cmp_group_desc(const void *a, const void *b)
{
	const struct build_group_time *x = a, *y = b;

	if (x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sort and merge same-named groups, slowest first. */
static size_t merge_groups(struct build_group_time *g, size_t n)
{
	size_t w = 0;

	qsort(g, n, sizeof(*g), cmp_group_name);
	for (size_t i = 0; i < n; i++) {
		if (w && !strcmp(g[w - 1].name, g[i].name)) {
			g[w - 1].ms += g[i].ms;
			g[w - 1].edges += g[i].edges;
			free(g[i].name);
			continue;
		}
		g[w++] = g[i];
	}
	qsort(g, w, sizeof(*g), cmp_group_desc);
	return w;
}

/* Same edge: consecutive records of one command (multi-output edges). */
static int same_edge(const struct ninjalog_rec *a, const struct ninjalog_rec *b)
{
	return a->run == b->run && a->start_ms == b->start_ms && a->end_ms == b->end_ms && a->hash == b->hash;
}

struct ev {
	uint32_t t;
	int d;
};

static int cmp_ev(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->d - y->d;	/* ends before starts at the same ms */
}

static int cmp_start(const void *a, const void *b, void *arg)
{
	const struct build_edge_time *v = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (v[x].start_ms != v[y].start_ms)
		return v[x].start_ms < v[y].start_ms ? -1 : 1;
	return x < y ? -1 : x > y;
}

void buildtree_profile(const struct buildtree *t, struct build_profile *p)
{
	const struct ninjalog *l = &t->log;
	size_t n_latest, *latest, n_edges = 0;
	struct build_edge_time *edges;

	memset(p, 0, sizeof(*p));
	p->n_records = l->n;
	if (!l->n)
		return;
	latest = ninjalog_latest(l, &n_latest);
	p->n_outputs = n_latest;
	/* Runs. */
	p->n_runs = l->n_runs;
	p->runs = pt_xcalloc(p->n_runs, sizeof(*p->runs));
	for (uint32_t r = 0; r < l->n_runs; r++) {
		p->runs[r].index = r;
		p->runs[r].wall_ms = 0;
	}
	{
		uint32_t *first = pt_xcalloc(p->n_runs, sizeof(*first));
		struct ev *ev = pt_xmalloc(2 * l->n * sizeof(*ev));
		size_t *at = pt_xcalloc((size_t)p->n_runs + 1, sizeof(*at)), *by_run = pt_xmalloc(l->n * sizeof(*by_run));
		size_t *fill = pt_xmalloc(((size_t)p->n_runs + 1) * sizeof(*fill));

		for (size_t i = 0; i < p->n_runs; i++)
			first[i] = UINT32_MAX;
		for (size_t i = 0; i < l->n; i++) {
			const struct ninjalog_rec *r = &l->v[i];
			struct build_run *br = &p->runs[r->run];

			if (i && same_edge(&l->v[i - 1], r))
				continue;
			br->edges++;
			br->sum_ms += r->end_ms - r->start_ms;
			if (r->start_ms < first[r->run])
				first[r->run] = r->start_ms;
			if (r->end_ms > br->wall_ms)
				br->wall_ms = r->end_ms;
		}
		/*
		 * Each run's records by a counting sort on the run (file order kept
		 * within a run): one pass over the log for all runs, not one per run
		 * (a log where every line starts a new run made that n^2: N14).
		 */
		for (size_t i = 0; i < l->n; i++)
			if (l->v[i].run < p->n_runs)
				at[l->v[i].run + 1]++;
		for (size_t i = 0; i < p->n_runs; i++)
			at[i + 1] += at[i];
		memcpy(fill, at, p->n_runs * sizeof(*fill));
		for (size_t i = 0; i < l->n; i++)
			if (l->v[i].run < p->n_runs)
				by_run[fill[l->v[i].run]++] = i;
		for (size_t i = 0; i < p->n_runs; i++) {
			struct build_run *br = &p->runs[i];
			size_t ne = 0;
			int cur = 0, max = 0;

			if (first[i] != UINT32_MAX)
				br->wall_ms -= first[i];
			br->parallelism = br->wall_ms ? (double)br->sum_ms / br->wall_ms : 0;
			for (size_t j = at[i]; j < at[i + 1]; j++) {
				size_t k = by_run[j];

				if (k && same_edge(&l->v[k - 1], &l->v[k]))
					continue;
				ev[ne++] = (struct ev){ l->v[k].start_ms, 1 };
				ev[ne++] = (struct ev){ l->v[k].end_ms, -1 };
			}
			qsort(ev, ne, sizeof(*ev), cmp_ev);
			for (size_t k = 0; k < ne; k++) {
				cur += ev[k].d;
				if (cur > max)
					max = cur;
			}
			br->max_concurrent = (uint32_t)max;
		}
		free(at);
		free(fill);
		free(by_run);
		free(ev);
		free(first);
	}
	/* The latest record per edge: slowest, per target, per folder. */
	edges = pt_xmalloc(n_latest * sizeof(*edges));
	for (size_t i = 0; i < n_latest; i++) {
		const struct ninjalog_rec *r = &l->v[latest[i]];

		if (n_edges && edges[n_edges - 1].run == r->run && edges[n_edges - 1].start_ms == r->start_ms &&
		    edges[n_edges - 1].ms == r->end_ms - r->start_ms && latest[i] > 0 &&
		    same_edge(&l->v[latest[i] - 1], r))
			continue;
		edges[n_edges++] = (struct build_edge_time){ r->output, r->end_ms - r->start_ms, r->start_ms, r->run };
	}
	p->targets = pt_xcalloc(n_edges ? n_edges : 1, sizeof(*p->targets));
	p->folders = pt_xcalloc(n_edges ? n_edges : 1, sizeof(*p->folders));
	for (size_t i = 0; i < n_edges; i++) {
		char *tg = build_output_target(edges[i].output);

		p->targets[p->n_targets++] = (struct build_group_time){ tg ? tg : pt_xstrdup("(custom commands)"), edges[i].ms, 1 };
		p->folders[p->n_folders++] = (struct build_group_time){ build_output_folder(edges[i].output), edges[i].ms, 1 };
	}
	p->n_targets = merge_groups(p->targets, p->n_targets);
	p->n_folders = merge_groups(p->folders, p->n_folders);
	qsort(edges, n_edges, sizeof(*edges), cmp_time_desc);
	p->slowest = edges;
	p->n_slowest = n_edges;
	/* The last run's edges. */
	{
		uint32_t last = l->n_runs - 1;

		p->last = pt_xmalloc((l->n ? l->n : 1) * sizeof(*p->last));
		for (size_t i = 0; i < l->n; i++) {
			const struct ninjalog_rec *r = &l->v[i];

			if (r->run != last || (i && same_edge(&l->v[i - 1], r)))
				continue;
			p->last[p->n_last++] = (struct build_edge_time){ r->output, r->end_ms - r->start_ms, r->start_ms, r->run };
		}
		qsort(p->last, p->n_last, sizeof(*p->last), cmp_time_desc);
	}
	/* Critical path of the last run: longest chain through build.ninja's dependencies. */
	if (t->have_ninja && p->n_last) {
		const struct buildninja *b = &t->ninja;
		size_t *rec_of = pt_xmalloc((b->n_edges ? b->n_edges : 1) * sizeof(*rec_of));
		uint64_t *best = pt_xcalloc(p->n_last, sizeof(*best));
		size_t *prev = pt_xmalloc(p->n_last * sizeof(*prev)), *order = pt_xmalloc(p->n_last * sizeof(*order));
		size_t *edge_of = pt_xmalloc(p->n_last * sizeof(*edge_of)), end_i = 0;

		for (size_t i = 0; i < b->n_edges; i++)
			rec_of[i] = (size_t)-1;
		for (size_t i = 0; i < p->n_last; i++) {
			edge_of[i] = buildninja_producer(b, p->last[i].output);
			if (edge_of[i] != (size_t)-1)
				rec_of[edge_of[i]] = i;
			order[i] = i;
		}
		/*
		 * By start time, ties in p->last's order (what the insertion sort
		 * here before gave, in n log n: N14): a dependency ended before its
		 * dependant started.
		 */
		qsort_r(order, p->n_last, sizeof(*order), cmp_start, p->last);
		for (size_t oi = 0; oi < p->n_last; oi++) {
			size_t i = order[oi], e = edge_of[i];
			uint64_t in = 0;

			prev[i] = (size_t)-1;
			if (e != (size_t)-1) {
				for (size_t k = 0; k < b->edges[e].n_ins; k++) {
					size_t pe = buildninja_producer(b, b->edges[e].ins[k]), j;

					/* Phony edges: look through them one level. */
					if (pe == (size_t)-1)
						continue;
					j = rec_of[pe];
					if (j == (size_t)-1 && !strcmp(b->edges[pe].rule, "phony")) {
						for (size_t q = 0; q < b->edges[pe].n_ins; q++) {
							size_t pe2 = buildninja_producer(b, b->edges[pe].ins[q]);

							if (pe2 != (size_t)-1 && (j = rec_of[pe2]) != (size_t)-1 &&
							    p->last[j].start_ms + p->last[j].ms <= p->last[i].start_ms &&
							    best[j] > in) {
								in = best[j];
								prev[i] = j;
							}
						}
						continue;
					}
					if (j != (size_t)-1 && p->last[j].start_ms + p->last[j].ms <= p->last[i].start_ms &&
					    best[j] > in) {
						in = best[j];
						prev[i] = j;
					}
				}
			}
			best[i] = in + p->last[i].ms;
			if (best[i] > best[end_i])
				end_i = i;
		}
		{
			size_t n = 0;

			for (size_t i = end_i; i != (size_t)-1 && n < p->n_last; i = prev[i])
				n++;
			p->critical = pt_xmalloc(n * sizeof(*p->critical));
			p->n_critical = n;
			p->critical_ms = best[end_i];
			for (size_t i = end_i; i != (size_t)-1 && n > 0; i = prev[i])
				p->critical[--n] = p->last[i];
		}
		free(rec_of);
		free(best);
		free(prev);
		free(order);
		free(edge_of);
	}
	free(latest);
}

void build_profile_release(struct build_profile *p)
{
	for (size_t i = 0; i < p->n_targets; i++)
		free(p->targets[i].name);
	for (size_t i = 0; i < p->n_folders; i++)
		free(p->folders[i].name);
	free(p->targets);
	free(p->folders);
	free(p->runs);
	free(p->slowest);
	free(p->critical);
	free(p->last);
	memset(p, 0, sizeof(*p));
}

/*
 * Translation units known to need the most memory and time in a torch build
 * (each is one compiler process: several of them at once is what exhausts RAM).
 */
static const struct {
	const char *pattern;
	const char *why;
} heavy_units[] = {
	{ "flash_attn", "flash attention kernels (CUDA, one template instance per head size)" },
	{ "mem_eff_attention", "memory-efficient attention kernels (CUTLASS templates)" },
	{ "RegisterCPU", "torchgen's RegisterCPU.cpp (every CPU kernel registered in one file)" },
	{ "RegisterCUDA", "torchgen's RegisterCUDA.cpp" },
	{ "Operators_", "torchgen's Operators_N.cpp (operator wrappers)" },
	{ "VariableType_", "autograd's generated VariableType_N.cpp" },
	{ "TraceType_", "generated TraceType_N.cpp" },
	{ "python_torch_functions", "generated Python bindings" },
	{ "RegisterCompositeImplicitAutograd", "torchgen registration file" },
	{ "cutlass", "CUTLASS-based kernels" },
	{ NULL, NULL },
};

static int cmp_edge_output(const void *a, const void *b)
{
	return strcmp(((const struct build_edge_time *)a)->output, ((const struct build_edge_time *)b)->output);
}

static int cmp_heavy(const void *a, const void *b)
{
	const struct build_heavy *x = a, *y = b;

	if (x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	return strcmp(x->file, y->file);
}

void build_memory_machine(struct build_memory *m, const char *mj)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	memset(m, 0, sizeof(*m));
	m->ram_bytes = pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
	m->max_jobs = -1;
	if (mj && *mj) {
		char *end;
		long v = strtol(mj, &end, 10);

		if (!*end && v > 0)
			m->max_jobs = v;
	}
	m->jobs_default = sysconf(_SC_NPROCESSORS_ONLN);
}

void buildtree_memory(const struct buildtree *t, const struct build_profile *p, struct build_memory *m)
{
	build_memory_machine(m, getenv("MAX_JOBS"));
	for (size_t i = 0; i < p->n_runs; i++)
		if (p->runs[i].max_concurrent > m->observed_max_concurrent)
			m->observed_max_concurrent = p->runs[i].max_concurrent;
	/* The log's edges by output, for the heavy units' compile times. */
	struct build_edge_time *by_out = pt_xmalloc((p->n_slowest ? p->n_slowest : 1) * sizeof(*by_out));
	/* The translation units: build.ninja's compile edges (source, object), else compile_commands.json. */
	size_t n_units = t->have_ninja ? t->ninja.n_edges : t->compdb.n;

	if (p->n_slowest)
		memcpy(by_out, p->slowest, p->n_slowest * sizeof(*by_out));
	qsort(by_out, p->n_slowest, sizeof(*by_out), cmp_edge_output);
	for (size_t i = 0; i < n_units; i++) {
		const char *file, *output;

		if (t->have_ninja) {
			const struct ninja_edge *e = &t->ninja.edges[i];

			if (!e->n_explicit_ins || !e->n_outs || !strstr(e->rule, "_COMPILER__"))
				continue;
			file = e->ins[0];
			output = e->outs[0];
		} else {
			file = t->compdb.v[i].file;
			output = t->compdb.v[i].output;
		}
		m->n_units++;
		for (size_t k = 0; heavy_units[k].pattern; k++) {
			struct build_edge_time key, *hit = NULL;

			if (!strstr(file, heavy_units[k].pattern))
				continue;
			PT_GROW(m->heavy, m->n_heavy, m->a_heavy);
			m->heavy[m->n_heavy] = (struct build_heavy){ pt_xstrdup(file), heavy_units[k].why, 0 };
			/* Its compile time: the log edge whose output is this unit's. */
			if (output && p->n_slowest) {
				key.output = output;
				hit = bsearch(&key, by_out, p->n_slowest, sizeof(key), cmp_edge_output);
			}
			if (hit)
				m->heavy[m->n_heavy].ms = hit->ms;
			m->n_heavy++;
			break;
		}
	}
	free(by_out);
	/* Slowest first, then by name. */
	if (m->n_heavy)
		qsort(m->heavy, m->n_heavy, sizeof(*m->heavy), cmp_heavy);
}

void build_memory_release(struct build_memory *m)
{
	for (size_t i = 0; i < m->n_heavy; i++)
		free(m->heavy[i].file);
	free(m->heavy);
	memset(m, 0, sizeof(*m));
}

const char *build_rebuild_reason_key(enum build_rebuild_reason r)
{
	switch (r) {
	case BUILD_REBUILT_NEW: return "new";
	case BUILD_REBUILT_COMMAND: return "command changed";
	case BUILD_REBUILT_INPUTS: return "inputs changed";
	}
	return "?";
}

static int cmp_rebuilt(const void *a, const void *b)
{
	const struct build_rebuilt *x = a, *y = b;

	if (x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	return strcmp(x->output, y->output);
}

static int cmp_out_line(const void *a, const void *b, void *arg)
{
	const struct ninjalog *l = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int r = strcmp(l->v[x].output, l->v[y].output);

	return r ? r : (x < y ? -1 : x > y);
}

void buildtree_since_last(const struct buildtree *t, struct build_rebuilt **out, size_t *n)
{
	const struct ninjalog *l = &t->log;
	size_t *idx, w = 0;
	uint32_t last;

	*out = NULL;
	*n = 0;
	if (!l->n)
		return;
	last = l->n_runs - 1;
	idx = pt_xmalloc(l->n * sizeof(*idx));
	for (size_t i = 0; i < l->n; i++)
		idx[i] = i;
	/* By output then file order: the record before one of the last run is its previous build. */
	qsort_r(idx, l->n, sizeof(*idx), cmp_out_line, (void *)l);
	*out = pt_xmalloc(l->n * sizeof(**out));
	for (size_t i = 0; i < l->n; i++) {
		const struct ninjalog_rec *r = &l->v[idx[i]];
		enum build_rebuild_reason why = BUILD_REBUILT_NEW;
		const struct ninjalog_rec *prev = NULL;

		if (r->run != last)
			continue;
		/* Only the latest record of an output in the last run. */
		if (i + 1 < l->n && !strcmp(l->v[idx[i + 1]].output, r->output))
			continue;
		if (i > 0 && !strcmp(l->v[idx[i - 1]].output, r->output)) {
			prev = &l->v[idx[i - 1]];
			why = prev->hash != r->hash ? BUILD_REBUILT_COMMAND : BUILD_REBUILT_INPUTS;
		}
		(*out)[w++] = (struct build_rebuilt){ r->output, r->end_ms - r->start_ms, why, r, prev };
	}
	free(idx);
	qsort(*out, w, sizeof(**out), cmp_rebuilt);
	*n = w;
}
