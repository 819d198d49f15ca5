/* Capped buffers; see strbuf.h. */
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void pt_strbuf_init(struct pt_strbuf *sb, size_t max)
{
	memset(sb, 0, sizeof(*sb));
	sb->max = max;
}

void pt_strbuf_release(struct pt_strbuf *sb)
{
	free(sb->buf);
	pt_strbuf_init(sb, sb->max);
}

void pt_strbuf_reset(struct pt_strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

int pt_strbuf_add(struct pt_strbuf *sb, const void *data, size_t n)
{
	if (n > sb->max || sb->len > sb->max - n)
		return -1;
	if (sb->len + n + 1 > sb->alloc) {
		size_t a = sb->alloc ? sb->alloc : 64;

		while (a < sb->len + n + 1)
			a *= 2;
		sb->buf = pt_xrealloc(sb->buf, a);
		sb->alloc = a;
	}
	if (n)
		memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

int pt_strbuf_adds(struct pt_strbuf *sb, const char *s)
{
	return pt_strbuf_add(sb, s, strlen(s));
}

int pt_strbuf_addf(struct pt_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int rc;

	va_start(ap, fmt);
	s = pt_xvasprintf(fmt, ap);
	va_end(ap);
	rc = pt_strbuf_adds(sb, s);
	free(s);
	return rc;
}

const char *pt_strbuf_str(const struct pt_strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *pt_strbuf_detach(struct pt_strbuf *sb)
{
	char *s = sb->buf ? sb->buf : pt_xstrdup("");

	pt_strbuf_init(sb, sb->max);
	return s;
}
