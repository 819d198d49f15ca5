/*
 * Terminal policy shared by both tools: colour only on a tty and never when
 * NO_COLOR is set (https://no-color.org), and a one-line progress display on
 * stderr for long work, shown only when stderr is a tty.
 */
#ifndef PT_TERM_H
#define PT_TERM_H

#include <stdint.h>
#include <stdio.h>

#include "clock.h"

#define PT_C_RESET "\033[0m"
#define PT_C_BOLD "\033[1m"
#define PT_C_DIM "\033[2m"
#define PT_C_RED "\033[31m"
#define PT_C_GREEN "\033[32m"
#define PT_C_YELLOW "\033[33m"
#define PT_C_BLUE "\033[34m"
#define PT_C_MAGENTA "\033[35m"
#define PT_C_CYAN "\033[36m"

enum pt_color_mode { PT_COLOR_AUTO, PT_COLOR_ALWAYS, PT_COLOR_NEVER };

/*
 * How a text renderer should look: what renderers take instead of a front
 * end's context (renderers never see the CLI).
 */
struct pt_style {
	int color;	/* 1: ANSI colours (the caller applied pt_color_enabled) */
};

/* Parse "auto", "always", "never"; -1 on anything else. */
int pt_color_mode_parse(const char *s);

/* 1 if output to f should be coloured under mode (NO_COLOR wins over "auto"). */
int pt_color_enabled(FILE *f, enum pt_color_mode mode);

/* c when colour is on, "" otherwise: printf("%sx%s", pt_c(on, PT_C_RED), pt_c(on, PT_C_RESET)). */
static inline const char *pt_c(int on, const char *c)
{
	return on ? c : "";
}

struct pt_progress {
	int on;			/* stderr is a tty */
	const char *what;
	uint64_t total;		/* 0 when unknown */
	uint64_t last_ns;
	int shown;
};

/* Progress lines are redrawn at most every 100 ms and cleared by _done. */
void pt_progress_init(struct pt_progress *p, const char *what, uint64_t total);
void pt_progress_update(struct pt_progress *p, uint64_t done);
void pt_progress_done(struct pt_progress *p);


/* "s" after a count that is not 1: "%zu edge%s", n, PT_PLURAL(n). */
#define PT_PLURAL(n) ((n) == 1 ? "" : "s")

#endif
