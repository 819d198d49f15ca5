/* Dispatcher trace lines; see dispatch.h. */
#include "dispatch.h"

#include <stdio.h>
#include <string.h>

static const char *const labels[] = { "call", "redispatch", "callBoxed", "redispatchBoxed" };

const char *dispatch_label_name(enum dispatch_label l)
{
	return (unsigned)l < 4 ? labels[l] : "?";
}

static int is_word(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* "[label] " at buf[i]; returns the label or -1, *end after " op=[". */
static int parse_label(const uint8_t *buf, size_t len, size_t i, size_t *end)
{
	if (i >= len || buf[i] != '[')
		return -1;
	for (int l = 3; l >= 0; l--) {
		size_t n = strlen(labels[l]);

		if (len - i >= n + 7 && !memcmp(buf + i + 1, labels[l], n) &&
		    !memcmp(buf + i + 1 + n, "] op=[", 6)) {
			*end = i + n + 7;
			return l;
		}
	}
	return -1;
}

int dispatch_parse(const uint8_t *buf, size_t len, struct dispatch_call *c)
{
	static const char sep[] = "], key=[";
	size_t i = 0, op_end, k;
	int l;

	memset(c, 0, sizeof(*c));
	while (i < len && buf[i] == ' ')
		i++;
	l = parse_label(buf, len, i, &k);
	if (l < 0)
		return -1;
	c->label = (enum dispatch_label)l;
	c->depth = i ? (int)i : -1;
	/* The key: word characters between the last "], key=[" and the final ']'. */
	if (len < k + sizeof(sep) || buf[len - 1] != ']')
		return -1;
	{
		size_t ks = len - 1;

		while (ks > k && is_word(buf[ks - 1]))
			ks--;
		if (ks == len - 1 || ks < k + sizeof(sep) - 1 ||
		    memcmp(buf + ks - (sizeof(sep) - 1), sep, sizeof(sep) - 1))
			return -1;
		c->key_off = ks;
		c->key_len = len - 1 - ks;
		op_end = ks - (sizeof(sep) - 1);
	}
	if (op_end <= k)
		return -1;
	/* An operator name has no spaces or brackets: those mean two torn calls on one line. */
	for (size_t q = k; q < op_end; q++)
		if (buf[q] == ' ' || buf[q] == '[' || buf[q] == ']')
			return -1;
	c->op_off = k;
	c->op_len = op_end - k;
	/* The overload follows the first '.' after "::" (aten::add.Tensor, aten::_foreach_add_.List). */
	{
		const uint8_t *ns = memmem(buf + k, op_end - k, "::", 2);
		size_t from = ns ? (size_t)(ns - buf) + 2 : k;
		const uint8_t *dot = memchr(buf + from, '.', op_end - from);

		if (dot) {
			c->op_len = (size_t)(dot - buf) - k;
			c->ovl_off = (size_t)(dot - buf) + 1;
			c->ovl_len = op_end - c->ovl_off;
		}
	}
	c->start = 0;
	return 0;
}

int dispatch_parse_torn(const uint8_t *buf, size_t len, struct dispatch_call *c)
{
	/* The last label occurrence after offset 0 whose rest parses as a call. */
	for (size_t i = len; i-- > 1;) {
		size_t end, s;

		if (buf[i] != '[' || parse_label(buf, len, i, &end) < 0)
			continue;
		s = i;
		while (s > 0 && buf[s - 1] == ' ')
			s--;
		if (s == 0)
			continue;
		if (dispatch_parse(buf + s, len - s, c) == 0) {
			c->start = s;
			c->op_off += s;
			c->ovl_off += c->ovl_len ? s : 0;
			c->key_off += s;
			return 0;
		}
	}
	return -1;
}

int dispatch_is_tail(const uint8_t *buf, size_t len)
{
	static const char sep[] = "], key=[";
	const uint8_t *p;
	size_t ks;

	if (len < sizeof(sep) || buf[len - 1] != ']')
		return 0;
	for (int l = 0; l < 4; l++) {
		char lab[24];
		size_t n = (size_t)snprintf(lab, sizeof(lab), "[%s] op=[", labels[l]);

		if (memmem(buf, len, lab, n))
			return 0;
	}
	ks = len - 1;
	while (ks > 0 && is_word(buf[ks - 1]))
		ks--;
	if (ks == len - 1 || ks < sizeof(sep) - 1)
		return 0;
	p = buf + ks - (sizeof(sep) - 1);
	return !memcmp(p, sep, sizeof(sep) - 1);
}

int dispatch_is_head(const uint8_t *buf, size_t len)
{
	size_t i = 0, end;

	while (i < len && buf[i] == ' ')
		i++;
	if (parse_label(buf, len, i, &end) < 0)
		return 0;
	return !memmem(buf + end, len - end, "], key=[", 8);
}

size_t dispatch_find_labels(const uint8_t *buf, size_t len, size_t *pos, size_t max)
{
	size_t n = 0, end;

	for (size_t i = 0; i < len; i++) {
		if (buf[i] != '[' || parse_label(buf, len, i, &end) < 0)
			continue;
		if (n < max)
			pos[n] = i;
		n++;
		i = end - 1;
	}
	return n;
}

/* Split "ns::name.overload" at the first '.' after "::". */
static void split_overload(const uint8_t *buf, struct dispatch_call *c)
{
	size_t k = c->op_off, end = c->op_off + c->op_len;
	const uint8_t *ns = memmem(buf + k, end - k, "::", 2);
	size_t from = ns ? (size_t)(ns - buf) + 2 : k;
	const uint8_t *dot = from < end ? memchr(buf + from, '.', end - from) : NULL;

	if (dot) {
		c->op_len = (size_t)(dot - buf) - k;
		c->ovl_off = (size_t)(dot - buf) + 1;
		c->ovl_len = end - c->ovl_off;
	}
}

int dispatch_parse_loose(const uint8_t *buf, size_t len, struct dispatch_call *c)
{
	size_t k, e;
	int l;

	memset(c, 0, sizeof(*c));
	c->depth = -1;
	l = parse_label(buf, len, 0, &k);
	if (l < 0)
		return -1;
	c->label = (enum dispatch_label)l;
	e = k;
	while (e < len && buf[e] != ']' && buf[e] != '[')
		e++;
	c->op_off = k;
	c->op_len = e - k;
	split_overload(buf, c);
	if (len - e >= 8 && !memcmp(buf + e, "], key=[", 8)) {
		size_t ks = e + 8, ke = ks;

		while (ke < len && is_word(buf[ke]))
			ke++;
		if (ke < len && buf[ke] == ']') {
			c->key_off = ks;
			c->key_len = ke - ks;
		}
	}
	return 0;
}
