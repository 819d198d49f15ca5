/* The HTML writer: escaping and page frames (html.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "xalloc.h"

static void put(struct html *h, const char *s, size_t n)
{
	if (!h->err && n && fwrite(s, 1, n, h->f) != n)
		h->err = errno ? errno : EIO;
}

void html_raw(struct html *h, const char *s)
{
	put(h, s, strlen(s));
}

void html_rawf(struct html *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (!h->err && vfprintf(h->f, fmt, ap) < 0)
		h->err = errno ? errno : EIO;
	va_end(ap);
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

void html_textn(struct html *h, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t run = 0;	/* bytes at p[i - run .. i) to copy as they are */

	for (size_t i = 0; i < n;) {
		const char *esc = NULL;
		size_t len = utf8_len(p + i, n - i);

		if (len == 1) {
			switch (p[i]) {
			case '&': esc = "&amp;"; break;
			case '<': esc = "&lt;"; break;
			case '>': esc = "&gt;"; break;
			case '"': esc = "&quot;"; break;
			case '\'': esc = "&#39;"; break;
			case '\t': case '\n': case '\r': break;
			default:
				if (p[i] < 0x20 || p[i] == 0x7f)
					esc = "\xef\xbf\xbd";
			}
		} else if (len == 0) {
			esc = "\xef\xbf\xbd";
			len = 1;
		}
		if (esc) {
			put(h, (const char *)p + i - run, run);
			run = 0;
			html_raw(h, esc);
		} else {
			run += len;
		}
		i += len;
	}
	put(h, (const char *)p + n - run, run);
}

bool html_text_exact(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(p + i, n - i);

		if (!len || (len == 1 && ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\n') || p[i] == 0x7f)))
			return false;
		i += len;
	}
	return true;
}

void html_text(struct html *h, const char *s)
{
	if (s)
		html_textn(h, s, strlen(s));
}

void html_attr(struct html *h, const char *s)
{
	html_text(h, s);
}

void html_elem(struct html *h, const char *tag, const char *text)
{
	html_rawf(h, "<%s>", tag);
	html_text(h, text);
	html_rawf(h, "</%s>", tag);
}

void html_link(struct html *h, const char *href, const char *text)
{
	html_raw(h, "<a href=\"");
	html_attr(h, href);
	html_raw(h, "\">");
	html_text(h, text);
	html_raw(h, "</a>");
}

void html_num(struct html *h, long long v)
{
	if (v < 0)
		html_raw(h, "-");
	else
		html_rawf(h, "%lld", v);
}

void html_secs(struct html *h, double s)
{
	if (s < 0)
		html_raw(h, "-");
	else
		html_rawf(h, "%.3f", s);
}

int html_open(struct html *h, FILE *f, const char *path, const char *title, const char *rel,
	      int hljs)
{
	memset(h, 0, sizeof(*h));
	h->f = f;
	if (!h->f)
		return -1;
	h->path = pt_xstrdup(path);
	html_raw(h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>");
	html_text(h, title);
	html_rawf(h, "</title>\n<link rel=\"stylesheet\" href=\"%sreport.css\">\n"
		  "%s%s%s<script src=\"%sreport.js\" defer></script>\n</head><body>\n"
		  "<nav><a href=\"%sindex.html\">summary</a> <a href=\"%scompiles.html\">compiles</a> "
		  "<a href=\"%sframes.html\">frames</a> <a href=\"%sbreaks.html\">graph breaks</a></nav>\n<h1>",
		  rel, hljs ? "<script src=\"" : "", hljs ? rel : "",
		  hljs ? "highlight.min.js\" defer></script>\n" : "", rel, rel, rel, rel, rel);
	html_text(h, title);
	html_raw(h, "</h1>\n");
	return 0;
}

int html_close(struct html *h)
{
	int err;

	html_raw(h, "\n</body></html>\n");
	if (fflush(h->f) && !h->err)
		h->err = errno ? errno : EIO;
	h->bytes = ftell(h->f);
	if (fclose(h->f) && !h->err)
		h->err = errno ? errno : EIO;
	err = h->err;
	free(h->path);
	h->path = NULL;
	h->f = NULL;
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
