/*
 * What the pttrace front ends share: the subcommand entry points (one
 * cmd_<name>.c per subcommand or family: cmd_runs.c has ls/show/rm/reindex,
 * cmd_compiles.c compiles/graph-breaks/recompiles) and the set-up helpers
 * of cli.c. The context, exit codes and table type are common/cli.h.
 */
#ifndef PT_PTTRACE_H
#define PT_PTTRACE_H

#include <stdint.h>

#include "cli.h"
#include "db.h"
#include "diag.h"
#include "parts.h"
#include "runs.h"

/* pttrace run's own failures; otherwise it exits with the child's status (env, timeout). */
enum pttrace_run_exit {
	EXIT_RUN_INTERNAL = 125,	/* pttrace failed */
	EXIT_RUN_NOEXEC = 126,		/* command found but not executable */
	EXIT_RUN_NOTFOUND = 127,	/* command not found */
};

/*
 * Open the database as the running subcommand's table flags say
 * (PT_NEEDS_DB_RO: read-only; PT_NEEDS_DB_RW: writable, created unless
 * PT_NEEDS_DB_EXISTING) and, with PT_NEEDS_RUN and run_spec not NULL,
 * resolve RUN into *run_id. On failure the diagnostics are printed and
 * released, and -1 returned (the caller exits EXIT_USAGE).
 */
int pttrace_cmd_open(struct pt_cli *cli, const char *run_spec, struct db **ix, int64_t *run_id,
		     struct pt_diag *diag);

/* Print diag's messages on stderr with the program's name and colour policy. */
void pttrace_print_diag(struct pt_cli *cli, struct pt_diag *diag);

/*
 * After writing a result to stdout (flushes it): 0 when all of it went out,
 * 1 when the reader closed the pipe (EPIPE with SIGPIPE ignored: the output
 * simply ends, nothing is said), -1 on another write error ("stdout:
 * write: ..." added to diag; the caller exits EXIT_USAGE).
 */
int pttrace_stdout_done(struct pt_diag *diag);

/*
 * Each returns the process exit code; argv[0] is the subcommand's full name
 * ("pttrace diff", pt_cli_run).
 * The table with their flags is in main.c.
 */
int cmd_diff(int argc, char **argv, struct pt_cli *ctx);	/* cmd_diff.c */
int cmd_logs(int argc, char **argv, struct pt_cli *ctx);	/* cmd_logs.c */
int cmd_ls(int argc, char **argv, struct pt_cli *ctx);		/* cmd_runs.c */
int cmd_ops(int argc, char **argv, struct pt_cli *ctx);		/* cmd_ops.c */
int cmd_reindex(int argc, char **argv, struct pt_cli *ctx);	/* cmd_runs.c */
int cmd_report(int argc, char **argv, struct pt_cli *ctx);	/* cmd_report.c */
int cmd_rm(int argc, char **argv, struct pt_cli *ctx);		/* cmd_runs.c */
int cmd_run(int argc, char **argv, struct pt_cli *ctx);		/* cmd_run.c */
int cmd_show(int argc, char **argv, struct pt_cli *ctx);	/* cmd_runs.c */
int cmd_sql(int argc, char **argv, struct pt_cli *ctx);		/* cmd_sql.c */

int cmd_artifact(int argc, char **argv, struct pt_cli *ctx);	/* cmd_artifact.c */
int cmd_compiles(int argc, char **argv, struct pt_cli *ctx);	/* cmd_compiles.c */
int cmd_graph_breaks(int argc, char **argv, struct pt_cli *ctx);	/* cmd_compiles.c */
int cmd_import(int argc, char **argv, struct pt_cli *ctx);	/* cmd_import.c */
int cmd_ranks(int argc, char **argv, struct pt_cli *ctx);	/* cmd_ranks.c */
int cmd_recompiles(int argc, char **argv, struct pt_cli *ctx);	/* cmd_compiles.c */
int cmd_timeline(int argc, char **argv, struct pt_cli *ctx);	/* cmd_timeline.c */

#endif
