/* Capped buffers; see strbuf.h. */
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
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
	sb->clipped = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

int pt_strbuf_add(struct pt_strbuf *sb, const void *data, size_t n)
{
	if (n > sb->max || sb->len > sb->max - n)
		return -1;
	PT_RESERVE(sb->buf, sb->len + n + 1, sb->alloc);
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

/* Format, then append checked or clipped. */
static int vaddf(struct pt_strbuf *sb, int trunc, const char *fmt, va_list ap)
{
	char *s = pt_xvasprintf(fmt, ap);
	int rc = trunc ? pt_strbuf_adds_trunc(sb, s) : pt_strbuf_adds(sb, s);

	free(s);
	return rc;
}

int pt_strbuf_addf(struct pt_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vaddf(sb, 0, fmt, ap);
	va_end(ap);
	return rc;
}

int pt_strbuf_add_trunc(struct pt_strbuf *sb, const void *data, size_t n)
{
	size_t room = sb->len < sb->max ? sb->max - sb->len : 0, take = n < room ? n : room;

	if (pt_strbuf_add(sb, data, take) != 0)
		PT_BUG("pt_strbuf_add_trunc: %zu bytes did not fit in the %zu left", take, room);
	sb->clipped += n - take;
	return take < n;
}

int pt_strbuf_adds_trunc(struct pt_strbuf *sb, const char *s)
{
	return pt_strbuf_add_trunc(sb, s, strlen(s));
}

int pt_strbuf_addf_trunc(struct pt_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vaddf(sb, 1, fmt, ap);
	va_end(ap);
	return rc;
}

static int vfmt(char *buf, size_t n, const char *fmt, va_list ap)
{
	int k = vsnprintf(buf, n, fmt, ap);

	return k < 0 || (size_t)k >= n ? -1 : 0;
}

int pt_fmt(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfmt(buf, n, fmt, ap);
	va_end(ap);
	return rc;
}

int pt_fmt_trunc(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	int cut;

	va_start(ap, fmt);
	cut = vfmt(buf, n, fmt, ap) < 0;
	va_end(ap);
	return cut;
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
