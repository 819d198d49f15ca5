/* Line splitter with ANSI and CR cleaning and a kept-length cap (bllines.h). */
#include <stdlib.h>
#include <string.h>

#include "bllines.h"
#include "xalloc.h"

void bl_lines_init(struct bl_lines *s)
{
	memset(s, 0, sizeof(*s));
	s->buf = pt_xmalloc(BL_LINE_MAX + 1);
}

void bl_lines_release(struct bl_lines *s)
{
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

static void emit(struct bl_lines *s, bool no_eol, bl_line_fn fn, void *arg)
{
	struct bl_line l;

	s->buf[s->len] = 0;
	l = (struct bl_line){ s->buf, s->len, ++s->no, s->cut, s->nul, no_eol };
	fn(arg, &l);
	s->len = 0;
	s->cut = 0;
	s->nul = 0;
	s->esc = 0;
	s->cr = false;
	s->any = false;
}

void bl_lines_feed(struct bl_lines *s, const uint8_t *p, size_t n, bl_line_fn fn, void *arg)
{
	const uint8_t *end = p + n;

	s->bytes += n;
	while (p < end) {
		/* The common case: a run of plain bytes copied at once. */
		if (!s->esc && !s->cr) {
			const uint8_t *q = p;

			while (q < end && *q != '\n' && *q != '\r' && *q != 0x1b && *q != 0)
				q++;
			if (q > p) {
				size_t k = (size_t)(q - p), room = BL_LINE_MAX - s->len;

				if (k > room) {
					s->cut += k - room;
					k = room;
				}
				memcpy(s->buf + s->len, p, k);
				s->len += k;
				s->any = true;
				p = q;
				continue;
			}
		}
		uint8_t c = *p++;

		if (c == '\n') {
			emit(s, false, fn, arg);
			continue;
		}
		s->any = true;
		if (s->cr) {
			/* "\r" then more text: a terminal would overwrite the line. */
			s->cr = false;
			s->len = 0;
		}
		if (s->esc == 1) {
			s->esc = c == '[' ? 2 : 0;
			continue;
		}
		if (s->esc == 2) {
			if (c >= 0x40 && c <= 0x7e)
				s->esc = 0;
			continue;
		}
		if (c == 0x1b) {
			s->esc = 1;
		} else if (c == '\r') {
			s->cr = true;
		} else if (c == 0) {
			s->nul++;
		} else if (s->len < BL_LINE_MAX) {
			s->buf[s->len++] = (char)c;
		} else {
			s->cut++;
		}
	}
}

void bl_lines_finish(struct bl_lines *s, bl_line_fn fn, void *arg)
{
	if (s->any || s->len)
		emit(s, true, fn, arg);
}
