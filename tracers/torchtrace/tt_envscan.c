/*
 * TORCH_TRACE envelopes through SQLite's JSON parser; see tt_envscan.h.
 */
#include "tt_envscan.h"

#include <stdint.h>
#include <string.h>

#include "db_jscan.h"
#include "strbuf.h"
#include "xalloc.h"

struct tt_envscan {
	struct db_jscan *js;
	struct pt_strbuf keep;	/* this call's strings: what out points at */
};

/* What a walk collects: the fields and where their strings are in keep (offsets: keep may grow). */
struct walk {
	struct tt_envscan *s;
	struct tt_env_fields *f;
	size_t keys[TT_ENVSCAN_KEYS], nkeys;	/* offsets in keep of the top-level keys */
	size_t kind, kind_path, md5, name, filename, str;	/* offsets in keep; (size_t)-1 none */
	enum db_jscan_type kind_type, name_type, filename_type;
	int bad;		/* leave the envelope to jansson */
};

#define NONE ((size_t)-1)

struct tt_envscan *tt_envscan_new(struct pt_diag *diag)
{
	struct tt_envscan *s = pt_xcalloc(1, sizeof(*s));

	if (!(s->js = db_jscan_new(diag))) {
		free(s);
		return NULL;
	}
	pt_strbuf_init(&s->keep, TT_MAX_LINE);
	return s;
}

void tt_envscan_free(struct tt_envscan *s)
{
	if (!s)
		return;
	db_jscan_free(s->js);
	pt_strbuf_release(&s->keep);
	free(s);
}

/*
 * Both parsers read json[0..len) the same way, as far as the bytes tell
 * (tt_envscan.h): nothing outside 0x20..0x7e, no \u0000 and no surrogate
 * escape (\uD800..\uDFFF) in a string, and outside strings no digit run of
 * 19 or more and no exponent. Other escapes both read alike (and both
 * refuse a bad one).
 */
static int plain(const char *json, size_t len)
{
	unsigned bad = 0;
	int in_string = 0;
	size_t digits = 0;

	/*
	 * First the bytes alone, 8 at a time: a byte under 0x20 or over 0x7e
	 * sets its top bit in (x - 0x20..) & ~x, or in (x + (0x7f - 0x7e)..) | x.
	 */
	size_t i0 = 0;

	for (; i0 + 8 <= len; i0 += 8) {
		uint64_t x;

		memcpy(&x, json + i0, 8);
		if ((((x - 0x2020202020202020ull) & ~x) | ((x + 0x0101010101010101ull) | x)) &
		    0x8080808080808080ull)
			return 0;
	}
	for (; i0 < len; i0++) {
		unsigned char c = (unsigned char)json[i0];

		bad |= (unsigned)(c < 0x20) | (unsigned)(c > 0x7e);
	}
	if (bad)
		return 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)json[i];

		if (in_string) {
			/* To the string's end, or to its next escape. */
			const char *p = json + i, *q = memchr(p, '"', len - i), *e;

			if (!q)
				return 0;	/* not closed: jansson words it */
			e = memchr(p, '\\', (size_t)(q - p));
			if (!e) {
				i = (size_t)(q - json);
				in_string = 0;
				continue;
			}
			i = (size_t)(e - json);
			if (i + 1 >= len)
				return 0;
			if (json[i + 1] == 'u') {
				const char *h = json + i + 2;

				if (i + 5 >= len || !memcmp(h, "0000", 4) ||
				    ((h[0] == 'd' || h[0] == 'D') && strchr("89abcdefABCDEF", h[1])))
					return 0;
				i += 5;
			} else {
				i++;	/* the escaped character: a quote does not end the string */
			}
			continue;
		}
		if (c == '"') {
			in_string = 1;
			digits = 0;
			continue;
		}
		if (c >= '0' && c <= '9') {
			if (++digits >= 19)
				return 0;
			continue;
		}
		if ((c == 'e' || c == 'E') && digits)
			return 0;
		if (c != '.')
			digits = 0;
	}
	return 1;
}

/* s[0..n) and a NUL into keep: its offset. */
static size_t keep(struct walk *w, const char *s, size_t n)
{
	size_t at = w->s->keep.len;

	if (pt_strbuf_add(&w->s->keep, s, n) < 0 || pt_strbuf_add(&w->s->keep, "", 1) < 0) {
		w->bad = 1;	/* cannot happen under the line cap; jansson's way then */
		return NONE;
	}
	return at;
}

static long long int_or_none(const struct db_jscan_member *m)
{
	return m->type == DB_JSCAN_INTEGER ? (long long)m->i : -1;
}

/* A top-level member of the envelope. */
static int top_member(void *ctx, const struct db_jscan_member *m)
{
	struct walk *w = ctx;
	struct tt_env_fields *f = w->f;
	const char *key = m->key;

	if (!key || w->nkeys == TT_ENVSCAN_KEYS) {
		w->bad = 1;
		return 1;
	}
	for (size_t i = 0; i < w->nkeys; i++) {
		if (!strcmp(w->s->keep.buf + w->keys[i], key)) {
			w->bad = 1;	/* a key twice: jansson's rules */
			return 1;
		}
	}
	if ((w->keys[w->nkeys++] = keep(w, key, m->key_len)) == NONE)
		return 1;
	if (!tt_is_context_key(key)) {
		if (!f->nkinds++) {
			/*
			 * Its members are looked up by SQLite's own path for it: a
			 * path names a key as written (escapes and all), not as
			 * json_each's key column gives it.
			 */
			w->kind = w->keys[w->nkeys - 1];
			w->kind_type = m->type;
			if (!m->path || (w->kind_path = keep(w, m->path, strlen(m->path))) == NONE) {
				w->bad = 1;
				return 1;
			}
		}
	} else if (!strcmp(key, "rank")) {
		f->rank = int_or_none(m);
	} else if (!strcmp(key, "compiled_autograd_id")) {
		f->cid.ca = int_or_none(m);
	} else if (!strcmp(key, "frame_id")) {
		f->cid.frame = int_or_none(m);
	} else if (!strcmp(key, "frame_compile_id")) {
		f->cid.compile = int_or_none(m);
	} else if (!strcmp(key, "attempt")) {
		f->cid.attempt = int_or_none(m);
	} else if (!strcmp(key, "has_payload") && m->type != DB_JSCAN_NULL) {
		f->has_payload = 1;
		if (m->type == DB_JSCAN_TEXT && (w->md5 = keep(w, m->s, m->n)) == NONE)
			return 1;
	}
	return 0;
}

/*
 * Whether the kind's object may have a "name" or "filename" member: with no
 * backslash in the envelope a key is its bytes, so such a member ends in the
 * bytes name" (most kinds have neither: chromium_event's object is empty).
 * A second json_each pass costs as much as the first, so it is skipped when
 * it could find nothing (issue 20: a fifth of the parse).
 */
static int may_name(const char *json, size_t len)
{
	return memchr(json, '\\', len) || memmem(json, len, "name\"", 5);
}

/* A member of the kind's object: the last "name" and "filename" (jansson's last value wins). */
static int meta_member(void *ctx, const struct db_jscan_member *m)
{
	struct walk *w = ctx;
	size_t *at;
	enum db_jscan_type *type;

	if (!m->key)
		return 0;
	if (!strcmp(m->key, "name")) {
		at = &w->name;
		type = &w->name_type;
	} else if (!strcmp(m->key, "filename")) {
		at = &w->filename;
		type = &w->filename_type;
	} else {
		return 0;
	}
	*type = m->type;
	*at = m->type == DB_JSCAN_TEXT ? keep(w, m->s, m->n) : NONE;
	return w->bad;
}

/* An element of the `str` record's array: [string, integer, ...]. */
static int str_element(void *ctx, const struct db_jscan_member *m)
{
	struct walk *w = ctx;

	if (m->key)
		return 1;
	if (m->index == 0 && m->type == DB_JSCAN_TEXT) {
		w->str = keep(w, m->s, m->n);
	} else if (m->index == 1) {
		w->f->str_ok = m->type == DB_JSCAN_INTEGER;
		w->f->str_n = m->i;
		return 1;
	}
	return w->bad;
}

int tt_envscan(void *ctx, const char *json, size_t len, struct tt_env_fields *out)
{
	struct tt_envscan *s = ctx;
	struct walk w = { .s = s, .f = out, .kind = NONE, .kind_path = NONE, .md5 = NONE,
			  .name = NONE, .filename = NONE, .str = NONE };

	memset(out, 0, sizeof(*out));
	out->rank = out->cid.ca = out->cid.frame = out->cid.compile = out->cid.attempt = -1;
	pt_strbuf_reset(&s->keep);
	if (!len || json[0] != '{' || !plain(json, len) || !db_jscan_strict(s->js, json, len) ||
	    db_jscan_members(s->js, json, len, "$", top_member, &w) != 0 || w.bad)
		return 0;
	if (w.kind != NONE && (w.kind_type == DB_JSCAN_OBJECT || w.kind_type == DB_JSCAN_ARRAY)) {
		const char *kind = s->keep.buf + w.kind;
		int is_str = !strcmp(kind, "str");
		size_t plen = strlen(s->keep.buf + w.kind_path);
		char path[4096];

		if (strpbrk(kind, "\"\\") || plen >= sizeof(path))
			return 0;	/* a quote inside a quoted path, or a long one: left to jansson */
		memcpy(path, s->keep.buf + w.kind_path, plen + 1);	/* keep grows below */
		if (w.kind_type == DB_JSCAN_OBJECT && may_name(json, len) &&
		    (db_jscan_named(s->js, json, len, path, "name", "filename", meta_member, &w) != 0 ||
		     w.bad))
			return 0;
		if (is_str && w.kind_type == DB_JSCAN_ARRAY) {
			out->str_ok = 0;
			if (db_jscan_members(s->js, json, len, path, str_element, &w) != 0 || w.bad)
				return 0;
			out->str_ok = out->str_ok && w.str != NONE;
		}
	}
	/* keep is complete: the pointers now. */
	if (w.kind != NONE) {
		out->kind = s->keep.buf + w.kind;
		out->kind_len = strlen(out->kind);
	}
	if (w.md5 != NONE) {
		out->md5 = s->keep.buf + w.md5;
		out->md5_len = strlen(out->md5);
	}
	if (w.name_type == DB_JSCAN_TEXT && w.name != NONE) {
		out->name = s->keep.buf + w.name;
	} else if (w.filename_type == DB_JSCAN_TEXT && w.filename != NONE) {
		out->name = s->keep.buf + w.filename;
	}
	if (out->name)
		out->name_len = strlen(out->name);
	if (out->str_ok) {
		out->str = s->keep.buf + w.str;
		out->str_len = strlen(out->str);
	}
	return 1;
}
