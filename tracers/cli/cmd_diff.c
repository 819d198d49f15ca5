/*
 * `pttrace diff RUN1 RUN2`: what changed between two runs: dispatcher calls
 * per operator and key, graph breaks (by reason), recompiles, warnings and
 * errors (by normalised text and location; tracebacks by exception line and
 * innermost frame), TORCH_TRACE compiles and graph breaks, and the exit
 * status. Exit 1 when anything differs, as diff(1) does.
 */
#include <getopt.h>
#include <regex.h>
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
	"breaks (by their Reason: line), recompiles, warnings and errors (by their text\n"
	"with addresses, temporary paths and timings normalised, and where they come\n"
	"from; tracebacks by exception line and innermost frame), and from TORCH_TRACE\n"
	"the compiles, their recompile reasons and the graph breaks (reason and place).\n"
	"\n"
	"Exit status: 0 no differences, 1 differences, 2 usage error or no such run.\n";

/*
 * Text that differs from run to run without meaning anything: object
 * addresses, temporary paths, timings. Replaced so that the same warning in
 * two runs has the same key.
 */
static char *normalise(const char *in)
{
	static const char *const pat[][2] = {
		{ "0x[0-9a-fA-F]+", "0x?" },
		{ "/tmp/[^ :,'\")]+", "/tmp/?" },
		{ "[0-9]+(\\.[0-9]+)? ?(s|ms|us|sec|seconds)\\b", "? s" },
	};
	char *s = pt_xstrdup(in);

	for (size_t k = 0; k < sizeof(pat) / sizeof(*pat); k++) {
		regex_t re;
		regmatch_t m;
		char *out, *p;
		size_t cap, o = 0;

		if (regcomp(&re, pat[k][0], REG_EXTENDED) != 0)
			continue;
		cap = strlen(s) + 1;
		out = pt_xmalloc(cap);
		for (p = s; regexec(&re, p, 1, &m, p == s ? 0 : REG_NOTBOL) == 0 && m.rm_eo > 0;) {
			size_t need = o + (size_t)m.rm_so + strlen(pat[k][1]) + strlen(p) + 1;

			if (need > cap)
				out = pt_xrealloc(out, cap = need);
			memcpy(out + o, p, (size_t)m.rm_so);
			o += (size_t)m.rm_so;
			memcpy(out + o, pat[k][1], strlen(pat[k][1]));
			o += strlen(pat[k][1]);
			p += m.rm_eo;
		}
		if (o + strlen(p) + 1 > cap)
			out = pt_xrealloc(out, o + strlen(p) + 1);
		strcpy(out + o, p);
		regfree(&re);
		free(s);
		s = out;
	}
	return s;
}

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
	key = normalise(raw);
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
	{ "graph_breaks", "SELECT kind, artifact, text FROM records WHERE run_id = ?1"
			  " AND artifact = 'graph_breaks' ORDER BY seq" },
	{ "recompiles", "SELECT kind, artifact, text FROM records WHERE run_id = ?1"
			" AND artifact = 'recompiles' ORDER BY seq" },
	{ "warnings", "SELECT kind, artifact, text, src_file, src_line FROM records WHERE run_id = ?1"
		      " AND (kind = 'warning' OR level = 30) ORDER BY seq" },
	{ "errors", "SELECT kind, artifact, text, src_file, src_line FROM records WHERE run_id = ?1"
		    " AND (level >= 40 OR kind = 'traceback') ORDER BY seq" },
};
#define NSECTIONS (int)(sizeof(sections) / sizeof(*sections))

/* TORCH_TRACE graph breaks as {"reason  (where)": count}. */
static json_t *trace_break_counts(struct db *ix, int64_t run, struct pt_diag *diag)
{
	struct tt_events ev;
	json_t *m;

	if (tt_graph_breaks(ix, run, &ev, diag) < 0)
		return NULL;
	m = json_object();
	for (size_t i = 0; i < ev.n; i++) {
		char *raw = pt_xasprintf("%s%s%s%s", ev.v[i].what ? ev.v[i].what : "?", ev.v[i].where ? "  (" : "",
					 ev.v[i].where ? ev.v[i].where : "", ev.v[i].where ? ")" : "");
		char *k = normalise(raw);
		json_t *c = json_object_get(m, k);

		json_object_set_new(m, k, json_integer(c ? json_integer_value(c) + 1 : 1));
		free(k);
		free(raw);
	}
	tt_events_release(&ev);
	return m;
}

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
	for (int s = -1; s <= NSECTIONS; s++) {
		json_t *ma, *mb, *d;
		json_int_t ta, tb;
		const char *name = s < 0 ? "ops" : s == NSECTIONS ? "trace_graph_breaks" : sections[s][0];

		if (s < 0) {
			ma = ops_counts(ix, a);
			mb = ops_counts(ix, b);
		} else if (s == NSECTIONS) {
			ma = trace_break_counts(ix, a, &diag);
			mb = trace_break_counts(ix, b, &diag);
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
