/*
 * The command-line skeleton both tools share (git's git.c + parse-options):
 * the invocation context, the exit codes, the subcommand table with the set-up
 * each subcommand needs, the global options, and one wording for option
 * errors ("pttrace diff: unrecognized option '--frob'") in every subcommand.
 */
#ifndef PT_CLI_H
#define PT_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "term.h"

/* Exit codes of both tools (the same in every --help and man page). */
enum pt_exit {
	EXIT_FINE = 0,		/* everything fine */
	EXIT_PROBLEMS = 1,	/* problems found (missing library, ops differ, run failed, ...) */
	EXIT_USAGE = 2,		/* usage error, unreadable input or database, no such run */
};

/*
 * What a subcommand needs before it can work; the tool's set-up (pttrace's
 * pttrace_cmd_open) reads them from the table, so that no subcommand chooses
 * its own way of opening the database or resolving RUN.
 */
enum pt_cmd_flags {
	PT_NEEDS_DB_RO = 1 << 0,	/* the database, read-only; it must exist */
	PT_NEEDS_DB_RW = 1 << 1,	/* the database, writable; created when missing */
	PT_NEEDS_DB_EXISTING = 1 << 2,	/* with PT_NEEDS_DB_RW: it must exist */
	PT_NEEDS_RUN = 1 << 3,		/* one RUN argument, resolved to a run id */
	/*
	 * stdout carries stored bytes asked for byte for byte (a payload, a
	 * child's output, a Chrome trace): ttysafe's escaping of control
	 * characters only when stdout is a terminal, none into a file or pipe.
	 * Every other text output is escaped wherever it goes; --json none.
	 */
	PT_STDOUT_BYTES = 1 << 4,
};

struct pt_cli;

/* One row of a tool's subcommand table (sorted by name, matched whole). */
struct pt_cmd {
	const char *name;
	int (*fn)(int argc, char **argv, struct pt_cli *cli);
	const char *summary;
	unsigned flags;		/* enum pt_cmd_flags */
};

/* The invocation: global options and the subcommand being run. */
struct pt_cli {
	const char *prog;		/* "pttrace", "ptinspect" */
	const struct pt_cmd *cmd;	/* the subcommand running, NULL before */
	int takes_db;			/* the tool has --db (pttrace) */
	const char *db;			/* --db FILE, NULL: the default */
	int json;			/* --json */
	enum pt_color_mode color_mode;
	int color;			/* stdout gets colour */
	int color_err;			/* stderr gets colour */
};

/* The renderers' style (term.h) for stdout under the invocation's colour policy. */
#define PT_CLI_STYLE(cli) (&(const struct pt_style){ .color = (cli)->color })

/*
 * The option entries every subcommand of both tools shares: --json (returns
 * 'j'), --color[=WHEN] ('C'), --no-color ('N'), --help ('h'). A subcommand's
 * struct option table starts with PT_CLI_OPTIONS, adds its own entries (other
 * codes than these four), and its getopt_long loop (optind = 0 first; "h" in
 * the optstring) hands what it does not know to pt_cli_option. getopt words a
 * bad option itself under argv[0], the subcommand's full name (pt_cli_run):
 * "pttrace diff: unrecognized option '--frob'", the same everywhere.
 * A subcommand without text in colour still takes --color and ignores it.
 */
#define PT_CLI_OPTIONS                                            \
	{ "json", no_argument, NULL, 'j' },                       \
	{ "color", optional_argument, NULL, 'C' },                \
	{ "no-color", no_argument, NULL, 'N' },                   \
	{ "help", no_argument, NULL, 'h' }

/*
 * --db FILE ('D'), shared by every subcommand of a tool that has a database
 * (pttrace: cli->takes_db); after PT_CLI_OPTIONS. pt_cli_option sets cli->db.
 */
#define PT_CLI_DB_OPTION { "db", required_argument, NULL, 'D' }

/*
 * The end of a subcommand's option switch (its "default:"): 'j', 'C', 'N'
 * from PT_CLI_OPTIONS and 'D' from PT_CLI_DB_OPTION are applied (returns -1: go on); 'h' prints usage on
 * stdout (returns EXIT_FINE); anything else is a usage error already worded
 * by getopt: usage on stderr, EXIT_USAGE (a bad --color value: its message only).
 * Use: default: if ((rc = pt_cli_option(ctx, c, optarg, usage)) >= 0) return rc;
 */
int pt_cli_option(struct pt_cli *cli, int c, const char *arg, const char *usage);

/*
 * The whole option loop of a subcommand with no options of its own:
 * getopt_long over PT_CLI_OPTIONS (and PT_CLI_DB_OPTION where the tool
 * takes_db) with optstring ("h"; "+h" stops at the
 * first argument that is not an option), each through pt_cli_option.
 * Returns -1 (go on: the arguments start at optind) or the exit code.
 */
int pt_cli_parse_common(struct pt_cli *cli, int argc, char **argv, const char *optstring,
			const char *usage);

/*
 * After the option loop, for a subcommand that takes at most max arguments:
 * what is left from optind on is arguments (getopt has taken the options;
 * what follows "--" or, with "+", the first argument is an argument too).
 * More than max: "<prog> <cmd>: unexpected argument 'x'" for the first one
 * too many and usage on stderr, and 1 returned; else 0.
 */
int pt_cli_extra_arg(const struct pt_cli *cli, int argc, char **argv, int max, const char *usage);

/* --color=WHEN (NULL: always): 0, or -1 after a message. Sets color/color_err. */
int pt_cli_set_color(struct pt_cli *cli, const char *when);

/* "<prog> <cmd>: unrecognized option 'arg'", getopt's words (main.c's global options). */
void pt_cli_bad_option(const struct pt_cli *cli, const char *arg);

/* "<prog> <cmd>: unexpected argument 'arg'" (an argument too many). */
void pt_cli_unexpected_arg(const struct pt_cli *cli, const char *arg);

/* "<prog> <cmd>" (or "<prog>" before dispatch), for messages. */
const char *pt_cli_name(const struct pt_cli *cli);

/*
 * Global options before the subcommand: --json, --color[=WHEN], --no-color,
 * --version, -h/--help (usage(stdout), exit 0), and --db FILE when the tool
 * takes it (cli->takes_db). Returns the index of the first other argument,
 * or -1 with *rc set (help, version, or a usage error already reported).
 */
int pt_cli_globals(struct pt_cli *cli, int argc, char **argv, void (*usage)(FILE *f), int *rc);

/* The row of table[0..n) named name, or NULL. */
const struct pt_cmd *pt_cli_find(const struct pt_cmd *table, size_t n, const char *name);

/*
 * Run cmd with argv[0] its full name ("pttrace diff", for getopt's
 * messages) and getopt reset. Returns the subcommand's exit code.
 */
int pt_cli_run(struct pt_cli *cli, const struct pt_cmd *cmd, int argc, char **argv);

/* The table's "  name   summary" lines for a usage text, names padded to the longest. */
void pt_cli_list(FILE *f, const struct pt_cmd *table, size_t n);

#endif
