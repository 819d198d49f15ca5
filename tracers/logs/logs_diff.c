/*
 * The logs part of `pttrace diff`: dispatcher calls by operator and key, and
 * graph breaks, recompiles, warnings and errors keyed by the line that
 * identifies them across runs (normalised, with their place); see logs_diff.h.
 */
#include "logs_diff.h"

#include <stdlib.h>
#include <string.h>

#include "db_json.h"
#include "logs_query.h"
#include "runnorm.h"
#include "xalloc.h"

/* The line of text that identifies a record across runs, and where it came from. */
static char *record_key(const char *kind, const char *artifact, const char *text, const char *src_file,
			int64_t src_line)
{
	const char *p = text ? text : "", *best = NULL, *line, *frame = NULL;
	size_t n;
	char *raw, *key;

	if (artifact && !strcmp(artifact, "graph_breaks")) {
		/* "Reason: Unsupported: ..." is stable; the first line names the file and line. */
		for (line = p; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
			if (!strncmp(line, "Reason:", 7)) {
				best = line;
				break;
			}
	} else if (kind && !strcmp(kind, "traceback")) {
		/* The exception line (the last non-empty one) and the innermost frame ("File ..., line N"). */
		for (line = p; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
			const char *t = line + strspn(line, " ");

			if (*line && *line != '\n')
				best = line;
			if (!strncmp(t, "File \"", 6))
				frame = t;
		}
	}
	if (!best)
		best = p;
	n = strcspn(best, "\n");
	if (frame)
		raw = pt_xasprintf("%.*s  (%.*s)", (int)n, best, (int)strcspn(frame, "\n"), frame);
	else if (src_file && src_line > 0 && !(kind && !strcmp(kind, "warning")))
		/* A log line's place (a Python warning names its own in its text). */
		raw = pt_xasprintf("%.*s  (%s:%lld)", (int)n, best, src_file, (long long)src_line);
	else
		raw = pt_xstrndup(best, n);
	key = runnorm_text(raw);
	free(raw);
	return key;
}

void keyed_counts_init(struct keyed_counts *c)
{
	memset(c, 0, sizeof(*c));
	c->index = json_object();
}

void keyed_counts_add(struct keyed_counts *c, const char *key, int64_t n, int replace)
{
	json_t *at = json_object_get(c->index, key);

	if (at) {
		struct keyed_count *k = &c->v[json_integer_value(at)];

		k->n = replace ? n : k->n + n;
		return;
	}
	PT_GROW(c->v, c->n, c->alloc);
	c->v[c->n].key = pt_xstrdup(key);
	c->v[c->n].n = n;
	/* No UTF-8 check: a key is counted whatever its bytes. */
	json_object_set_new_nocheck(c->index, key, json_integer((json_int_t)c->n));
	c->n++;
}

void keyed_counts_release(struct keyed_counts *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].key);
	free(c->v);
	json_decref(c->index);
	memset(c, 0, sizeof(*c));
}

static void add_diff(struct keyed_diffs *d, size_t *alloc, const char *key, int64_t a, int64_t b)
{
	PT_GROW(d->v, d->n, *alloc);
	d->v[d->n].key = pt_xstrdup(key);
	d->v[d->n].a = a;
	d->v[d->n].b = b;
	d->n++;
}

void keyed_diffs_compare(const struct keyed_counts *a, const struct keyed_counts *b, struct keyed_diffs *out)
{
	size_t alloc = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < a->n; i++) {
		json_t *at = json_object_get(b->index, a->v[i].key);
		int64_t y = at ? b->v[json_integer_value(at)].n : 0;

		out->a += a->v[i].n;
		if (a->v[i].n != y)
			add_diff(out, &alloc, a->v[i].key, a->v[i].n, y);
	}
	for (size_t i = 0; i < b->n; i++) {
		out->b += b->v[i].n;
		if (!json_object_get(a->index, b->v[i].key))
			add_diff(out, &alloc, b->v[i].key, 0, b->v[i].n);
	}
}

void keyed_diffs_release(struct keyed_diffs *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].key);
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/* The records a query returns, counted by key. */
static void record_counts(json_t *rows, struct keyed_counts *m)
{
	json_t *v;
	size_t i;

	json_array_foreach(rows, i, v) {
		char *k = record_key(json_string_value(json_object_get(v, "kind")),
				     json_string_value(json_object_get(v, "artifact")),
				     json_string_value(json_object_get(v, "text")),
				     json_string_value(json_object_get(v, "src_file")),
				     json_integer_value(json_object_get(v, "src_line")));

		keyed_counts_add(m, k, 1, 0);
		free(k);
	}
}

/* The record sections' queries (logs_diff_names[1...]). */
static const char *const sections[][2] = {
	{ "graph_breaks", "SELECT kind, artifact, text FROM records WHERE" LOGS_RUN_RANGE("id", "1")
			  "AND artifact = 'graph_breaks' ORDER BY id" },
	{ "recompiles", "SELECT kind, artifact, text FROM records WHERE" LOGS_RUN_RANGE("id", "1")
			"AND artifact = 'recompiles' ORDER BY id" },
	{ "warnings", "SELECT kind, artifact, text, src_file, src_line FROM records"
		      " WHERE" LOGS_RUN_RANGE("id", "1") "AND (kind = 'warning' OR level = 30) ORDER BY id" },
	{ "errors", "SELECT kind, artifact, text, src_file, src_line FROM records"
		    " WHERE" LOGS_RUN_RANGE("id", "1") "AND (level >= 40 OR kind = 'traceback') ORDER BY id" },
};
#define NSECTIONS (int)(PT_ARRAY_SIZE(sections))

const char *const logs_diff_names[LOGS_DIFF_NSECTIONS] = {
	"ops", "graph_breaks", "recompiles", "warnings", "errors",
};

/* ops as "aten::add.Tensor [AutogradCPU]": calls. 0 or -1 (diag). */
static int ops_counts(struct db *ix, int64_t run, struct keyed_counts *m)
{
	json_t *rows = logs_query_ops(ix, run), *v;
	size_t i;

	if (!rows)
		return -1;
	json_array_foreach(rows, i, v) {
		const char *ovl = json_string_value(json_object_get(v, "overload"));
		const char *key = json_string_value(json_object_get(v, "dispatch_key"));
		const char *op = json_string_value(json_object_get(v, "op"));
		/* A trace line without key=[...] has none: the operator alone, no "[(null)]". */
		char *k = pt_xasprintf("%s%s%s%s%s%s", op ? op : "?", ovl && *ovl ? "." : "", ovl ? ovl : "",
				       key ? " [" : "", key ? key : "", key ? "]" : "");

		keyed_counts_add(m, k, json_integer_value(json_object_get(v, "calls")), 1);
		free(k);
	}
	json_decref(rows);
	return 0;
}

/* One run's counts of section s. 0 or -1 (diag). */
static int section_counts(struct db *ix, int s, int64_t run, struct keyed_counts *m)
{
	json_t *rows;

	if (s == LOGS_DIFF_OPS)
		return ops_counts(ix, run, m);
	rows = db_json(ix, sections[s - 1][1], "i", run);
	if (!rows)
		return -1;
	record_counts(rows, m);
	json_decref(rows);
	return 0;
}

int logs_diff_load(struct db *ix, int64_t a, int64_t b, struct logs_diff *out)
{
	memset(out, 0, sizeof(*out));
	for (int s = 0; s < LOGS_DIFF_NSECTIONS; s++) {
		struct keyed_counts ma, mb;
		int rc;

		keyed_counts_init(&ma);
		keyed_counts_init(&mb);
		rc = section_counts(ix, s, a, &ma) < 0 || section_counts(ix, s, b, &mb) < 0 ? -1 : 0;
		if (rc == 0)
			keyed_diffs_compare(&ma, &mb, &out->s[s]);
		keyed_counts_release(&ma);
		keyed_counts_release(&mb);
		if (rc < 0) {
			logs_diff_release(out);
			return -1;
		}
		out->differ |= out->s[s].n != 0;
	}
	return 0;
}

void logs_diff_release(struct logs_diff *d)
{
	for (int s = 0; s < LOGS_DIFF_NSECTIONS; s++)
		keyed_diffs_release(&d->s[s]);
	d->differ = 0;
}
