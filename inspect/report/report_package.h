/*
 * A package's report (package.h): the summary (identity, requirements,
 * how its shared objects' NEEDED names resolve once installed, CUDA, one
 * line per problem), with details = every shared object and each NEEDED
 * name with where it comes from; and its JSON, whose keys are a contract
 * (docs/ptinspect.1, PACKAGES).
 */
#ifndef PT_REPORT_PACKAGE_H
#define PT_REPORT_PACKAGE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "cudaarch.h"
#include "package.h"

struct pt_style;

struct report_package_opts {
	bool details;			/* every shared object and each NEEDED */
	const struct cuda_cc *gpus;	/* --gpu */
	const char *const *gpu_args;
	size_t n_gpus;
};

/* How many --gpu values some member with device code cannot run. */
size_t report_package_unrunnable(const struct package *p, const struct report_package_opts *o);

void report_package_text(FILE *f, const struct package *p, const struct report_package_opts *o,
			 const struct pt_style *st);
json_t *report_package_json(const struct package *p, const struct report_package_opts *o);

#endif
