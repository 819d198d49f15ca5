/* Text and JSON of `ptinspect buildlog`: the verdict, the failed edge, its cause and fix. */
#ifndef PT_REPORT_BUILDLOG_H
#define PT_REPORT_BUILDLOG_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "buildlog.h"

struct pt_style;

struct buildlog_report {
	const struct buildlog_result *r;
	const char *source;	/* the file name, "-" for stdin */
	uint64_t ram_bytes;	/* this machine's RAM, for MAX_JOBS (0: unknown) */
	bool all;		/* --all: every failed edge, every kept line */
	/* An undefined reference's definition with the other C++ ABI, found in a linked library. */
	const char *twin_lib;	/* the library (as the log names it), NULL: none found */
	const char *twin_def;	/* its demangled definition */
};

/* The suggested MAX_JOBS after an OOM: RAM / 4 GB, at least 1 (0: no RAM figure). */
long report_buildlog_max_jobs(uint64_t ram_bytes);

void report_buildlog_text(FILE *f, const struct buildlog_report *rep, const struct pt_style *st);
json_t *report_buildlog_json(const struct buildlog_report *rep);

#endif
