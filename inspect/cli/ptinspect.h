/*
 * The ptinspect subcommands' entry points (cmd_files.c's cmd_files is the
 * per-file reports: files, deps, cuda, debug). The context, exit codes and
 * table type are common/cli.h.
 */
#ifndef PT_PTINSPECT_H
#define PT_PTINSPECT_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "diag.h"
#include "envreport.h"
#include "term.h"

/*
 * What doctor and env are asked: --python PATH, --expect DIR, --here,
 * --timeout SECONDS and their own flag.
 */
struct pyenv_opts {
	const char *python;	/* NULL: the first python3 on PATH */
	const char *expect;	/* NULL: no expectation */
	bool flag;		/* the subcommand's own flag (doctor --issue, env --verbose) */
	struct pyenv_probe_opts probe;	/* --here, --timeout */
};

/*
 * The option loop of doctor and env (pyenv_opt.c): getopt_long over
 * PT_CLI_OPTIONS, --python, --expect, --here, --timeout and the
 * subcommand's flag entry (its short form, if any, in optstring with "h");
 * they take no arguments.
 * Returns -1 (go on) or the exit code (--help, a usage error).
 */
int pyenv_opts_parse(struct pt_cli *ctx, int argc, char **argv, const char *optstring,
		     const struct option *flag, const char *usage, struct pyenv_opts *o);

/*
 * --timeout's value (doctor, env, config): whole seconds from 1 to 86400 into
 * *out; else the message on stderr and EXIT_USAGE. Returns 0 when read.
 */
int timeout_opt_parse(struct pt_cli *ctx, const char *arg, int *out);

/* Each returns the process exit code. argv[0] is the full name ("ptinspect deps"). */
int cmd_build(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect build [DIR] */
int cmd_buildlog(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect buildlog [FILE|-] */
int cmd_diff(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect diff A B */
/* ptinspect FILE..., and deps/cuda/debug FILE... (the report by ctx->cmd's name) */
int cmd_files(int argc, char **argv, struct pt_cli *ctx);
int cmd_config(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect config FILE|- */
int cmd_doctor(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect doctor */
int cmd_env(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect env */
int cmd_preflight(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect preflight [SOURCE_DIR] */
int cmd_undefined(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect undefined FILE */

#endif
