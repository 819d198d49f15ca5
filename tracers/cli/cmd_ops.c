/*
 * `pttrace ops RUN [--tree]`: the dispatcher trace of a run, as counts by
 * operator, overload and dispatch key, or as the call tree (nesting from
 * the trace's indentation, torch 2.0+; 1.13 prints none, so every call is
 * a root there).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "pttrace.h"
#include "db_json.h"
#include "logs_query.h"
#include "runs.h"
#include "strbuf.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: pttrace ops [--tree] [--json] RUN\n"
	"\n"
	"Dispatcher calls of a run (TORCH_SHOW_DISPATCH_TRACE, pttrace run --dispatch):\n"
	"counts by operator.overload and dispatch key, or with --tree every call\n"
	"indented under the call it happened in.\n"
	"\n"
	"Exit status: 0 calls shown, 1 the run has no dispatcher calls, 2 usage error\n"
	"or no such run.\n";

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static void print_counts(json_t *rows)
{
	size_t i;
	json_t *v;

	if (json_array_size(rows))
		printf("%8s  %-40s %s\n", "CALLS", "OPERATOR", "KEY");
	json_array_foreach(rows, i, v) {
		char op[512];
		const char *ovl = str(v, "overload");

		pt_fmt_trunc(op, sizeof(op), "%s%s%s", str(v, "op"), *ovl ? "." : "", ovl);
		printf("%8lld  %-40s %s\n", (long long)json_integer_value(json_object_get(v, "calls")), op,
		       str(v, "dispatch_key"));
	}
}

/*
 * The call tree, row by row as SQLite steps (or the rows as a JSON array):
 * a call is indented one level under its parent, found on the stack of the
 * previous call's ancestors (a parent is always one of them); memory is the
 * nesting depth, not the number of calls. Returns the calls written, or -1
 * on a query error (diag).
 */
static int64_t print_tree(struct db_stmt *s, int json)
{
	struct { int64_t id; int level; } *stack = NULL;
	size_t depth = 0, alloc = 0;
	struct pt_json_stream js;
	int64_t n = 0;
	int st;

	pt_json_stream_begin(&js, stdout);
	while ((st = db_step(s)) == 1) {
		int level = 0;

		n++;
		if (json) {
			if (pt_json_stream_add(&js, db_row_json(s)) < 0)
				break;
			continue;
		}
		if (!db_col_is_null(s, 7)) {
			int64_t parent = db_col_int(s, 7);
			size_t k = depth;

			while (k > 0 && stack[k - 1].id != parent)
				k--;
			if (k > 0) {
				level = stack[k - 1].level + 1;
				depth = k;	/* the calls above the parent have returned */
			}
		}
		PT_GROW(stack, depth, alloc);
		stack[depth].id = db_col_int(s, 0);
		stack[depth++].level = level;
		{
			const char *op = db_col_text(s, 3), *ovl = db_col_text(s, 4);
			const char *key = db_col_text(s, 5), *label = db_col_text(s, 2);

			ovl = ovl ? ovl : "";
			printf("%*s%s%s%s [%s] (%s)\n", 2 * level, "", op ? op : "", *ovl ? "." : "", ovl,
			       key ? key : "", label ? label : "");
		}
		if (ferror(stdout))
			break;
	}
	if (st == 1)
		db_reset(s);	/* the reader went away */
	else if (json && st == 0)
		pt_json_stream_end(&js);
	free(stack);
	return st < 0 ? -1 : n;
}

/* Say why there is nothing, instead of printing nothing. */
static void say_none(struct db *ix, int64_t run_id)
{
	struct run_row r;

	if (runs_load(ix, run_id, &r) < 0)
		return;
	if (r.dispatch)
		printf("no dispatcher calls in run %lld: TORCH_SHOW_DISPATCH_TRACE was set, but this"
		       " torch printed no dispatcher trace (release builds compile it out;"
		       " see 'pttrace show %lld')\n", (long long)run_id, (long long)run_id);
	else
		printf("no dispatcher calls in run %lld: it was recorded without --dispatch"
		       " (TORCH_SHOW_DISPATCH_TRACE)\n", (long long)run_id);
	runs_row_release(&r);
}

int cmd_ops(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option longopts[] = {
		{ "tree", no_argument, NULL, 't' },
		PT_CLI_OPTIONS,
		PT_CLI_DB_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	struct pt_diag diag;
	struct db *ix = NULL;
	json_t *rows = NULL;
	int64_t run_id;
	int c, tree = 0, rc = EXIT_USAGE;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 't': tree = 1; break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, usage_text)) >= 0)
				return c;
		}
	}
	if (argc - optind != 1) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	if (pttrace_cmd_open(ctx, argv[optind], &ix, &run_id, &diag) < 0)
		return EXIT_USAGE;
	if (tree) {
		struct db_stmt *st = logs_query_calls(ix, run_id);
		int64_t n = st ? print_tree(st, ctx->json) : -1;

		if (n < 0 || pttrace_stdout_done(&diag) < 0)
			goto out;
		if (!n && !ctx->json)
			say_none(ix, run_id);
		rc = n ? EXIT_FINE : EXIT_PROBLEMS;
		goto out;
	}
	rows = logs_query_ops(ix, run_id);
	if (!rows)
		goto out;
	if (ctx->json)
		pt_json_print(stdout, rows);
	else if (!json_array_size(rows))
		say_none(ix, run_id);
	else
		print_counts(rows);
	rc = json_array_size(rows) ? EXIT_FINE : EXIT_PROBLEMS;
out:
	json_decref(rows);
	pttrace_print_diag(ctx, &diag);
	db_close(ix);
	pt_diag_release(&diag);
	return rc;
}
