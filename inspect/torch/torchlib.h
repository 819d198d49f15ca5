/*
 * Calling into a libtorch_cpu library without Python: at::show_config() is
 * exported, so a child process dlopen()s the library, calls it and writes the
 * text to a pipe. Opt-in only (the library's static initialisers run in the
 * child); a crash, a hang (alarm) or a missing symbol is a diagnostic, never
 * the end of the tool.
 */
#ifndef PT_TORCHLIB_H
#define PT_TORCHLIB_H

#include "diag.h"

/* The child gives up after this many seconds (libtorch_cpu loads in ~1 s). */
#define TORCHLIB_TIMEOUT_S 60

/*
 * Run at::show_config() of the library lib in a child. Returns 0 and a new
 * string in *text (caller frees), or -1 with the reason (dlopen error, no
 * symbol, killed by signal N, timed out) in diag as PT_SEV_ERROR.
 */
int torchlib_show_config(const char *lib, char **text, struct pt_diag *diag);

#endif
