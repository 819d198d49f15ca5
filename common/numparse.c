/* Decimal numbers in bytes; see numparse.h. */
#include "numparse.h"

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

size_t pt_dec_scan(const void *s, size_t n, uint64_t max, uint64_t *out)
{
	const unsigned char *p = s;
	uint64_t v = 0;
	size_t i = 0;

	for (; i < n && is_digit(p[i]); i++) {
		unsigned d = p[i] - '0';

		if (d > max || v > (max - d) / 10)
			break;
		v = v * 10 + d;
	}
	*out = v;
	return i;
}

ssize_t pt_dec_u64(const void *s, size_t n, uint64_t max, uint64_t *out)
{
	const unsigned char *p = s;
	uint64_t v = 0;
	size_t k;

	if (n == 0 || !is_digit(p[0]))
		return 0;
	k = pt_dec_scan(s, n, max, &v);
	if (k < n && is_digit(p[k]))
		return -1;
	*out = v;
	return (ssize_t)k;
}

ssize_t pt_dec_i64(const void *s, size_t n, int64_t min, int64_t max, int64_t *out)
{
	const unsigned char *p = s;
	uint64_t u;
	ssize_t k;

	if (n && p[0] == '-') {
		/* |INT64_MIN| is INT64_MAX + 1. */
		k = pt_dec_u64(p + 1, n - 1, (uint64_t)INT64_MAX + 1, &u);
		if (k <= 0)
			return k;
		if (u == (uint64_t)INT64_MAX + 1) {
			if (min != INT64_MIN)
				return -1;
			*out = INT64_MIN;
			return k + 1;
		}
		if (-(int64_t)u < min || -(int64_t)u > max)
			return -1;
		*out = -(int64_t)u;
		return k + 1;
	}
	k = pt_dec_u64(s, n, (uint64_t)INT64_MAX, &u);
	if (k <= 0)
		return k;
	if ((int64_t)u < min || (int64_t)u > max)
		return -1;
	*out = (int64_t)u;
	return k;
}

int pt_dec_u64_all(const void *s, size_t n, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (pt_dec_u64(s, n, max, &v) != (ssize_t)n || n == 0)
		return -1;
	*out = v;
	return 0;
}

int pt_dec_i64_all(const void *s, size_t n, int64_t min, int64_t max, int64_t *out)
{
	int64_t v = 0;

	if (pt_dec_i64(s, n, min, max, &v) != (ssize_t)n || n == 0)
		return -1;
	*out = v;
	return 0;
}
