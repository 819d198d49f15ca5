/*
 * The report's compile occurrences (rp_occs_load: one per compilation_metrics,
 * dynamo_start without metrics, compiled-autograd capture) and the compile
 * index rp_compile_records reads a compile's records through (report_data.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_data.h"
#include "xalloc.h"

/* ---- the compile index ---- */

/*
 * The compile index: per trace file, the stretches of record ids each compile's
 * records take (a stretch ends where another compile's record comes; chromium
 * events and str records, which no page lists, do not end one). A group is one
 * (file, compile id with a missing attempt as 0), as the old per-page query
 * matched; the page query keeps its whole WHERE and only adds the stretch.
 */
struct stretch {
	int64_t lo, hi;
};

struct cgroup {
	int64_t key[5];		/* file_id, ca, frame, compile, attempt (cidmap_key's) */
	struct stretch *v;
	size_t n, alloc;
};

struct rp_cindex {
	struct cidmap map;	/* key -> v[0], the group's index */
	struct cgroup *g;
	size_t ng, ag;
	int64_t *files;		/* files indexed, sorted */
	size_t nfiles, afiles;
	uint64_t rows;		/* trace_records rows the scans and stretches cover */
};

/* The index of k's group, or -1; with add, created (empty) when missing. */
static int64_t group_get(struct rp_cindex *ci, const int64_t *k, int add)
{
	int64_t *v = cidmap_get(&ci->map, k, add);

	if (!v)
		return -1;
	if (v[0] < 0) {
		PT_GROW(ci->g, ci->ng, ci->ag);
		memset(&ci->g[ci->ng], 0, sizeof(ci->g[ci->ng]));
		memcpy(ci->g[ci->ng].key, k, sizeof(ci->g[ci->ng].key));
		v[0] = (int64_t)ci->ng++;
	}
	return v[0];
}

static int file_indexed(const struct rp_cindex *ci, int64_t file_id)
{
	size_t lo = 0, hi = ci->nfiles;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ci->files[mid] == file_id)
			return 1;
		if (ci->files[mid] < file_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static const char SQL_FILE_SCAN[] =
	"SELECT id, ca, frame, compile, coalesce(attempt, 0), kind = 'chromium_event' OR kind = 'str'"
	" FROM trace_records WHERE id BETWEEN (SELECT first_record FROM trace_files WHERE id = ?2)"
	" AND (SELECT coalesce(last_record, 9223372036854775807) FROM trace_files WHERE id = ?2)"
	" AND +run_id = ?1 AND file_id = ?2 ORDER BY id";

/* Read the file's records once (ids and compile ids) into the index. */
static int index_file(struct db *ix, struct rp_cindex *ci, int64_t run_id, int64_t file_id)
{
	struct db_stmt *s = db_prepare(ix, SQL_FILE_SCAN);
	struct cgroup *last = NULL;
	int64_t first = -1, end = -1, gi;
	size_t pos;
	int rc;

	if (!s || db_bind(s, "ii", run_id, file_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		int64_t id = db_col_int(s, 0), k[5] = {file_id, rp_col_id(s, 1), rp_col_id(s, 2), rp_col_id(s, 3),
							 db_col_int(s, 4)};

		if (first < 0)
			first = id;
		end = id;
		if (db_col_int(s, 5))
			continue;	/* left out of every page: a stretch goes on over it */
		/* The same group as the record before: its stretch grows. */
		if (last && !memcmp(last->key, k, sizeof(k))) {
			last->v[last->n - 1].hi = id;
			continue;
		}
		gi = group_get(ci, k, 1);
		last = &ci->g[gi];	/* until the next group_get, which may move the groups */
		PT_GROW(last->v, last->n, last->alloc);
		last->v[last->n++] = (struct stretch){id, id};
	}
	if (rc < 0)
		return -1;
	if (first >= 0)
		ci->rows += (uint64_t)(end - first + 1);
	PT_GROW(ci->files, ci->nfiles, ci->afiles);
	for (pos = ci->nfiles; pos > 0 && ci->files[pos - 1] > file_id; pos--)
		ci->files[pos] = ci->files[pos - 1];
	ci->files[pos] = file_id;
	ci->nfiles++;
	return 0;
}

static struct cgroup *compile_group(struct db *ix, struct rp_occs *occs, int64_t run_id,
				    int64_t file_id, const struct compileid *cid, int *err)
{
	int64_t k[5], gi;

	*err = 0;
	if (!occs->ci)
		occs->ci = pt_xcalloc(1, sizeof(*occs->ci));
	if (!file_indexed(occs->ci, file_id) && index_file(ix, occs->ci, run_id, file_id) < 0) {
		*err = -1;
		return NULL;
	}
	cidmap_key(k, file_id, cid);
	gi = group_get(occs->ci, k, 0);
	return gi < 0 ? NULL : &occs->ci->g[gi];
}

static void cindex_free(struct rp_cindex *ci)
{
	if (!ci)
		return;
	for (size_t i = 0; i < ci->ng; i++)
		free(ci->g[i].v);
	free(ci->g);
	cidmap_release(&ci->map);
	free(ci->files);
	free(ci);
}

uint64_t rp_compile_rows_read(const struct rp_occs *occs)
{
	return occs->ci ? occs->ci->rows : 0;
}

/* ---- compile occurrences ---- */

static double num_or(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : -1;
}

static double secs_or(json_t *o, const char *s_key, const char *us_key)
{
	double v = num_or(o, s_key);

	if (v < 0 && (v = num_or(o, us_key)) >= 0)
		v /= 1e6;
	return v;
}

static int64_t int_or(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

static char *str_or(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (json_is_string(v))
		return pt_xstrdup(json_string_value(v));
	if (v && !json_is_null(v))
		return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	return NULL;
}

static const char SQL_METRICS[] =
	"SELECT " REC_COLS REC_FROM
	" WHERE r.run_id = ? AND r.kind = 'compilation_metrics' ORDER BY r.id";
/*
 * The cache artifacts of a compile id between two records (exclusive), in its
 * file: a rowid range (the + keep SQLite off the kind index, which would read
 * every rank's records of that compile id).
 */
static const char SQL_CACHE[] =
	"SELECT name FROM trace_records WHERE +run_id = ?1 AND +kind = 'artifact'"
	" AND frame IS ?2 AND compile IS ?3 AND ca IS ?4 AND file_id = ?5"
	" AND coalesce(attempt, 0) = ?6 AND id > ?7 AND id < ?8"
	" AND (name LIKE 'fx_graph_cache_%' OR name LIKE 'aotautograd_cache_%') ORDER BY id";
/* Compile ids that started (dynamo_start) and never logged compilation_metrics. */
static const char SQL_MISSING[] =
	"SELECT min(r.id), " WHO("f") ", r.ca, r.frame, r.compile, coalesce(r.attempt, 0), r.file_id"
	" FROM trace_records r JOIN trace_files f ON f.id = r.file_id"
	" WHERE r.run_id = ?1 AND r.kind = 'dynamo_start'"
	" AND NOT EXISTS (SELECT 1 FROM trace_records m WHERE m.run_id = ?1"
	"  AND m.kind = 'compilation_metrics' AND m.frame IS r.frame AND m.compile IS r.compile"
	"  AND m.ca IS r.ca AND m.file_id = r.file_id AND coalesce(m.attempt, 0) = coalesce(r.attempt, 0))"
	" GROUP BY r.file_id, r.ca, r.frame, r.compile, coalesce(r.attempt, 0) ORDER BY min(r.id)";

/* Compiled-autograd captures (torch 2.14: records at [!0], compiled_autograd_id and no
 * frame): one each, status "autograd"; they never have dynamo_start or metrics. */
static const char SQL_CAPTURES[] =
	"SELECT min(r.id), " WHO("f") ", r.ca, r.file_id"
	" FROM trace_records r JOIN trace_files f ON f.id = r.file_id"
	" WHERE r.run_id = ?1 AND r.ca IS NOT NULL AND r.frame IS NULL"
	" GROUP BY r.file_id, r.ca ORDER BY min(r.id)";

static void occ_set_cache(struct rp_occ *o, const char *name)
{
	const char *u = strrchr(name, '_');
	char **slot = !strncmp(name, "fx_graph_cache_", 15) ? &o->fx_cache : &o->aot_cache;

	if (!u || !strcmp(u, "_hash"))
		return;
	free(*slot);
	*slot = pt_xstrdup(u + 1);
}

static void occ_from_metrics(struct rp_occ *o, json_t *m)
{
	json_t *rr = json_object_get(m, "restart_reasons");

	o->co_name = str_or(m, "co_name");
	o->co_filename = str_or(m, "co_filename");
	o->co_firstlineno = int_or(m, "co_firstlineno");
	/* Seconds in 2.x until late 2024; later builds log microseconds (*_us) instead. */
	o->t_entire = secs_or(m, "entire_frame_compile_time_s", "dynamo_cumulative_compile_time_us");
	o->t_backend = secs_or(m, "backend_compile_time_s", "aot_autograd_cumulative_compile_time_us");
	o->t_inductor = secs_or(m, "inductor_compile_time_s", "inductor_cumulative_compile_time_us");
	o->start_time = num_or(m, "start_time");
	if (o->start_time < 0 && num_or(m, "start_time_us") >= 0)
		o->start_time = num_or(m, "start_time_us") / 1e6;
	o->ops = int_or(m, "graph_op_count");
	o->nodes = int_or(m, "graph_node_count");
	o->inputs = int_or(m, "graph_input_count");
	o->guards = int_or(m, "guard_count");
	o->shape_guards = int_or(m, "shape_env_guard_count");
	o->fail_type = str_or(m, "fail_type");
	o->fail_reason = str_or(m, "fail_reason");
	if (json_is_array(rr) && json_array_size(rr))
		o->restart_reasons = json_incref(rr);
	else if (json_is_string(rr) && *json_string_value(rr))	/* some builds log one string */
		o->restart_reasons = json_pack("[O]", rr);
	/* restart_reasons on a later attempt ([0/0_1]) say why the attempt before it
	 * restarted (early-2024 traces): that one is "restarted", this one is judged by
	 * its own fields. */
	o->status = o->fail_type ? "failed"
		    : o->restart_reasons && o->cid.attempt <= 0 ? "restarted"
		    : o->ops == 0 ? "empty" : "ok";
}

static struct rp_occ *occ_add(struct rp_occs *out, size_t *alloc)
{
	struct rp_occ *o;

	PT_GROW(out->v, out->n, *alloc);
	o = &out->v[out->n++];
	memset(o, 0, sizeof(*o));
	o->t_entire = o->t_backend = o->t_inductor = o->start_time = -1;
	o->ops = o->nodes = o->inputs = o->guards = o->shape_guards = o->co_firstlineno = -1;
	return o;
}

static int occ_cmp(const void *pa, const void *pb)
{
	const struct rp_occ *a = pa, *b = pb;

	return (a->id > b->id) - (a->id < b->id);
}

int rp_occs_load(struct db *ix, int64_t run_id, struct rp_occs *out)
{
	struct db_stmt *s, *c;
	struct cgroup *g;
	struct cidmap last = {0};	/* (who, compile id) -> its latest occurrence so far */
	size_t alloc = 0;
	int rc, err;

	memset(out, 0, sizeof(*out));
	if (!(s = db_prepare(ix, SQL_METRICS)) || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		struct rp_rec r;
		struct rp_occ *o = occ_add(out, &alloc);
		json_t *env, *m;
		int64_t prev = 0;

		rp_rec_from_row(s, &r);
		o->id = r.id;
		o->rank = r.rank;
		o->file_id = r.file_id;
		o->cid = r.cid;
		env = json_loads(r.envelope, 0, NULL);
		m = json_object_get(env, "compilation_metrics");
		if (json_is_object(m)) {
			occ_from_metrics(o, m);
			o->metrics = json_incref(m);
		} else {
			o->status = "ok";
		}
		json_decref(env);
		/* The previous occurrence of the same compile: its id bounds the cache search. */
		o->nth = 1;
		{
			int64_t k[5], *v;

			cidmap_key(k, o->rank, &o->cid);
			v = cidmap_get(&last, k, 1);
			if (v[0] >= 0) {
				prev = out->v[v[0]].id;
				o->nth = out->v[v[0]].nth + 1;
			}
			v[0] = (int64_t)(out->n - 1);
		}
		if (o->cid.frame == COMPILEID_NONE)
			continue;
		/* Read by the compile's stretches between the two (the file's prefix for each
		 * compile would make the load quadratic in the compiles of a file). */
		if (!(g = compile_group(ix, out, run_id, o->file_id, &o->cid, &err)) && err < 0) {
			db_reset(s);
			cidmap_release(&last);
			return -1;
		}
		for (size_t k = 0; g && k < g->n; k++) {
			int64_t lo = g->v[k].lo > prev ? g->v[k].lo : prev + 1;
			int64_t hi = g->v[k].hi < o->id ? g->v[k].hi : o->id - 1;

			if (lo > hi)
				continue;
			out->ci->rows += (uint64_t)(hi - lo + 1);
			if (!(c = db_prepare(ix, SQL_CACHE)) ||
			    db_bind(c, "iIIIiiii", run_id, o->cid.frame, o->cid.compile, o->cid.ca, o->file_id,
				       o->cid.attempt < 0 ? (int64_t)0 : o->cid.attempt, lo - 1, hi + 1) < 0) {
				db_reset(s);
				cidmap_release(&last);
				return -1;
			}
			while ((rc = db_step(c)) == 1)
				occ_set_cache(o, db_col_text(c, 0));
			if (rc < 0) {
				db_reset(s);
				cidmap_release(&last);
				return -1;
			}
		}
	}
	cidmap_release(&last);
	if (rc < 0)
		return -1;
	if (!(s = db_prepare(ix, SQL_MISSING)) || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		struct rp_occ *o = occ_add(out, &alloc);

		o->id = db_col_int(s, 0);
		o->rank = db_col_int(s, 1);
		o->file_id = db_col_int(s, 6);
		o->cid.ca = rp_col_id(s, 2);
		o->cid.frame = rp_col_id(s, 3);
		o->cid.compile = rp_col_id(s, 4);
		o->cid.attempt = db_col_int(s, 5);
		o->nth = 1;
		o->status = "missing";
	}
	if (rc < 0)
		return -1;
	if (!(s = db_prepare(ix, SQL_CAPTURES)) || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		struct rp_occ *o = occ_add(out, &alloc);

		o->id = db_col_int(s, 0);
		o->rank = db_col_int(s, 1);
		o->file_id = db_col_int(s, 3);
		o->cid.ca = rp_col_id(s, 2);
		o->cid.frame = o->cid.compile = COMPILEID_NONE;
		o->cid.attempt = 0;
		o->nth = 1;
		o->status = "autograd";
	}
	if (rc < 0)
		return -1;
	/* A started attempt followed by a later attempt of the same compile was restarted:
	 * the highest attempt of each (who, ca, frame, compile) says. */
	for (size_t i = 0; i < out->n; i++) {
		const struct rp_occ *q = &out->v[i];
		int64_t k[5] = {q->rank, q->cid.ca, q->cid.frame, q->cid.compile, 0};
		int64_t *v = cidmap_get(&last, k, 1);

		if (v[1] < 0 || q->cid.attempt > v[0])
			v[0] = q->cid.attempt;
		v[1] = 1;
	}
	for (size_t i = 0; i < out->n; i++) {
		struct rp_occ *m = &out->v[i];
		int64_t k[5] = {m->rank, m->cid.ca, m->cid.frame, m->cid.compile, 0};

		if (!strcmp(m->status, "missing") && cidmap_get(&last, k, 0)[0] > m->cid.attempt)
			m->status = "restarted";
	}
	cidmap_release(&last);
	/*
	 * A compile without compilation_metrics of its own (a restarted first attempt,
	 * a start that never finished) takes the function of another compile of its
	 * frame (the same code object): its pages say "f", not "?".
	 */
	for (size_t i = 0; i < out->n; i++) {
		const struct rp_occ *q = &out->v[i];
		int64_t *v;

		if (!q->co_name || q->cid.frame == COMPILEID_NONE)
			continue;
		v = cidmap_get(&last, (int64_t[5]){q->rank, q->cid.ca, q->cid.frame, 0, 0}, 1);
		if (v[0] < 0)
			v[0] = (int64_t)i;
	}
	for (size_t i = 0; i < out->n; i++) {
		struct rp_occ *m = &out->v[i];
		const int64_t *v;

		if (m->co_name || m->cid.frame == COMPILEID_NONE ||
		    !(v = cidmap_get(&last, (int64_t[5]){m->rank, m->cid.ca, m->cid.frame, 0, 0}, 0)))
			continue;
		m->co_name = pt_xstrdup(out->v[v[0]].co_name);
		if (!m->co_filename && out->v[v[0]].co_filename) {
			m->co_filename = pt_xstrdup(out->v[v[0]].co_filename);
			m->co_firstlineno = out->v[v[0]].co_firstlineno;
		}
	}
	cidmap_release(&last);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), occ_cmp);
	return 0;
}

void rp_occs_release(struct rp_occs *o)
{
	for (size_t i = 0; i < o->n; i++) {
		struct rp_occ *x = &o->v[i];

		free(x->co_name);
		free(x->co_filename);
		free(x->fx_cache);
		free(x->aot_cache);
		free(x->fail_type);
		free(x->fail_reason);
		json_decref(x->restart_reasons);
		json_decref(x->metrics);
	}
	free(o->v);
	cindex_free(o->ci);
	memset(o, 0, sizeof(*o));
}

/* A compile's records in one stretch of its file's ids (the stretch from the index). */
static const char SQL_COMPILE_RECS[] =
	"SELECT " REC_COLS REC_FROM " WHERE r.id BETWEEN ?7 AND ?8"
	" AND +r.run_id = ?1 AND r.frame IS ?2 AND r.compile IS ?3"
	" AND r.ca IS ?4 AND r.file_id = ?5 AND coalesce(r.attempt, 0) = ?6"
	" AND r.kind <> 'chromium_event' AND r.kind <> 'str' ORDER BY r.id";

int rp_compile_records(struct db *ix, struct rp_occs *occs, int64_t run_id, int64_t file_id,
		       const struct compileid *cid, rp_rec_cb cb, void *ctx)
{
	int err;
	struct cgroup *g = compile_group(ix, occs, run_id, file_id, cid, &err);

	if (!g)
		return err;
	for (size_t i = 0; i < g->n; i++) {
		struct db_stmt *s = db_prepare(ix, SQL_COMPILE_RECS);

		occs->ci->rows += (uint64_t)(g->v[i].hi - g->v[i].lo + 1);
		if (!s || db_bind(s, "iIIIiiii", run_id, cid->frame, cid->compile, cid->ca, file_id,
				     cid->attempt < 0 ? (int64_t)0 : cid->attempt, g->v[i].lo, g->v[i].hi) < 0 ||
		    rp_rec_loop(s, cb, ctx) < 0)
			return -1;
	}
	return 0;
}
