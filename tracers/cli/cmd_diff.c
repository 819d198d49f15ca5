/*
 * `pttrace diff RUN1 RUN2`: what changed between two runs: dispatcher calls
 * per operator and key, graph breaks (by reason), recompiles, errors (by
 * exception line) and the exit status. Exit 1 when anything differs, as
 * diff(1) does.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "pttrace.h"
#include "query.h"
#include "tt_query.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: pttrace diff [--json] RUN1 RUN2\n"
	"\n"
	"Compares two runs: exit status, dispatcher calls by operator and key, graph\n"
	"breaks (by their Reason: line), recompiles, errors (by exception line).\n"
	"\n"
	"Exit status: 0 no differences, 1 differences, 2 usage error or no such run.\n";

/* The line of text that identifies a record across runs. */
static char *record_key(const char *kind, const char *artifact, const char *text)
{
	const char *p = text ? text : "", *best = NULL, *line;
	size_t n;

	if (artifact && !strcmp(artifact, "graph_breaks")) {
		/* "Reason: Unsupported: ..." is stable; the first line names the file and line. */
		for (line = p; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
			if (!strncmp(line, "Reason:", 7)) {
				best = line;
				break;
			}
	} else if (kind && !strcmp(kind, "traceback")) {
		/* The exception line: the last non-empty line. */
		for (line = p; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
			if (*line && *line != '\n')
				best = line;
	}
	if (!best)
		best = p;
	n = strcspn(best, "\n");
	return pt_xstrndup(best, n);
}

/* {key: count} of the records a query returns. */
static json_t *keyed_counts(json_t *rows)
{
	json_t *m = json_object(), *v;
	size_t i;

	json_array_foreach(rows, i, v) {
		char *k = record_key(json_string_value(json_object_get(v, "kind")),
				     json_string_value(json_object_get(v, "artifact")),
				     json_string_value(json_object_get(v, "text")));
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
	{ "graph_breaks", "SELECT kind, artifact, text FROM records WHERE run_id = ?1"
			  " AND artifact = 'graph_breaks' ORDER BY seq" },
	{ "recompiles", "SELECT kind, artifact, text FROM records WHERE run_id = ?1"
			" AND artifact = 'recompiles' ORDER BY seq" },
	{ "errors", "SELECT kind, artifact, text FROM records WHERE run_id = ?1"
		    " AND (level >= 40 OR kind = 'traceback') ORDER BY seq" },
};

/* ops as {"aten::add.Tensor [AutogradCPU]": calls}. */
static json_t *ops_counts(struct db *ix, int64_t run)
{
	json_t *rows = query_ops(ix, run), *m, *v;
	size_t i;

	if (!rows)
		return NULL;
	m = json_object();
	json_array_foreach(rows, i, v) {
		const char *ovl = json_string_value(json_object_get(v, "overload"));
		char *k = pt_xasprintf("%s%s%s [%s]", json_string_value(json_object_get(v, "op")),
				       ovl && *ovl ? "." : "", ovl ? ovl : "",
				       json_string_value(json_object_get(v, "dispatch_key")));

		json_object_set_new(m, k, json_incref(json_object_get(v, "calls")));
		free(k);
	}
	json_decref(rows);
	return m;
}

static char *status_of(struct db *ix, int64_t run)
{
	struct run_row r;
	char *s;

	if (query_run_load(ix, run, &r) < 0)
		return NULL;
	if (!strcmp(r.status, "exited"))
		s = pt_xasprintf("exit %lld", (long long)r.exit_code);
	else if (!strcmp(r.status, "signaled"))
		s = pt_xasprintf("signal %lld", (long long)r.signal);
	else
		s = pt_xstrdup(r.status);
	query_run_release(&r);
	return s;
}

/* The TORCH_TRACE part of the text output (issue 6; tt_diff_json's document). */
static void print_compiles_diff(json_t *tc)
{
	static const char *const fields[] = { "status", "graphs", "ops", "guards", "restart_reasons" };
	json_t *v, *t;
	size_t i;
	double ta = 0, tb = 0;

	if (!json_integer_value(json_object_get(tc, "compiles_a")) &&
	    !json_integer_value(json_object_get(tc, "compiles_b")))
		return;
	printf("  compiles: %lld -> %lld\n", (long long)json_integer_value(json_object_get(tc, "compiles_a")),
	       (long long)json_integer_value(json_object_get(tc, "compiles_b")));
	for (int k = 0; k < 2; k++)
		json_array_foreach(json_object_get(tc, k ? "added" : "removed"), i, v) {
			json_t *r = json_object_get(v, "rank");

			printf("    %s [%s]", k ? "+" : "-", json_string_value(json_object_get(v, "compile_id")));
			if (json_integer_value(json_object_get(v, "occurrence")) > 1)
				printf(" #%lld", (long long)json_integer_value(json_object_get(v, "occurrence")));
			if (!json_is_null(r))
				printf(" rank %lld", (long long)json_integer_value(r));
			printf(" %s\n", json_string_value(json_object_get(v, "name")) ?: "");
		}
	json_array_foreach(json_object_get(tc, "matched"), i, v) {
		t = json_object_get(v, "entire_frame_compile_time_s");
		ta += json_number_value(json_array_get(t, 0));
		tb += json_number_value(json_array_get(t, 1));
		if (!json_is_true(json_object_get(v, "changed")))
			continue;
		printf("    ~ [%s]%s%.0lld %s:", json_string_value(json_object_get(v, "compile_id")),
		       json_integer_value(json_object_get(v, "occurrence")) > 1 ? " #" : "",
		       json_integer_value(json_object_get(v, "occurrence")) > 1
			       ? (long long)json_integer_value(json_object_get(v, "occurrence")) : 0LL,
		       json_string_value(json_object_get(v, "name")) ?: "");
		if (json_is_true(json_object_get(v, "graph_changed")))
			printf(" graph changed;");
		for (size_t f = 0; f < sizeof(fields) / sizeof(*fields); f++) {
			json_t *p = json_object_get(v, fields[f]);
			char *x, *y;

			if (!p)
				continue;
			x = json_dumps(json_array_get(p, 0), JSON_ENCODE_ANY);
			y = json_dumps(json_array_get(p, 1), JSON_ENCODE_ANY);
			printf(" %s %s -> %s;", fields[f], x, y);
			free(x);
			free(y);
		}
		putchar('\n');
	}
	printf("    compile time of the compiles both have: %.3f s -> %.3f s\n", ta, tb);
	/* Recompile reasons one run has and the other has not (as many times). */
	for (int k = 0; k < 2; k++) {
		json_t *rr = json_object_get(tc, "recompile_reasons");
		json_t *mine = json_object_get(rr, k ? "b" : "a"), *other = json_object_get(rr, k ? "a" : "b");
		json_t *left = json_copy(other);

		json_array_foreach(mine, i, v) {
			size_t j;
			json_t *w;
			int found = 0;

			json_array_foreach(left, j, w)
				if (json_equal(v, w)) {
					json_array_remove(left, j);
					found = 1;
					break;
				}
			if (!found)
				printf("    %s recompile %s\n", k ? "+" : "-", json_string_value(v));
		}
		json_decref(left);
	}
}

int cmd_diff(int argc, char **argv, struct pt_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pt_diag diag;
	struct db *ix = NULL;
	json_t *doc = NULL;
	int64_t a, b;
	int c, rc = EXIT_USAGE, differ = 0;
	char *sa = NULL, *sb = NULL;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': ctx->json = 1; break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_FINE;
		default:
			fputs(usage_text, stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	if (pt_open_index(ctx, DB_READONLY, &ix, &diag) < 0)
		return EXIT_USAGE;
	if (query_resolve_run(ix, argv[optind], &a) < 0 ||
	    query_resolve_run(ix, argv[optind + 1], &b) < 0 || !(sa = status_of(ix, a)) ||
	    !(sb = status_of(ix, b)))
		goto out;
	doc = json_object();
	json_object_set_new(doc, "a", json_integer(a));
	json_object_set_new(doc, "b", json_integer(b));
	json_object_set_new(doc, "status", json_pack("{s:s,s:s}", "a", sa, "b", sb));
	differ |= strcmp(sa, sb) != 0;
	for (int s = -1; s < 3; s++) {
		json_t *ma, *mb, *d;
		json_int_t ta, tb;
		const char *name = s < 0 ? "ops" : sections[s][0];

		if (s < 0) {
			ma = ops_counts(ix, a);
			mb = ops_counts(ix, b);
		} else {
			json_t *ra = query_json(ix, sections[s][1], "i", a);
			json_t *rb = query_json(ix, sections[s][1], "i", b);

			ma = ra ? keyed_counts(ra) : NULL;
			mb = rb ? keyed_counts(rb) : NULL;
			json_decref(ra);
			json_decref(rb);
		}
		if (!ma || !mb) {
			json_decref(ma);
			json_decref(mb);
			goto out;
		}
		d = compare(ma, mb, &ta, &tb);
		differ |= json_array_size(d) != 0;
		json_object_set_new(doc, name, json_pack("{s:I,s:I,s:o}", "a", ta, "b", tb,
							 "differences", d));
		json_decref(ma);
		json_decref(mb);
	}
	/* TORCH_TRACE (issue 6): compile ids added/removed, changed graphs, recompile reasons, times. */
	{
		json_t *tc;

		if (tt_diff_json(ix, a, b, &tc, &diag) < 0)
			goto out;
		differ |= json_is_true(json_object_get(tc, "differ"));
		json_object_set_new(doc, "compiles", tc);
	}
	if (ctx->json) {
		json_object_set_new(doc, "differ", json_boolean(differ));
		pt_json_print(stdout, doc);
	} else {
		const char *k;
		json_t *sec;

		printf("runs %lld and %lld\n", (long long)a, (long long)b);
		printf("  status: %s%s%s\n", sa, strcmp(sa, sb) ? " -> " : " (same)",
		       strcmp(sa, sb) ? sb : "");
		json_object_foreach(doc, k, sec) {
			json_t *d = json_object_get(sec, "differences"), *v;
			size_t i;

			if (!d)
				continue;
			printf("  %s: %lld -> %lld\n", k, (long long)json_integer_value(json_object_get(sec, "a")),
			       (long long)json_integer_value(json_object_get(sec, "b")));
			json_array_foreach(d, i, v)
				printf("    %5lld -> %-5lld %s\n", (long long)json_integer_value(json_object_get(v, "a")),
				       (long long)json_integer_value(json_object_get(v, "b")),
				       json_string_value(json_object_get(v, "key")));
		}
	}
	if (!ctx->json)
		print_compiles_diff(json_object_get(doc, "compiles"));
	rc = differ ? EXIT_PROBLEMS : EXIT_FINE;
out:
	free(sa);
	free(sb);
	json_decref(doc);
	pt_print_diag(ctx, &diag);
	db_close(ix);
	pt_diag_release(&diag);
	return rc;
}
