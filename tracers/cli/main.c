/*
 * pttrace: global options, the sorted subcommand table with what each needs
 * set up (common/cli.h), exact-match dispatch. The subcommands are in
 * cmd_<name>.c (families share one: cmd_runs.c, cmd_compiles.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pttrace.h"
#include "ttysafe.h"
#include "xalloc.h"

#define RO PT_NEEDS_DB_RO
#define RW PT_NEEDS_DB_RW
#define EXISTING PT_NEEDS_DB_EXISTING
#define RUN PT_NEEDS_RUN
#define BYTES PT_STDOUT_BYTES

/* Sorted by name; matched whole (no prefixes). */
static const struct pt_cmd subcommands[] = {
	{ "artifact", cmd_artifact, "print a compile's payload, or write all as tlparse names them", RO | RUN | BYTES },
	{ "compiles", cmd_compiles, "one row per compile id: status, graphs, ops, guards, times", RO | RUN },
	{ "diff", cmd_diff, "compare two runs: ops called, graph breaks, recompiles, errors", RO },
	{ "graph-breaks", cmd_graph_breaks, "every graph break: compile id, where, why", RO | RUN },
	{ "import", cmd_import, "index TORCH_TRACE files or directories as a run", RW },
	{ "logs", cmd_logs, "a run's records, filtered by level, artifact, compile id, rank, text", RO | RUN | BYTES },
	{ "ls", cmd_ls, "list runs", RO },
	{ "ops", cmd_ops, "dispatcher calls by operator and key (--tree: the call tree)", RO | RUN },
	{ "ranks", cmd_ranks, "per-rank compile counts and where ranks diverge", RO | RUN },
	{ "recompiles", cmd_recompiles, "every recompile with the guard that failed", RO | RUN },
	{ "reindex", cmd_reindex, "rebuild a run's records from its raw output", RW | EXISTING },
	{ "report", cmd_report, "write a static HTML report of a run (file://, no server)", RO | RUN },
	{ "rm", cmd_rm, "delete runs, their rows and their directories", RW | EXISTING },
	{ "run", cmd_run, "run a script or command with torch's tracing on and index its output", RW },
	{ "show", cmd_show, "one run: status, duration, warnings, breaks, recompiles, errors", RO | RUN },
	{ "sql", cmd_sql, "run a read-only SQL query (the run's id is bound as :run)", RO | RUN },
	{ "timeline", cmd_timeline, "all ranks' chromium events as one Chrome trace", RO | RUN | BYTES },
};
#define NCMDS (PT_ARRAY_SIZE(subcommands))

static void usage(FILE *f)
{
	fputs("usage: pttrace [--db FILE] [--json] SUBCOMMAND [OPTIONS] [ARGS]\n"
	      "\n"
	      "Runs PyTorch programs with torch's tracing on and keeps everything they\n"
	      "print, indexed in SQLite, for questions afterwards.\n"
	      "\n"
	      "Subcommands:\n", f);
	pt_cli_list(f, subcommands, NCMDS);
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

int main(int argc, char **argv)
{
	struct pt_cli cli = { .prog = "pttrace", .color_mode = PT_COLOR_AUTO, .takes_db = 1 };
	const struct pt_cmd *cmd;
	int rc, i;

	/*
	 * Control characters in what the traces and runs hold (names, reasons,
	 * paths, SQL values) never reach the terminal raw (N16, as B24 for
	 * ptinspect): every text output goes through these streams. --json and
	 * PT_STDOUT_BYTES (logs, artifact, timeline into a file or pipe) write
	 * the bytes as they are (common/cli.c).
	 */
	pt_ttysafe_stdio();
	i = pt_cli_globals(&cli, argc, argv, usage, &rc);
	if (i < 0)
		return rc;
	if (i >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (argv[i][0] == '-') {
		pt_cli_bad_option(&cli, argv[i]);
		usage(stderr);
		return EXIT_USAGE;
	}
	cmd = pt_cli_find(subcommands, NCMDS, argv[i]);
	if (cmd)
		return pt_cli_run(&cli, cmd, argc - i, argv + i);
	fprintf(stderr, "pttrace: '%s' is not a pttrace subcommand; see 'pttrace --help'\n", argv[i]);
	return EXIT_USAGE;
}
