/* The report's reads from the index (report_data.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logs_query.h"
#include "report_data.h"
#include "strbuf.h"
#include "tt_query.h"
#include "xalloc.h"

/*
 * Who wrote the file f, as the report groups compiles (the same rule as the
 * labels of tt_compiles and tt_records; the values: TT_WHO_SQL, tt_query.h):
 * stored in trace_files.who, computed for a run not fully indexed.
 */
#define WHO(f) "coalesce(" f ".who, " TT_WHO_SQL(f) ")"

/* Columns every record query selects, in this order (rec_from_row). */
#define REC_COLS "r.id, " WHO("f") ", r.lineno, r.file_id, r.ca, r.frame, r.compile, r.attempt," \
	" r.kind, r.name, r.payload_md5, r.md5_declared, r.envelope, f.path"
#define REC_FROM " FROM trace_records r JOIN trace_files f ON f.id = r.file_id"

static int64_t col_id(struct db_stmt *s, int col)
{
	return db_col_is_null(s, col) ? COMPILEID_NONE : db_col_int(s, col);
}

static void rec_from_row(struct db_stmt *s, struct rp_rec *r)
{
	r->id = db_col_int(s, 0);
	r->rank = db_col_int(s, 1);
	r->lineno = db_col_int(s, 2);
	r->file_id = db_col_int(s, 3);
	r->cid.ca = col_id(s, 4);
	r->cid.frame = col_id(s, 5);
	r->cid.compile = col_id(s, 6);
	r->cid.attempt = col_id(s, 7);
	r->kind = db_col_text(s, 8);
	r->name = db_col_text(s, 9);
	r->md5 = db_col_text(s, 10);
	r->md5_declared = db_col_text(s, 11);
	r->envelope = db_col_text(s, 12);
	r->file = db_col_text(s, 13);
}

/* Step s to the end, calling cb per row; 0 or -1. */
static int rec_loop(struct db_stmt *s, rp_rec_cb cb, void *ctx)
{
	int rc;

	while ((rc = db_step(s)) == 1) {
		struct rp_rec r;

		rec_from_row(s, &r);
		if (cb(ctx, &r) < 0) {
			db_reset(s);
			return -1;
		}
	}
	return rc;
}

void rp_occ_key(int64_t rank, const struct compileid *cid, char *out, size_t n)
{
	char dir[COMPILEID_MAX];

	compileid_format_dir(cid, dir, sizeof(dir));
	if (rank >= 0)
		pt_fmt_trunc(out, n, "r%lld_%s", (long long)rank, dir);
	else if (rank < -1)
		pt_fmt_trunc(out, n, "p%lld_%s", (long long)(-1 - rank), dir);
	else
		pt_fmt_trunc(out, n, "-_%s", dir);
}

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
		int64_t id = db_col_int(s, 0), k[5] = {file_id, col_id(s, 1), col_id(s, 2), col_id(s, 3),
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

		rec_from_row(s, &r);
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
		o->cid.ca = col_id(s, 2);
		o->cid.frame = col_id(s, 3);
		o->cid.compile = col_id(s, 4);
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
		o->cid.ca = col_id(s, 2);
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

/* ---- stacks ---- */

static const char SQL_STACKS[] =
	"SELECT " REC_COLS REC_FROM " WHERE r.run_id = ? AND r.kind = 'dynamo_start' ORDER BY r.id";
static const char SQL_UNKNOWN_STACKS[] =
	"SELECT " REC_COLS REC_FROM " WHERE r.run_id = ? AND r.frame IS NULL AND r.ca IS NULL"
	" AND r.kind <> 'str' AND r.kind <> 'chromium_event'"
	" AND instr(r.envelope, '\"stack\": [') > 0 ORDER BY r.id";
static const char SQL_STRING[] =
	"SELECT value FROM trace_strings WHERE file_id = ? AND idx = ?";

char *rp_frame_text(struct db *ix, int64_t file_id, json_t *fr)
{
	json_t *fn = json_object_get(fr, "filename");
	const char *name = json_string_value(json_object_get(fr, "name"));
	const char *loc = json_string_value(json_object_get(fr, "loc"));
	long long line = json_integer_value(json_object_get(fr, "line"));
	char *file = NULL, *out;

	if (json_is_integer(fn)) {
		struct db_stmt *s = db_prepare(ix, SQL_STRING);

		if (s && db_bind(s, "ii", file_id, (int64_t)json_integer_value(fn)) == 0 &&
		    db_step(s) == 1) {
			file = pt_xstrdup(db_col_text(s, 0) ? db_col_text(s, 0) : "?");
			db_reset(s);
		}
	} else if (json_is_string(fn)) {
		file = pt_xstrdup(json_string_value(fn));
	}
	out = pt_xasprintf("%s:%lld in %s%s%s", file ? file : "?", line, name ? name : "?",
			   loc && *loc ? "\n" : "", loc && *loc ? loc : "");
	free(file);
	return out;
}

int rp_stacks(struct db *ix, int64_t run_id, int unknown, rp_stack_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, unknown ? SQL_UNKNOWN_STACKS : SQL_STACKS);
	int rc;

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		struct rp_rec r;
		json_t *env, *st;
		char **frames = NULL;
		size_t n = 0;
		int cbrc;

		rec_from_row(s, &r);
		env = json_loads(r.envelope, 0, NULL);
		st = json_object_get(env, "stack");
		if (!json_is_array(st) && r.kind)
			st = json_object_get(json_object_get(env, r.kind), "stack");
		if (json_is_array(st) && json_array_size(st)) {
			frames = pt_xcalloc(json_array_size(st), sizeof(*frames));
			for (size_t i = 0; i < json_array_size(st); i++)
				frames[n++] = rp_frame_text(ix, r.file_id, json_array_get(st, i));
		}
		json_decref(env);
		cbrc = n ? cb(ctx, r.rank, &r.cid, frames, n, r.kind) : 0;
		for (size_t i = 0; i < n; i++)
			free(frames[i]);
		free(frames);
		if (cbrc < 0) {
			db_reset(s);
			return -1;
		}
	}
	return rc;
}

/* ---- records ---- */

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
		    rec_loop(s, cb, ctx) < 0)
			return -1;
	}
	return 0;
}

static const char SQL_KIND_RECS[] =
	"SELECT " REC_COLS REC_FROM " WHERE r.run_id = ? AND r.kind = ? ORDER BY r.id";

int rp_records_of_kinds(struct db *ix, int64_t run_id, const char *const *kinds,
			rp_rec_cb cb, void *ctx)
{
	for (; *kinds; kinds++) {
		struct db_stmt *s = db_prepare(ix, SQL_KIND_RECS);

		if (!s || db_bind(s, "it", run_id, *kinds) < 0 || rec_loop(s, cb, ctx) < 0)
			return -1;
	}
	return 0;
}

/* Every record with a payload (chromium events aside), in file order. */
static const char SQL_PAYLOAD_RECS[] =
	"SELECT " REC_COLS REC_FROM " WHERE r.run_id = ? AND r.payload_md5 IS NOT NULL"
	" AND r.kind <> 'chromium_event' AND r.kind <> 'str' ORDER BY r.id";

int rp_payload_records(struct db *ix, int64_t run_id, rp_rec_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_PAYLOAD_RECS);

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	return rec_loop(s, cb, ctx);
}

static const char SQL_MISMATCHES[] =
	"SELECT " REC_COLS REC_FROM " WHERE r.run_id = ? AND r.md5_declared IS NOT NULL"
	" ORDER BY r.id LIMIT 1000";

int rp_md5_mismatches(struct db *ix, int64_t run_id, rp_rec_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_MISMATCHES);

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	return rec_loop(s, cb, ctx);
}

static const char SQL_PAYLOADS[] =
	"SELECT payload_md5, kind, name, envelope, count(*) FROM trace_records"
	" WHERE run_id = ? AND payload_md5 IS NOT NULL AND kind <> 'chromium_event'"
	" GROUP BY payload_md5 ORDER BY min(id)";

int rp_payloads(struct db *ix, int64_t run_id, rp_payload_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_PAYLOADS);
	int rc;

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1)
		if (cb(ctx, db_col_text(s, 0), db_col_text(s, 1), db_col_text(s, 2),
		       db_col_text(s, 3), db_col_int(s, 4)) < 0) {
			db_reset(s);
			return -1;
		}
	return rc;
}

static int count_loop(struct db_stmt *s, rp_count_cb cb, void *ctx)
{
	int rc;

	while ((rc = db_step(s)) == 1)
		if (cb(ctx, db_col_text(s, 0), db_col_int(s, 1)) < 0) {
			db_reset(s);
			return -1;
		}
	return rc;
}

static const char SQL_KINDS[] =
	"SELECT kind, count(*) FROM trace_records WHERE run_id = ? GROUP BY kind ORDER BY kind";

int rp_kind_counts(struct db *ix, int64_t run_id, rp_count_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_KINDS);

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	return count_loop(s, cb, ctx);
}

static const char SQL_FILES[] =
	"SELECT path, size, rank, name_rank, json_rank, lines, records, payloads, damaged,"
	" md5_mismatches, rank_conflict FROM trace_files WHERE run_id = ? ORDER BY path";

int rp_files(struct db *ix, int64_t run_id, rp_file_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_FILES);
	int rc;

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		struct rp_file f;
		int64_t *ints[] = {&f.size, &f.rank, &f.name_rank, &f.json_rank, &f.lines,
				   &f.records, &f.payloads, &f.damaged, &f.md5_mismatches};

		f.path = db_col_text(s, 0);
		for (int i = 0; i < 9; i++)
			*ints[i] = db_col_is_null(s, i + 1) ? -1 : db_col_int(s, i + 1);
		f.rank_conflict = db_col_text(s, 10);
		if (cb(ctx, &f) < 0) {
			db_reset(s);
			return -1;
		}
	}
	return rc;
}

static const char SQL_RUN_COUNTS[] =
	"SELECT 'kind:' || kind || CASE WHEN level IS NULL THEN '' ELSE ':' ||"
	"  CASE level WHEN 10 THEN 'DEBUG' WHEN 20 THEN 'INFO' WHEN 30 THEN 'WARNING'"
	"  WHEN 40 THEN 'ERROR' ELSE 'CRITICAL' END END, count(*)"
	" FROM records WHERE" LOGS_RUN_RANGE("id", "1") "GROUP BY 1"
	" UNION ALL SELECT 'artifact:' || artifact, count(*) FROM records"
	" WHERE" LOGS_RUN_RANGE("id", "1") "AND artifact IS NOT NULL GROUP BY artifact"
	" UNION ALL SELECT * FROM (SELECT 'op:' || op, count(*) FROM dispatch_calls"
	" WHERE" LOGS_RUN_RANGE("id", "1") "GROUP BY op ORDER BY count(*) DESC LIMIT 50)";

int rp_run_counts(struct db *ix, int64_t run_id, rp_count_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_RUN_COUNTS);

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	return count_loop(s, cb, ctx);
}

int rp_run_exists(struct db *ix, int64_t run_id)
{
	struct db_stmt *s = db_prepare(ix, "SELECT 1 FROM runs WHERE id = ?");
	int rc;

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	rc = db_step(s);
	if (rc == 1)
		db_reset(s);
	return rc;
}

static const char SQL_RUN_ROW[] =
	"SELECT json_object('id', id, 'name', name, 'source', source, 'argv', json(argv),"
	" 'status', status, 'exit_code', exit_code, 'signal', signal, 'started_us', started_us,"
	" 'ended_us', ended_us, 'torch_version', torch_version, 'host', host, 'cwd', cwd)"
	" FROM runs WHERE id = ?";

json_t *rp_run_row(struct db *ix, int64_t run_id)
{
	struct db_stmt *s = db_prepare(ix, SQL_RUN_ROW);
	json_t *j = NULL;

	if (!s || db_bind(s, "i", run_id) < 0)
		return NULL;
	if (db_step(s) == 1) {
		j = json_loads(db_col_text(s, 0), 0, NULL);
		db_reset(s);
	}
	return j;
}

/* The run's crash: its run_crash row (pttrace run) and its first crash record, either may be missing. */
static const char SQL_CRASH[] =
	"SELECT json_object('signal', (SELECT signal FROM runs WHERE id = ?1),"
	" 'core_note', c.core_note, 'gdb', c.gdb, 'text', r.text, 'src_file', r.src_file,"
	" 'src_line', r.src_line)"
	" FROM (SELECT 1) LEFT JOIN run_crash c ON c.run_id = ?1"
	" LEFT JOIN (SELECT text, src_file, src_line FROM records WHERE" LOGS_RUN_RANGE("id", "1")
	" AND kind = 'crash' ORDER BY id LIMIT 1) r"
	" WHERE c.run_id IS NOT NULL OR r.text IS NOT NULL";

json_t *rp_run_crash(struct db *ix, int64_t run_id)
{
	struct db_stmt *s = db_prepare(ix, SQL_CRASH);
	json_t *j = NULL;

	if (!s || db_bind(s, "i", run_id) < 0)
		return NULL;
	if (db_step(s) == 1) {
		j = json_loads(db_col_text(s, 0), 0, NULL);
		db_reset(s);
	}
	return j;
}

static const char SQL_ERRORS[] =
	"SELECT kind, coalesce(level, 0), text FROM records WHERE" LOGS_RUN_RANGE("id", "1")
	"AND (level >= 40 OR kind IN ('traceback', 'crash')) ORDER BY id LIMIT ?2";

int rp_run_errors(struct db *ix, int64_t run_id, size_t limit, rp_err_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_ERRORS);
	int rc;

	if (!s || db_bind(s, "ii", run_id, (int64_t)limit) < 0)
		return -1;
	while ((rc = db_step(s)) == 1)
		if (cb(ctx, db_col_text(s, 0), db_col_int(s, 1), db_col_text(s, 2)) < 0) {
			db_reset(s);
			return -1;
		}
	return rc;
}

/* Depth first through parent_id, iteratively: the calls come sorted by id, and a
 * callee always follows its caller, so one pass with a stack of open ancestors is
 * the tree in order. */
static const char SQL_CALLS[] =
	"SELECT id, parent_id, op, overload, dispatch_key FROM dispatch_calls"
	" WHERE" LOGS_RUN_RANGE("id", "1") "ORDER BY id LIMIT ?2";

int rp_call_tree(struct db *ix, int64_t run_id, size_t limit, rp_call_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_CALLS);
	int64_t stack[64];
	int depth = 0, rc;

	if (!s || db_bind(s, "ii", run_id, (int64_t)limit) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		int64_t id = db_col_int(s, 0);
		int64_t parent = db_col_is_null(s, 1) ? -1 : db_col_int(s, 1);

		while (depth > 0 && stack[depth - 1] != parent)
			depth--;
		if (cb(ctx, depth, db_col_text(s, 2), db_col_text(s, 3), db_col_text(s, 4)) < 0) {
			db_reset(s);
			return -1;
		}
		if (depth < (int)(PT_ARRAY_SIZE(stack)))
			stack[depth++] = id;
	}
	return rc;
}
