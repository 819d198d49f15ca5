/*
 * Rendering of the debuggability section (debuginfo.h) and of the
 * TORCH_SHOW_DISPATCH_TRACE verdict (dispatchtrace.h): text and JSON
 * ("debug" key per file; see docs/ptinspect-debug.1).
 */
#ifndef PT_REPORT_DEBUG_H
#define PT_REPORT_DEBUG_H

#include <jansson.h>
#include <stdio.h>

#include "debuginfo.h"
#include "dispatchtrace.h"

struct pt_style;

void report_debug_text(FILE *f, const struct debuginfo *di, int indent, const struct pt_style *st);
/* Its first line only (the verdict and why): the summary of the default report. */
void report_debug_line(FILE *f, const struct debuginfo *di, int indent, const struct pt_style *st);
json_t *report_debug_json(const struct debuginfo *di);

/*
 * The sections of n libraries (paths[i], di[i]): each path at indent, its
 * section at indent + 2. Libraries whose sections are the same apart from
 * their own names (.gnu_debuglink, build-id) are one block, in the place of
 * the first: their paths, then the section once without the lines that name
 * one file (doctor: Debian's five stripped torch libraries).
 */
void report_debug_list_text(FILE *f, const struct debuginfo *di, const char *const *paths,
			    size_t n, int indent, const struct pt_style *st);

void report_dispatchtrace_text(FILE *f, const struct dispatchtrace *t, int indent,
			       const struct pt_style *st);
json_t *report_dispatchtrace_json(const struct dispatchtrace *t);

#endif
