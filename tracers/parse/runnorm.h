/*
 * Text that differs from run to run without meaning anything, masked so
 * that the same message (or code location) in two runs compares equal:
 * object addresses ("0x?"), the per-run part of a temporary path (the
 * directory made under /tmp or /var/tmp for one run: "/tmp/tmp.Ab3dE/x.py:5"
 * is "/tmp/?/x.py:5", and a mkstemp-style name such as "/tmp/tmpk2j_3l.py"
 * is "/tmp/tmp?.py"; the file name, the directories below and the line
 * stay), and timings ("? s"). Everything else is kept as it is.
 */
#ifndef PT_RUNNORM_H
#define PT_RUNNORM_H

/* The masked copy of in (a C string). Caller frees. */
char *runnorm_text(const char *in);

#endif
