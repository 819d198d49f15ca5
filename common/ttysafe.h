/*
 * Strings from the files ptinspect reads (NEEDED, SONAME, RPATH, paths,
 * section names, producer strings, configuration text) reach the terminal
 * in text output. A crafted one can carry escape sequences that set the
 * window title, clear the screen or move the cursor (the reliability
 * review's B24). These streams stand in for stdout and stderr and show
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

/* Whether colour sequences may pass on stdout and on stderr (set with --color). */
void pt_ttysafe_allow_color(int out, int err);

/*
 * A filter over any FILE (for tests): the escaping stream writing to under.
 * allow_color: SGR passes; allow_progress: "\r" and "ESC[K" pass.
 */
FILE *pt_ttysafe_open(FILE *under, int allow_color, int allow_progress);

#endif
