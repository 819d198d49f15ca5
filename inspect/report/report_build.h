/* Text and JSON of `ptinspect build`: configuration, libraries, profile, memory. */
#ifndef PT_REPORT_BUILD_H
#define PT_REPORT_BUILD_H

#include <jansson.h>
#include <stdio.h>

#include "buildsince.h"
#include "buildsource.h"
#include "buildtree.h"
#include "ninjaexplain.h"

struct pt_style;

struct build_report {
	const struct buildtree *tree;
	const struct build_config *config;
	const struct build_profile *profile;
	const struct build_memory *memory;
	const struct build_check *check;
	const struct build_rebuilt *rebuilt;	/* --since-last */
	size_t n_rebuilt;
	int since_last;
	const struct ninja_explain *explain;	/* --since-last with ninja on PATH, else NULL */
	int details;				/* --details: full lists */
	const struct build_since *since;	/* --since-last: the causes, NULL without */
};

void report_build_text(FILE *f, const struct build_report *r, const struct pt_style *st);
json_t *report_build_json(const struct build_report *r);

/* --source: generated file or symbol to native_functions.yaml. */
void report_source_text(FILE *f, const struct build_source *s, const struct pt_style *st);
json_t *report_source_json(const struct build_source *s);

/* "1.5 s", "2 min 03 s", "1 h 02 min". */
const char *report_duration(char *buf, size_t n, uint64_t ms);

#endif
