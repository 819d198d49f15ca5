/*
 * `pttrace compiles RUN [--rank N]`, `pttrace graph-breaks RUN`,
 * `pttrace recompiles RUN`: the compile-level view of a run's TORCH_TRACE.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "pttrace.h"
#include "render_compiles.h"
#include "tt_query.h"

static const char compiles_usage[] =
	"usage: pttrace compiles RUN [--rank N] [--json]\n"
	"\n"
	"One row per compile id ([0/0], [0/0_1] attempt 1, [!0/1/0] compiled autograd)\n"
	"and rank: the frame, status (ok, restarted, failed, missing: no\n"
	"compilation_metrics, autograd: a compiled-autograd capture [!0]), cache (fx/aot hit, miss, bypass), graphs, ops, guards,\n"
	"compile seconds, the failure or restart reason and the payloads it produced.\n"
	"Exit status: 0 fine, 1 some compile failed, 2 usage or no such run.\n";

static const char breaks_usage[] =
	"usage: pttrace graph-breaks RUN [--unique] [--json]\n"
	"\n"
	"Every graph break: the compile id, where in user code, and why\n"
	"(dynamo_graph_break_reason records; restart reasons in older traces).\n"
	"--unique: each reason and place once, with how often and in which compiles.\n"
	"Exit status: 0 fine, 2 usage error or no such run.\n";

static const char recompiles_usage[] =
	"usage: pttrace recompiles RUN [--json]\n"
	"\n"
	"Every recompile: the new compile id, the compile whose guard failed, the\n"
	"guard, and where it came from (recompile_reasons records).\n"
	"Exit status: 0 fine, 2 usage error or no such run.\n";

/* Each subcommand's options: the shared ones and its own. */
static const struct option compiles_opts[] = {
	PT_CLI_OPTIONS,
	PT_CLI_DB_OPTION,
	{ "rank", required_argument, NULL, 'r' },
	{ NULL, 0, NULL, 0 },
};
static const struct option breaks_opts[] = {
	PT_CLI_OPTIONS,
	PT_CLI_DB_OPTION,
	{ "unique", no_argument, NULL, 'u' },
	{ NULL, 0, NULL, 0 },
};
static const struct option recompiles_opts[] = {
	PT_CLI_OPTIONS,
	PT_CLI_DB_OPTION,
	{ NULL, 0, NULL, 0 },
};

static int unique;	/* graph-breaks --unique */

/* The options and RUN; returns the RUN argument, or NULL with *rc the exit code. */
static const char *parse(int argc, char **argv, struct pt_cli *ctx, const struct option *longopts,
			 const char *usage, long long *rank, int *rc)
{
	char *end;
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'u': unique = 1; break;
		case 'r':
			*rank = strtoll(optarg, &end, 10);
			if (*end || *rank < 0) {
				fprintf(stderr, "%s: --rank wants a number\n", argv[0]);
				*rc = EXIT_USAGE;
				return NULL;
			}
			break;
		default:
			if ((*rc = pt_cli_option(ctx, c, optarg, usage)) >= 0)
				return NULL;
		}
	}
	*rc = EXIT_USAGE;
	if (pt_cli_extra_arg(ctx, argc, argv, 1, usage))
		return NULL;
	if (optind == argc) {
		fprintf(stderr, "%s: no RUN given\n%s", argv[0], usage);
		return NULL;
	}
	return argv[optind];
}

int cmd_compiles(int argc, char **argv, struct pt_cli *ctx)
{
	long long rank = -1;
	int rc;
	const char *spec = parse(argc, argv, ctx, compiles_opts, compiles_usage, &rank, &rc);
	struct pt_diag diag;
	struct db *ix;
	int64_t run;
	struct tt_compiles cs;
	size_t failed = 0;

	if (!spec)
		return rc;
	pt_diag_init(&diag);
	if (pttrace_cmd_open(ctx, spec, &ix, &run, &diag) < 0)
		return EXIT_USAGE;
	rc = EXIT_USAGE;
	if (tt_compiles_load(ix, run, rank, &cs) == 0) {
		for (size_t i = 0; i < cs.n; i++)
			failed += !strcmp(cs.v[i].status, "failed");
		if (ctx->json) {
			json_t *arr = render_compiles_json(&cs);

			pt_json_print(stdout, arr);
			json_decref(arr);
		} else {
			render_compiles_text(stdout, &cs, PT_CLI_STYLE(ctx));
		}
		tt_compiles_release(&cs);
		rc = failed ? EXIT_PROBLEMS : EXIT_FINE;
	}
	db_close(ix);
	pttrace_print_diag(ctx, &diag);
	pt_diag_release(&diag);
	return rc;
}

static int events_cmd(int argc, char **argv, struct pt_cli *ctx, int recompiles)
{
	int rc;
	const char *spec = parse(argc, argv, ctx, recompiles ? recompiles_opts : breaks_opts,
				 recompiles ? recompiles_usage : breaks_usage, NULL, &rc);
	struct pt_diag diag;
	struct db *ix;
	int64_t run;
	struct tt_events ev;
	int r;

	if (!spec)
		return rc;
	pt_diag_init(&diag);
	if (pttrace_cmd_open(ctx, spec, &ix, &run, &diag) < 0)
		return EXIT_USAGE;
	r = recompiles ? tt_recompiles(ix, run, &ev) : tt_graph_breaks(ix, run, &ev);
	rc = EXIT_USAGE;
	if (r == 0) {
		json_t *j = NULL;

		if (unique && !recompiles) {
			struct tt_event_groups g;

			tt_event_groups_of(&ev, &g);
			if (ctx->json)
				j = render_event_groups_json(&g);
			else if (!ev.n)
				printf("no graph breaks\n");
			else
				render_event_groups_text(stdout, &g, PT_CLI_STYLE(ctx));
			tt_event_groups_release(&g);
		} else if (ctx->json) {
			j = render_events_json(&ev, recompiles);
		} else {
			render_events_text(stdout, &ev, recompiles, PT_CLI_STYLE(ctx));
		}
		if (j)
			pt_json_print(stdout, j);
		json_decref(j);
		tt_events_release(&ev);
		rc = EXIT_FINE;
	}
	db_close(ix);
	pttrace_print_diag(ctx, &diag);
	pt_diag_release(&diag);
	return rc;
}

int cmd_graph_breaks(int argc, char **argv, struct pt_cli *ctx)
{
	return events_cmd(argc, argv, ctx, 0);
}

int cmd_recompiles(int argc, char **argv, struct pt_cli *ctx)
{
	return events_cmd(argc, argv, ctx, 1);
}
