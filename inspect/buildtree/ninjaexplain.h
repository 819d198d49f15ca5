/*
 * ninja's own explanation of what it would rebuild now: `ninja -C DIR -n -d
 * explain` run as a child (nothing is built: -n), its "ninja explain: ..."
 * lines collected.
 */
#ifndef PT_NINJAEXPLAIN_H
#define PT_NINJAEXPLAIN_H

#include <stddef.h>

#include "diag.h"

struct ninja_explain {
	char **lines;		/* without the "ninja explain: " prefix */
	size_t n, alloc;
	size_t n_would_run;	/* "[i/N]" lines: edges a build would run */
	int ran;		/* 1 ninja ran, 0 not found on PATH */
	int status;		/* its exit status, -1 when killed or timed out */
};

/* timeout_s: kill it after that long. Returns 0, or -1 (reason in d). */
int ninja_explain_run(const char *dir, unsigned timeout_s, struct ninja_explain *x, struct pt_diag *d);
void ninja_explain_release(struct ninja_explain *x);

#endif
