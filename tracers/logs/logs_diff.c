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

/* {key: count} of the records a query returns. */
static json_t *keyed_counts(json_t *rows)
{
	json_t *m = json_object(), *v;
	size_t i;

	json_array_foreach(rows, i, v) {
		char *k = record_key(json_string_value(json_object_get(v, "kind")),
				     json_string_value(json_object_get(v, "artifact")),
				     json_string_value(json_object_get(v, "text")),
				     json_string_value(json_object_get(v, "src_file")),
				     json_integer_value(json_object_get(v, "src_line")));
		json_t *c = json_object_get(m, k);

		json_object_set_new(m, k, json_integer(c ? json_integer_value(c) + 1 : 1));
		free(k);
	}
	return m;
}

/* [{key, a, b}] for keys whose counts differ; *ta and *tb get the totals. */
static json_t *compare(json_t *a, json_t *b, json_int_t *ta, json_int_t *tb)
{
	json_t *out = json_array(), *v;
	const char *k;

	*ta = *tb = 0;
	json_object_foreach(a, k, v) {
		json_int_t x = json_integer_value(v), y = json_integer_value(json_object_get(b, k));

		*ta += x;
		if (x != y)
			json_array_append_new(out, json_pack("{s:s,s:I,s:I}", "key", k, "a", x, "b", y));
	}
	json_object_foreach(b, k, v) {
		*tb += json_integer_value(v);
		if (!json_object_get(a, k))
			json_array_append_new(out, json_pack("{s:s,s:I,s:I}", "key", k, "a", (json_int_t)0,
							     "b", json_integer_value(v)));
	}
	return out;
}

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
#define NSECTIONS (int)(sizeof(sections) / sizeof(*sections))

/* ops as {"aten::add.Tensor [AutogradCPU]": calls}. */
static json_t *ops_counts(struct db *ix, int64_t run)
{
	json_t *rows = logs_query_ops(ix, run), *m, *v;
	size_t i;

	if (!rows)
		return NULL;
	m = json_object();
	json_array_foreach(rows, i, v) {
		const char *ovl = json_string_value(json_object_get(v, "overload"));
		const char *key = json_string_value(json_object_get(v, "dispatch_key"));
		const char *op = json_string_value(json_object_get(v, "op"));
		/* A trace line without key=[...] has none: the operator alone, no "[(null)]". */
		char *k = pt_xasprintf("%s%s%s%s%s%s", op ? op : "?", ovl && *ovl ? "." : "", ovl ? ovl : "",
				       key ? " [" : "", key ? key : "", key ? "]" : "");

		json_object_set_new(m, k, json_incref(json_object_get(v, "calls")));
		free(k);
	}
	json_decref(rows);
	return m;
}

int logs_diff_json(struct db *ix, int64_t a, int64_t b, json_t *doc, int *differ)
{
	for (int s = -1; s < NSECTIONS; s++) {
		json_t *ma, *mb, *d;
		json_int_t ta, tb;
		const char *name = s < 0 ? "ops" : sections[s][0];

		if (s < 0) {
			ma = ops_counts(ix, a);
			mb = ops_counts(ix, b);
		} else {
			json_t *ra = db_json(ix, sections[s][1], "i", a);
			json_t *rb = db_json(ix, sections[s][1], "i", b);

			ma = ra ? keyed_counts(ra) : NULL;
			mb = rb ? keyed_counts(rb) : NULL;
			json_decref(ra);
			json_decref(rb);
		}
		if (!ma || !mb) {
			json_decref(ma);
			json_decref(mb);
			return -1;
		}
		d = compare(ma, mb, &ta, &tb);
		*differ |= json_array_size(d) != 0;
		json_object_set_new(doc, name, json_pack("{s:I,s:I,s:o}", "a", ta, "b", tb,
							 "differences", d));
		json_decref(ma);
		json_decref(mb);
	}
	return 0;
}
