/* Text and JSON of `ptinspect preflight`: the verdict, then the checklist. */
#ifndef PT_REPORT_PREFLIGHT_H
#define PT_REPORT_PREFLIGHT_H

#include <jansson.h>
#include <stdio.h>

#include "preflight.h"

struct pt_style;

/* "FAIL", "warn" or "ok": the worst item's status. */
const char *report_preflight_verdict(const struct preflight *p);

/*
 * The verdict line ("FAIL: the build would fail (2 failures predicted, 1
 * warning)"), then one line per item: status, check, evidence, and an
 * indented "fix:" line when there is one.
 */
void report_preflight_text(FILE *f, const struct preflight *p, const struct pt_style *st);
json_t *report_preflight_json(const struct preflight *p);

#endif
