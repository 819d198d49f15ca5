/*
 * Strings from the files ptinspect reads (NEEDED, SONAME, RPATH, paths,
 * section names, producer strings, configuration text) reach the terminal
 * in text output. A crafted one can carry escape sequences that set the
 * window title, clear the screen or move the cursor (the reliability
 * fault-matrix.md B24). These streams stand in for stdout and stderr and show
 * every control character as \xNN, except newline and tab, and except the
 * sequences the tool itself writes: SGR colours ("ESC[...m") on a stream
 * whose colour is on, and "\r" plus "ESC[K" (the progress line) on a
 * terminal stderr. JSON output is unaffected (jansson escapes already).
 */
#ifndef PT_TTYSAFE_H
#define PT_TTYSAFE_H

#include <stddef.h>
#include <stdio.h>

/* Replace stdout and stderr by escaping streams over the originals; 0 or -1. */
int pt_ttysafe_stdio(void);

/*
 * From now on stdout is the original stream again, its bytes unchanged: for
 * output whose bytes are the point (a JSON document, whose strings JSON
 * escapes already; a payload or a child's output asked for byte for byte).
 * Whatever the filter holds is written first. Nothing when stdout is not
 * pt_ttysafe_stdio's stream.
 */
void pt_ttysafe_stdout_raw(void);

/* Whether colour sequences may pass on stdout and on stderr (set with --color). */
void pt_ttysafe_allow_color(int out, int err);

/*
 * A filter over any FILE (for tests): the escaping stream writing to under.
 * allow_color: SGR passes; allow_progress: "\r" and "ESC[K" pass.
 */
FILE *pt_ttysafe_open(FILE *under, int allow_color, int allow_progress);

#endif
