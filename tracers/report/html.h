/*
 * A small HTML writer for pttrace report: every piece of text that comes
 * from a trace goes through html_text/html_attr, which escape it (payloads
 * are untrusted: "</script>" or "<img onerror=...>" must render as text).
 * Only literal markup written by this program goes through html_raw.
 * Write errors are sticky: html_close reports the first one.
 */
#ifndef PT_HTML_H
#define PT_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct html {
	FILE *f;
	char *path;	/* for diagnostics */
	int err;	/* errno of the first failed write, 0 when none */
	long bytes;	/* the page's size, set by html_close */
};

/* Start a page on f (a new file; NULL: -1 with errno as it is), path naming it in
 * messages: title, style sheet and script at rel ("" or "../") relative to the
 * report's root, and highlight.min.js too when hljs. Returns 0 or -1 (errno). */
int html_open(struct html *h, FILE *f, const char *path, const char *title, const char *rel,
	      int hljs);
/* End the page and close; 0, or -1 with errno of the first failure. */
int html_close(struct html *h);

/* Literal markup (never data). */
void html_raw(struct html *h, const char *s);
void html_rawf(struct html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text content, escaped: & < > " ' and control characters (shown as U+FFFD
 * except TAB, LF, CR); invalid UTF-8 bytes also become U+FFFD. */
void html_textn(struct html *h, const char *s, size_t n);
/*
 * Whether html_textn's output gives back exactly these bytes once a browser
 * has parsed it (textContent): valid UTF-8 with no control character but
 * tab and newline (a CR is folded into LF by the HTML parser, the others are
 * written as U+FFFD).
 */
bool html_text_exact(const char *s, size_t n);
void html_text(struct html *h, const char *s);	/* NULL writes nothing */
/* An attribute value (inside double quotes): the same escaping. */
void html_attr(struct html *h, const char *s);
/* Markup around escaped text: <tag>text</tag>, tag literal. */
void html_elem(struct html *h, const char *tag, const char *text);
/* <a href="href">text</a>, both escaped. */
void html_link(struct html *h, const char *href, const char *text);

/* The number formats the pages use: "-" when v < 0. */
void html_num(struct html *h, long long v);
void html_secs(struct html *h, double s);

#endif
