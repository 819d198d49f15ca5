/*
 * pttrace: global options, the sorted subcommand table, exact-match
 * dispatch. Each subcommand lives in its own cmd_<name>.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pttrace.h"

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv, struct pt_ctx *ctx);
	const char *summary;
};

/* Sorted by name; matched whole (no prefixes). */
static const struct subcommand subcommands[] = {
	{ "artifact", cmd_artifact, "print a compile's payload, or write all as tlparse names them" },
	{ "compiles", cmd_compiles, "one row per compile id: status, graphs, ops, guards, times" },
	{ "diff", cmd_diff, "compare two runs: ops called, graph breaks, recompiles, errors" },
	{ "graph-breaks", cmd_graph_breaks, "every graph break: compile id, where, why" },
	{ "import", cmd_import, "index TORCH_TRACE files or directories as a run" },
	{ "logs", cmd_logs, "a run's records, filtered by level, artifact, compile id, rank, text" },
	{ "ls", cmd_ls, "list runs" },
	{ "ops", cmd_ops, "dispatcher calls by operator and key (--tree: the call tree)" },
	{ "ranks", cmd_ranks, "per-rank compile counts and where ranks diverge" },
	{ "recompiles", cmd_recompiles, "every recompile with the guard that failed" },
	{ "reindex", cmd_reindex, "rebuild a run's records from its raw output" },
	{ "rm", cmd_rm, "delete runs, their rows and their directories" },
	{ "run", cmd_run, "run a script or command with torch's tracing on and index its output" },
	{ "show", cmd_show, "one run: status, duration, warnings, breaks, recompiles, errors" },
	{ "sql", cmd_sql, "run a read-only SQL query (the run's id is bound as :run)" },
	{ "timeline", cmd_timeline, "all ranks' chromium events as one Chrome trace" },
};

static void usage(FILE *f)
{
	fputs("usage: pttrace [--db FILE] [--json] SUBCOMMAND [OPTIONS] [ARGS]\n"
	      "\n"
	      "Runs PyTorch programs with torch's tracing on and keeps everything they\n"
	      "print, indexed in SQLite, for questions afterwards.\n"
	      "\n"
	      "Subcommands:\n", f);
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(f, "  %-9s %s\n", subcommands[i].name, subcommands[i].summary);
	fputs("\n"
	      "Global options:\n"
	      "  --db FILE       the database (default $PTTRACE_DB, else\n"
	      "                  $XDG_DATA_HOME/pttrace/pttrace.db, else ~/.local/share/pttrace/pttrace.db)\n"
	      "  --json          JSON on stdout\n"
	      "  --color=WHEN    auto (default: only on a tty, never with NO_COLOR), always, never\n"
	      "  -h, --help      this text; 'pttrace SUBCOMMAND --help' for a subcommand\n"
	      "  --version       print the version\n"
	      "\n"
	      "RUN is a run's id, its --name, or 'last'.\n"
	      "\n"
	      "Exit status (pttrace run: the child's status, see 'pttrace run --help'):\n"
	      "  0  everything fine\n"
	      "  1  problems found\n"
	      "  2  usage error, unreadable database or no such run\n", f);
}

int pt_open_index(struct pt_ctx *ctx, unsigned flags, struct db **ix, struct pt_diag *diag)
{
	char *path = db_default_path(ctx->db);
	const char *env = getenv("PTTRACE_DB");
	int rc;

	/* The default location is created whole; a named one only its last level. */
	if (!(ctx->db && *ctx->db) && !(env && *env))
		flags |= DB_MKDIRS;
	rc = pttrace_db_open(ix, path, flags, diag);

	free(path);
	if (rc < 0) {
		pt_print_diag(ctx, diag);
		pt_diag_release(diag);
	}
	return rc;
}

void pt_print_diag(struct pt_ctx *ctx, struct pt_diag *diag)
{
	pt_diag_print(diag, stderr, ctx->prog, ctx->color_err);
}

int main(int argc, char **argv)
{
	struct pt_ctx ctx = { .prog = "pttrace", .color_mode = PT_COLOR_AUTO };
	int i = 1;

	for (; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--json")) {
			ctx.json = 1;
		} else if (!strcmp(a, "--db") || !strncmp(a, "--db=", 5)) {
			if (a[4] == '=') {
				ctx.db = a + 5;
			} else if (i + 1 < argc) {
				ctx.db = argv[++i];
			} else {
				fprintf(stderr, "pttrace: --db needs a file\n");
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--no-color")) {
			ctx.color_mode = PT_COLOR_NEVER;
		} else if (!strncmp(a, "--color", 7) && (a[7] == '\0' || a[7] == '=')) {
			int m = a[7] ? pt_color_mode_parse(a + 8) : PT_COLOR_ALWAYS;

			if (m < 0) {
				fprintf(stderr, "pttrace: unknown --color value '%s'\n", a + 8);
				return EXIT_USAGE;
			}
			ctx.color_mode = m;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return EXIT_FINE;
		} else if (!strcmp(a, "--version")) {
			printf("pttrace " PTTRACE_VERSION "\n");
			return EXIT_FINE;
		} else if (a[0] == '-') {
			fprintf(stderr, "pttrace: unknown option '%s'\n", a);
			usage(stderr);
			return EXIT_USAGE;
		} else {
			break;
		}
	}
	ctx.color = pt_color_enabled(stdout, ctx.color_mode);
	ctx.color_err = pt_color_enabled(stderr, ctx.color_mode);
	if (i >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	for (size_t k = 0; k < sizeof(subcommands) / sizeof(subcommands[0]); k++)
		if (!strcmp(argv[i], subcommands[k].name))
			return subcommands[k].fn(argc - i, argv + i, &ctx);
	fprintf(stderr, "pttrace: '%s' is not a pttrace subcommand; see 'pttrace --help'\n", argv[i]);
	return EXIT_USAGE;
}
