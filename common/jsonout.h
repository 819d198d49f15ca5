/*
 * Small helpers over jansson for the --json documents both tools write:
 * the one output format (indented, keys in insertion order, UTF-8 kept) and
 * null-safe builders so callers need no "if (s) ... else json_null()" noise.
 */
#ifndef PT_JSONOUT_H
#define PT_JSONOUT_H

#include <jansson.h>
#include <stdio.h>
#include <stdint.h>

/* Write j followed by a newline; returns 0 or -1 on a write error. */
int pt_json_print(FILE *f, const json_t *j);

/*
 * A JSON array written one element at a time, byte for byte what
 * pt_json_print writes for the whole array, so a long result needs no
 * memory for the rows already written. begin, add (steals the reference
 * to v), end. Each returns 0 or -1 on a write error (errno says which; a
 * closed pipe is EPIPE): the caller stops there.
 */
struct pt_json_stream {
	FILE *f;
	size_t n;		/* elements written */
};
void pt_json_stream_begin(struct pt_json_stream *js, FILE *f);
int pt_json_stream_add(struct pt_json_stream *js, json_t *v);
int pt_json_stream_end(struct pt_json_stream *js);

/* A JSON string, or null for NULL. Never returns NULL. */
json_t *pt_json_str(const char *s);

/* A JSON string for bytes that may not be UTF-8: invalid bytes become U+FFFD. */
json_t *pt_json_strn_lossy(const char *s, size_t n);

/*
 * json_object_set_new with a key that may not be UTF-8 (a CMake cache key,
 * a path): invalid bytes become U+FFFD, so the member is never dropped.
 * Steals the reference to v; returns 0 or -1.
 */
int pt_json_set_lossy(json_t *o, const char *key, json_t *v);

/* An array of strings from v[0..n). */
json_t *pt_json_strv(char *const *v, size_t n);

/* A count or a time where a negative value means unknown: the number, or null. */
json_t *pt_json_int_known(int64_t v);
json_t *pt_json_num_known(double v);

#endif
