/*
 * Will this file work on another machine: the renderers of the RPATH/RUNPATH
 * lint (rpathlint.h), the symbol-version floor and its manylinux tag
 * (verfloor.h, mlpolicy.h) and a torch extension's build (torchext.h), as
 * text and JSON. Used by the per-file report (`ptinspect FILE`), the build
 * report and the package report (one member at a time).
 */
#ifndef PT_REPORT_PORTABLE_H
#define PT_REPORT_PORTABLE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "mlpolicy.h"
#include "rpathlint.h"
#include "torchext.h"
#include "verfloor.h"

struct pt_style;

/*
 * "  floor     GLIBC_2.34 GLIBCXX_3.4.30 CXXABI_1.3.13 GCC_3.0: manylinux_2_34_x86_64"
 * and, with a claim, whether it holds; indent spaces before the label.
 */
void report_floor_text(FILE *f, const struct verfloor *fl, const struct mlpolicy_answer *a,
		       int indent, const struct pt_style *st);
json_t *report_floor_json(const struct verfloor *fl, const struct mlpolicy_answer *a);

/* One line: "  rpath     2 problems: ... (--tree)", nothing when there is no finding. */
void report_rpathlint_summary(FILE *f, const struct rpathlint_result *r, int indent,
			      const struct pt_style *st);
/* Every finding, one line each, with the fix. */
void report_rpathlint_text(FILE *f, const struct rpathlint_result *r, int indent,
			   const struct pt_style *st);
json_t *report_rpathlint_json(const struct rpathlint_result *r);

/* The extension lines (nothing when x is not one); a may be NULL (no --against). */
void report_torchext_text(FILE *f, const struct torchext *x, const struct torchext_against *a,
			  bool details, int indent, const struct pt_style *st);
json_t *report_torchext_json(const struct torchext *x, const struct torchext_against *a);

#endif
