/*
 * Streaming line splitter over a bounded buffer: bytes go in as they come
 * (any chunking), complete lines come out through a callback, with their
 * byte offset in the stream. Lines inside one chunk are passed in place;
 * only a line cut by a chunk boundary is copied. A line longer than the cap
 * comes out in pieces (LINE_SPLIT), so memory stays bounded whatever the
 * input; a last line without a newline comes out at lines_finish.
 */
#ifndef PT_LINES_H
#define PT_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

#define LINES_MAX_LEN (1u << 20)	/* longest line kept whole: 1 MiB */

enum line_flags {
	LINE_CR = 1 << 0,	/* ended in "\r\n"; the \r is not in len */
	LINE_SPLIT = 1 << 1,	/* a piece of an over-long line; more of it follows */
	LINE_NO_EOL = 1 << 2,	/* the stream ended without a newline */
};

struct line {
	const uint8_t *p;	/* the text, without "\n" / "\r\n"; valid during the callback */
	size_t len;
	uint64_t off;		/* offset of p[0] in the stream */
	size_t raw_len;		/* bytes it occupies in the stream, terminator included */
	unsigned flags;
};

/* Return 0 to go on, -1 to stop (lines_feed then returns -1). */
typedef int (*lines_fn)(void *arg, const struct line *l);

struct lines {
	struct pt_strbuf part;	/* a line cut by a chunk boundary */
	uint64_t off;		/* stream offset of the next byte fed */
	uint64_t part_off;	/* stream offset of part's first byte */
	size_t max;		/* cap on one line (LINES_MAX_LEN unless set after init) */
};

void lines_init(struct lines *ls, uint64_t start_off);
void lines_release(struct lines *ls);

/* Feed buf[0..len); calls fn for every line completed. 0, or -1 when fn stopped. */
int lines_feed(struct lines *ls, const uint8_t *buf, size_t len, lines_fn fn, void *arg);

/* End of stream: a pending partial line comes out with LINE_NO_EOL. */
int lines_finish(struct lines *ls, lines_fn fn, void *arg);

#endif
