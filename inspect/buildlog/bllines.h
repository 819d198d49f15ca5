/*
 * The line splitter of `ptinspect buildlog`: bytes go in as they come (any
 * chunking, a length each), lines come out through a callback, cleaned the way
 * a build log needs: the "\r\n" ending and ANSI colour sequences (ESC [ ... m,
 * and any other CSI sequence) removed, a carriage return inside a line (a
 * progress line overwritten on a terminal) keeping what follows it. At most
 * BL_LINE_MAX bytes of a line are kept; the rest is counted and dropped, so
 * memory stays bounded whatever the input (a 2 GB line costs BL_LINE_MAX).
 */
#ifndef PT_BLLINES_H
#define PT_BLLINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BL_LINE_MAX (64u * 1024u)	/* bytes of one line kept */

struct bl_line {
	const char *p;		/* the cleaned text, NUL-terminated; valid during the callback */
	size_t len;
	uint64_t no;		/* 1-based line number in the stream */
	uint64_t cut;		/* bytes of the line dropped past BL_LINE_MAX */
	unsigned nul;		/* NUL bytes seen in the line (removed) */
	bool no_eol;		/* the stream ended without a newline */
};

typedef void (*bl_line_fn)(void *arg, const struct bl_line *l);

struct bl_lines {
	char *buf;		/* BL_LINE_MAX + 1 bytes */
	size_t len;
	uint64_t no, cut;
	unsigned nul;
	int esc;		/* 0 text, 1 after ESC, 2 inside CSI */
	bool cr;		/* a '\r' seen: the next byte other than '\n' starts over */
	bool any;		/* bytes of a pending line */
	uint64_t bytes;		/* total fed */
};

void bl_lines_init(struct bl_lines *s);
void bl_lines_release(struct bl_lines *s);
void bl_lines_feed(struct bl_lines *s, const uint8_t *p, size_t n, bl_line_fn fn, void *arg);
/* End of stream: a last line without a newline comes out with no_eol. */
void bl_lines_finish(struct bl_lines *s, bl_line_fn fn, void *arg);

#endif
