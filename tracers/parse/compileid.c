/* Compile id text forms; see compileid.h. */
#include "compileid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numparse.h"
#include "xalloc.h"

void compileid_clear(struct compileid *id)
{
	id->ca = id->frame = id->compile = id->attempt = COMPILEID_NONE;
}

/*
 * One part at buf[*i]: decimal digits (at most 18, so no overflow) or "-".
 * Returns 0 and advances *i, or -1.
 */
static int parse_part(const uint8_t *buf, size_t len, size_t *i, int64_t *v)
{
	size_t k = *i, room = k < len ? len - k : 0, nd;
	uint64_t x;

	if (k < len && buf[k] == '-') {
		*v = COMPILEID_NONE;
		*i = k + 1;
		return 0;
	}
	/* At most 18 digits: a 19th is an error, not a stop. */
	nd = pt_dec_scan(buf + k, room < 19 ? room : 19, UINT64_MAX, &x);
	if (nd == 0 || nd > 18)
		return -1;
	*v = (int64_t)x;
	*i = k + nd;
	return 0;
}

int compileid_parse(const uint8_t *buf, size_t len, struct compileid *id)
{
	size_t i = 0, end;
	int bracket = 0;

	compileid_clear(id);
	if (len && buf[0] == '[') {
		bracket = 1;
		i = 1;
	}
	if (i < len && buf[i] == '!') {
		/* Compiled autograd: "!ca" alone or "!ca/frame/compile[_attempt]". */
		i++;
		if (parse_part(buf, len, &i, &id->ca) < 0)
			goto bad;
		if (i < len && buf[i] == '/') {
			i++;
			if (parse_part(buf, len, &i, &id->frame) < 0 || i >= len || buf[i] != '/')
				goto bad;
			i++;
			if (parse_part(buf, len, &i, &id->compile) < 0)
				goto bad;
		}
	} else {
		if (parse_part(buf, len, &i, &id->frame) < 0 || i >= len || buf[i] != '/')
			goto bad;
		i++;
		if (parse_part(buf, len, &i, &id->compile) < 0)
			goto bad;
	}
	if (i < len && buf[i] == '_') {
		i++;
		if (parse_part(buf, len, &i, &id->attempt) < 0)
			goto bad;
	}
	if (bracket) {
		if (i >= len || buf[i] != ']')
			goto bad;
		end = i + 1;
	} else {
		if (i != len)
			goto bad;
		end = len;
	}
	return (int)end;
bad:
	compileid_clear(id);
	return -1;
}

/* "-" for a missing part, else the number; appended at out+pos within n. */
static int put_part(char *out, size_t n, int pos, const char *sep, int64_t v)
{
	size_t room = (size_t)pos < n ? n - (size_t)pos : 0;
	char *p = room ? out + pos : NULL;

	if (v == COMPILEID_NONE)
		return snprintf(p, room, "%s-", sep);
	return snprintf(p, room, "%s%lld", sep, (long long)v);
}

int compileid_format(const struct compileid *id, char *out, size_t n)
{
	int pos = 0;

	if (n)
		out[0] = '\0';
	if (id->ca != COMPILEID_NONE) {
		pos += put_part(out, n, pos, "!", id->ca);
		if (id->frame == COMPILEID_NONE && id->compile == COMPILEID_NONE)
			return pos;
		pos += put_part(out, n, pos, "/", id->frame);
		pos += put_part(out, n, pos, "/", id->compile);
	} else {
		pos += put_part(out, n, pos, "", id->frame);
		pos += put_part(out, n, pos, "/", id->compile);
	}
	/* PyTorch writes the attempt only when it is not 0. */
	if (id->attempt != COMPILEID_NONE && id->attempt != 0)
		pos += put_part(out, n, pos, "_", id->attempt);
	return pos;
}

int compileid_format_dir(const struct compileid *id, char *out, size_t n)
{
	int64_t attempt = id->attempt;
	int pos = 0;

	if (n)
		out[0] = '\0';
	if (attempt == COMPILEID_NONE && id->compile != COMPILEID_NONE)
		attempt = 0;
	pos += put_part(out, n, pos, "", id->ca);
	pos += put_part(out, n, pos, "_", id->frame);
	pos += put_part(out, n, pos, "_", id->compile);
	pos += put_part(out, n, pos, "_", attempt);
	return pos;
}

int compileid_equal(const struct compileid *a, const struct compileid *b)
{
	int64_t aa = a->attempt == COMPILEID_NONE ? 0 : a->attempt;
	int64_t ba = b->attempt == COMPILEID_NONE ? 0 : b->attempt;

	return a->ca == b->ca && a->frame == b->frame && a->compile == b->compile && aa == ba;
}

static uint64_t cidmap_hash(const int64_t *k)
{
	uint64_t h = 1469598103934665603ull;

	for (int i = 0; i < 5; i++)
		h = (h ^ (uint64_t)k[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

void cidmap_key(int64_t *k, int64_t who, const struct compileid *cid)
{
	k[0] = who;
	k[1] = cid->ca;
	k[2] = cid->frame;
	k[3] = cid->compile;
	k[4] = cid->attempt == COMPILEID_NONE ? 0 : cid->attempt;
}

static struct cidmap_ent *cidmap_slot(struct cidmap_ent *e, size_t cap, const int64_t *k)
{
	size_t i = cidmap_hash(k) & (cap - 1);

	while (e[i].used && memcmp(e[i].k, k, sizeof(e[i].k)))
		i = (i + 1) & (cap - 1);
	return &e[i];
}

int64_t *cidmap_get(struct cidmap *m, const int64_t *k, int add)
{
	struct cidmap_ent *e;

	if (!m->cap && !add)
		return NULL;
	if (add && (m->used + 1) * 2 > m->cap) {
		size_t ocap = m->cap, cap = ocap ? ocap * 2 : 64;
		struct cidmap_ent *ne = pt_xcalloc(cap, sizeof(*ne));

		for (size_t i = 0; i < ocap; i++)
			if (m->e[i].used)
				*cidmap_slot(ne, cap, m->e[i].k) = m->e[i];
		free(m->e);
		m->e = ne;
		m->cap = cap;
	}
	e = cidmap_slot(m->e, m->cap, k);
	if (!e->used) {
		if (!add)
			return NULL;
		memcpy(e->k, k, sizeof(e->k));
		e->v[0] = e->v[1] = e->v[2] = -1;
		e->used = 1;
		m->used++;
	}
	return e->v;
}

void cidmap_release(struct cidmap *m)
{
	free(m->e);
	memset(m, 0, sizeof(*m));
}
