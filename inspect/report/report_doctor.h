/*
 * Rendering of the import diagnosis (importdiag.h) and of the binding check
 * (bindcheck.h): text (symbols demangled, the mangled name beside) and JSON.
 * The only file that sees libiberty's demangler.
 */
#ifndef PT_REPORT_DOCTOR_H
#define PT_REPORT_DOCTOR_H

#include <jansson.h>
#include <stdio.h>

#include "bindcheck.h"
#include "bugreport.h"
#include "importdiag.h"

struct pt_style;

/* A C++ name demangled (new string), or a copy of it when it is not mangled. */
char *report_demangle(const char *mangled);

/* The details under the headline; max_syms per object (0: all). */
void report_importdiag_text(FILE *f, const struct importdiag *g, size_t max_syms,
			    const struct pt_style *st);
json_t *report_importdiag_json(const struct importdiag *g);

/* Undefined symbols per object, `ldd -r` style but grouped; max_syms per object (0: all). */
void report_bindcheck_text(FILE *f, char *const *paths, const struct bindcheck_result *b,
			   size_t max_syms, int indent, const struct pt_style *st);
json_t *report_bindcheck_json(char *const *paths, size_t n_paths, const struct bindcheck_result *b);

/* collect_env's "Label: value" lines, then "Versions of relevant libraries:". */
void report_bugreport_text(FILE *f, const struct bugreport *b);
/* collect_env's SystemEnv keys; pip_packages and conda_packages as arrays. */
json_t *report_bugreport_json(const struct bugreport *b);

#endif
