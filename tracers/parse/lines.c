/* Line splitting; see lines.h. */
#include "lines.h"

#include <string.h>

#include "diag.h"

void lines_init(struct lines *ls, uint64_t start_off)
{
	memset(ls, 0, sizeof(*ls));
	ls->max = LINES_MAX_LEN;
	pt_strbuf_init(&ls->part, (size_t)-1);
	ls->off = start_off;
	ls->part_off = start_off;
}

void lines_release(struct lines *ls)
{
	pt_strbuf_release(&ls->part);
}

static int emit(lines_fn fn, void *arg, const uint8_t *p, size_t len, uint64_t off,
		size_t raw_len, unsigned flags)
{
	struct line l = { p, len, off, raw_len, flags };

	if (!(flags & LINE_SPLIT) && len && p[len - 1] == '\r') {
		l.len--;
		l.flags |= LINE_CR;
	}
	return fn(arg, &l);
}

/* The partial line has reached the cap: out it goes as a piece. */
static int flush_piece(struct lines *ls, lines_fn fn, void *arg)
{
	int rc = emit(fn, arg, (const uint8_t *)ls->part.buf, ls->part.len, ls->part_off,
		      ls->part.len, LINE_SPLIT);

	ls->part_off += ls->part.len;
	pt_strbuf_reset(&ls->part);
	return rc;
}

int lines_feed(struct lines *ls, const uint8_t *buf, size_t len, lines_fn fn, void *arg)
{
	size_t i = 0;

	while (i < len) {
		const uint8_t *nl = memchr(buf + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (buf + i)) : len - i;

		if (ls->part.len == 0 && nl && n <= ls->max) {
			/* The common case: a whole line inside this chunk, passed in place. */
			if (emit(fn, arg, buf + i, n, ls->off, n + 1, 0) < 0)
				return -1;
			ls->off += n + 1;
			ls->part_off = ls->off;
			i += n + 1;
			continue;
		}
		/* Copy it; a full buffer goes out as a piece only once more of the line comes. */
		while (n) {
			size_t room, take;

			if (ls->part.len == ls->max && flush_piece(ls, fn, arg) < 0)
				return -1;
			room = ls->max - ls->part.len;
			take = n < room ? n : room;
			if (ls->part.len == 0)
				ls->part_off = ls->off;
			if (pt_strbuf_add(&ls->part, buf + i, take) < 0)
				PT_BUG("a piece sized to the room left does not fit");
			ls->off += take;
			i += take;
			n -= take;
		}
		if (nl) {
			size_t plen = ls->part.len;

			ls->off += 1;
			i += 1;
			if (emit(fn, arg, (const uint8_t *)pt_strbuf_str(&ls->part), plen, ls->part_off,
				 plen + 1, 0) < 0) {
				pt_strbuf_reset(&ls->part);
				ls->part_off = ls->off;
				return -1;
			}
			pt_strbuf_reset(&ls->part);
			ls->part_off = ls->off;
		}
	}
	return 0;
}

int lines_finish(struct lines *ls, lines_fn fn, void *arg)
{
	int rc = 0;

	if (ls->part.len) {
		rc = emit(fn, arg, (const uint8_t *)ls->part.buf, ls->part.len, ls->part_off,
			  ls->part.len, LINE_NO_EOL);
		ls->part_off += ls->part.len;
		pt_strbuf_reset(&ls->part);
	}
	return rc;
}
