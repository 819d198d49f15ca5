/*
 * `pttrace diff RUN1 RUN2`: what changed between two runs: dispatcher calls
 * per operator and key, graph breaks (by reason), recompiles, warnings and
 * errors (by normalised text and place; tracebacks by exception line and
 * innermost frame), TORCH_TRACE graph breaks and compiles, and the exit
 * status. Exit 1 when anything differs, as diff(1) does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "pttrace.h"
#include "db_json.h"
#include "logs_query.h"
#include "run_diff.h"
#include "runs.h"
#include "tt_query.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: pttrace diff [--json] RUN1 RUN2\n"
	"\n"
	"Compares two runs: exit status, dispatcher calls by operator and key, graph\n"
	"breaks (by their Reason: line), recompiles, warnings and errors (by their\n"
	"text with addresses, temporary directories and timings masked, and where\n"
	"they come from; tracebacks by exception line and innermost frame), and from\n"
	"TORCH_TRACE the compiles (paired by code location: file, first line,\n"
	"function; by compile id where the trace names none), their recompile\n"
	"reasons and the graph breaks (reason and place). A temporary path keeps its\n"
	"file name and line; only the directory a run made in /tmp is masked\n"
	"(/tmp/?/x.py:5).\n"
	"\n"
	"Exit status: 0 no differences, 1 differences, 2 usage error or no such run.\n";

/* "[0/1]", "[0/1] #2" (the second compile of that id in the process). */
static void print_id(json_t *v, const char *id, const char *occ)
{
	long long n = (long long)json_integer_value(json_object_get(v, occ));

	printf("[%s]", json_string_value(json_object_get(v, id)) ?: "");
	if (n > 1)
		printf(" #%lld", n);
}

/* "  (file:line in name)" where the trace says where the code is; the pairing key. */
static void print_location(json_t *v)
{
	const char *loc = json_string_value(json_object_get(v, "location"));

	if (loc)
		printf("  (%s)", loc);
}

/* The TORCH_TRACE part of the text output (tt_diff_json's document). */
static void print_compiles_diff(json_t *tc)
{
	json_t *v, *t;
	size_t i;
	double ta = 0, tb = 0;
	int renumbered;

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
			printf(" %s", json_string_value(json_object_get(v, "name")) ?: "");
			print_location(v);
			putchar('\n');
		}
	json_array_foreach(json_object_get(tc, "matched"), i, v) {
		t = json_object_get(v, "entire_frame_compile_time_s");
		ta += json_number_value(json_array_get(t, 0));
		tb += json_number_value(json_array_get(t, 1));
		/* The same code compiled under another id in the second run: shown, not a difference. */
		renumbered = strcmp(json_string_value(json_object_get(v, "compile_id")) ?: "",
				    json_string_value(json_object_get(v, "compile_id_b")) ?: "") ||
			     json_integer_value(json_object_get(v, "occurrence")) !=
				     json_integer_value(json_object_get(v, "occurrence_b"));
		if (!json_is_true(json_object_get(v, "changed")) && !renumbered)
			continue;
		printf("    %c ", json_is_true(json_object_get(v, "changed")) ? '~' : '=');
		print_id(v, "compile_id", "occurrence");
		if (renumbered) {
			printf(" -> ");
			print_id(v, "compile_id_b", "occurrence_b");
		}
		printf(" %s", json_string_value(json_object_get(v, "name")) ?: "");
		print_location(v);
		putchar(':');
		if (!json_is_true(json_object_get(v, "changed")))
			printf(" the same compile under another id;");
		if (json_is_true(json_object_get(v, "graph_changed")))
			printf(" graph changed;");
		for (size_t f = 0; f < run_diff_n_compile_fields; f++) {
			json_t *p = json_object_get(v, run_diff_compile_fields[f]);
			char *x, *y;

			if (!p)
				continue;
			x = run_diff_value_text(json_array_get(p, 0));
			y = run_diff_value_text(json_array_get(p, 1));
			printf(" %s %s -> %s;", run_diff_compile_fields[f], x, y);
			free(x);
			free(y);
		}
		putchar('\n');
	}
	printf("    compile time of the compiles both have: %.3f s -> %.3f s\n", ta, tb);
	/* Recompile reasons one run has more often than the other. */
	for (int k = 0; k < 2; k++) {
		json_t *r = json_object_get(json_object_get(tc, "recompile_reasons_only"), k ? "b" : "a");
		size_t n = json_array_size(r);

		/* The same reason more often: one line with its count. */
		for (size_t j = 0, same; j < n; j += same) {
			const char *t = json_string_value(json_array_get(r, j));

			for (same = 1; j + same < n &&
			     !strcmp(t ?: "", json_string_value(json_array_get(r, j + same)) ?: ""); same++)
				;
			if (same > 1)
				printf("    %s recompile %s (%zu times)\n", k ? "+" : "-", t ?: "", same);
			else
				printf("    %s recompile %s\n", k ? "+" : "-", t ?: "");
		}
	}
}

int cmd_diff(int argc, char **argv, struct pt_cli *ctx)
{
	struct pt_diag diag;
	struct db *ix = NULL;
	json_t *doc = NULL;
	int64_t a, b;
	int rc = pt_cli_parse_common(ctx, argc, argv, "h", usage_text);

	if (rc >= 0)
		return rc;
	rc = EXIT_USAGE;
	if (argc - optind != 2) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	if (pt_cmd_open(ctx, NULL, &ix, NULL, &diag) < 0)
		return EXIT_USAGE;
	if (runs_resolve(ix, argv[optind], &a) < 0 || runs_resolve(ix, argv[optind + 1], &b) < 0 ||
	    run_diff_json(ix, a, b, &doc, &diag) < 0)
		goto out;
	if (ctx->json) {
		pt_json_print(stdout, doc);
	} else {
		const char *k;
		json_t *sec, *st = json_object_get(doc, "status");
		const char *sa = json_string_value(json_object_get(st, "a"));
		const char *sb = json_string_value(json_object_get(st, "b"));

		printf("runs %lld and %lld\n", (long long)a, (long long)b);
		printf("  status: %s%s%s\n", sa, strcmp(sa, sb) ? " -> " : " (same)", strcmp(sa, sb) ? sb : "");
		json_object_foreach(doc, k, sec) {
			json_t *d = json_object_get(sec, "differences"), *v;
			size_t i;

			/* A section neither run has anything in says nothing. */
			if (!d || (!json_integer_value(json_object_get(sec, "a")) &&
				   !json_integer_value(json_object_get(sec, "b")) && !json_array_size(d)))
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
	rc = json_is_true(json_object_get(doc, "differ")) ? EXIT_PROBLEMS : EXIT_FINE;
out:
	json_decref(doc);
	pt_print_diag(ctx, &diag);
	db_close(ix);
	pt_diag_release(&diag);
	return rc;
}
