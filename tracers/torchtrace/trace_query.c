/*
 * The read side of the TORCH_TRACE index; see trace_query.h. Compiles are
 * aggregated in C from one ordered scan of the run's compile-tagged records
 * (the number of compile ids is small; records are streamed, not loaded).
 */
#include "trace_query.h"

#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "query.h"
#include "strbuf.h"
#include "trace_ingest.h"
#include "xalloc.h"

static const char SQL_COMPILE_RECS[] =
	"SELECT id, rank, ca, frame, compile, attempt, kind, name, envelope, payload_md5, file_id"
	" FROM trace_records WHERE run_id = ?1 AND (frame IS NOT NULL OR ca IS NOT NULL)"
	" AND kind <> 'chromium_event' AND (?2 < 0 OR rank = ?2) ORDER BY id";
static const char SQL_STR[] = "SELECT value FROM trace_strings WHERE file_id = ? AND idx = ?";
static const char SQL_PAYLOAD[] = "SELECT data FROM trace_payloads WHERE md5 = ?";

static int64_t col_nullable(struct index_stmt *s, int c)
{
	return index_col_is_null(s, c) ? COMPILEID_NONE : index_col_int(s, c);
}

static char *dup_or_null(const char *s)
{
	return s ? pt_xstrdup(s) : NULL;
}

const char *trace_artifact_label(const char *kind, const char *name)
{
	if (name && (!strcmp(kind, "artifact") || !strcmp(kind, "graph_dump") ||
		     !strcmp(kind, "optimize_ddp_split_child") || !strcmp(kind, "link")))
		return name;
	return kind;
}

static void add_art(struct trace_compile *c, const char *label)
{
	for (size_t i = 0; i < c->narts; i++)
		if (!strcmp(c->arts[i].kind, label)) {
			c->arts[i].n++;
			return;
		}
	c->arts = pt_xreallocarray(c->arts, c->narts + 1, sizeof(*c->arts));
	c->arts[c->narts].kind = pt_xstrdup(label);
	c->arts[c->narts++].n = 1;
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

static void take_metrics(struct trace_compile *c, const char *envelope)
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
	if (json_is_array(rr) && json_array_size(rr)) {
		struct pt_strbuf sb;
		size_t i;
		json_t *v;

		pt_strbuf_init(&sb, 1 << 20);
		json_array_foreach(rr, i, v) {
			if (i)
				pt_strbuf_adds(&sb, "; ");
			pt_strbuf_adds(&sb, json_is_string(v) ? json_string_value(v) : "?");
		}
		free(c->restart_reasons);
		c->restart_reasons = pt_strbuf_detach(&sb);
	}
	c->status = "ok";	/* refined in finish_status */
	json_decref(env);
}

/* A frame's file through the file's `str` table (NULL for -1 or unknown); caller frees. */
static char *frame_file(struct index *ix, int64_t file_id, json_t *fr)
{
	struct index_stmt *s;
	json_t *fn = json_object_get(fr, "filename");
	char *r = NULL;

	if (json_is_string(fn))	/* uninterned (never seen, but cheap to accept) */
		return pt_xstrdup(json_string_value(fn));
	if (!json_is_integer(fn) || json_integer_value(fn) < 0 || trace_prep(ix, &s, SQL_STR) < 0 ||
	    index_bind(s, "ii", file_id, (int64_t)json_integer_value(fn)) < 0)
		return NULL;
	if (index_step(s) == 1) {
		r = dup_or_null(index_col_text(s, 0));
		index_reset(s);
	}
	return r;
}

/*
 * dynamo_start's stack, resolved to "file:line in name" (outermost first);
 * the innermost frame names the compile until compilation_metrics does.
 */
static void take_start(struct index *ix, struct trace_compile *c, const char *envelope, int64_t file_id)
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
			c->co_filename = file;
			file = NULL;
		}
		free(file);
	}
	json_decref(env);
}

static void take_cache(struct trace_compile *c, const char *name)
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

static int cid_same(const struct trace_compile *c, int64_t rank, const struct compileid *id)
{
	return c->rank == rank && c->cid.ca == id->ca && c->cid.frame == id->frame &&
	       c->cid.compile == id->compile && c->cid.attempt == id->attempt;
}

int trace_compiles_load(struct index *ix, int64_t run_id, int64_t rank,
			struct trace_compiles *out, struct pt_diag *diag)
{
	struct index_stmt *s = NULL;
	size_t alloc = 0, last = 0;
	int rc;

	(void)diag;
	memset(out, 0, sizeof(*out));
	if (trace_prep(ix, &s, SQL_COMPILE_RECS) < 0 || index_bind(s, "ii", run_id, rank) < 0)
		return -1;
	while ((rc = index_step(s)) == 1) {
		struct compileid id;
		int64_t r = col_nullable(s, 1);
		const char *kind = index_col_text(s, 6), *name = index_col_text(s, 7);
		struct trace_compile *c = NULL;

		id.ca = col_nullable(s, 2);
		id.frame = col_nullable(s, 3);
		id.compile = col_nullable(s, 4);
		id.attempt = col_nullable(s, 5);
		/* tlparse folds records without attempt (runtime metrics) into attempt 0. */
		if (id.attempt == COMPILEID_NONE && id.compile != COMPILEID_NONE)
			id.attempt = 0;
		if (out->n && cid_same(&out->v[last], r, &id))
			c = &out->v[last];
		for (size_t i = 0; !c && i < out->n; i++)
			if (cid_same(&out->v[i], r, &id)) {
				c = &out->v[i];
				last = i;
			}
		if (!c) {
			PT_GROW(out->v, out->n, alloc);
			c = &out->v[out->n];
			memset(c, 0, sizeof(*c));
			c->rank = r;
			c->cid = id;
			c->first_id = index_col_int(s, 0);
			c->co_firstlineno = c->op_count = c->guard_count = -1;
			c->t_entire = c->t_backend = c->t_inductor = -1;
			c->status = "missing";
			last = out->n++;
		}
		if (!kind)
			continue;
		if (!strcmp(kind, "compilation_metrics"))
			take_metrics(c, index_col_text(s, 8));
		else if (!strcmp(kind, "dynamo_start"))
			take_start(ix, c, index_col_text(s, 8), index_col_int(s, 10));
		else if (!strcmp(kind, "dynamo_output_graph"))
			c->graphs++;
		if (!strcmp(kind, "artifact") && name)
			take_cache(c, name);
		if (!index_col_is_null(s, 9))
			add_art(c, trace_artifact_label(kind, name));
	}
	if (rc < 0) {
		trace_compiles_release(out);
		return -1;
	}
	/* A compile that a later attempt of the same id replaced was restarted. */
	for (size_t i = 0; i < out->n; i++) {
		struct trace_compile *c = &out->v[i];

		if (c->fail_type) {
			c->status = "failed";
			continue;
		}
		for (size_t j = 0; j < out->n; j++) {
			struct trace_compile *d = &out->v[j];

			if (d->rank == c->rank && d->cid.ca == c->cid.ca && d->cid.frame == c->cid.frame &&
			    d->cid.compile == c->cid.compile && d->cid.attempt > c->cid.attempt) {
				c->status = "restarted";
				break;
			}
		}
	}
	return 0;
}

void trace_compiles_release(struct trace_compiles *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct trace_compile *x = &c->v[i];

		free(x->co_name);
		free(x->co_filename);
		free(x->fail_type);
		free(x->fail_reason);
		free(x->restart_reasons);
		json_decref(x->stack);
		for (size_t j = 0; j < x->narts; j++)
			free(x->arts[j].kind);
		free(x->arts);
	}
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

static json_t *num_or_null(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

static json_t *int_or_null(int64_t v)
{
	return v < 0 ? json_null() : json_integer(v);
}

json_t *trace_compile_json(const struct trace_compile *c)
{
	char id[COMPILEID_MAX], dir[COMPILEID_MAX];
	json_t *o = json_object(), *arts = json_object();

	compileid_format(&c->cid, id, sizeof(id));
	compileid_format_dir(&c->cid, dir, sizeof(dir));
	json_object_set_new(o, "rank", int_or_null(c->rank));
	json_object_set_new(o, "compile_id", json_string(id));
	json_object_set_new(o, "tlparse_dir", json_string(dir));
	json_object_set_new(o, "name", pt_json_str(c->co_name));
	json_object_set_new(o, "file", pt_json_str(c->co_filename));
	json_object_set_new(o, "line", int_or_null(c->co_firstlineno));
	json_object_set_new(o, "status", json_string(c->status));
	json_object_set_new(o, "cache", pt_json_str(c->cache));
	json_object_set_new(o, "graphs", json_integer(c->graphs));
	json_object_set_new(o, "ops", int_or_null(c->op_count));
	json_object_set_new(o, "guards", int_or_null(c->guard_count));
	json_object_set_new(o, "entire_frame_compile_time_s", num_or_null(c->t_entire));
	json_object_set_new(o, "backend_compile_time_s", num_or_null(c->t_backend));
	json_object_set_new(o, "inductor_compile_time_s", num_or_null(c->t_inductor));
	json_object_set_new(o, "fail_type", pt_json_str(c->fail_type));
	json_object_set_new(o, "fail_reason", pt_json_str(c->fail_reason));
	json_object_set_new(o, "restart_reasons", pt_json_str(c->restart_reasons));
	for (size_t i = 0; i < c->narts; i++)
		json_object_set_new(arts, c->arts[i].kind, json_integer(c->arts[i].n));
	json_object_set_new(o, "artifacts", arts);
	json_object_set_new(o, "stack", c->stack ? json_incref(c->stack) : json_array());
	return o;
}

int trace_tlparse_name(const char *kind, const char *name, const char *envelope,
		       char *base, size_t nbase, const char **ext)
{
	static const char *const none[] = {
		"chromium_event", "compilation_metrics", "str", "dynamo_start", "link",
		"bwd_compilation_metrics", "aot_autograd_backward_compilation_metrics",
	};

	for (size_t i = 0; i < sizeof(none) / sizeof(*none); i++)
		if (!strcmp(kind, none[i]))
			return -1;
	*ext = "txt";
	if (!strcmp(kind, "artifact")) {
		json_t *env = json_loads(envelope, 0, NULL);
		json_t *enc = json_object_get(json_object_get(env, "artifact"), "encoding");

		if (json_is_string(enc) && !strcmp(json_string_value(enc), "json"))
			*ext = "json";
		json_decref(env);
		snprintf(base, nbase, "%s", name ? name : "artifact");
	} else if (!strcmp(kind, "graph_dump")) {
		snprintf(base, nbase, "%s", name ? name : "graph_dump");
	} else if (!strcmp(kind, "optimize_ddp_split_child")) {
		snprintf(base, nbase, "optimize_ddp_split_child_%s", name ? name : "");
	} else if (!strcmp(kind, "inductor_output_code")) {
		/* tlparse -p: inductor_output_code_<stem of the file name>.txt */
		const char *b = name ? strrchr(name, '/') : NULL;
		const char *dot;

		b = b ? b + 1 : name;
		dot = b ? strrchr(b, '.') : NULL;
		if (b && *b)
			snprintf(base, nbase, "inductor_output_code_%.*s", (int)(dot && dot != b ? (size_t)(dot - b) : strlen(b)), b);
		else
			snprintf(base, nbase, "inductor_output_code");
	} else if (!strcmp(kind, "dynamo_guards")) {
		/* tlparse renders dynamo_guards.html from this JSON; we keep the JSON. */
		snprintf(base, nbase, "dynamo_guards");
		*ext = "json";
	} else if (!strcmp(kind, "dump_file")) {
		snprintf(base, nbase, "%s", name ? name : "dump_file");
	} else {
		snprintf(base, nbase, "%s", kind);
	}
	/* A name is one path component. */
	for (char *p = base; *p; p++)
		if (*p == '/')
			*p = '_';
	return 0;
}

int trace_payload_get(struct index *ix, const char *md5, char **data, size_t *len,
		      struct pt_diag *diag)
{
	struct index_stmt *s = NULL;
	int rc;

	(void)diag;
	*data = NULL;
	*len = 0;
	if (trace_prep(ix, &s, SQL_PAYLOAD) < 0 || index_bind(s, "t", md5) < 0)
		return -1;
	rc = index_step(s);
	if (rc == 1) {
		const char *p = (const char *)index_col_text(s, 0);

		*len = index_col_bytes(s, 0);
		*data = pt_xmalloc(*len + 1);
		if (*len)
			memcpy(*data, p, *len);
		(*data)[*len] = '\0';
		while (index_step(s) == 1)
			;
		return 0;
	}
	return rc < 0 ? -1 : 1;
}

static const char SQL_RECS_FOR[] =
	"SELECT r.id, r.rank, r.lineno, r.ca, r.frame, r.compile, r.attempt, r.kind, r.name,"
	" r.payload_md5, r.envelope, f.path FROM trace_records r JOIN trace_files f ON f.id = r.file_id"
	" WHERE r.run_id = ?1 AND (?2 < 0 OR r.rank = ?2) ORDER BY r.id";

int trace_records_for(struct index *ix, int64_t run_id, const struct compileid *cid, int64_t rank,
		      const char *what, trace_rec_cb cb, void *ctx, struct pt_diag *diag)
{
	struct index_stmt *s = NULL;
	int rc;

	(void)diag;
	if (trace_prep(ix, &s, SQL_RECS_FOR) < 0 || index_bind(s, "ii", run_id, rank) < 0)
		return -1;
	while ((rc = index_step(s)) == 1) {
		struct trace_rec_row row;

		row.id = index_col_int(s, 0);
		row.rank = col_nullable(s, 1);
		row.lineno = index_col_int(s, 2);
		row.cid.ca = col_nullable(s, 3);
		row.cid.frame = col_nullable(s, 4);
		row.cid.compile = col_nullable(s, 5);
		row.cid.attempt = col_nullable(s, 6);
		row.kind = index_col_text(s, 7);
		row.name = index_col_text(s, 8);
		row.md5 = index_col_text(s, 9);
		row.envelope = index_col_text(s, 10);
		row.file = index_col_text(s, 11);
		if (cid && !compileid_equal(cid, &row.cid))
			continue;
		if (what ? (strcmp(what, row.kind) && strcmp(what, trace_artifact_label(row.kind, row.name)))
			 : !row.md5)
			continue;
		if (cb(ctx, &row) < 0) {
			while (index_step(s) == 1)
				;
			return -1;
		}
	}
	return rc < 0 ? -1 : 0;
}

/* ---- graph breaks and recompiles ---- */

static void ev_add(struct trace_events *e, size_t *alloc, int64_t rank, const struct compileid *cid,
		   char *where, char *what, char *prev)
{
	PT_GROW(e->v, e->n, *alloc);
	e->v[e->n].rank = rank;
	e->v[e->n].cid = *cid;
	e->v[e->n].where = where;
	e->v[e->n].what = what;
	e->v[e->n++].prev = prev;
}

void trace_events_release(struct trace_events *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->v[i].where);
		free(e->v[i].what);
		free(e->v[i].prev);
	}
	free(e->v);
	e->v = NULL;
	e->n = 0;
}

/* The text after prefix on the first line that starts with it (trimmed), or NULL. */
static char *line_after(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		if (len >= n && !strncmp(p, prefix, n))
			return pt_xstrndup(p + n, len - n);
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

struct breaks_ctx {
	struct index *ix;
	struct trace_events *out;
	size_t alloc;
	struct pt_diag *diag;
	int recompiles;
};

static int on_break(void *ctx, const struct trace_rec_row *row)
{
	struct breaks_ctx *b = ctx;
	char *data = NULL;
	size_t len;

	if (!row->md5 || trace_payload_get(b->ix, row->md5, &data, &len, b->diag) != 0)
		return 0;
	if (!b->recompiles) {
		/* "Graph break in user code at FILE:LINE\nReason: ...\n" (2.6+) */
		char *where = line_after(data, "Graph break in user code at ");
		char *what = line_after(data, "Reason: ");

		if (!where)
			where = line_after(data, "Graph break ");
		ev_add(b->out, &b->alloc, row->rank, &row->cid, where, what ? what : pt_xstrdup(data), NULL);
	} else {
		/* A JSON list of "<cid>: <guard>  # <comment>  # <file:line in fn>". */
		json_t *arr = json_loads(data, 0, NULL);
		size_t i;
		json_t *v;

		json_array_foreach(arr, i, v) {
			const char *s = json_string_value(v), *colon, *hash;
			char *prev = NULL, *what, *where = NULL;

			if (!s)
				continue;
			colon = strstr(s, ": ");
			if (colon && colon - s < 40 && strchr("0123456789!", s[0])) {
				prev = pt_xstrndup(s, (size_t)(colon - s));
				s = colon + 2;
			}
			hash = strrchr(s, '#');
			if (hash && strstr(hash, ".py:")) {
				const char *w = hash + 1;

				while (*w == ' ')
					w++;
				where = pt_xstrdup(w);
			}
			hash = strstr(s, "  #");
			what = hash ? pt_xstrndup(s, (size_t)(hash - s)) : pt_xstrdup(s);
			for (size_t k = strlen(what); k && what[k - 1] == ' '; k--)
				what[k - 1] = '\0';
			ev_add(b->out, &b->alloc, row->rank, &row->cid, where, what, prev);
		}
		json_decref(arr);
	}
	free(data);
	return 0;
}

int trace_graph_breaks(struct index *ix, int64_t run_id, struct trace_events *out, struct pt_diag *diag)
{
	struct breaks_ctx b = {ix, out, 0, diag, 0};
	struct trace_compiles cs;

	memset(out, 0, sizeof(*out));
	if (trace_records_for(ix, run_id, NULL, -1, "dynamo_graph_break_reason", on_break, &b, diag) < 0)
		return -1;
	if (out->n)
		return 0;
	/* BACKCOMPAT: early-2024 traces have no dynamo_graph_break_reason; the
	 * breaks are the restart reasons in compilation_metrics. */
	if (trace_compiles_load(ix, run_id, -1, &cs, diag) < 0)
		return -1;
	for (size_t i = 0; i < cs.n; i++)
		if (cs.v[i].restart_reasons)
			ev_add(out, &b.alloc, cs.v[i].rank, &cs.v[i].cid,
			       cs.v[i].co_filename ? pt_xasprintf("%s:%lld", cs.v[i].co_filename,
								  (long long)cs.v[i].co_firstlineno) : NULL,
			       pt_xstrdup(cs.v[i].restart_reasons), NULL);
	trace_compiles_release(&cs);
	return 0;
}

int trace_recompiles(struct index *ix, int64_t run_id, struct trace_events *out, struct pt_diag *diag)
{
	struct breaks_ctx b = {ix, out, 0, diag, 1};

	memset(out, 0, sizeof(*out));
	return trace_records_for(ix, run_id, NULL, -1, "recompile_reasons", on_break, &b, diag);
}

/* ---- show, ranks ---- */

static const char SQL_BY_KIND[] =
	"SELECT kind, count(*) FROM trace_records WHERE run_id = ? GROUP BY kind ORDER BY kind";
static const char SQL_MISMATCH[] =
	"SELECT coalesce(sum(md5_mismatches), 0), coalesce(sum(damaged), 0), count(*),"
	" coalesce(sum(records), 0), coalesce(sum(size), 0) FROM trace_files WHERE run_id = ?";
static const char SQL_RANKS[] =
	"SELECT DISTINCT rank FROM trace_records WHERE run_id = ? AND rank IS NOT NULL ORDER BY rank";

static const char SQL_PROCESSES[] =
	"SELECT process, path, pid, rank, rank_source, name_rank, json_rank, rank_conflict, other_rank,"
	" records FROM trace_files WHERE run_id = ?1 ORDER BY process";

int trace_show_json(struct index *ix, int64_t run_id, json_t *obj, struct pt_diag *diag)
{
	struct index_stmt *s = NULL;
	json_t *by = json_object(), *ranks = json_array(), *tr = json_object();
	int rc;

	(void)diag;
	if (trace_prep(ix, &s, SQL_BY_KIND) < 0 || index_bind(s, "i", run_id) < 0)
		goto fail;
	while ((rc = index_step(s)) == 1)
		json_object_set_new(by, index_col_text(s, 0), json_integer(index_col_int(s, 1)));
	if (rc < 0 || trace_prep(ix, &s, SQL_MISMATCH) < 0 || index_bind(s, "i", run_id) < 0 ||
	    index_step(s) != 1)
		goto fail;
	json_object_set_new(obj, "payload_md5_mismatches", json_integer(index_col_int(s, 0)));
	json_object_set_new(tr, "damaged_lines", json_integer(index_col_int(s, 1)));
	json_object_set_new(tr, "files", json_integer(index_col_int(s, 2)));
	json_object_set_new(tr, "records", json_integer(index_col_int(s, 3)));
	json_object_set_new(tr, "bytes", json_integer(index_col_int(s, 4)));
	while (index_step(s) == 1)
		;
	if (trace_prep(ix, &s, SQL_RANKS) < 0 || index_bind(s, "i", run_id) < 0)
		goto fail;
	while ((rc = index_step(s)) == 1)
		json_array_append_new(ranks, json_integer(index_col_int(s, 0)));
	if (rc < 0)
		goto fail;
	json_object_set_new(obj, "records_by_kind", by);
	json_object_set_new(obj, "ranks", ranks);
	json_object_set_new(obj, "torch_trace", tr);
	{
		/* One file = one process (docs/pttrace-trace.1, the rank rule). */
		json_t *p = query_json(ix, SQL_PROCESSES, "i", run_id);

		if (!p)
			return -1;
		json_object_set_new(obj, "processes", p);
	}
	return 0;
fail:
	json_decref(by);
	json_decref(ranks);
	json_decref(tr);
	return -1;
}

static const char SQL_RANK_FILES[] =
	"SELECT rank, count(*), sum(records), group_concat(coalesce(rank_conflict, ''), '') FROM trace_files"
	" WHERE run_id = ? GROUP BY rank ORDER BY rank";

/* The compile ids of one rank in order, as text, for order comparisons. */
static char *rank_sequence(const struct trace_compiles *cs, int64_t rank, long *graphs, long *n, long *failed)
{
	struct pt_strbuf sb;

	pt_strbuf_init(&sb, 1 << 24);
	*graphs = *n = *failed = 0;
	for (size_t i = 0; i < cs->n; i++) {
		char id[COMPILEID_MAX];

		if (cs->v[i].rank != rank)
			continue;
		compileid_format(&cs->v[i].cid, id, sizeof(id));
		pt_strbuf_addf(&sb, "%s%s", sb.len ? " " : "", id);
		*graphs += cs->v[i].graphs;
		*failed += !strcmp(cs->v[i].status, "failed");
		(*n)++;
	}
	return pt_strbuf_detach(&sb);
}

static int in_seq(const char *seq, const char *id)
{
	size_t n = strlen(id);

	for (const char *p = seq; (p = strstr(p, id)) != NULL; p += n)
		if ((p == seq || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

int trace_ranks_json(struct index *ix, int64_t run_id, json_t **out, struct pt_diag *diag)
{
	struct index_stmt *s = NULL;
	struct trace_compiles cs;
	json_t *o = json_object(), *ranks = json_array(), *div = json_array();
	char **seqs = NULL;
	int64_t *rk = NULL;
	long *gr = NULL, *nc = NULL;
	size_t n = 0;
	int rc;

	*out = NULL;
	if (trace_compiles_load(ix, run_id, -1, &cs, diag) < 0)
		goto fail0;
	if (trace_prep(ix, &s, SQL_RANK_FILES) < 0 || index_bind(s, "i", run_id) < 0)
		goto fail;
	while ((rc = index_step(s)) == 1) {
		json_t *r = json_object();
		int64_t rank = index_col_is_null(s, 0) ? -1 : index_col_int(s, 0);
		const char *conf = index_col_text(s, 3);
		long failed;

		seqs = pt_xreallocarray(seqs, n + 1, sizeof(*seqs));
		rk = pt_xreallocarray(rk, n + 1, sizeof(*rk));
		gr = pt_xreallocarray(gr, n + 1, sizeof(*gr));
		nc = pt_xreallocarray(nc, n + 1, sizeof(*nc));
		rk[n] = rank;
		seqs[n] = rank_sequence(&cs, rank, &gr[n], &nc[n], &failed);
		json_object_set_new(r, "rank", int_or_null(rank));
		json_object_set_new(r, "files", json_integer(index_col_int(s, 1)));
		json_object_set_new(r, "records", json_integer(index_col_int(s, 2)));
		json_object_set_new(r, "compiles", json_integer(nc[n]));
		json_object_set_new(r, "graphs", json_integer(gr[n]));
		json_object_set_new(r, "failed", json_integer(failed));
		json_object_set_new(r, "rank_conflict", conf && *conf ? json_string(conf) : json_null());
		json_array_append_new(ranks, r);
		n++;
	}
	if (rc < 0)
		goto fail;
	/* Divergences against the first rank: counts, order, ids only one side has. */
	for (size_t i = 1; i < n; i++) {
		if (gr[i] != gr[0])
			json_array_append_new(div, json_sprintf("rank %lld compiled %ld graphs, rank %lld %ld",
								(long long)rk[i], gr[i], (long long)rk[0], gr[0]));
		for (int side = 0; side < 2; side++) {
			const char *a = side ? seqs[0] : seqs[i], *b = side ? seqs[i] : seqs[0];
			char *copy = pt_xstrdup(a), *save = NULL;

			for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
				if (!in_seq(b, t))
					json_array_append_new(div, json_sprintf("rank %lld compiled [%s], rank %lld did not",
										(long long)(side ? rk[0] : rk[i]), t,
										(long long)(side ? rk[i] : rk[0])));
			free(copy);
		}
		if (nc[i] == nc[0] && strcmp(seqs[i], seqs[0]))
			json_array_append_new(div, json_sprintf("rank %lld compiled in another order than rank %lld",
								(long long)rk[i], (long long)rk[0]));
	}
	json_object_set_new(o, "ranks", ranks);
	json_object_set_new(o, "divergences", div);
	*out = o;
	ranks = div = o = NULL;
fail:
	trace_compiles_release(&cs);
fail0:
	for (size_t i = 0; i < n; i++)
		free(seqs[i]);
	free(seqs);
	free(rk);
	free(gr);
	free(nc);
	json_decref(o);
	json_decref(ranks);
	json_decref(div);
	return *out ? 0 : -1;
}

/* ---- timeline ---- */

static const char SQL_CHROMIUM[] =
	"SELECT r.rank, p.data FROM trace_records r JOIN trace_payloads p ON p.md5 = r.payload_md5"
	" WHERE r.run_id = ? AND r.kind = 'chromium_event' ORDER BY r.id";

int trace_timeline_write(struct index *ix, int64_t run_id, FILE *f, uint64_t *nevents,
			 uint64_t *skipped, struct pt_diag *diag)
{
	struct index_stmt *s = NULL;
	int64_t *ranks = NULL;	/* seen so far: one metadata event each */
	size_t nranks = 0;
	int rc;

	(void)diag;
	*nevents = *skipped = 0;
	if (trace_prep(ix, &s, SQL_CHROMIUM) < 0 || index_bind(s, "i", run_id) < 0)
		return -1;
	fputs("{\"traceEvents\": [\n", f);
	while ((rc = index_step(s)) == 1) {
		int64_t rank = index_col_is_null(s, 0) ? 0 : index_col_int(s, 0);
		int seen = 0;

		for (size_t i = 0; i < nranks; i++)
			seen |= ranks[i] == rank;
		if (!seen) {
			/* Perfetto and chrome://tracing label process tracks from these metadata events. */
			ranks = pt_xreallocarray(ranks, nranks + 1, sizeof(*ranks));
			ranks[nranks++] = rank;
			fprintf(f, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%lld,\"tid\":0,"
				   "\"args\":{\"name\":\"rank %lld\"}}", *nevents || nranks > 1 ? ",\n" : "",
				(long long)rank, (long long)rank);
		}
		json_t *ev = json_loadb(index_col_text(s, 1), index_col_bytes(s, 1), 0, NULL);

		if (!json_is_object(ev)) {
			(*skipped)++;
			json_decref(ev);
			continue;
		}
		/* Every rank writes pid 0: the merged view needs one process per rank. */
		json_object_set_new(ev, "pid", json_integer(rank));
		fputs(",\n", f);
		json_dumpf(ev, f, JSON_COMPACT);
		json_decref(ev);
		(*nevents)++;
	}
	fputs("\n]}\n", f);
	free(ranks);
	return rc < 0 ? -1 : 0;
}

/* ---- diff ---- */

static const struct trace_compile *find_cid(const struct trace_compiles *cs, const struct trace_compile *c)
{
	for (size_t i = 0; i < cs->n; i++)
		if (cid_same(&cs->v[i], c->rank, &c->cid))
			return &cs->v[i];
	return NULL;
}

static const char SQL_GRAPH_MD5[] =
	"SELECT group_concat(payload_md5, ',') FROM (SELECT payload_md5 FROM trace_records WHERE run_id = ?1"
	" AND kind = 'dynamo_output_graph' AND coalesce(rank, -1) = ?2 AND coalesce(ca, -1) = ?3"
	" AND coalesce(frame, -1) = ?4 AND coalesce(compile, -1) = ?5 AND coalesce(attempt, 0) = ?6 ORDER BY id)";

static char *graph_md5s(struct index *ix, int64_t run, const struct trace_compile *c)
{
	struct index_stmt *s = NULL;
	char *r = NULL;

	if (trace_prep(ix, &s, SQL_GRAPH_MD5) < 0 ||
	    index_bind(s, "iiiiii", run, c->rank, c->cid.ca, c->cid.frame, c->cid.compile,
		       c->cid.attempt < 0 ? 0 : c->cid.attempt) < 0)
		return NULL;
	if (index_step(s) == 1) {
		r = dup_or_null(index_col_text(s, 0));
		while (index_step(s) == 1)
			;
	}
	return r;
}

static json_t *cid_json(const struct trace_compile *c)
{
	char id[COMPILEID_MAX];
	json_t *o = json_object();

	compileid_format(&c->cid, id, sizeof(id));
	json_object_set_new(o, "rank", int_or_null(c->rank));
	json_object_set_new(o, "compile_id", json_string(id));
	json_object_set_new(o, "name", pt_json_str(c->co_name));
	return o;
}

static int cmp_str(const char *a, const char *b)
{
	return (a == NULL) != (b == NULL) || (a && strcmp(a, b));
}

int trace_diff_json(struct index *ix, int64_t run_a, int64_t run_b, json_t **out,
		    struct pt_diag *diag)
{
	struct trace_compiles a, b;
	json_t *o, *added, *removed, *changed, *recompiles;
	struct trace_events ra, rb;

	*out = NULL;
	if (trace_compiles_load(ix, run_a, -1, &a, diag) < 0)
		return -1;
	if (trace_compiles_load(ix, run_b, -1, &b, diag) < 0) {
		trace_compiles_release(&a);
		return -1;
	}
	o = json_object();
	added = json_array();
	removed = json_array();
	changed = json_array();
	for (size_t i = 0; i < b.n; i++)
		if (!find_cid(&a, &b.v[i]))
			json_array_append_new(added, cid_json(&b.v[i]));
	for (size_t i = 0; i < a.n; i++) {
		const struct trace_compile *x = &a.v[i], *y = find_cid(&b, x);
		json_t *ch;
		char *ga, *gb;

		if (!y) {
			json_array_append_new(removed, cid_json(x));
			continue;
		}
		ch = cid_json(x);
		ga = graph_md5s(ix, run_a, x);
		gb = graph_md5s(ix, run_b, y);
		if (cmp_str(ga, gb))
			json_object_set_new(ch, "graph_changed", json_true());
		if (strcmp(x->status, y->status))
			json_object_set_new(ch, "status", json_pack("[ss]", x->status, y->status));
		if (x->graphs != y->graphs)
			json_object_set_new(ch, "graphs", json_pack("[II]", (json_int_t)x->graphs, (json_int_t)y->graphs));
		if (x->op_count != y->op_count)
			json_object_set_new(ch, "ops", json_pack("[oo]", int_or_null(x->op_count), int_or_null(y->op_count)));
		if (x->guard_count != y->guard_count)
			json_object_set_new(ch, "guards", json_pack("[oo]", int_or_null(x->guard_count), int_or_null(y->guard_count)));
		if (cmp_str(x->restart_reasons, y->restart_reasons))
			json_object_set_new(ch, "restart_reasons", json_pack("[oo]", pt_json_str(x->restart_reasons), pt_json_str(y->restart_reasons)));
		/* Time always reported for matched compiles: it is what users compare. */
		json_object_set_new(ch, "changed", json_boolean(json_object_size(ch) > 3));
		json_object_set_new(ch, "entire_frame_compile_time_s", json_pack("[oo]", num_or_null(x->t_entire), num_or_null(y->t_entire)));
		json_array_append_new(changed, ch);
		free(ga);
		free(gb);
	}
	recompiles = json_object();
	if (trace_recompiles(ix, run_a, &ra, diag) == 0 && trace_recompiles(ix, run_b, &rb, diag) == 0) {
		json_t *ja = json_array(), *jb = json_array();
		char id[COMPILEID_MAX];

		for (size_t i = 0; i < ra.n; i++) {
			compileid_format(&ra.v[i].cid, id, sizeof(id));
			json_array_append_new(ja, json_sprintf("[%s] %s", id, ra.v[i].what ? ra.v[i].what : ""));
		}
		for (size_t i = 0; i < rb.n; i++) {
			compileid_format(&rb.v[i].cid, id, sizeof(id));
			json_array_append_new(jb, json_sprintf("[%s] %s", id, rb.v[i].what ? rb.v[i].what : ""));
		}
		json_object_set_new(recompiles, "a", ja);
		json_object_set_new(recompiles, "b", jb);
		trace_events_release(&ra);
		trace_events_release(&rb);
	}
	{
		/* Differences that matter: ids, graphs/status/counts/reasons, recompile reasons. Not times. */
		int differ = json_array_size(added) || json_array_size(removed) ||
			     !json_equal(json_object_get(recompiles, "a"), json_object_get(recompiles, "b"));
		size_t i;
		json_t *m;

		json_array_foreach(changed, i, m)
			differ |= json_is_true(json_object_get(m, "changed"));
		json_object_set_new(o, "differ", json_boolean(differ));
	}
	json_object_set_new(o, "compiles_a", json_integer((json_int_t)a.n));
	json_object_set_new(o, "compiles_b", json_integer((json_int_t)b.n));
	json_object_set_new(o, "added", added);
	json_object_set_new(o, "removed", removed);
	json_object_set_new(o, "matched", changed);
	json_object_set_new(o, "recompile_reasons", recompiles);
	trace_compiles_release(&a);
	trace_compiles_release(&b);
	*out = o;
	return 0;
}
