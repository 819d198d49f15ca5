/*
 * Rendering of `ptinspect env`: what a Python environment's torch is, where
 * it came from, what it loaded, and the cross-check findings. JSON keys are a
 * contract (docs/ptinspect-env.1).
 */
#ifndef PT_REPORT_ENV_H
#define PT_REPORT_ENV_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "diag.h"
#include "envcheck.h"
#include "pyenv.h"
#include "showconfig.h"

struct pt_style;

/*
 * cfg may be NULL; findings are the envcheck results; others: interpreters
 * that can import torch. verbose: 1 every object in the process, 0 those the
 * import loaded, -1 only torch's and the CUDA stack's (doctor).
 */
void report_env_text(FILE *f, const struct pyenv_report *r, const struct showconfig *cfg,
		     const struct pt_diag *findings, char *const *others, size_t n_others,
		     int verbose, const struct pt_style *st);
json_t *report_env_json(const struct pyenv_report *r, const struct showconfig *cfg,
			const struct pt_diag *findings, char *const *others, size_t n_others);

/*
 * How the interpreter was chosen when none was named (env_pick): {"python",
 * "why", "fallback"}; JSON null when why is NULL (--python).
 */
json_t *report_env_choice_json(const char *python, const char *why, bool fallback);

/* The resolver's summary over torch's _C extension (envcheck_deps). */
json_t *report_env_deps_json(const struct envcheck_deps_summary *s);

/* The findings, one per line, "  warning: [check] message". */
void report_findings_text(FILE *f, const struct pt_diag *findings, int indent,
			  const struct pt_style *st);

#endif
