/*
 * Rendering of a parsed build configuration (showconfig.h): text for people,
 * JSON for scripts. The JSON keys are a contract (docs/ptinspect-config.1):
 * compiler, compilers, cxx_version, cuda_runtime, built_with_cuda_runtime,
 * cudnn, cudnn_version, built_with_cudnn, hip_runtime, miopen, nvcc_sass,
 * nvcc_ptx, arch_list, build_settings, items, unparsed, and the others below.
 */
#ifndef PT_REPORT_CONFIG_H
#define PT_REPORT_CONFIG_H

#include <jansson.h>
#include <stdio.h>

#include "showconfig.h"

struct pt_style;

json_t *report_config_json(const struct showconfig *c);

/* indent: spaces before every line (doctor nests the section). */
void report_config_text(FILE *f, const struct showconfig *c, int indent,
			const struct pt_style *st);

/* "C++17" for "201703", or NULL. Static storage. */
const char *report_cxx_name(const char *cxx_version);

#endif
