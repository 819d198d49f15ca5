/* JSON output helpers; see jsonout.h. */
#include "jsonout.h"

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "strbuf.h"

int pt_json_print(FILE *f, const json_t *j)
{
	if (json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0)
		return -1;
	return fputc('\n', f) == EOF ? -1 : 0;
}

void pt_json_stream_begin(struct pt_json_stream *js, FILE *f)
{
	js->f = f;
	js->n = 0;
}

int pt_json_stream_add(struct pt_json_stream *js, json_t *v)
{
	/* [v] as pt_json_print indents it, without its brackets: the element as it
	 * appears inside the whole array. */
	json_t *one = json_array();
	char *txt;
	size_t len;
	int rc = 0;

	json_array_append_new(one, v);
	txt = json_dumps(one, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(one);
	if (!txt)
		return -1;
	len = strlen(txt);
	/* "[\n" ... "\n]" */
	if (len < 4 || fputs(js->n ? ",\n" : "[\n", js->f) == EOF ||
	    fwrite(txt + 2, 1, len - 4, js->f) != len - 4)
		rc = -1;
	free(txt);
	js->n++;
	return rc;
}

int pt_json_stream_end(struct pt_json_stream *js)
{
	if (fputs(js->n ? "\n]\n" : "[]\n", js->f) == EOF)
		return -1;
	return fflush(js->f) == EOF ? -1 : 0;
}

json_t *pt_json_str(const char *s)
{
	json_t *j;

	if (!s)
		return json_null();
	j = json_string(s);
	return j ? j : pt_json_strn_lossy(s, strlen(s));
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t need;
	unsigned cp;

	if (s[0] < 0x80)
		return s[0] ? 1 : 0;
	if ((s[0] & 0xe0) == 0xc0) {
		need = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		need = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		need = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < need)
		return 0;
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((need == 2 && cp < 0x80) || (need == 3 && cp < 0x800) || (need == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return need;
}

json_t *pt_json_strn_lossy(const char *s, size_t n)
{
	struct pt_strbuf sb;
	const unsigned char *u = (const unsigned char *)s;
	json_t *j;

	/* Valid UTF-8 without NUL, the usual case: as it is (jansson checks it). */
	if (!n)
		return json_string("");
	if (!memchr(s, 0, n) && (j = json_stringn(s, n)))
		return j;
	pt_strbuf_init(&sb, (size_t)-1 / 2);
	for (size_t i = 0; i < n;) {
		size_t l = utf8_len(u + i, n - i);

		if (l) {
			if (pt_strbuf_add(&sb, u + i, l) < 0)
				PT_BUG("a JSON string past SIZE_MAX / 2");
			i += l;
		} else {
			/* NUL and invalid bytes: U+FFFD, so the document stays valid. */
			if (pt_strbuf_add(&sb, "\xef\xbf\xbd", 3) < 0)
				PT_BUG("a JSON string past SIZE_MAX / 2");
			i++;
		}
	}
	j = json_stringn(pt_strbuf_str(&sb), sb.len);
	pt_strbuf_release(&sb);
	return j ? j : json_string("");
}

int pt_json_set_lossy(json_t *o, const char *key, json_t *v)
{
	json_t *k;
	int rc;

	if (!key || !v) {
		json_decref(v);
		return -1;
	}
	if (!json_object_set_new(o, key, json_incref(v))) {
		json_decref(v);
		return 0;
	}
	k = pt_json_strn_lossy(key, strlen(key));
	rc = k ? json_object_set_new(o, json_string_value(k), v) : (json_decref(v), -1);
	json_decref(k);
	return rc;
}

json_t *pt_json_strv(char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, pt_json_str(v[i]));
	return a;
}

json_t *pt_json_int_known(int64_t v)
{
	return v < 0 ? json_null() : json_integer((json_int_t)v);
}

json_t *pt_json_num_known(double v)
{
	return v < 0 ? json_null() : json_real(v);
}
