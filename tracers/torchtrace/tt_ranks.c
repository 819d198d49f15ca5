/*
 * Cross-rank checks; see tt_query.h. Each check reads what it needs of each
 * member (file) with one query and groups the members by the value, as
 * tlparse groups ranks; a check diverges when there is more than one group.
 * The result is struct tt_ranks_result; render_ranks.c renders it.
 */
#include "tt_query.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "tt_internal.h"
#include "tt_tlparse.h"
#include "xalloc.h"

/* What the checks need of a member besides tt_ranks_member. */
struct member {
	int64_t first, last;	/* its trace_records.id range */
	char **ids;		/* folded compile ids "[0/0]" in first-seen order */
	size_t nids;
};

struct xr {
	struct db *ix;
	struct tt_ranks_result *r;
	struct member *m;	/* r->nmembers of them */
	size_t n;
};

#define LABEL(x, i) ((x)->r->members[i].label)

static const char SQL_MEMBERS[] =
	"SELECT first_record, path, rank, process, pid, records, rank_conflict,"
	" (SELECT count(*) FROM trace_files f WHERE f.run_id = t.run_id AND f.rank = t.rank AND f.records > 0),"
	" last_record FROM trace_files t WHERE run_id = ?1 AND records > 0"
	" ORDER BY rank IS NULL, rank, process";
static const char SQL_EMPTY[] =
	"SELECT path FROM trace_files WHERE run_id = ?1 AND coalesce(records, 0) = 0 ORDER BY path";
/* Compile ids of a file as tlparse keys them: a missing attempt with a compile is attempt 0. */
static const char SQL_CIDS[] =
	"SELECT ca, frame, compile, coalesce(attempt, CASE WHEN compile IS NOT NULL THEN 0 END) AS att,"
	" min(id), sum(kind = 'dynamo_output_graph'),"
	" sum(kind = 'compilation_metrics' AND json_extract(envelope, '$.compilation_metrics.fail_type') IS NOT NULL)"
	" FROM trace_records WHERE id BETWEEN ?1 AND ?2 AND (frame IS NOT NULL OR ca IS NOT NULL)"
	" AND kind <> 'chromium_event' GROUP BY ca, frame, compile, att ORDER BY min(id)";
static const char SQL_CACHE[] =
	"SELECT name, ca, frame, compile, attempt FROM trace_records WHERE id BETWEEN ?1 AND ?2"
	" AND kind IN ('artifact', 'graph_dump') AND (name LIKE '%cache_miss%' OR name LIKE '%cache_hit%'"
	" OR name LIKE '%cache_bypass%') ORDER BY id";
static const char SQL_ART[] =
	"SELECT r.ca, r.frame, r.compile, r.attempt, p.data FROM trace_records r"
	" JOIN trace_payloads p ON p.md5 = r.payload_md5 WHERE r.id BETWEEN ?1 AND ?2 AND r.kind = ?3"
	" AND (?4 IS NULL OR r.name = ?4) ORDER BY r.id";
static const char SQL_EXEC[] =
	"SELECT p.data FROM trace_records r JOIN trace_payloads p ON p.md5 = r.payload_md5"
	" WHERE r.id BETWEEN ?1 AND ?2 AND r.kind = 'artifact' AND r.name LIKE '%graph_execution%'"
	" AND json_extract(r.envelope, '$.artifact.encoding') = 'json' ORDER BY r.id DESC LIMIT 1";

static void cid_at(struct db_stmt *s, int c, struct compileid *id)
{
	id->ca = col_nullable(s, c);
	id->frame = col_nullable(s, c + 1);
	id->compile = col_nullable(s, c + 2);
	id->attempt = col_nullable(s, c + 3);
}

/* "[0/1]" as tlparse keys a compile (attempt folded). */
static void key_of(const struct compileid *id, char *out, size_t n)
{
	struct compileid k = *id;

	if (k.compile >= 0 && k.attempt < 0)
		k.attempt = 0;
	tt_tlparse_key(&k, out, n);
}

/* The number of sep-separated items of s. */
static long items(const char *s, char sep)
{
	long n = *s != '\0';

	for (; *s; s++)
		n += *s == sep;
	return n;
}

/* Where group g's sequence a first differs from the first group's b, item by item. */
static void first_difference(struct tt_ranks_group *g, const char *a, const char *b, char sep)
{
	const char sp[2] = {sep, 0};
	long i = 0;

	for (;;) {
		size_t la = strcspn(a, sp), lb = strcspn(b, sp);

		if (la != lb || memcmp(a, b, la)) {
			g->differs = 1;
			g->index = i;
			g->here = pt_xstrndup(a, la);
			g->first_group = pt_xstrndup(b, lb);
			return;
		}
		if (!a[la] || !b[lb]) {
			/* One ends here: the other's next item against "(end)". */
			const char *na = a[la] ? a + la + 1 : "(end)", *nb = b[lb] ? b + lb + 1 : "(end)";

			if (a[la] == b[lb]) {
				g->differs = -1;
				return;
			}
			g->differs = 1;
			g->index = i + 1;
			g->here = pt_xstrndup(na, strcspn(na, sp));
			g->first_group = pt_xstrndup(nb, strcspn(nb, sp));
			return;
		}
		a += la + 1;
		b += lb + 1;
		i++;
	}
}

/* Group the members by their value (NULL: the member has none and is left out), items separated by sep. */
static void group(const struct xr *x, char **val, char sep, struct tt_ranks_grouping *out)
{
	size_t with = 0, alloc = 0;
	char *done = pt_xcalloc(x->n + 1, 1);

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < x->n; i++) {
		struct tt_ranks_group *g;

		if (!val[i] || done[i])
			continue;
		with++;
		PT_GROW(out->groups, out->ngroups, alloc);
		g = &out->groups[out->ngroups];
		memset(g, 0, sizeof(*g));
		g->members = pt_xcalloc(x->n + 1, sizeof(*g->members));
		for (size_t j = i; j < x->n; j++)
			if (val[j] && !done[j] && !strcmp(val[i], val[j])) {
				done[j] = 1;
				g->members[g->nmembers++] = j;
				with += j != i;
			}
		g->sequence = pt_xstrdup(val[i]);
		g->items = items(val[i], sep);
		if (out->ngroups)
			first_difference(g, val[i], out->groups[0].sequence, sep);
		out->ngroups++;
	}
	out->diverge = out->ngroups > 1;
	out->members_with_data = (long)with;
	free(done);
}

static void free_vals(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int load_members(struct xr *x, int64_t run_id)
{
	struct db_stmt *s = NULL;
	size_t alloc = 0, member_alloc = 0;
	int rc;

	if (tt_prep(x->ix, &s, SQL_MEMBERS) < 0 || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		struct tt_ranks_member *o;
		struct member *m;
		const char *path = db_col_text(s, 1), *conf = db_col_text(s, 6);

		PT_GROW(x->r->members, x->r->nmembers, alloc);
		PT_GROW(x->m, x->n, member_alloc);
		o = &x->r->members[x->r->nmembers++];
		m = &x->m[x->n++];
		memset(o, 0, sizeof(*o));
		memset(m, 0, sizeof(*m));
		m->first = db_col_int(s, 0);
		m->last = db_col_int(s, 8);
		o->rank = db_col_is_null(s, 2) ? -1 : db_col_int(s, 2);
		o->process = db_col_int(s, 3);
		if (o->rank >= 0 && db_col_int(s, 7) == 1)
			pt_fmt_trunc(o->label, sizeof(o->label), "rank %lld", (long long)o->rank);
		else
			pt_fmt_trunc(o->label, sizeof(o->label), "p%lld", (long long)o->process);
		o->path = path ? pt_xstrdup(path) : NULL;
		o->pid = db_col_is_null(s, 4) ? -1 : db_col_int(s, 4);
		o->records = db_col_int(s, 5);
		o->rank_conflict = conf ? pt_xstrdup(conf) : NULL;
	}
	return rc < 0 ? -1 : 0;
}

static void add_detail(struct tt_ranks_result *r, size_t *alloc, char *line)
{
	PT_GROW(r->compile_ids.details, r->compile_ids.ndetails, *alloc);
	r->compile_ids.details[r->compile_ids.ndetails++] = line;
}

/* Compile ids, graphs and failures of each member; then the compile-id check. */
static int check_compiles(struct xr *x)
{
	struct db_stmt *s = NULL;
	size_t dalloc = 0;

	for (size_t i = 0; i < x->n; i++) {
		struct member *m = &x->m[i];
		struct tt_ranks_member *o = &x->r->members[i];
		size_t alloc = 0;
		int rc;

		if (tt_prep(x->ix, &s, SQL_CIDS) < 0 || db_bind(s, "ii", m->first, m->last) < 0)
			return -1;
		while ((rc = db_step(s)) == 1) {
			struct compileid id;
			char k[COMPILEID_MAX + 8];

			cid_at(s, 0, &id);
			key_of(&id, k, sizeof(k));
			PT_GROW(m->ids, m->nids, alloc);
			m->ids[m->nids++] = pt_xstrdup(k);
			o->graphs += (long)db_col_int(s, 5);
			o->failed += (long)db_col_int(s, 6);
		}
		if (rc < 0)
			return -1;
		o->compiles = (long)m->nids;
	}
	/* Against the first member: graph counts, ids only one side has, order. */
	for (size_t i = 1; i < x->n; i++) {
		struct member *a = &x->m[0], *b = &x->m[i];
		const struct tt_ranks_member *ao = &x->r->members[0], *bo = &x->r->members[i];
		int same_set = a->nids == b->nids;

		if (bo->graphs != ao->graphs)
			add_detail(x->r, &dalloc, pt_xasprintf("%s compiled %ld graphs, %s %ld", bo->label,
							       bo->graphs, ao->label, ao->graphs));
		for (int side = 0; side < 2; side++) {
			struct member *p = side ? a : b, *q = side ? b : a;
			const char *pl = side ? ao->label : bo->label, *ql = side ? bo->label : ao->label;

			for (size_t k = 0; k < p->nids; k++) {
				int found = 0;

				for (size_t j = 0; j < q->nids && !found; j++)
					found = !strcmp(p->ids[k], q->ids[j]);
				if (!found) {
					same_set = 0;
					add_detail(x->r, &dalloc, pt_xasprintf("%s compiled %s, %s did not", pl,
									       p->ids[k], ql));
				}
			}
		}
		if (same_set) {
			for (size_t k = 0; k < a->nids; k++)
				if (strcmp(a->ids[k], b->ids[k])) {
					add_detail(x->r, &dalloc, pt_xasprintf("%s compiled in another order than %s",
									       bo->label, ao->label));
					break;
				}
		}
	}
	x->r->compile_ids.diverge = x->r->compile_ids.ndetails > 0;
	return 0;
}

/* tlparse's cache sequence: the cache artifacts' markers in order (miss before hit before bypass). */
static const char *cache_status(const char *name, int *prio)
{
	if (strstr(name, "cache_miss"))
		return *prio = 3, "miss";
	if (strstr(name, "cache_hit"))
		return *prio = 2, "hit";
	if (strstr(name, "cache_bypass"))
		return *prio = 1, "bypass";
	return *prio = 0, NULL;
}

static int check_cache(struct xr *x)
{
	struct db_stmt *s = NULL;
	char **val = pt_xcalloc(x->n + 1, sizeof(*val));
	int rc = 0;

	for (size_t i = 0; i < x->n && rc == 0; i++) {
		struct pt_strbuf sb;
		int step, prio;

		pt_strbuf_init(&sb, 1 << 24);
		if (tt_prep(x->ix, &s, SQL_CACHE) < 0 || db_bind(s, "ii", x->m[i].first, x->m[i].last) < 0)
			rc = -1;
		while (rc == 0 && (step = db_step(s)) == 1)
			pt_strbuf_addf_trunc(&sb, "%s%s", sb.len ? " " : "", cache_status(db_col_text(s, 0), &prio));
		if (rc == 0 && step < 0)
			rc = -1;
		val[i] = pt_strbuf_detach(&sb);
	}
	if (rc == 0)
		group(x, val, ' ', &x->r->cache);
	free_vals(val, x->n);
	return rc;
}

/* Per member: the first payload of artifact `name` per compile directory, in record order. */
struct art {
	char dir[COMPILEID_MAX + 8];
	char key[COMPILEID_MAX + 8];
	char *data;
	size_t len;
};

static int cmp_art(const void *a, const void *b)
{
	return strcmp(((const struct art *)a)->dir, ((const struct art *)b)->dir);
}

static int load_arts(struct xr *x, const struct member *m, const char *kind, const char *name,
		     struct art **out, size_t *n)
{
	struct db_stmt *s = NULL;
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (tt_prep(x->ix, &s, SQL_ART) < 0 || db_bind(s, "iitt", m->first, m->last, kind, name) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		struct compileid id;
		char dir[COMPILEID_MAX + 8];
		int seen = 0;

		cid_at(s, 0, &id);
		tt_tlparse_dir(&id, dir, sizeof(dir));
		for (size_t i = 0; i < *n && !seen; i++)
			seen = !strcmp((*out)[i].dir, dir);
		if (seen)
			continue;
		PT_GROW(*out, *n, alloc);
		pt_fmt_trunc((*out)[*n].dir, sizeof((*out)[*n].dir), "%s", dir);
		key_of(&id, (*out)[*n].key, sizeof((*out)[*n].key));
		(*out)[*n].len = db_col_bytes(s, 4);
		(*out)[*n].data = pt_xstrndup(db_col_text(s, 4) ? db_col_text(s, 4) : "", (*out)[*n].len);
		(*n)++;
	}
	return rc < 0 ? -1 : 0;
}

static void free_arts(struct art *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(a[i].data);
	free(a);
}

/* The ops of a schedule payload, or -1 when it is no list of strings or empty. */
static int schedule_ops(const char *data, size_t len, char ***ops, size_t *n)
{
	json_t *a = json_loadb(data, len, 0, NULL), *v;
	size_t i;
	int ok = json_is_array(a) && json_array_size(a);

	*ops = NULL;
	*n = 0;
	json_array_foreach(a, i, v)
		ok &= json_is_string(v);
	if (ok) {
		*ops = pt_xcalloc(json_array_size(a) + 1, sizeof(**ops));
		json_array_foreach(a, i, v)
			(*ops)[(*n)++] = pt_xstrdup(json_string_value(v));
	}
	json_decref(a);
	return ok ? 0 : -1;
}

/* Collective schedules: per member the ops of every graph's schedule, in graph order. */
static int check_schedules(struct xr *x, json_t **by_graph)
{
	char **val = pt_xcalloc(x->n + 1, sizeof(*val));
	int any = 0;
	size_t alloc = 0;
	struct tt_ranks_schedules *cs = &x->r->collective_schedule;

	*by_graph = json_object();	/* "label\t[0/1]" -> ops, for the execution order check */
	for (size_t i = 0; i < x->n; i++) {
		struct art *a;
		size_t n;
		struct pt_strbuf sb;

		if (load_arts(x, &x->m[i], "artifact", "inductor_collective_schedule", &a, &n) < 0) {
			free_vals(val, x->n);
			return -1;
		}
		pt_strbuf_init(&sb, 1 << 24);
		for (size_t k = 0; k < n; k++) {
			struct tt_ranks_schedule *sc;
			struct pt_strbuf ops;
			char **list;
			size_t nops;

			if (schedule_ops(a[k].data, a[k].len, &list, &nops) < 0)
				continue;
			any = 1;
			pt_strbuf_init(&ops, 1 << 24);
			for (size_t o = 0; o < nops; o++)
				pt_strbuf_addf_trunc(&ops, "%s%s", o ? "," : "", list[o]);
			pt_strbuf_addf_trunc(&sb, "%s%s", sb.len ? "," : "", pt_strbuf_str(&ops));
			char key[sizeof(LABEL(x, i)) + sizeof(a[k].key) + 2];

			pt_fmt_trunc(key, sizeof(key), "%s\t%s", LABEL(x, i), a[k].key);
			json_object_set_new(*by_graph, key, json_string(pt_strbuf_str(&ops)));
			pt_strbuf_release(&ops);
			PT_GROW(cs->schedules, cs->nschedules, alloc);
			sc = &cs->schedules[cs->nschedules++];
			sc->member = i;
			sc->graph = pt_xstrdup(a[k].dir);
			sc->compile_id = pt_xstrdup(a[k].key);
			sc->ops = list;
			sc->nops = nops;
		}
		val[i] = pt_strbuf_detach(&sb);
		free_arts(a, n);
	}
	if (!any) {
		/* No schedules at all: nothing to compare (tlparse shows no group either). */
		for (size_t i = 0; i < x->n; i++) {
			free(val[i]);
			val[i] = NULL;
		}
	}
	group(x, val, ',', &cs->g);
	free_vals(val, x->n);
	return 0;
}

/* Tensor meta and runtime estimates: inductor_runtime_and_tensor_meta per graph. */
static int check_runtime(struct xr *x)
{
	char **val = pt_xcalloc(x->n + 1, sizeof(*val));
	double **rt = pt_xcalloc(x->n + 1, sizeof(*rt));
	char ***gname = pt_xcalloc(x->n + 1, sizeof(*gname));
	size_t *ng = pt_xcalloc(x->n + 1, sizeof(*ng)), with = 0, minn = (size_t)-1, maxn = 0;
	struct tt_ranks_runtime *ro = &x->r->runtime;
	int rc = 0;

	for (size_t i = 0; i < x->n; i++) {
		struct art *a;
		size_t n;
		struct pt_strbuf sb;
		int have = 0;

		if (load_arts(x, &x->m[i], "artifact", "inductor_runtime_and_tensor_meta", &a, &n) < 0) {
			rc = -1;
			goto out;
		}
		if (n)
			qsort(a, n, sizeof(*a), cmp_art);	/* tlparse sorts by graph directory */
		pt_strbuf_init(&sb, 1 << 26);
		rt[i] = pt_xcalloc(n + 1, sizeof(**rt));
		gname[i] = pt_xcalloc(n + 1, sizeof(**gname));
		for (size_t k = 0; k < n; k++) {
			json_t *j = json_loadb(a[k].data, a[k].len, 0, NULL), *ops = json_object_get(j, "ops"), *op;
			char *canon;
			size_t oi;
			double sum = 0;

			if (!j)
				continue;
			/* The fingerprint: the JSON in a canonical form (compact, sorted keys). */
			canon = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
			pt_strbuf_addf_trunc(&sb, "%s%s", have ? "\n" : "", canon ? canon : "");
			free(canon);
			have = 1;
			if (json_is_array(ops) && json_array_size(ops)) {
				json_array_foreach(ops, oi, op)
					sum += json_number_value(json_object_get(op, "estimated_runtime_ns"));
				rt[i][ng[i]] = sum;
				gname[i][ng[i]++] = pt_xstrdup(a[k].dir);
			}
			json_decref(j);
		}
		val[i] = have ? pt_strbuf_detach(&sb) : (pt_strbuf_release(&sb), NULL);
		if (ng[i]) {
			with++;
			minn = ng[i] < minn ? ng[i] : minn;
			maxn = ng[i] > maxn ? ng[i] : maxn;
		}
		free_arts(a, n);
	}
	group(x, val, '\n', &x->r->tensor_meta);
	ro->members_with_data = (long)with;
	ro->mismatched_graph_counts = with > 1 && minn != maxn;
	if (with > 1 && minn == maxn) {
		/* Per graph index: the fastest and slowest member and the difference (tlparse rounds to µs). */
		ro->graphs = pt_xcalloc(maxn + 1, sizeof(*ro->graphs));
		for (size_t g = 0; g < maxn; g++) {
			struct tt_ranks_runtime_graph *rg = &ro->graphs[ro->ngraphs++];
			double lo = 1e300, hi = -1e300;
			size_t fast = 0, slow = 0, first = (size_t)-1;

			for (size_t i = 0; i < x->n; i++) {
				if (!ng[i])
					continue;
				if (first == (size_t)-1)
					first = i;
				if (rt[i][g] <= lo)
					lo = rt[i][g], fast = i;
				if (rt[i][g] >= hi)
					hi = rt[i][g], slow = i;
			}
			rg->graph = pt_xstrdup(gname[first][g]);
			rg->delta_ms = (double)(long long)((hi - lo) / 1e3 + 0.5) / 1e3;
			rg->fastest = fast;
			rg->fastest_ms = (double)(long long)(lo / 1e3 + 0.5) / 1e3;
			rg->slowest = slow;
			rg->slowest_ms = (double)(long long)(hi / 1e3 + 0.5) / 1e3;
		}
	}
	/* Different numbers of graphs are a divergence; deltas are information. */
	ro->diverge = ro->mismatched_graph_counts;
out:
	for (size_t i = 0; i < x->n; i++) {
		for (size_t k = 0; k < ng[i]; k++)
			free(gname[i][k]);
		free(gname[i]);
		free(rt[i]);
	}
	free(gname);
	free(rt);
	free(ng);
	free_vals(val, x->n);
	return rc;
}

/* Add member m to list (n of them) unless it is there. */
static void add_member(size_t **list, size_t *n, size_t *alloc, size_t m)
{
	for (size_t i = 0; i < *n; i++)
		if ((*list)[i] == m)
			return;
	PT_GROW(*list, *n, *alloc);
	(*list)[(*n)++] = m;
}

/* The execution order each member logged (graph_execution), and where it and the graphs differ. */
static int check_exec_order(struct xr *x, json_t *sched)
{
	struct db_stmt *s = NULL;
	char ***order = pt_xcalloc(x->n + 1, sizeof(*order));	/* "[0/1]" per member, NULL: none logged */
	size_t *norder = pt_xcalloc(x->n + 1, sizeof(*norder));
	json_t *cache = json_object();	/* "label\t[0/1]" -> "cache_miss" */
	struct tt_ranks_exec_order *eo = &x->r->execution_order;
	size_t with = 0, maxlen = 0, sched_alloc = 0, cache_alloc = 0, ralloc = 0;
	int differs = 0, rc = 0;

	for (size_t i = 0; i < x->n && rc == 0; i++) {
		json_t *j, *arr, *v;
		size_t k;
		int step;

		if (tt_prep(x->ix, &s, SQL_EXEC) < 0 || db_bind(s, "ii", x->m[i].first, x->m[i].last) < 0) {
			rc = -1;
			break;
		}
		step = db_step(s);
		if (step < 0) {
			rc = -1;
			break;
		}
		if (step == 0)
			continue;
		j = json_loadb(db_col_text(s, 0), db_col_bytes(s, 0), 0, NULL);
		db_reset(s);
		arr = json_object_get(j, "graph_execution_order");
		if (json_is_array(arr)) {
			order[i] = pt_xcalloc(json_array_size(arr) + 1, sizeof(**order));
			json_array_foreach(arr, k, v) {
				const char *c = json_is_string(v) ? json_string_value(v)
								  : json_string_value(json_object_get(v, "compile_id"));

				if (c)
					order[i][norder[i]++] = pt_xasprintf("[%s]", c);
			}
			with++;
			maxlen = norder[i] > maxlen ? norder[i] : maxlen;
		}
		json_decref(j);
	}
	/* Cache status per member and compile: the strongest marker (miss > hit > bypass). */
	for (size_t i = 0; i < x->n && rc == 0 && with > 1; i++) {
		int step;

		if (tt_prep(x->ix, &s, SQL_CACHE) < 0 || db_bind(s, "ii", x->m[i].first, x->m[i].last) < 0) {
			rc = -1;
			break;
		}
		while ((step = db_step(s)) == 1) {
			struct compileid id;
			char k[COMPILEID_MAX + 8];
			int prio, have_prio;
			const char *st = cache_status(db_col_text(s, 0), &prio);
			json_t *key, *cur;

			cid_at(s, 1, &id);
			key_of(&id, k, sizeof(k));
			key = json_sprintf("%s\t%s", LABEL(x, i), k);
			cur = json_object_get(cache, json_string_value(key));
			cache_status(cur ? json_string_value(cur) : "", &have_prio);
			if (!cur || prio > have_prio)
				json_object_set_new(cache, json_string_value(key), json_sprintf("cache_%s", st));
			json_decref(key);
		}
		if (step < 0)
			rc = -1;
	}
	for (size_t idx = 0; rc == 0 && with > 1 && idx < maxlen; idx++) {
		struct tt_ranks_exec_row *row;
		const char *first_cid = NULL, *first_s = NULL, *first_c = NULL;
		int sdiff = 0, cdiff = 0;

		PT_GROW(eo->rows, eo->nrows, ralloc);
		row = &eo->rows[eo->nrows++];
		memset(row, 0, sizeof(*row));
		row->index = (long)idx;
		row->cells = pt_xcalloc(x->n + 1, sizeof(*row->cells));
		for (size_t i = 0; i < x->n; i++) {
			const char *cid = idx < norder[i] ? order[i][idx] : NULL;
			char *key;
			const char *sv, *cv;

			if (!cid)
				continue;
			row->cells[row->ncells].member = i;
			row->cells[row->ncells++].compile_id = pt_xstrdup(cid);
			if (first_cid && strcmp(first_cid, cid))
				differs = 1;
			first_cid = first_cid ? first_cid : cid;
			key = pt_xasprintf("%s\t%s", LABEL(x, i), cid);
			sv = json_string_value(json_object_get(sched, key));
			cv = json_string_value(json_object_get(cache, key));
			free(key);
			if (sv) {
				sdiff |= first_s && strcmp(first_s, sv);
				first_s = first_s ? first_s : sv;
			}
			if (cv) {
				cdiff |= first_c && strcmp(first_c, cv);
				first_c = first_c ? first_c : cv;
			}
		}
		row->schedule = sdiff;
		row->cache = cdiff;
		for (size_t c = 0; c < row->ncells; c++) {
			if (sdiff)
				add_member(&eo->schedule_mismatch, &eo->nschedule_mismatch, &sched_alloc, row->cells[c].member);
			if (cdiff)
				add_member(&eo->cache_mismatch, &eo->ncache_mismatch, &cache_alloc, row->cells[c].member);
		}
	}
	eo->members_with_data = (long)with;
	eo->order_differs = differs;
	eo->diverge = differs || eo->nschedule_mismatch || eo->ncache_mismatch;
	json_decref(cache);
	for (size_t i = 0; i < x->n; i++)
		free_vals(order[i], norder[i]);
	free(order);
	free(norder);
	return rc;
}

/* tlparse's op names: all_reduce, reduce_scatter, all_gather, broadcast, all_to_all, reduce. */
static int op_class(const char *op, size_t n)
{
	static const char *const names[] = {"all_reduce", "reduce_scatter", "all_gather", "broadcast", "all_to_all"};
	char buf[256];

	while (n && op[n - 1] == '_')
		n--;
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, op, n);
	buf[n] = '\0';
	for (int i = 0; i < 5; i++)
		if (strstr(buf, names[i]))
			return i;
	return strstr(buf, "reduce") ? 5 : -1;
}

void tt_collectives_parity(const char *schedule, size_t slen, const char *code, size_t clen,
			      long *offset, long *missing_waits)
{
	long sc[6] = {0}, cc[6] = {0}, waits = 0, total = 0;
	json_t *a = json_loadb(schedule, slen, 0, NULL), *v;
	size_t i;
	char *clean = pt_xmalloc(clen + 1), *p;
	size_t o = 0;
	regex_t re;
	regmatch_t mt[2];

	json_array_foreach(a, i, v) {
		const char *s = json_string_value(v);
		int c = s ? op_class(s, strlen(s)) : -1;

		if (c >= 0)
			sc[c]++;
	}
	json_decref(a);
	/*
	 * Comments out (#, //, block comments), as tlparse does. It also strips
	 * HTML tags because it reads its syntax-highlighted page; the code here is
	 * the code as logged, where a '<' is a comparison.
	 */
	memcpy(clean, code, clen);
	o = clen;
	clean[o] = '\0';
	for (size_t k = 0, w = 0; k <= o; k++) {
		if (clean[k] == '#' || (clean[k] == '/' && clean[k + 1] == '/')) {
			while (k < o && clean[k] != '\n')
				k++;
		} else if (clean[k] == '/' && clean[k + 1] == '*') {
			char *end = strstr(clean + k + 2, "*/");

			k = end ? (size_t)(end - clean) + 1 : o;
			continue;
		}
		clean[w++] = clean[k];
		if (k == o)
			break;
	}
	if (regcomp(&re, "torch[[:space:]]*\\.[[:space:]]*ops[[:space:]]*\\.[[:space:]]*_?c10d_functional"
			 "[[:space:]]*\\.[[:space:]]*([A-Za-z0-9_]+)[[:space:]]*\\.[[:space:]]*default[[:space:]]*\\(",
		    REG_EXTENDED) == 0) {
		for (p = clean; regexec(&re, p, 2, mt, 0) == 0; p += mt[0].rm_eo) {
			const char *op = p + mt[1].rm_so;
			size_t n = (size_t)(mt[1].rm_eo - mt[1].rm_so);
			int c;

			if (n == 11 && !strncmp(op, "wait_tensor", 11))
				waits++;
			else if ((c = op_class(op, n)) >= 0)
				cc[c]++, total++;
		}
		regfree(&re);
	}
	free(clean);
	*offset = 0;
	for (int c = 0; c < 6; c++)
		*offset += labs(sc[c] - cc[c]);
	*missing_waits = total > waits ? total - waits : 0;
}

static int check_parity(struct xr *x)
{
	struct tt_ranks_parity *cp = &x->r->collectives_parity;
	size_t with = 0, alloc = 0;

	for (size_t i = 0; i < x->n; i++) {
		struct art *sch, *code;
		size_t ns, nc;

		if (load_arts(x, &x->m[i], "artifact", "inductor_collective_schedule", &sch, &ns) < 0)
			return -1;
		/* Any inductor_output_code of the graph (its name is the code file's). */
		if (load_arts(x, &x->m[i], "inductor_output_code", NULL, &code, &nc) < 0) {
			free_arts(sch, ns);
			return -1;
		}
		for (size_t k = 0; k < ns; k++)
			for (size_t c = 0; c < nc; c++) {
				long off, miss;

				if (strcmp(sch[k].dir, code[c].dir))
					continue;
				with++;
				tt_collectives_parity(sch[k].data, sch[k].len, code[c].data, code[c].len, &off, &miss);
				if (off || miss) {
					struct tt_ranks_parity_graph *g;

					PT_GROW(cp->graphs, cp->ngraphs, alloc);
					g = &cp->graphs[cp->ngraphs++];
					g->member = i;
					g->graph = pt_xstrdup(sch[k].dir);
					g->compile_id = pt_xstrdup(sch[k].key);
					g->offset = off;
					g->missing_waits = miss;
				}
				break;
			}
		free_arts(sch, ns);
		free_arts(code, nc);
	}
	cp->graphs_checked = (long)with;
	cp->diverge = cp->ngraphs > 0;
	return 0;
}

static void add_line(struct tt_ranks_result *r, size_t *alloc, char *line)
{
	PT_GROW(r->divergences, r->ndivergences, *alloc);
	r->divergences[r->ndivergences++] = line;
}

/* One line per divergence: the compile-id details, then one per other check that diverges. */
static void summary(struct tt_ranks_result *r)
{
	const struct {
		const struct tt_ranks_grouping *g;
		const char *name;
	} grouped[] = {
		{&r->cache, "cache hit/miss patterns"}, {&r->collective_schedule.g, "collective schedules"},
		{&r->tensor_meta, "tensor meta"},
	};
	size_t alloc = 0;

	for (size_t i = 0; i < r->compile_ids.ndetails; i++)
		add_line(r, &alloc, pt_xstrdup(r->compile_ids.details[i]));
	for (size_t i = 0; i < PT_ARRAY_SIZE(grouped); i++)
		if (grouped[i].g->diverge)
			add_line(r, &alloc, pt_xasprintf("%s: %zu groups of ranks", grouped[i].name, grouped[i].g->ngroups));
	if (r->runtime.mismatched_graph_counts)
		add_line(r, &alloc, pt_xstrdup("runtime estimates: ranks estimated different numbers of graphs"));
	if (r->execution_order.order_differs)
		add_line(r, &alloc, pt_xstrdup("graph execution order differs"));
	if (r->execution_order.nschedule_mismatch)
		add_line(r, &alloc, pt_xstrdup("graph execution order: collective schedules differ at the same position"));
	if (r->execution_order.ncache_mismatch)
		add_line(r, &alloc, pt_xstrdup("graph execution order: cache hit/miss differs at the same position"));
	if (r->collectives_parity.ngraphs)
		add_line(r, &alloc, pt_xasprintf("collectives parity: %zu graphs whose code and schedule differ",
						 r->collectives_parity.ngraphs));
}

static int load_empty(struct db *ix, int64_t run_id, struct tt_ranks_result *r)
{
	struct db_stmt *s = NULL;
	size_t alloc = 0;
	int rc;

	if (tt_prep(ix, &s, SQL_EMPTY) < 0 || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		PT_GROW(r->empty_files, r->nempty, alloc);
		r->empty_files[r->nempty++] = pt_xstrndup(db_col_text(s, 0) ? db_col_text(s, 0) : "",
							  db_col_bytes(s, 0));
	}
	return rc < 0 ? -1 : 0;
}

int tt_ranks_load(struct db *ix, int64_t run_id, struct tt_ranks_result *out)
{
	struct xr x = {ix, out, NULL, 0};
	json_t *sched = NULL;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (load_members(&x, run_id) < 0 || check_compiles(&x) < 0 || check_cache(&x) < 0 ||
	    check_schedules(&x, &sched) < 0 || check_runtime(&x) < 0 || check_exec_order(&x, sched) < 0 ||
	    check_parity(&x) < 0 || load_empty(ix, run_id, out) < 0)
		goto out;
	out->diverge = out->compile_ids.diverge || out->cache.diverge || out->collective_schedule.g.diverge ||
		       out->tensor_meta.diverge || out->runtime.diverge || out->execution_order.diverge ||
		       out->collectives_parity.diverge;
	summary(out);
	rc = 0;
out:
	json_decref(sched);
	for (size_t i = 0; i < x.n; i++)
		free_vals(x.m[i].ids, x.m[i].nids);
	free(x.m);
	if (rc < 0)
		tt_ranks_result_release(out);
	return rc;
}

static void release_grouping(struct tt_ranks_grouping *g)
{
	for (size_t i = 0; i < g->ngroups; i++) {
		free(g->groups[i].sequence);
		free(g->groups[i].members);
		free(g->groups[i].here);
		free(g->groups[i].first_group);
	}
	free(g->groups);
}

void tt_ranks_result_release(struct tt_ranks_result *r)
{
	for (size_t i = 0; i < r->nmembers; i++) {
		free(r->members[i].path);
		free(r->members[i].rank_conflict);
	}
	free(r->members);
	free_vals(r->empty_files, r->nempty);
	free_vals(r->divergences, r->ndivergences);
	free_vals(r->compile_ids.details, r->compile_ids.ndetails);
	release_grouping(&r->cache);
	release_grouping(&r->collective_schedule.g);
	for (size_t i = 0; i < r->collective_schedule.nschedules; i++) {
		free(r->collective_schedule.schedules[i].graph);
		free(r->collective_schedule.schedules[i].compile_id);
		free_vals(r->collective_schedule.schedules[i].ops, r->collective_schedule.schedules[i].nops);
	}
	free(r->collective_schedule.schedules);
	release_grouping(&r->tensor_meta);
	for (size_t i = 0; i < r->runtime.ngraphs; i++)
		free(r->runtime.graphs[i].graph);
	free(r->runtime.graphs);
	free(r->execution_order.schedule_mismatch);
	free(r->execution_order.cache_mismatch);
	for (size_t i = 0; i < r->execution_order.nrows; i++) {
		for (size_t c = 0; c < r->execution_order.rows[i].ncells; c++)
			free(r->execution_order.rows[i].cells[c].compile_id);
		free(r->execution_order.rows[i].cells);
	}
	free(r->execution_order.rows);
	for (size_t i = 0; i < r->collectives_parity.ngraphs; i++) {
		free(r->collectives_parity.graphs[i].graph);
		free(r->collectives_parity.graphs[i].compile_id);
	}
	free(r->collectives_parity.graphs);
	memset(r, 0, sizeof(*r));
}
