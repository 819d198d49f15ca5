/* Text and JSON of `ptinspect diff A B`. */
#ifndef PT_REPORT_DIFF_H
#define PT_REPORT_DIFF_H

#include <jansson.h>
#include <stdio.h>

#include "builddiff.h"

struct pt_style;

void report_diff_text(FILE *f, const struct snapshot *a, const struct snapshot *b,
		      const struct snapshot_diff *d, const struct pt_style *st);
json_t *report_diff_json(const struct snapshot *a, const struct snapshot *b, const struct snapshot_diff *d);

#endif
