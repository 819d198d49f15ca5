/*
 * CMakeCache.txt as CMake's own cmCacheManager reads it: one entry a line,
 * "KEY:TYPE=VALUE" or "KEY=VALUE" (UNINITIALIZED), the key optionally in
 * double quotes (it may hold ':'), the value optionally in single quotes;
 * "//" lines are the help of the next entry, "#" lines and blank lines are
 * comments. Lines end in \n or \r\n; a NUL byte ends nothing (it is data).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmakecache.h"
#include "fsutil.h"
#include "strbuf.h"
#include "xalloc.h"

#define HELP_MAX (64 * 1024)

static int cmp_entry(const void *a, const void *b)
{
	const struct cmakecache_entry *x = a, *y = b;
	int r = strcmp(x->key, y->key);

	/* Same key: later line last, so the dedup below keeps the last one. */
	if (r)
		return r;
	return x->line < y->line ? -1 : x->line > y->line;
}

static void free_entry(struct cmakecache_entry *e)
{
	free(e->key);
	free(e->type);
	free(e->value);
	free(e->help);
}

static int valid_text(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\0')
			return 0;
	return 1;
}

/* One "KEY:TYPE=VALUE" line (no newline, whitespace-trimmed): 0 or -1. */
static int parse_entry(const char *s, size_t n, struct cmakecache_entry *e)
{
	const char *p = s, *end = s + n, *key, *eq, *colon = NULL;
	size_t klen;

	if (!valid_text(s, n))
		return -1;
	if (*p == '"') {
		key = ++p;
		while (p < end && *p != '"')
			p++;
		if (p == end)
			return -1;
		klen = (size_t)(p - key);
		p++;
		if (p < end && *p == ':')
			colon = p;
		eq = memchr(p, '=', (size_t)(end - p));
	} else {
		key = p;
		eq = memchr(p, '=', n);
		if (!eq)
			return -1;
		colon = memchr(p, ':', (size_t)(eq - p));
		klen = (size_t)((colon ? colon : eq) - key);
	}
	if (!eq || klen == 0)
		return -1;
	if (colon && colon > eq)
		colon = NULL;
	e->key = pt_xstrndup(key, klen);
	e->type = colon ? pt_xstrndup(colon + 1, (size_t)(eq - colon - 1)) : pt_xstrdup("");
	{
		const char *v = eq + 1;
		size_t vlen = (size_t)(end - v);

		if (vlen >= 2 && v[0] == '\'' && v[vlen - 1] == '\'') {
			v++;
			vlen -= 2;
		}
		e->value = pt_xstrndup(v, vlen);
	}
	/* Types are upper-case words; anything else in the type is damage. */
	for (const char *t = e->type; *t; t++)
		if (!isupper((unsigned char)*t) && *t != '_') {
			free_entry(e);
			memset(e, 0, sizeof(*e));
			return -1;
		}
	return 0;
}

int cmakecache_parse(const uint8_t *buf, size_t len, struct cmakecache *c, const char *src,
		     struct pt_diag *d)
{
	const char *s = (const char *)buf, *end = s + len;
	struct pt_strbuf help;
	size_t line = 0, n_lines = 0, n_comments = 0;

	memset(c, 0, sizeof(*c));
	pt_strbuf_init(&help, HELP_MAX);
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *le = nl ? nl : end, *b = s, *e;
		struct cmakecache_entry ent = { 0 };

		line++;
		s = nl ? nl + 1 : end;
		e = le;
		if (e > b && e[-1] == '\r')
			e--;
		while (b < e && (*b == ' ' || *b == '\t'))
			b++;
		while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		n_lines++;
		if (b == e) {
			pt_strbuf_reset(&help);
			n_comments++;
			continue;
		}
		if (*b == '#') {
			n_comments++;
			continue;
		}
		if (e - b >= 2 && b[0] == '/' && b[1] == '/') {
			n_comments++;
			if (valid_text(b + 2, (size_t)(e - b - 2))) {
				if (help.len)
					pt_strbuf_adds_trunc(&help, " ");
				pt_strbuf_add_trunc(&help, b + 2, (size_t)(e - b - 2));
			}
			continue;
		}
		if (parse_entry(b, (size_t)(e - b), &ent) < 0) {
			char where[32];

			pt_fmt_trunc(where, sizeof(where), "line %zu", line);
			c->n_bad++;
			if (c->n_bad <= 20)
				pt_diag_add(d, PT_SEV_WARNING, src, where,
					    "not a 'KEY:TYPE=VALUE' cache entry");
			pt_strbuf_reset(&help);
			continue;
		}
		ent.line = line;
		ent.help = help.len ? pt_strbuf_detach(&help) : NULL;
		pt_strbuf_reset(&help);
		PT_GROW(c->v, c->n, c->alloc);
		c->v[c->n++] = ent;
	}
	pt_strbuf_release(&help);
	if (c->n_bad > 20)
		pt_diag_add(d, PT_SEV_WARNING, src, NULL, "%zu malformed lines in all", c->n_bad);
	if (c->n == 0 && c->n_bad > 0 && c->n_bad >= n_lines - n_comments) {
		pt_diag_add(d, PT_SEV_ERROR, src, NULL, "not a CMake cache: no 'KEY:TYPE=VALUE' entry");
		cmakecache_release(c);
		return -1;
	}
	if (c->n > 1) {
		size_t w = 0;

		qsort(c->v, c->n, sizeof(c->v[0]), cmp_entry);
		for (size_t i = 0; i < c->n; i++) {
			if (i + 1 < c->n && !strcmp(c->v[i].key, c->v[i + 1].key)) {
				free_entry(&c->v[i]);
				continue;
			}
			c->v[w++] = c->v[i];
		}
		c->n = w;
	}
	return 0;
}

void cmakecache_release(struct cmakecache *c)
{
	for (size_t i = 0; i < c->n; i++)
		free_entry(&c->v[i]);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

static int cmp_key(const void *k, const void *e)
{
	return strcmp(k, ((const struct cmakecache_entry *)e)->key);
}

const struct cmakecache_entry *cmakecache_get(const struct cmakecache *c, const char *key)
{
	if (!c->n)
		return NULL;
	return bsearch(key, c->v, c->n, sizeof(c->v[0]), cmp_key);
}

const char *cmakecache_value(const struct cmakecache *c, const char *key)
{
	const struct cmakecache_entry *e = cmakecache_get(c, key);

	return e ? e->value : NULL;
}

int cmake_is_true(const char *v)
{
	static const char *const falsy[] = { "", "0", "OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND" };
	size_t n = strlen(v);
	char *end;

	for (size_t i = 0; i < PT_ARRAY_SIZE(falsy); i++)
		if (!strcasecmp(v, falsy[i]))
			return 0;
	if (n >= 9 && !strcmp(v + n - 9, "-NOTFOUND"))
		return 0;
	if (n) {
		double x = strtod(v, &end);

		if (*end == '\0')
			return x != 0;
	}
	/* CMake: any other string is true in if(<constant>) only for the named
	 * true constants; for an option's value it is a variable name. Treat
	 * ON/YES/TRUE/Y and anything unknown as true. */
	return 1;
}

int cmakecache_bool(const struct cmakecache *c, const char *key)
{
	const char *v = cmakecache_value(c, key);

	return v ? cmake_is_true(v) : -1;
}

/* A CMakeCache.txt of torch is about 100 kB; 16 MiB is a cap, not a size. */
#define CMAKECACHE_DIR_MAX (16u * 1024 * 1024)

int cmakecache_dir_bool(const char *dir, const char *key, char **cache)
{
	struct pt_diag quiet;
	int v = -1;

	if (cache)
		*cache = NULL;
	pt_diag_init(&quiet);
	for (int sub = 0; sub < 2; sub++) {
		char *p = pt_xasprintf("%s%s/CMakeCache.txt", dir, sub ? "/build" : "");
		uint8_t *buf = NULL;
		size_t len = 0;
		struct cmakecache c;
		int read = pt_read_regular(p, CMAKECACHE_DIR_MAX, PT_SEV_NOTE, 0, &buf, &len, &quiet) == 0 &&
			   cmakecache_parse(buf, len, &c, p, &quiet) == 0;

		free(buf);
		if (read) {
			v = cmakecache_bool(&c, key);
			cmakecache_release(&c);
			if (cache)
				*cache = p;
			else
				free(p);
			break;
		}
		free(p);
	}
	pt_diag_release(&quiet);
	return v;
}
