/* TORCH_LOGS and C++ log lines; see torchlogs.h. */
#include "torchlogs.h"

#include <string.h>

#include "numparse.h"
#include "xalloc.h"

/* n digits the caller has checked are digits. */
static int fixed_num(const uint8_t *p, size_t n)
{
	uint64_t v;

	pt_dec_scan(p, n, UINT64_MAX, &v);
	return (int)v;
}

static int ends_with(const uint8_t *p, size_t n, const char *suf)
{
	size_t k = strlen(suf);

	return n >= k && !memcmp(p + n - k, suf, k);
}

/* " [__name]" or "[__name] " at buf[*i]: the artifact logger's tag. */
static int parse_artifact(const uint8_t *buf, size_t len, size_t *i, struct torchlogs_line *t)
{
	size_t k = *i, start;

	if (k + 4 > len || buf[k] != '[' || buf[k + 1] != '_' || buf[k + 2] != '_')
		return -1;
	start = k + 3;
	k = start;
	while (k < len && k - start < 128 &&
	       ((buf[k] >= 'a' && buf[k] <= 'z') || (buf[k] >= 'A' && buf[k] <= 'Z') ||
		(buf[k] >= '0' && buf[k] <= '9') || buf[k] == '_' || buf[k] == '.'))
		k++;
	if (k == start || k >= len || buf[k] != ']')
		return -1;
	t->artifact_off = start;
	t->artifact_len = k - start;
	*i = k + 1;
	return 0;
}

/*
 * After the glog prefix: "[0/0] [__guards] message". Each part is optional
 * and followed by one space (or the end of the line: an empty message line).
 */
static void parse_tags(const uint8_t *buf, size_t len, size_t i, struct torchlogs_line *t)
{
	int used;

	if (i < len && buf[i] == '[' &&
	    (used = compileid_parse(buf + i, len - i, &t->cid)) > 0 &&
	    ((size_t)used == len - i || buf[i + (size_t)used] == ' ')) {
		i += (size_t)used;
		if (i < len)
			i++;
	} else {
		compileid_clear(&t->cid);
	}
	{
		size_t k = i;

		if (parse_artifact(buf, len, &k, t) == 0 && (k == len || buf[k] == ' ')) {
			i = k;
			if (i < len)
				i++;
		} else {
			t->artifact_len = 0;
		}
	}
	t->key_len = i;
	t->msg_off = i;
}

/*
 * BACKCOMPAT: torch 2.1/2.2 (before PR #119869):
 *   "[2024-02-13 19:34:50,591] [0/0] torch._dynamo.guards.__guards: [DEBUG] GUARDS:"
 */
static int parse_old(const uint8_t *buf, size_t len, struct torchlogs_line *t)
{
	static const struct { const char *name; int no; } levels[] = {
		{ "[DEBUG] ", 10 }, { "[INFO] ", 20 }, { "[WARNING] ", 30 },
		{ "[ERROR] ", 40 }, { "[CRITICAL] ", 50 },
	};
	size_t i = 0, name_start, colon;
	int y, mo, d, h, mi, s, ms;

	/* "[YYYY-mm-dd hh:mm:ss,mmm] " is 26 bytes. */
	if (len < 26 || buf[0] != '[' || buf[5] != '-' || buf[8] != '-' || buf[11] != ' ' ||
	    buf[14] != ':' || buf[17] != ':' || buf[20] != ',' || buf[24] != ']' || buf[25] != ' ')
		return -1;
	for (size_t k = 1; k < 24; k++)
		if (k != 5 && k != 8 && k != 11 && k != 14 && k != 17 && k != 20 &&
		    (buf[k] < '0' || buf[k] > '9'))
			return -1;
	y = fixed_num(buf + 1, 4); mo = fixed_num(buf + 6, 2); d = fixed_num(buf + 9, 2);
	h = fixed_num(buf + 12, 2); mi = fixed_num(buf + 15, 2); s = fixed_num(buf + 18, 2);
	ms = fixed_num(buf + 21, 3);
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
		return -1;
	i = 26;
	{
		int used;

		if (i < len && buf[i] == '[' && (used = compileid_parse(buf + i, len - i, &t->cid)) > 0 &&
		    i + (size_t)used < len && buf[i + (size_t)used] == ' ')
			i += (size_t)used + 1;
		else
			compileid_clear(&t->cid);
	}
	/* "logger.name: [LEVEL] " */
	name_start = i;
	while (i < len && buf[i] != ':' && buf[i] != ' ')
		i++;
	if (i + 2 >= len || buf[i] != ':' || buf[i + 1] != ' ' || i == name_start)
		return -1;
	colon = i;
	i += 2;
	for (size_t k = 0; k < PT_ARRAY_SIZE(levels); k++) {
		size_t n = strlen(levels[k].name);

		if (len - i >= n && !memcmp(buf + i, levels[k].name, n)) {
			t->g.levelno = levels[k].no;
			t->g.level = levels[k].name[1];
			t->g.level_off = i + 1;
			t->g.level_len = n - 3;
			i += n;
			break;
		}
	}
	if (!t->g.levelno)
		return -1;
	t->g.year = y;
	t->g.month = mo;
	t->g.day = d;
	t->g.hour = h;
	t->g.min = mi;
	t->g.sec = s;
	t->g.nsec = (uint32_t)ms * 1000000u;
	t->g.frac_digits = 3;
	t->g.rank = -1;
	t->g.pid = -1;
	/* The logger name stands in for the file; "....__guards" is an artifact logger. */
	t->g.file_off = name_start;
	t->g.file_len = colon - name_start;
	for (size_t k = colon; k > name_start + 2; k--) {
		if (buf[k - 1] == '_' && buf[k - 2] == '_' && buf[k - 3] == '.') {
			t->artifact_off = k;
			t->artifact_len = colon - k;
			break;
		}
	}
	t->old_form = 1;
	t->key_len = i;
	t->msg_off = i;
	return 0;
}

enum torchlogs_kind torchlogs_parse(const uint8_t *buf, size_t len, struct torchlogs_line *t)
{
	memset(t, 0, sizeof(*t));
	compileid_clear(&t->cid);
	if (glog_parse(buf, len, &t->g) == 0) {
		const uint8_t *file = buf + t->g.file_off;

		/* Python logging names the .py file; C++ logging a .cpp/.cc/.h/.cu one. */
		if (t->g.form == GLOG_FORM_TEXT && ends_with(file, t->g.file_len, ".py")) {
			t->kind = TORCHLOGS_LOG;
			parse_tags(buf, len, t->g.msg_off, t);
		} else {
			t->kind = TORCHLOGS_CPP;
			t->key_len = t->g.msg_off;
			t->msg_off = t->g.msg_off;
		}
		return t->kind;
	}
	memset(&t->g, 0, sizeof(t->g));
	if (len && buf[0] == '[' && parse_old(buf, len, t) == 0) {
		t->kind = TORCHLOGS_LOG;
		return t->kind;
	}
	memset(t, 0, sizeof(*t));
	compileid_clear(&t->cid);
	t->g.rank = -1;
	t->g.pid = -1;
	return TORCHLOGS_NONE;
}
