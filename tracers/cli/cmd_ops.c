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

		snprintf(op, sizeof(op), "%s%s%s", str(v, "op"), *ovl ? "." : "", ovl);
		printf("%8lld  %-40s %s\n", (long long)json_integer_value(json_object_get(v, "calls")), op,
		       str(v, "dispatch_key"));
	}
}

/* Indent by the number of ancestors (parent links point back to earlier calls). */
static void print_tree(json_t *rows)
{
	size_t n = json_array_size(rows), i;
	int64_t *ids = pt_xcalloc(n ? n : 1, sizeof(*ids));
	int *level = pt_xcalloc(n ? n : 1, sizeof(*level));
	json_t *v;

	json_array_foreach(rows, i, v) {
		json_t *p = json_object_get(v, "parent_id");
		const char *ovl = str(v, "overload");

		ids[i] = json_integer_value(json_object_get(v, "id"));
		level[i] = 0;
		if (json_is_integer(p)) {
			/* The parent is near: search back from here. */
			for (size_t k = i; k-- > 0;) {
				if (ids[k] == json_integer_value(p)) {
					level[i] = level[k] + 1;
					break;
				}
			}
		}
		printf("%*s%s%s%s [%s] (%s)\n", 2 * level[i], "", str(v, "op"), *ovl ? "." : "", ovl,
		       str(v, "dispatch_key"), str(v, "label"));
	}
	free(ids);
	free(level);
}

int cmd_ops(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option longopts[] = {
		{ "tree", no_argument, NULL, 't' },
		PT_CLI_OPTIONS,
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
	if (pt_cmd_open(ctx, argv[optind], &ix, &run_id, &diag) < 0)
		return EXIT_USAGE;
	rows = tree ? logs_query_calls(ix, run_id) : logs_query_ops(ix, run_id);
	if (!rows)
		goto out;
	if (ctx->json)
		pt_json_print(stdout, rows);
	else if (tree)
		print_tree(rows);
	else
		print_counts(rows);
	rc = json_array_size(rows) ? EXIT_FINE : EXIT_PROBLEMS;
out:
	json_decref(rows);
	pt_print_diag(ctx, &diag);
	db_close(ix);
	pt_diag_release(&diag);
	return rc;
}
