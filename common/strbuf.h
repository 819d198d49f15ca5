/*
 * A growable byte buffer with a hard cap per use (curl's dynbuf): appending
 * past the cap fails instead of growing, so a 2 GB line is a diagnostic and
 * not an OOM kill. The buffer is always NUL-terminated.
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
};

void pt_strbuf_init(struct pt_strbuf *sb, size_t max);
void pt_strbuf_release(struct pt_strbuf *sb);
void pt_strbuf_reset(struct pt_strbuf *sb);

/* Returns 0, or -1 (buffer unchanged) when the result would exceed max. */
int pt_strbuf_add(struct pt_strbuf *sb, const void *data, size_t n);
int pt_strbuf_adds(struct pt_strbuf *sb, const char *s);
int pt_strbuf_addf(struct pt_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The contents, "" when empty; valid until the next append. */
const char *pt_strbuf_str(const struct pt_strbuf *sb);

/* Hand the string to the caller (who frees it) and reset the buffer. */
char *pt_strbuf_detach(struct pt_strbuf *sb);

#endif
