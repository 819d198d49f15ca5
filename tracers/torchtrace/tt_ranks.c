/*
 * Cross-rank checks; see trace_xrank.h. Each check reads what it needs of
 * each member (file) with one query and groups the members by the value, as
 * tlparse groups ranks; "diverge" is set when there is more than one group.
 */
#include "tt_query.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "db_json.h"
#include "strbuf.h"
#include "tt_internal.h"
#include "tt_tlparse.h"
#include "xalloc.h"

struct member {
	int64_t first, last;	/* its trace_records.id range */
	int64_t rank, process;
	char label[48];
	char **ids;		/* folded compile ids "[0/0]" in first-seen order */
	size_t nids;
	long graphs, failed;
};

struct xr {
	struct db *ix;
	struct member *m;
	size_t n;
};

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

static json_t *labels(const struct xr *x, const size_t *idx, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(x->m[idx[i]].label));
	return a;
}

/* The number of sep-separated items of s, and the index of the first that differs from t's (-1 none). */
static long items(const char *s, char sep)
{
	long n = *s != '\0';

	for (; *s; s++)
		n += *s == sep;
	return n;
}

static json_t *first_difference(const char *a, const char *b, char sep)
{
	long i = 0;

	for (;;) {
		size_t la = strcspn(a, (char[2]){sep, 0}), lb = strcspn(b, (char[2]){sep, 0});

		if (la != lb || memcmp(a, b, la)) {
			json_t *o = json_pack("{s:I, s:s%, s:s%}", "index", (json_int_t)i, "here", a, la, "first_group", b, lb);

			return o;
		}
		if (!a[la] || !b[lb]) {
			/* One ends here: the other's next item against "(end)". */
			const char *na = a[la] ? a + la + 1 : "(end)", *nb = b[lb] ? b + lb + 1 : "(end)";

			return a[la] == b[lb] ? json_null()
				: json_pack("{s:I, s:s%, s:s%}", "index", (json_int_t)i + 1, "here", na,
					    strcspn(na, (char[2]){sep, 0}), "first_group", nb, strcspn(nb, (char[2]){sep, 0}));
		}
		a += la + 1;
		b += lb + 1;
		i++;
	}
}

/*
 * Group the members by their value (NULL: the member has none and is left
 * out), items separated by sep. Returns {"diverge", "members_with_data",
 * "groups": [{"sequence", "ranks", "items", "differs_at": {index, here,
 * first_group} (from the second group on)}]}.
 */
static json_t *group(const struct xr *x, char **val, char sep)
{
	json_t *o = json_object(), *groups = json_array();
	size_t *idx = pt_xcalloc(x->n + 1, sizeof(*idx)), with = 0;
	char *done = pt_xcalloc(x->n + 1, 1);

	for (size_t i = 0; i < x->n; i++) {
		size_t k = 0;

		if (!val[i] || done[i])
			continue;
		with++;
		for (size_t j = i; j < x->n; j++)
			if (val[j] && !done[j] && !strcmp(val[i], val[j])) {
				done[j] = 1;
				idx[k++] = j;
				with += j != i;
			}
		{
			json_t *g = json_pack("{s:s, s:o, s:I}", "sequence", val[i], "ranks", labels(x, idx, k),
					      "items", (json_int_t)items(val[i], sep));

			if (json_array_size(groups))
				json_object_set_new(g, "differs_at", first_difference(val[i],
					json_string_value(json_object_get(json_array_get(groups, 0), "sequence")), sep));
			json_array_append_new(groups, g);
		}
	}
	json_object_set_new(o, "diverge", json_boolean(json_array_size(groups) > 1));
	json_object_set_new(o, "members_with_data", json_integer((json_int_t)with));
	json_object_set_new(o, "groups", groups);
	free(idx);
	free(done);
	return o;
}

static void free_vals(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int load_members(struct xr *x, int64_t run_id, json_t *members)
{
	struct db_stmt *s = NULL;
	size_t alloc = 0;
	int rc;

	if (tt_prep(x->ix, &s, SQL_MEMBERS) < 0 || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		struct member *m;
		json_t *o;

		PT_GROW(x->m, x->n, alloc);
		m = &x->m[x->n++];
		memset(m, 0, sizeof(*m));
		m->first = db_col_int(s, 0);
		m->last = db_col_int(s, 8);
		m->rank = db_col_is_null(s, 2) ? -1 : db_col_int(s, 2);
		m->process = db_col_int(s, 3);
		if (m->rank >= 0 && db_col_int(s, 7) == 1)
			pt_fmt_trunc(m->label, sizeof(m->label), "rank %lld", (long long)m->rank);
		else
			pt_fmt_trunc(m->label, sizeof(m->label), "p%lld", (long long)m->process);
		o = json_object();
		json_object_set_new(o, "label", json_string(m->label));
		json_object_set_new(o, "rank", m->rank >= 0 ? json_integer(m->rank) : json_null());
		json_object_set_new(o, "process", json_integer(m->process));
		json_object_set_new(o, "path", json_string(db_col_text(s, 1)));
		json_object_set_new(o, "pid", db_col_is_null(s, 4) ? json_null() : json_integer(db_col_int(s, 4)));
		json_object_set_new(o, "records", json_integer(db_col_int(s, 5)));
		json_object_set_new(o, "rank_conflict", db_col_text(s, 6) ? json_string(db_col_text(s, 6)) : json_null());
		json_array_append_new(members, o);
	}
	return rc < 0 ? -1 : 0;
}

/* Compile ids, graphs and failures of each member; then the compile-id check. */
static int check_compiles(struct xr *x, json_t *members, json_t *checks)
{
	struct db_stmt *s = NULL;
	json_t *details = json_array();

	for (size_t i = 0; i < x->n; i++) {
		struct member *m = &x->m[i];
		size_t alloc = 0;
		int rc;

		if (tt_prep(x->ix, &s, SQL_CIDS) < 0 || db_bind(s, "ii", m->first, m->last) < 0) {
			json_decref(details);
			return -1;
		}
		while ((rc = db_step(s)) == 1) {
			struct compileid id;
			char k[COMPILEID_MAX + 8];

			cid_at(s, 0, &id);
			key_of(&id, k, sizeof(k));
			PT_GROW(m->ids, m->nids, alloc);
			m->ids[m->nids++] = pt_xstrdup(k);
			m->graphs += (long)db_col_int(s, 5);
			m->failed += (long)db_col_int(s, 6);
		}
		if (rc < 0) {
			json_decref(details);
			return -1;
		}
		json_object_set_new(json_array_get(members, i), "compiles", json_integer((json_int_t)m->nids));
		json_object_set_new(json_array_get(members, i), "graphs", json_integer(m->graphs));
		json_object_set_new(json_array_get(members, i), "failed", json_integer(m->failed));
	}
	/* Against the first member: graph counts, ids only one side has, order. */
	for (size_t i = 1; i < x->n; i++) {
		struct member *a = &x->m[0], *b = &x->m[i];
		int same_set = a->nids == b->nids;

		if (b->graphs != a->graphs)
			json_array_append_new(details, json_sprintf("%s compiled %ld graphs, %s %ld", b->label,
								    b->graphs, a->label, a->graphs));
		for (int side = 0; side < 2; side++) {
			struct member *p = side ? a : b, *q = side ? b : a;

			for (size_t k = 0; k < p->nids; k++) {
				int found = 0;

				for (size_t j = 0; j < q->nids && !found; j++)
					found = !strcmp(p->ids[k], q->ids[j]);
				if (!found) {
					same_set = 0;
					json_array_append_new(details, json_sprintf("%s compiled %s, %s did not",
										    p->label, p->ids[k], q->label));
				}
			}
		}
		if (same_set) {
			for (size_t k = 0; k < a->nids; k++)
				if (strcmp(a->ids[k], b->ids[k])) {
					json_array_append_new(details, json_sprintf("%s compiled in another order than %s",
										    b->label, a->label));
					break;
				}
		}
	}
	json_object_set_new(checks, "compile_ids", json_pack("{s:b, s:o}", "diverge", json_array_size(details) > 0,
							     "details", details));
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

static int check_cache(struct xr *x, json_t *checks)
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
		json_object_set_new(checks, "cache", group(x, val, ' '));
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

/* The ops of a schedule payload joined by ",", or NULL when it is no list of strings or empty. */
static char *schedule_ops(const char *data, size_t len)
{
	json_t *a = json_loadb(data, len, 0, NULL), *v;
	struct pt_strbuf sb;
	size_t i;
	int ok = json_is_array(a) && json_array_size(a);

	pt_strbuf_init(&sb, 1 << 24);
	json_array_foreach(a, i, v) {
		ok &= json_is_string(v);
		if (ok)
			pt_strbuf_addf_trunc(&sb, "%s%s", i ? "," : "", json_string_value(v));
	}
	json_decref(a);
	if (!ok) {
		pt_strbuf_release(&sb);
		return NULL;
	}
	return pt_strbuf_detach(&sb);
}

/* Collective schedules: per member the ops of every graph's schedule, in graph order. */
static int check_schedules(struct xr *x, json_t *checks, json_t **by_graph)
{
	char **val = pt_xcalloc(x->n + 1, sizeof(*val));
	int any = 0;
	json_t *list = json_array();	/* tlparse's collective_schedules.json: {rank, graph, ops} */

	*by_graph = json_object();	/* "label\t[0/1]" -> ops, for the execution order check */
	for (size_t i = 0; i < x->n; i++) {
		struct art *a;
		size_t n;
		struct pt_strbuf sb;

		if (load_arts(x, &x->m[i], "artifact", "inductor_collective_schedule", &a, &n) < 0) {
			free_vals(val, x->n);
			json_decref(list);
			return -1;
		}
		pt_strbuf_init(&sb, 1 << 24);
		for (size_t k = 0; k < n; k++) {
			char *ops = schedule_ops(a[k].data, a[k].len);

			if (!ops)
				continue;
			any = 1;
			pt_strbuf_addf_trunc(&sb, "%s%s", sb.len ? "," : "", ops);
			char key[sizeof(x->m[i].label) + sizeof(a[k].key) + 2];

			pt_fmt_trunc(key, sizeof(key), "%s\t%s", x->m[i].label, a[k].key);
			json_object_set_new(*by_graph, key, json_string(ops));
			json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:o}", "rank", x->m[i].label, "graph",
							      a[k].dir, "compile_id", a[k].key, "ops",
							      json_loadb(a[k].data, a[k].len, 0, NULL)));
			free(ops);
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
	{
		json_t *g = group(x, val, ',');

		json_object_set_new(g, "schedules", list);
		json_object_set_new(checks, "collective_schedule", g);
	}
	free_vals(val, x->n);
	return 0;
}

/* Tensor meta and runtime estimates: inductor_runtime_and_tensor_meta per graph. */
static int check_runtime(struct xr *x, json_t *checks)
{
	char **val = pt_xcalloc(x->n + 1, sizeof(*val));
	double **rt = pt_xcalloc(x->n + 1, sizeof(*rt));
	char ***gname = pt_xcalloc(x->n + 1, sizeof(*gname));
	size_t *ng = pt_xcalloc(x->n + 1, sizeof(*ng)), with = 0, minn = (size_t)-1, maxn = 0;
	json_t *rto = json_object(), *graphs = json_array();

	for (size_t i = 0; i < x->n; i++) {
		struct art *a;
		size_t n;
		struct pt_strbuf sb;
		int have = 0;

		if (load_arts(x, &x->m[i], "artifact", "inductor_runtime_and_tensor_meta", &a, &n) < 0)
			return -1;
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
	json_object_set_new(checks, "tensor_meta", group(x, val, '\n'));
	json_object_set_new(rto, "members_with_data", json_integer((json_int_t)with));
	json_object_set_new(rto, "mismatched_graph_counts", json_boolean(with > 1 && minn != maxn));
	if (with > 1 && minn == maxn) {
		/* Per graph index: the fastest and slowest member and the difference (tlparse rounds to µs). */
		for (size_t g = 0; g < maxn; g++) {
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
			json_array_append_new(graphs, json_pack("{s:s, s:f, s:{s:s, s:f}, s:{s:s, s:f}}",
				"graph", gname[first][g], "delta_ms", (double)(long long)((hi - lo) / 1e3 + 0.5) / 1e3,
				"fastest", "rank", x->m[fast].label, "runtime_ms", (double)(long long)(lo / 1e3 + 0.5) / 1e3,
				"slowest", "rank", x->m[slow].label, "runtime_ms", (double)(long long)(hi / 1e3 + 0.5) / 1e3));
		}
	}
	json_object_set_new(rto, "graphs", graphs);
	/* Different numbers of graphs are a divergence; deltas are information. */
	json_object_set_new(rto, "diverge", json_boolean(with > 1 && minn != maxn));
	json_object_set_new(checks, "runtime", rto);
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
	return 0;
}

/* The execution order each member logged (graph_execution), and where it and the graphs differ. */
static int check_exec_order(struct xr *x, json_t *checks, json_t *sched)
{
	struct db_stmt *s = NULL;
	json_t **order = pt_xcalloc(x->n + 1, sizeof(*order));
	json_t *o = json_object(), *rows = json_array(), *cache = json_object();
	json_t *sm = json_array(), *cm = json_array();
	size_t with = 0, maxlen = 0;
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
			order[i] = json_array();
			json_array_foreach(arr, k, v) {
				const char *c = json_is_string(v) ? json_string_value(v)
								  : json_string_value(json_object_get(v, "compile_id"));

				if (c)
					json_array_append_new(order[i], json_sprintf("[%s]", c));
			}
			with++;
			maxlen = json_array_size(order[i]) > maxlen ? json_array_size(order[i]) : maxlen;
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
			key = json_sprintf("%s\t%s", x->m[i].label, k);
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
		json_t *by = json_object(), *issues = json_array();
		const char *first_cid = NULL, *first_s = NULL, *first_c = NULL;
		int sdiff = 0, cdiff = 0;

		for (size_t i = 0; i < x->n; i++) {
			const char *cid = json_string_value(json_array_get(order[i], idx));
			json_t *key;
			const char *sv, *cv;

			if (!cid)
				continue;
			json_object_set_new(by, x->m[i].label, json_string(cid));
			if (first_cid && strcmp(first_cid, cid))
				differs = 1;
			first_cid = first_cid ? first_cid : cid;
			key = json_sprintf("%s\t%s", x->m[i].label, cid);
			sv = json_string_value(json_object_get(sched, json_string_value(key)));
			cv = json_string_value(json_object_get(cache, json_string_value(key)));
			json_decref(key);
			if (sv) {
				sdiff |= first_s && strcmp(first_s, sv);
				first_s = first_s ? first_s : sv;
			}
			if (cv) {
				cdiff |= first_c && strcmp(first_c, cv);
				first_c = first_c ? first_c : cv;
			}
		}
		if (sdiff)
			json_array_append_new(issues, json_string("schedule"));
		if (cdiff)
			json_array_append_new(issues, json_string("cache"));
		for (int kind = 0; kind < 2; kind++) {
			const char *lab;
			json_t *v, *list = kind ? cm : sm;

			if (!(kind ? cdiff : sdiff))
				continue;
			json_object_foreach(by, lab, v) {
				int seen = 0;
				size_t q;
				json_t *w;

				json_array_foreach(list, q, w)
					seen |= !strcmp(json_string_value(w), lab);
				if (!seen)
					json_array_append_new(list, json_string(lab));
			}
		}
		json_array_append_new(rows, json_pack("{s:I, s:o, s:o}", "index", (json_int_t)idx, "by_rank", by,
						      "issues", issues));
	}
	json_object_set_new(o, "members_with_data", json_integer((json_int_t)with));
	json_object_set_new(o, "order_differs", json_boolean(differs));
	json_object_set_new(o, "schedule_mismatch", sm);
	json_object_set_new(o, "cache_mismatch", cm);
	json_object_set_new(o, "diverge", json_boolean(differs || json_array_size(sm) || json_array_size(cm)));
	json_object_set_new(o, "rows", rows);
	json_object_set_new(checks, "execution_order", o);
	json_decref(cache);
	for (size_t i = 0; i < x->n; i++)
		json_decref(order[i]);
	free(order);
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

static int check_parity(struct xr *x, json_t *checks)
{
	json_t *graphs = json_array();
	size_t with = 0;

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
				if (off || miss)
					json_array_append_new(graphs, json_pack("{s:s, s:s, s:s, s:I, s:I}", "rank",
						x->m[i].label, "graph", sch[k].dir, "compile_id", sch[k].key,
						"offset", (json_int_t)off, "missing_waits", (json_int_t)miss));
				break;
			}
		free_arts(sch, ns);
		free_arts(code, nc);
	}
	json_object_set_new(checks, "collectives_parity", json_pack("{s:b, s:I, s:o}", "diverge",
		json_array_size(graphs) > 0, "graphs_checked", (json_int_t)with, "graphs", graphs));
	return 0;
}

/* One line per divergence: the compile-id details, then one per other check that diverges. */
static json_t *summary(json_t *checks)
{
	static const char *const names[][2] = {
		{"cache", "cache hit/miss patterns"}, {"collective_schedule", "collective schedules"},
		{"tensor_meta", "tensor meta"},
	};
	json_t *d = json_deep_copy(json_object_get(json_object_get(checks, "compile_ids"), "details")), *c;

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		c = json_object_get(checks, names[i][0]);
		if (json_is_true(json_object_get(c, "diverge")))
			json_array_append_new(d, json_sprintf("%s: %zu groups of ranks", names[i][1],
							      json_array_size(json_object_get(c, "groups"))));
	}
	if (json_is_true(json_object_get(json_object_get(checks, "runtime"), "mismatched_graph_counts")))
		json_array_append_new(d, json_string("runtime estimates: ranks estimated different numbers of graphs"));
	c = json_object_get(checks, "execution_order");
	if (json_is_true(json_object_get(c, "order_differs")))
		json_array_append_new(d, json_string("graph execution order differs"));
	if (json_array_size(json_object_get(c, "schedule_mismatch")))
		json_array_append_new(d, json_string("graph execution order: collective schedules differ at the same position"));
	if (json_array_size(json_object_get(c, "cache_mismatch")))
		json_array_append_new(d, json_string("graph execution order: cache hit/miss differs at the same position"));
	c = json_object_get(checks, "collectives_parity");
	if (json_array_size(json_object_get(c, "graphs")))
		json_array_append_new(d, json_sprintf("collectives parity: %zu graphs whose code and schedule differ",
						      json_array_size(json_object_get(c, "graphs"))));
	return d;
}

int tt_ranks_json(struct db *ix, int64_t run_id, json_t **out, struct pt_diag *diag)
{
	struct xr x = {ix, NULL, 0};
	json_t *o = json_object(), *members = json_array(), *checks = json_object(), *empty, *sched = NULL;
	const char *k;
	json_t *c;
	int diverge = 0, rc = -1;

	(void)diag;
	*out = NULL;
	if (load_members(&x, run_id, members) < 0 || check_compiles(&x, members, checks) < 0 ||
	    check_cache(&x, checks) < 0 || check_schedules(&x, checks, &sched) < 0 ||
	    check_runtime(&x, checks) < 0 || check_exec_order(&x, checks, sched) < 0 ||
	    check_parity(&x, checks) < 0)
		goto out;
	empty = db_json(ix, SQL_EMPTY, "i", run_id);
	if (!empty)
		goto out;
	json_object_foreach(checks, k, c)
		diverge |= json_is_true(json_object_get(c, "diverge"));
	json_object_set_new(o, "divergences", summary(checks));
	/* "ranks": the members under the name the first version of `ranks --json` used. */
	json_object_set_new(o, "ranks", json_incref(members));
	json_object_set_new(o, "members", members);
	json_object_set_new(o, "empty_files", empty);
	json_object_set_new(o, "reference", x.n ? json_string(x.m[0].label) : json_null());
	json_object_set_new(o, "checks", checks);
	json_object_set_new(o, "diverge", json_boolean(diverge));
	*out = o;
	o = members = checks = NULL;
	rc = 0;
out:
	json_decref(sched);
	json_decref(o);
	json_decref(members);
	json_decref(checks);
	for (size_t i = 0; i < x.n; i++) {
		for (size_t j = 0; j < x.m[i].nids; j++)
			free(x.m[i].ids[j]);
		free(x.m[i].ids);
	}
	free(x.m);
	return rc;
}
