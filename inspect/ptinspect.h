/*
 * What the ptinspect front ends share: the invocation context and the
 * subcommand entry points (one cmd_<name>.c each, git's builtin/ layout).
 */
#ifndef PT_PTINSPECT_H
#define PT_PTINSPECT_H

#include "term.h"

/* Exit codes, the same in --help and docs/ptinspect.1. */
enum {
	EXIT_FINE = 0,		/* everything fine */
	EXIT_PROBLEMS = 1,	/* problems found: missing library, unmet version, damaged data */
	EXIT_USAGE = 2,		/* usage error or unreadable input */
};

struct pt_ctx {
	const char *prog;	/* "ptinspect" */
	int json;		/* --json given */
	enum pt_color_mode color_mode;
	int color;		/* stdout gets colour */
	int color_err;		/* stderr gets colour */
};

/* Each returns the process exit code. argv[0] is the subcommand's name. */
int cmd_files(int argc, char **argv, struct pt_ctx *ctx);	/* ptinspect FILE... */
int cmd_deps(int argc, char **argv, struct pt_ctx *ctx);	/* ptinspect deps FILE... */
int cmd_cuda(int argc, char **argv, struct pt_ctx *ctx);	/* ptinspect cuda FILE... */

#endif
