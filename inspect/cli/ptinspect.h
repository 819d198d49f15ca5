/*
 * What the ptinspect front ends share: the invocation context and the
 * subcommand entry points (one cmd_<name>.c each, git's builtin/ layout).
 */
#ifndef PT_PTINSPECT_H
#define PT_PTINSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "envcheck.h"
#include "pyenv.h"
#include "showconfig.h"
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
int cmd_config(int argc, char **argv, struct pt_ctx *ctx);	/* ptinspect config FILE|- */
int cmd_debug(int argc, char **argv, struct pt_ctx *ctx);	/* ptinspect debug FILE... */
int cmd_doctor(int argc, char **argv, struct pt_ctx *ctx);	/* ptinspect doctor */
int cmd_env(int argc, char **argv, struct pt_ctx *ctx);	/* ptinspect env */
int cmd_undefined(int argc, char **argv, struct pt_ctx *ctx);	/* ptinspect undefined FILE */

/* cmd_common.c. --color=WHEN for a subcommand: 0, or -1 after a message. */
int pt_ctx_set_color(struct pt_ctx *ctx, const char *arg);
/* Read all of f (capped one byte past SHOWCONFIG_MAX_LEN) into a new string. */
int pt_read_stream(FILE *f, char **out, size_t *len);

/* cmd_common.c: the torch a Python sees, with the cross-checks (env, doctor). */
struct env_result {
	char *python;			/* the interpreter checked */
	struct pyenv_report rep;
	struct showconfig cfg;		/* parsed from rep.config_text */
	bool have_cfg;
	struct pt_diag findings;	/* envcheck_run */
	struct envcheck_deps_summary deps;	/* envcheck_deps on torch's _C */
	bool have_deps;
	char **others;			/* when python cannot import torch: ones that can */
	size_t n_others;
};
/*
 * python NULL: the first python3 on PATH. fallback: when it cannot import
 * torch, go on with the first interpreter that can (doctor; never when python
 * was named: --python X means X). Returns 0, or
 * -1 when no report came back (reason in d).
 */
int env_collect(const char *python, const char *expect, int fallback, const char *argv0,
		struct env_result *e, struct pt_diag *d);
void env_result_release(struct env_result *e);

#endif
