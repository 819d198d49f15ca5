/*
 * `pttrace diff RUN1 RUN2`: what changed between two runs: dispatcher calls
 * per operator and key, graph breaks (by reason), recompiles, warnings and
 * errors (by normalised text and place; tracebacks by exception line and
 * innermost frame), TORCH_TRACE graph breaks and compiles, and the exit
 * status. Exit 1 when anything differs, as diff(1) does.
 */
#include <stdio.h>

#include "jsonout.h"
#include "pttrace.h"
#include "render_rundiff.h"
#include "run_diff.h"
#include "runs.h"

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

int cmd_diff(int argc, char **argv, struct pt_cli *ctx)
{
	struct pt_diag diag;
	struct db *ix = NULL;
	struct run_diff d;
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
	if (pttrace_cmd_open(ctx, NULL, &ix, NULL, &diag) < 0)
		return EXIT_USAGE;
	if (runs_resolve(ix, argv[optind], &a) < 0 || runs_resolve(ix, argv[optind + 1], &b) < 0 ||
	    run_diff_load(ix, a, b, &d) < 0)
		goto out;
	if (ctx->json) {
		json_t *doc = render_rundiff_json(&d);

		pt_json_print(stdout, doc);
		json_decref(doc);
	} else {
		render_rundiff_text(stdout, &d, PT_CLI_STYLE(ctx));
	}
	rc = d.differ ? EXIT_PROBLEMS : EXIT_FINE;
	run_diff_release(&d);
out:
	pttrace_print_diag(ctx, &diag);
	db_close(ix);
	pt_diag_release(&diag);
	return rc;
}
