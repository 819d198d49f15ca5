/*
 * Compiles of a run, aggregated in C from one ordered scan of the run's
 * compile-tagged records (the number of compile ids is small; records are
 * streamed, not loaded). See tt_query.h.
 */
#include "tt_internal.h"

#include <stdlib.h>
#include <string.h>

#include "cmp.h"
#include "jsonout.h"
#include "strbuf.h"
#include "xalloc.h"

static const char SQL_COMPILE_RECS[] =
	"SELECT id, rank, ca, frame, compile, attempt, kind, name, envelope, payload_md5, file_id"
	" FROM trace_records WHERE run_id = ?1"
	" AND (frame IS NOT NULL OR ca IS NOT NULL OR kind = 'compilation_metrics')"
	" AND kind <> 'chromium_event' AND (?2 < 0 OR rank = ?2) ORDER BY id";
static const char SQL_STR[] = "SELECT value FROM trace_strings WHERE file_id = ? AND idx = ?";

/*
 * The load's lookups, so that none is a search (N4, N15): artifact names of each
 * compile, and per file and compile id the latest compile and the highest attempt.
 * Open addressing; a slot is used when ci != 0 (1 + the compile's index).
 */
struct art_slot {
	size_t ci, ai;		/* 1 + compile index, artifact index */
	uint32_t h;
};
struct lookups {
	struct art_slot *a;
	size_t acap, aused;
	struct cidmap c;	/* file_id, ca, frame, compile, attempt (-2: any) -> v[0] */
};

static void lookups_release(struct lookups *l)
{
	free(l->a);
	cidmap_release(&l->c);
	memset(l, 0, sizeof(*l));
}

static uint32_t art_hash(size_t ci, const char *label)
{
	return pt_hash_str(label) ^ (uint32_t)(ci * 2654435761u);
}

static void art_put(struct lookups *l, size_t ci, size_t ai, uint32_t h)
{
	size_t i = h & (l->acap - 1);

	while (l->a[i].ci)
		i = (i + 1) & (l->acap - 1);
	l->a[i] = (struct art_slot){ci + 1, ai, h};
}

/* Count one payload of label in compile ci (arts in first-seen order). */
static void add_art(struct lookups *l, struct tt_compiles *out, size_t ci, const char *label)
{
	struct tt_compile *c = &out->v[ci];
	uint32_t h = art_hash(ci, label);

	if (l->acap)
		for (size_t i = h & (l->acap - 1); l->a[i].ci; i = (i + 1) & (l->acap - 1))
			if (l->a[i].h == h && l->a[i].ci == ci + 1 && !strcmp(c->arts[l->a[i].ai].kind, label)) {
				c->arts[l->a[i].ai].n++;
				return;
			}
	PT_GROW(c->arts, c->narts, c->aarts);
	c->arts[c->narts].kind = pt_xstrdup(label);
	c->arts[c->narts++].n = 1;
	if ((l->aused + 1) * 2 > l->acap) {
		struct art_slot *old = l->a;
		size_t ocap = l->acap;

		l->acap = ocap ? ocap * 2 : 256;
		l->a = pt_xcalloc(l->acap, sizeof(*l->a));
		for (size_t i = 0; i < ocap; i++)
			if (old[i].ci)
				art_put(l, old[i].ci - 1, old[i].ai, old[i].h);
		free(old);
	}
	art_put(l, ci, c->narts - 1, h);
	l->aused++;
}

static double jnum(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : -1;
}

static char *jstr(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_string(v) ? pt_xstrdup(json_string_value(v)) : NULL;
}

static void take_metrics(struct tt_compile *c, const char *envelope)
{
	json_t *env = json_loads(envelope, 0, NULL);
	json_t *m = json_object_get(env, "compilation_metrics");
	json_t *rr;

	if (!json_is_object(m)) {
		json_decref(env);
		return;
	}
	free(c->co_name);
	free(c->co_filename);
	c->co_name = jstr(m, "co_name");
	c->co_filename = jstr(m, "co_filename");
	c->co_firstlineno = (int64_t)jnum(m, "co_firstlineno");
	c->op_count = (int64_t)jnum(m, "graph_op_count");
	c->guard_count = (int64_t)jnum(m, "guard_count");
	c->t_entire = jnum(m, "entire_frame_compile_time_s");
	c->t_backend = jnum(m, "backend_compile_time_s");
	c->t_inductor = jnum(m, "inductor_compile_time_s");
	/* Late-2024 on: the _s fields are gone, the *_cumulative_compile_time_us remain. */
	if (c->t_entire < 0 && jnum(m, "dynamo_cumulative_compile_time_us") >= 0)
		c->t_entire = jnum(m, "dynamo_cumulative_compile_time_us") / 1e6;
	if (c->t_backend < 0 && jnum(m, "aot_autograd_cumulative_compile_time_us") >= 0)
		c->t_backend = jnum(m, "aot_autograd_cumulative_compile_time_us") / 1e6;
	if (c->t_inductor < 0 && jnum(m, "inductor_cumulative_compile_time_us") >= 0)
		c->t_inductor = jnum(m, "inductor_cumulative_compile_time_us") / 1e6;
	free(c->fail_type);
	free(c->fail_reason);
	c->fail_type = jstr(m, "fail_type");
	c->fail_reason = jstr(m, "fail_reason");
	rr = json_object_get(m, "restart_reasons");
	json_decref(c->restart_reasons);
	c->restart_reasons = json_is_array(rr) && json_array_size(rr) ? json_deep_copy(rr) : NULL;
	c->has_metrics = 1;
	c->status = "ok";	/* refined after the scan */
	json_decref(env);
}

/* A frame's file through the file's `str` table (NULL for -1 or unknown); caller frees. */
static char *frame_file(struct db *ix, int64_t file_id, json_t *fr)
{
	struct db_stmt *s;
	json_t *fn = json_object_get(fr, "filename");
	char *r = NULL;

	if (json_is_string(fn))	/* uninterned (never seen, but cheap to accept) */
		return pt_xstrdup(json_string_value(fn));
	if (!json_is_integer(fn) || json_integer_value(fn) < 0 || tt_prep(ix, &s, SQL_STR) < 0 ||
	    db_bind(s, "ii", file_id, (int64_t)json_integer_value(fn)) < 0)
		return NULL;
	if (db_step(s) == 1) {
		r = dup_or_null(db_col_text(s, 0));
		db_reset(s);
	}
	return r;
}

/*
 * dynamo_start's stack, resolved to "file:line in name" (outermost first);
 * the innermost frame names the compile until compilation_metrics does.
 */
static void take_start(struct db *ix, struct tt_compile *c, const char *envelope, int64_t file_id)
{
	json_t *env = json_loads(envelope, 0, NULL), *st, *fr;
	size_t i, n;

	st = json_object_get(json_object_get(env, "dynamo_start"), "stack");
	n = json_array_size(st);
	json_decref(c->stack);
	c->stack = json_array();
	json_array_foreach(st, i, fr) {
		char *file = frame_file(ix, file_id, fr);
		json_t *name = json_object_get(fr, "name");

		json_array_append_new(c->stack, json_sprintf("%s:%lld in %s", file ? file : "?",
							      (long long)jnum(fr, "line"),
							      json_is_string(name) ? json_string_value(name) : "?"));
		if (i == n - 1 && !c->co_name && json_is_object(fr)) {
			c->co_name = jstr(fr, "name");
			c->co_firstlineno = (int64_t)jnum(fr, "line");
			free(c->co_filename);	/* an earlier dynamo_start without a name set it */
			c->co_filename = file;
			file = NULL;
		}
		free(file);
	}
	json_decref(env);
}

static void take_cache(struct tt_compile *c, const char *name)
{
	static const char *const pre[] = {"fx_graph_cache_", "aotautograd_cache_"};

	for (int i = 0; i < 2; i++) {
		size_t n = strlen(pre[i]);

		if (!strncmp(name, pre[i], n)) {
			const char *st = name + n;

			/* The fx graph cache speaks for the compile when both are there. */
			if (i == 1 && c->cache && c->cache[0] == 'f')
				return;
			if (!strcmp(st, "hit"))
				c->cache = i ? "aot hit" : "fx hit";
			else if (!strcmp(st, "miss"))
				c->cache = i ? "aot miss" : "fx miss";
			else if (!strcmp(st, "bypass"))
				c->cache = i ? "aot bypass" : "fx bypass";
		}
	}
}

/* Same process and compile id (attempt included). */
static int same_key(const struct tt_compile *c, int64_t file_id, const struct compileid *id)
{
	return c->file_id == file_id && c->cid.ca == id->ca && c->cid.frame == id->frame &&
	       c->cid.compile == id->compile && c->cid.attempt == id->attempt;
}

/*
 * One pass over the records; each lookup (the latest occurrence of a compile id
 * in its file, an artifact name of a compile, the highest attempt) goes through
 * the hash tables of struct lookups, so the load is linear in the records
 * however many compiles a file has or names a compile has (N4, N15).
 */
int tt_compiles_load(struct db *ix, int64_t run_id, int64_t rank,
			struct tt_compiles *out)
{
	struct db_stmt *s = NULL;
	struct tt_run_file *files = NULL;
	struct lookups lk = {0};
	size_t alloc = 0, last = 0, nfiles = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (tt_run_files_load(ix, run_id, &files, &nfiles) < 0)
		return -1;
	if (tt_prep(ix, &s, SQL_COMPILE_RECS) < 0 || db_bind(s, "ii", run_id, rank) < 0) {
		tt_run_files_release(files, nfiles);
		return -1;
	}
	while ((rc = db_step(s)) == 1) {
		struct compileid id;
		int64_t r = col_nullable(s, 1), fid = db_col_int(s, 10);
		const char *kind = db_col_text(s, 6), *name = db_col_text(s, 7);
		const struct tt_run_file *file = tt_run_file_find(files, nfiles, fid);
		struct tt_compile *c = NULL;

		if (!file)
			continue;	/* a record of no file of the run: none, but never read past the array */
		id.ca = col_nullable(s, 2);
		id.frame = col_nullable(s, 3);
		id.compile = col_nullable(s, 4);
		id.attempt = col_nullable(s, 5);
		/* tlparse folds records without attempt (runtime metrics) into attempt 0. */
		if (id.attempt == COMPILEID_NONE && id.compile != COMPILEID_NONE)
			id.attempt = 0;
		/* The latest occurrence of this id in this file. */
		int64_t key[5] = {fid, id.ca, id.frame, id.compile, id.attempt}, *latest;

		if (out->n && same_key(&out->v[last], fid, &id))
			c = &out->v[last];
		if (!c && (latest = cidmap_get(&lk.c, key, 0)) && *latest >= 0) {
			last = (size_t)*latest;
			c = &out->v[last];
		}
		/*
		 * A compilation already closed by its compilation_metrics is compiled
		 * again when a new dynamo_start or another compilation_metrics comes
		 * (a reset, a cache hit after a miss): a new occurrence. Records
		 * without compile id have no dynamo_start: each metrics is one.
		 */
		if (c && c->has_metrics && kind &&
		    (!strcmp(kind, "dynamo_start") || !strcmp(kind, "compilation_metrics")))
			c = NULL;
		if (!c) {
			int occ = 1;

			latest = cidmap_get(&lk.c, key, 1);
			if (*latest >= 0)
				occ = out->v[*latest].occurrence + 1;
			*latest = (int64_t)out->n;
			PT_GROW(out->v, out->n, alloc);
			c = &out->v[out->n];
			memset(c, 0, sizeof(*c));
			c->rank = r;
			c->file_id = fid;
			c->process = file->process;
			/* Who compiled it, when the run has several processes (the file's writer). */
			pt_fmt_trunc(c->label, sizeof(c->label), "%s", file->who);
			c->occurrence = occ;
			c->cid = id;
			c->first_id = db_col_int(s, 0);
			c->co_firstlineno = c->op_count = c->guard_count = -1;
			c->t_entire = c->t_backend = c->t_inductor = -1;
			c->status = "missing";
			last = out->n++;
		}
		if (!kind)
			continue;
		if (!strcmp(kind, "compilation_metrics"))
			take_metrics(c, db_col_text(s, 8));
		else if (!strcmp(kind, "dynamo_start"))
			take_start(ix, c, db_col_text(s, 8), fid);
		else if (!strcmp(kind, "dynamo_output_graph")) {
			char *g = pt_xasprintf("%s%s%s", c->graph_md5 ? c->graph_md5 : "", c->graph_md5 ? "," : "",
					       db_col_text(s, 9) ? db_col_text(s, 9) : "-");

			free(c->graph_md5);
			c->graph_md5 = g;
			c->graphs++;
		}
		if (!strcmp(kind, "artifact") && name)
			take_cache(c, name);
		if (!db_col_is_null(s, 9))
			add_art(&lk, out, (size_t)(c - out->v), tt_artifact_label(kind, name));
	}
	tt_run_files_release(files, nfiles);
	if (rc < 0) {
		lookups_release(&lk);
		tt_compiles_release(out);
		return -1;
	}
	/*
	 * Status: failed (fail_type), restarted (a later attempt of the same id
	 * in the same process), empty (graph_op_count 0, tlparse's "empty"; it
	 * also counts an absent one, which AOTInductor's metrics without compile
	 * id have: those stay ok), ok; missing without compilation_metrics;
	 * autograd: a compiled-autograd capture ([!N]), which has none of its own.
	 * The highest attempt of each (file, ca, frame, compile) says which were restarted.
	 */
	for (size_t i = 0; i < out->n; i++) {
		const struct tt_compile *c = &out->v[i];
		int64_t key[5] = {c->file_id, c->cid.ca, c->cid.frame, c->cid.compile, -2};
		int64_t *top = cidmap_get(&lk.c, key, 1);

		/* -1 is "none yet" and also COMPILEID_NONE: a missing attempt is never above another. */
		if (*top < c->cid.attempt)
			*top = c->cid.attempt;
	}
	for (size_t i = 0; i < out->n; i++) {
		struct tt_compile *c = &out->v[i];
		int64_t key[5] = {c->file_id, c->cid.ca, c->cid.frame, c->cid.compile, -2};

		/* A compiled-autograd capture ([!0], torch 2.14's compiled_autograd_id
		 * without a frame): its graphs, never a dynamo_start or metrics. */
		if (!strcmp(c->status, "missing") && c->cid.ca != COMPILEID_NONE && c->cid.frame == COMPILEID_NONE) {
			c->status = "autograd";
			continue;
		}
		if (c->fail_type) {
			c->status = "failed";
			continue;
		}
		if (*cidmap_get(&lk.c, key, 0) > c->cid.attempt)
			c->status = "restarted";
		if (!strcmp(c->status, "ok") && c->op_count == 0)
			c->status = "empty";
	}
	lookups_release(&lk);
	return 0;
}

void tt_compiles_release(struct tt_compiles *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct tt_compile *x = &c->v[i];

		free(x->co_name);
		free(x->co_filename);
		free(x->fail_type);
		free(x->fail_reason);
		json_decref(x->restart_reasons);
		free(x->graph_md5);
		json_decref(x->stack);
		for (size_t j = 0; j < x->narts; j++)
			free(x->arts[j].kind);
		free(x->arts);
	}
	free(c->v);
	c->v = NULL;
	c->n = 0;
}
