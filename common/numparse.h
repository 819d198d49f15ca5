/*
 * Decimal numbers in bytes, in one place: every parser that reads digits
 * (glog prefixes, compile ids, TORCH_LOGS timestamps, ld.so.cache names,
 * .ninja_log, cubin notes, ...) calls these instead of its own
 * "v = v * 10 + c - '0'" loop. They take bytes and a length, read nothing
 * past it and never overflow.
 */
#ifndef PT_NUMPARSE_H
#define PT_NUMPARSE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The digits at the start of s[0..n), read while the value stays <= max:
 * the digit that would take it past max is left unread. Returns the number
 * of bytes read (0 when s[0] is not a digit) and the value in *out (0 when
 * none). Leading zeros are digits like the others; no sign, no space.
 */
size_t pt_dec_scan(const void *s, size_t n, uint64_t max, uint64_t *out);

/*
 * The whole run of digits at the start of s[0..n) as a number <= max:
 * returns the bytes read, 0 when s[0] is not a digit (*out untouched), -1
 * when the run's value exceeds max (with max UINT64_MAX: the first value
 * that overflows is UINT64_MAX + 1). Stops at the first non-digit.
 */
ssize_t pt_dec_u64(const void *s, size_t n, uint64_t max, uint64_t *out);

/* pt_dec_u64 with an optional leading '-' ('+' is not a sign): value in [min, max]. */
ssize_t pt_dec_i64(const void *s, size_t n, int64_t min, int64_t max, int64_t *out);

/* All of s[0..n) is one number (pt_dec_u64 read exactly n bytes): 0, else -1. */
int pt_dec_u64_all(const void *s, size_t n, uint64_t max, uint64_t *out);
int pt_dec_i64_all(const void *s, size_t n, int64_t min, int64_t max, int64_t *out);

#endif
