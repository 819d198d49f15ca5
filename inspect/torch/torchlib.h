/*
 * Calling into a libtorch_cpu library without Python: at::show_config() is
 * exported, so a child process dlopen()s the library, calls it and writes the
 * text to a pipe. Opt-in only (the library's static initialisers run in the
 * child); a crash, a hang or a missing symbol is a diagnostic, never the end
 * of the tool. The limit is the parent's: at the deadline the child's whole
 * process group is killed, so a library that ignores SIGALRM or forks (a
 * grandchild holding the pipe) cannot keep ptinspect waiting.
 */
#ifndef PT_TORCHLIB_H
#define PT_TORCHLIB_H

#include "diag.h"

/* The default limit in seconds (libtorch_cpu loads in ~1 s). */
#define TORCHLIB_TIMEOUT_S 60

/*
 * Run at::show_config() of the library lib in a child, for at most
 * timeout_s seconds (<= 0: TORCHLIB_TIMEOUT_S). Returns 0 and a new string
 * in *text (caller frees), or -1 with the reason (dlopen error, no symbol,
 * killed by signal N, did not finish in time) in diag as PT_SEV_ERROR.
 */
int torchlib_show_config(const char *lib, int timeout_s, char **text, struct pt_diag *diag);

#endif
