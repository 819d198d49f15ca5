/* glog-style prefixes; see glog.h. */
#include "glog.h"

#include "numparse.h"

/* Up to max decimal digits at buf[*i]; returns the count (0: none) and the value. */
static int digits(const uint8_t *buf, size_t len, size_t *i, int max, int64_t *v)
{
	size_t room = *i < len ? len - *i : 0, n;
	uint64_t x;

	/* max is at most 18 digits: the value always fits. */
	n = pt_dec_scan(buf + *i, room < (size_t)max ? room : (size_t)max, UINT64_MAX, &x);
	*i += n;
	*v = (int64_t)x;
	return (int)n;
}

/* Exactly n digits. */
static int fixed(const uint8_t *buf, size_t len, size_t *i, int n, int *v)
{
	int64_t x;

	if (digits(buf, len, i, n, &x) != n)
		return -1;
	*v = (int)x;
	return 0;
}

static int expect(const uint8_t *buf, size_t len, size_t *i, char c)
{
	if (*i >= len || buf[*i] != (uint8_t)c)
		return -1;
	(*i)++;
	return 0;
}

static int level_number(char c)
{
	switch (c) {
	case 'V': case 'D': return 10;
	case 'I': return 20;
	case 'W': return 30;
	case 'E': return 40;
	case 'C': case 'F': return 50;
	}
	return 0;
}

/* "hh:mm:ss.frac" */
static int parse_time(const uint8_t *buf, size_t len, size_t *i, struct glog_prefix *p)
{
	int64_t frac;
	int nd;

	if (fixed(buf, len, i, 2, &p->hour) || expect(buf, len, i, ':') ||
	    fixed(buf, len, i, 2, &p->min) || expect(buf, len, i, ':') ||
	    fixed(buf, len, i, 2, &p->sec) || expect(buf, len, i, '.'))
		return -1;
	nd = digits(buf, len, i, 9, &frac);
	if (nd == 0)
		return -1;
	p->frac_digits = nd;
	for (int k = nd; k < 9; k++)
		frac *= 10;
	p->nsec = (uint32_t)frac;
	if (p->hour > 23 || p->min > 59 || p->sec > 60)
		return -1;
	return 0;
}

/*
 * "path:line]" at buf[*i]: the prefix ends at the first ']'; the line number
 * is the digits after the last ':' before it (a path may contain ':').
 */
static int parse_location(const uint8_t *buf, size_t len, size_t *i, struct glog_prefix *p)
{
	size_t start = *i, k = *i, colon = (size_t)-1;
	int64_t ln = 0;

	while (k < len && buf[k] != ']') {
		if (buf[k] == ':')
			colon = k;
		k++;
	}
	if (k >= len || colon == (size_t)-1 || colon == start)
		return -1;
	size_t j = colon + 1;
	if (digits(buf, len, &j, 18, &ln) == 0 || j != k)
		return -1;
	p->file_off = start;
	p->file_len = colon - start;
	p->lineno = ln;
	*i = k + 1;
	return 0;
}

/* "[rankN]:" */
static int parse_rank(const uint8_t *buf, size_t len, size_t *i, int *rank)
{
	static const char tag[] = "[rank";
	size_t k = *i;
	int64_t r;

	for (size_t t = 0; t < sizeof(tag) - 1; t++, k++)
		if (k >= len || buf[k] != (uint8_t)tag[t])
			return -1;
	if (digits(buf, len, &k, 9, &r) == 0 || expect(buf, len, &k, ']') ||
	    expect(buf, len, &k, ':'))
		return -1;
	*rank = (int)r;
	*i = k;
	return 0;
}

int glog_parse(const uint8_t *buf, size_t len, struct glog_prefix *p)
{
	size_t i = 0, nletters = 0;
	int64_t pid;
	int md;

	*p = (struct glog_prefix){ .rank = -1, .pid = -1 };
	if (len > 5 && buf[0] == '[' && buf[1] == 'r')
		if (parse_rank(buf, len, &i, &p->rank) < 0)
			return -1;
	if (i < len && buf[i] == '[') {
		p->form = GLOG_FORM_C10;
		i++;
	}
	/* Level: one letter, or a custom level name in full (Python). */
	p->level_off = i;
	while (i < len && nletters < 16 && buf[i] >= 'A' && buf[i] <= 'Z') {
		i++;
		nletters++;
	}
	if (nletters == 0)
		return -1;
	p->level_len = nletters;
	p->level = (char)buf[p->level_off];
	p->levelno = nletters == 1 ? level_number(p->level) : 0;
	if (nletters == 1 && p->levelno == 0)
		return -1;
	/* MMDD, or YYYYMMDD from glog 0.6 on (Debian 12's libtorch). */
	{
		size_t j = i;
		int64_t v;
		int nd = digits(buf, len, &j, 8, &v);

		if (nd == 8) {
			p->year = (int)(v / 10000);
			md = (int)(v % 10000);
		} else if (nd == 4) {
			md = (int)v;
		} else {
			return -1;
		}
		i = j;
	}
	p->month = md / 100;
	p->day = md % 100;
	if (p->month < 1 || p->month > 12 || p->day < 1 || p->day > 31)
		return -1;
	if (expect(buf, len, &i, ' ') || parse_time(buf, len, &i, p))
		return -1;
	if (expect(buf, len, &i, ' '))
		return -1;
	if (p->form == GLOG_FORM_TEXT) {
		/* glog pads the thread id to 5 columns: "  1234". */
		while (i < len && buf[i] == ' ')
			i++;
		if (digits(buf, len, &i, 18, &pid) == 0 || expect(buf, len, &i, ' '))
			return -1;
		p->pid = pid;
	}
	if (parse_location(buf, len, &i, p))
		return -1;
	/* The message follows one space; a message-less line may end right at ']'. */
	if (i < len && buf[i] == ' ')
		i++;
	p->msg_off = i;
	return 0;
}

int64_t glog_days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + (int64_t)doe - 719468;
}

static int64_t local_us(const struct glog_prefix *p, int64_t year, long tz_off_s)
{
	int64_t days = glog_days_from_civil(year, (unsigned)p->month, (unsigned)p->day);
	int64_t secs = days * 86400 + p->hour * 3600 + p->min * 60 + p->sec - tz_off_s;

	return secs * 1000000 + p->nsec / 1000;
}

int64_t glog_time_us(const struct glog_prefix *p, int64_t ref_us, long tz_off_s)
{
	int64_t best, best_d;
	int64_t ref_local_days, y, ref_year;

	if (p->year)
		return local_us(p, p->year, tz_off_s);
	/* The reference's local year (civil_from_days, enough to get the year). */
	ref_local_days = (ref_us / 1000000 + tz_off_s) / 86400;
	{
		int64_t z = ref_local_days + 719468;
		int64_t era = (z >= 0 ? z : z - 146096) / 146097;
		unsigned doe = (unsigned)(z - era * 146097);
		unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
		unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
		unsigned mp = (5 * doy + 2) / 153;
		unsigned m = mp < 10 ? mp + 3 : mp - 9;

		ref_year = (int64_t)yoe + era * 400 + (m <= 2);
	}
	best = local_us(p, ref_year, tz_off_s);
	best_d = best > ref_us ? best - ref_us : ref_us - best;
	for (y = ref_year - 1; y <= ref_year + 1; y += 2) {
		int64_t t = local_us(p, y, tz_off_s);
		int64_t d = t > ref_us ? t - ref_us : ref_us - t;

		if (d < best_d) {
			best = t;
			best_d = d;
		}
	}
	return best;
}
