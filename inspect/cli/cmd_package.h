/*
 * `ptinspect FILE.whl|FILE.conda|FILE.tar.bz2|DIR/`: a package read as a
 * whole (package.h), called from cmd_files.c's loop for such arguments.
 */
#ifndef PT_CMD_PACKAGE_H
#define PT_CMD_PACKAGE_H

#include <jansson.h>
#include <stdbool.h>

#include "cli.h"
#include "cudaarch.h"
#include "ldpath.h"

struct package_cli {
	const struct ldpath_env *env;
	bool details;			/* --tree */
	const struct cuda_cc *gpus;
	const char *const *gpu_args;
	size_t n_gpus;
	const char *tag;		/* --tag */
	const char *against;		/* --against */
	bool no_cache;			/* --no-package-cache */
};

/* Is path one (a directory is, whatever it holds)? */
bool package_cli_applies(const char *path);

/* The report of one package (or of each package in a dist/ folder); the exit code. */
int package_cli_one(const char *path, const struct package_cli *pc, struct pt_cli *ctx,
		    json_t *files, json_t *problems);

#endif
