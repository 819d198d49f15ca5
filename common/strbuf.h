/*
 * A growable byte buffer with a hard cap per use (curl's dynbuf): appending
 * past the cap fails instead of growing, so a 2 GB line is a diagnostic and
 * not an OOM kill. The buffer is always NUL-terminated.
 *
 * Truncation is never silent. The checking appends (pt_strbuf_add, _adds,
 * _addf) must have their result used (warn_unused_result: -Werror stops a
 * caller that drops it); where cutting is the intent (a child's output past
 * its cap, a display list) the caller says so with the _trunc appends, which
 * clip and count what they cut in sb->clipped.
 */
#ifndef PT_STRBUF_H
#define PT_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct pt_strbuf {
	char *buf;	/* NUL-terminated; NULL until the first append */
	size_t len;
	size_t alloc;
	size_t max;	/* largest len allowed */
	size_t clipped;	/* bytes the _trunc appends cut since init/reset */
};

#define PT_MUST_USE __attribute__((warn_unused_result))

void pt_strbuf_init(struct pt_strbuf *sb, size_t max);
void pt_strbuf_release(struct pt_strbuf *sb);
void pt_strbuf_reset(struct pt_strbuf *sb);

/* Returns 0, or -1 (buffer unchanged) when the result would exceed max. */
PT_MUST_USE int pt_strbuf_add(struct pt_strbuf *sb, const void *data, size_t n);
PT_MUST_USE int pt_strbuf_adds(struct pt_strbuf *sb, const char *s);
PT_MUST_USE int pt_strbuf_addf(struct pt_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Truncation on purpose: append what fits under max, drop the rest (a
 * multi-byte character may be cut), add the dropped count to sb->clipped.
 * Returns 1 when something was cut, else 0; ignoring it is fine.
 */
int pt_strbuf_add_trunc(struct pt_strbuf *sb, const void *data, size_t n);
int pt_strbuf_adds_trunc(struct pt_strbuf *sb, const char *s);
int pt_strbuf_addf_trunc(struct pt_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * snprintf into a fixed buffer, in the same two kinds. pt_fmt checks:
 * returns 0, or -1 when the output did not fit (buf holds the clipped,
 * NUL-terminated prefix); its result must be used. pt_fmt_trunc cuts on
 * purpose (a "line N" place, a label, a table cell) and returns 1 when it
 * cut, which may be ignored. Raw snprintf is for the callers that use its
 * return value to measure.
 */
PT_MUST_USE int pt_fmt(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int pt_fmt_trunc(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The contents, "" when empty; valid until the next append. */
const char *pt_strbuf_str(const struct pt_strbuf *sb);

/* Hand the string to the caller (who frees it) and reset the buffer. */
char *pt_strbuf_detach(struct pt_strbuf *sb);

#endif
