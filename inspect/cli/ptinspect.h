/*
 * The ptinspect subcommands' entry points (cmd_files.c's cmd_files is the
 * per-file reports: files, deps, cuda, debug). The context, exit codes and
 * table type are common/cli.h.
 */
#ifndef PT_PTINSPECT_H
#define PT_PTINSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "diag.h"
#include "envreport.h"
#include "term.h"

/*
 * The option entries of the subcommands that ask a Python environment
 * (doctor, env): --python PATH (returns 'p'), --expect DIR ('e'); after
 * PT_CLI_OPTIONS in their tables.
 */
#define PT_PYENV_OPTIONS                                         \
	{ "python", required_argument, NULL, 'p' },               \
	{ "expect", required_argument, NULL, 'e' }

/* Each returns the process exit code. argv[0] is the full name ("ptinspect deps"). */
int cmd_build(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect build [DIR] */
int cmd_diff(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect diff A B */
/* ptinspect FILE..., and deps/cuda/debug FILE... (the report by ctx->cmd's name) */
int cmd_files(int argc, char **argv, struct pt_cli *ctx);
int cmd_config(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect config FILE|- */
int cmd_doctor(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect doctor */
int cmd_env(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect env */
int cmd_undefined(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect undefined FILE */

#endif
