/*
 * What the pttrace front ends share: the invocation context, the exit
 * codes and the subcommand entry points (one cmd_<name>.c each, git's
 * builtin/ layout). Features add their cmd_* declarations at the end.
 */
#ifndef PT_PTTRACE_H
#define PT_PTTRACE_H

#include "diag.h"
#include "db.h"
#include "parts.h"
#include "term.h"

#define PTTRACE_VERSION "0.1.0"

/* Exit codes of every subcommand but run (same in --help and docs/pttrace.1). */
enum {
	EXIT_FINE = 0,		/* everything fine */
	EXIT_PROBLEMS = 1,	/* problems found (ops differ, run failed, ...) */
	EXIT_USAGE = 2,		/* usage error, unreadable database, no such run */
};

/* pttrace run's own failures; otherwise it exits with the child's status (env, timeout). */
enum {
	EXIT_RUN_INTERNAL = 125,	/* pttrace failed */
	EXIT_RUN_NOEXEC = 126,		/* command found but not executable */
	EXIT_RUN_NOTFOUND = 127,	/* command not found */
};

struct pt_ctx {
	const char *prog;	/* "pttrace" */
	const char *db;		/* --db, NULL: db_default_path() decides */
	int json;		/* --json */
	enum pt_color_mode color_mode;
	int color;		/* stdout gets colour */
	int color_err;		/* stderr gets colour */
};

/*
 * Open the context's database for a subcommand: flags as db_open
 * (DB_READONLY for readers). On failure prints the diagnostics and
 * returns -1; the caller exits EXIT_USAGE.
 */
int pt_open_index(struct pt_ctx *ctx, unsigned flags, struct db **ix, struct pt_diag *diag);

/* Print diag's messages on stderr with the program's name and colour policy. */
void pt_print_diag(struct pt_ctx *ctx, struct pt_diag *diag);

/*
 * Each returns the process exit code; argv[0] is the subcommand's name.
 * Keep in the order of the subcommand table in main.c.
 */
int cmd_diff(int argc, char **argv, struct pt_ctx *ctx);	/* cmd_diff.c */
int cmd_logs(int argc, char **argv, struct pt_ctx *ctx);	/* cmd_logs.c */
int cmd_ls(int argc, char **argv, struct pt_ctx *ctx);		/* cmd_runs.c */
int cmd_ops(int argc, char **argv, struct pt_ctx *ctx);		/* cmd_ops.c */
int cmd_reindex(int argc, char **argv, struct pt_ctx *ctx);	/* cmd_runs.c */
int cmd_rm(int argc, char **argv, struct pt_ctx *ctx);		/* cmd_runs.c */
int cmd_run(int argc, char **argv, struct pt_ctx *ctx);		/* cmd_run.c */
int cmd_show(int argc, char **argv, struct pt_ctx *ctx);	/* cmd_runs.c */
int cmd_sql(int argc, char **argv, struct pt_ctx *ctx);		/* cmd_sql.c */

/* TORCH_TRACE (issue 6). */
int cmd_artifact(int argc, char **argv, struct pt_ctx *ctx);	/* cmd_artifact.c */
int cmd_compiles(int argc, char **argv, struct pt_ctx *ctx);	/* cmd_compiles.c */
int cmd_graph_breaks(int argc, char **argv, struct pt_ctx *ctx);	/* cmd_compiles.c */
int cmd_import(int argc, char **argv, struct pt_ctx *ctx);	/* cmd_import.c */
int cmd_ranks(int argc, char **argv, struct pt_ctx *ctx);	/* cmd_ranks.c */
int cmd_recompiles(int argc, char **argv, struct pt_ctx *ctx);	/* cmd_compiles.c */
int cmd_timeline(int argc, char **argv, struct pt_ctx *ctx);	/* cmd_timeline.c */

/*
 * Open the database read-only and resolve RUN (cmd_trace_util.c). On failure
 * the diagnostics are printed and released, and -1 returned (exit EXIT_USAGE).
 */
int pt_open_run(struct pt_ctx *ctx, const char *spec, struct db **ix, int64_t *run_id,
		struct pt_diag *diag);

#endif
