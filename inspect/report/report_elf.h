/*
 * The per-file report of `ptinspect FILE...` and its sections. Each section
 * is collected by its module and rendered here twice: as text for people and
 * as JSON for scripts (the key names are a contract, see docs/ptinspect.1).
 * Sections never print diagnostics; they add them to the file's pt_diag.
 */
#ifndef PT_REPORT_H
#define PT_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "diag.h"
#include "elfobj.h"

struct pt_style;

/* The ELF identity section ("elf" in JSON). */
/* The header; its one-line "debug" summary only with debug_line (off when the debug section follows). */
void report_elf_text(FILE *f, const struct elfobj *o, int debug_line, const struct pt_style *st);
json_t *report_elf_json(const struct elfobj *o);

/* Problems of one file as a JSON array of {severity, file, where, message}. */
json_t *report_problems_json(const struct pt_diag *d);

/* "541.2 MB" style size into buf. */
const char *report_size(char *buf, size_t n, unsigned long long bytes);

#endif
