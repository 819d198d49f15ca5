/*
 * The ptinspect subcommands' entry points (cmd_files.c has the per-file
 * ones: files, deps, cuda, debug). The context, exit codes and table type
 * are common/cli.h.
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

/* Each returns the process exit code. argv[0] is the full name ("ptinspect deps"). */
int cmd_build(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect build [DIR] */
int cmd_diff(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect diff A B */
int cmd_files(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect FILE... */
int cmd_deps(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect deps FILE... */
int cmd_cuda(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect cuda FILE... */
int cmd_config(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect config FILE|- */
int cmd_debug(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect debug FILE... */
int cmd_doctor(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect doctor */
int cmd_env(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect env */
int cmd_undefined(int argc, char **argv, struct pt_cli *ctx);	/* ptinspect undefined FILE */

#endif
