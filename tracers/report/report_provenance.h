/* The provenance pane of a compile: pre-grad, post-grad and output code line-linked. */
#ifndef PT_REPORT_PROVENANCE_H
#define PT_REPORT_PROVENANCE_H

#include <jansson.h>
#include <stddef.h>

#include "html.h"

/* Write the three panes (a NULL text is left out) into h. */
void report_provenance_write(struct html *h, json_t *mappings, char *pre, size_t npre,
			     char *post, size_t npost, char *code, size_t ncode);

#endif
