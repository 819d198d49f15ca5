/*
 * `pttrace ranks RUN`: one row per process (file) of a run, then tlparse's
 * cross-rank checks (tt_ranks.c): compile ids, cache hit/miss patterns,
 * collective schedules, tensor meta, runtime estimates, graph execution
 * order, collectives parity. Rendered by render_ranks.c.
 */
#include <getopt.h>
#include <stdio.h>

#include "jsonout.h"
#include "pttrace.h"
#include "render_ranks.h"

static const char usage_text[] =
	"usage: pttrace ranks RUN [--json]\n"
	"\n"
	"One row per process (TORCH_TRACE file) of a run: its rank, records,\n"
	"compiles, graphs, failed compiles; files without records are listed apart\n"
	"and not compared. Then tlparse's cross-rank checks against the lowest\n"
	"rank: compile ids (graph counts, ids one side lacks, order), cache\n"
	"hit/miss patterns, collective schedules, tensor meta, runtime estimates,\n"
	"graph execution order and collectives parity.\n"
	"Exit status: 0 fine, 1 ranks diverge or a rank conflict, 2 usage or no such run.\n";

int cmd_ranks(int argc, char **argv, struct pt_cli *ctx)
{
	struct pt_diag diag;
	struct tt_ranks_result r;
	struct db *ix;
	int64_t run;
	int rc = pt_cli_parse_common(ctx, argc, argv, "h", usage_text);

	if (rc >= 0)
		return rc;
	if (pt_cli_extra_arg(ctx, argc, argv, 1, usage_text))
		return EXIT_USAGE;
	if (optind == argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	rc = EXIT_USAGE;
	pt_diag_init(&diag);
	if (pttrace_cmd_open(ctx, argv[optind], &ix, &run, &diag) < 0)
		return EXIT_USAGE;
	if (tt_ranks_load(ix, run, &r) == 0) {
		int conflict = 0;

		for (size_t i = 0; i < r.nmembers; i++)
			conflict |= r.members[i].rank_conflict != NULL;
		if (ctx->json) {
			json_t *o = render_ranks_json(&r);

			pt_json_print(stdout, o);
			json_decref(o);
		} else {
			render_ranks_text(stdout, &r, PT_CLI_STYLE(ctx));
		}
		rc = r.diverge || conflict ? EXIT_PROBLEMS : EXIT_FINE;
		tt_ranks_result_release(&r);
	}
	db_close(ix);
	pttrace_print_diag(ctx, &diag);
	pt_diag_release(&diag);
	return rc;
}
