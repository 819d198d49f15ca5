/*
 * compile_commands.json through jansson (the project's JSON door), entry by
 * entry when the text is a plain array of objects (parse_entries); every
 * member's type is checked, entries that are not objects with string
 * "directory" and "file" are counted and reported, never trusted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <pthread.h>

#include "compdb.h"
#include "jobs.h"
#include "strbuf.h"
#include "xalloc.h"

#define MAX_WARN 20
#define COMMAND_MAX (16u << 20)

static char *str_member(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_string(v) ? pt_xstrndup(json_string_value(v), json_string_length(v)) : NULL;
}

static char *join_args(json_t *a)
{
	struct pt_strbuf sb;
	size_t i;
	json_t *v;

	if (!json_is_array(a))
		return NULL;
	pt_strbuf_init(&sb, COMMAND_MAX);
	json_array_foreach(a, i, v) {
		if (!json_is_string(v)) {
			pt_strbuf_release(&sb);
			return NULL;
		}
		/* Arguments over COMMAND_MAX in all: the entry counts as malformed. */
		if ((i && pt_strbuf_adds(&sb, " ") < 0) ||
		    pt_strbuf_add(&sb, json_string_value(v), json_string_length(v)) < 0) {
			pt_strbuf_release(&sb);
			return NULL;
		}
	}
	return sb.buf ? pt_strbuf_detach(&sb) : pt_xstrdup("");
}

/* Entries kept and the first malformed ones of a stretch of the array. */
struct chunk {
	size_t start, limit;	/* where its first entry starts; where the next stretch starts */
	size_t stop;		/* where the entry after its last one starts (or its ']') */
	int ok, ended;		/* parsed up to limit (or ']'); saw the array's ']' */
	struct compdb c;
	size_t alloc, entries;	/* entries read, kept or not */
	size_t bad[MAX_WARN], nbad;	/* indexes (in the stretch) of the first malformed ones */
	const uint8_t *buf;
	size_t len;
};

/* One entry of the array: kept when it has what the analyses need, else counted. */
static void take_entry(struct chunk *k, json_t *o)
{
	struct compdb_entry e = { .index = k->entries++ };

	if (json_is_object(o)) {
		e.directory = str_member(o, "directory");
		e.file = str_member(o, "file");
		e.output = str_member(o, "output");
		e.command = str_member(o, "command");
		if (!e.command)
			e.command = join_args(json_object_get(o, "arguments"));
	}
	if (!e.directory || !e.file || !e.command) {
		if (k->nbad < MAX_WARN)
			k->bad[k->nbad++] = e.index;
		k->c.n_bad++;
		free(e.directory);
		free(e.file);
		free(e.output);
		free(e.command);
		return;
	}
	PT_GROW(k->c.v, k->c.n, k->alloc);
	k->c.v[k->c.n++] = e;
}

static size_t skip_ws(const uint8_t *buf, size_t len, size_t i)
{
	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
		i++;
	return i;
}

static void release_entries(struct compdb *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].directory);
		free(c->v[i].file);
		free(c->v[i].output);
		free(c->v[i].command);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/*
 * A stretch of the array, entry by entry: each object decoded by jansson on its own
 * (JSON_DISABLE_EOF_CHECK stops at its closing brace and says how many bytes it read),
 * ',' or ']' between them, each entry's tree freed at once. Stops at the first entry
 * that starts at or after limit; ok stays 0 on anything else (an entry that is not an
 * object, a decoding error, text after the ']').
 */
static void *parse_stretch(void *arg)
{
	struct chunk *k = arg;
	const uint8_t *buf = k->buf;
	size_t len = k->len, pos = k->start;

	for (;;) {
		json_error_t err;
		json_t *o;

		if (pos >= k->limit) {
			k->stop = pos;
			k->ok = 1;
			return NULL;
		}
		if (buf[pos] != '{')
			return NULL;
		o = json_loadb((const char *)buf + pos, len - pos, JSON_DISABLE_EOF_CHECK | JSON_ALLOW_NUL, &err);
		if (!o || err.position <= 0 || (size_t)err.position > len - pos) {
			json_decref(o);
			return NULL;
		}
		take_entry(k, o);
		json_decref(o);
		pos = skip_ws(buf, len, pos + (size_t)err.position);
		if (pos < len && buf[pos] == ',') {
			pos = skip_ws(buf, len, pos + 1);
			continue;
		}
		if (pos < len && buf[pos] == ']') {
			k->stop = pos;
			k->ended = 1;
			k->ok = skip_ws(buf, len, pos + 1) == len;
		}
		return NULL;
	}
}

/* The first malformed entries, by index. */
static void warn_bad(struct pt_diag *d, const char *src, const size_t *bad, size_t n)
{
	for (size_t b = 0; b < n; b++) {
		char where[32];

		pt_fmt_trunc(where, sizeof(where), "entry %zu", bad[b]);
		pt_diag_add(d, PT_SEV_WARNING, src, where,
			    "not an object with string 'directory', 'file' and 'command' or 'arguments'");
	}
}

/* Appends k's entries to c (their indexes shifted by base). */
static void chunk_append(struct compdb *c, size_t *alloc, struct chunk *k, size_t base)
{
	for (size_t i = 0; i < k->c.n; i++) {
		PT_GROW(c->v, c->n, *alloc);
		c->v[c->n] = k->c.v[i];
		c->v[c->n++].index += base;
	}
	c->n_bad += k->c.n_bad;
	free(k->c.v);
	memset(&k->c, 0, sizeof(k->c));
}

/*
 * The common case: '[' and objects. Big texts are cut into stretches parsed by
 * threads at once: a stretch starts at a '{' that is the first non-blank after a
 * newline byte, or after a newline and a comma (a raw newline cannot be inside a JSON
 * string, so that '{' opens an object, though maybe a nested one). Stretches are then joined in order; one is
 * used only when the stretch before it ended exactly where it starts, which proves
 * its start is an entry's. From the first that is not, the rest is parsed again in
 * order. Returns 0, or -1 when the text is anything else: the caller then decodes
 * the whole text, which gives the exact diagnostics.
 */
static int parse_entries(const uint8_t *buf, size_t len, struct compdb *c, const char *src,
			 struct pt_diag *d)
{
	enum { MAX_STRETCHES = 16 };
	struct chunk k[MAX_STRETCHES];
	pthread_t th[MAX_STRETCHES];
	int started[MAX_STRETCHES] = {0};
	size_t pos = skip_ws(buf, len, 0), nk = 1, alloc = 0, base = 0, nbad = 0, bad[MAX_WARN];
	unsigned jobs = len >= (8u << 20) ? pt_jobs(MAX_STRETCHES) : 1;
	int rc = -1;

	if (pos == len || buf[pos] != '[')
		return -1;
	pos = skip_ws(buf, len, pos + 1);
	if (pos < len && buf[pos] == ']')
		return skip_ws(buf, len, pos + 1) == len ? 0 : -1;
	memset(k, 0, sizeof(k));
	k[0].start = pos;
	for (unsigned j = 1; j < jobs; j++) {
		const uint8_t *nl = memchr(buf + len / jobs * j, '\n', len - len / jobs * j);
		size_t q;

		while (nl) {
			q = skip_ws(buf, len, (size_t)(nl - buf) + 1);
			if (q < len && buf[q] == ',')	/* "}\n,{": the comma first */
				q = skip_ws(buf, len, q + 1);
			if (q < len && buf[q] == '{')
				break;
			nl = memchr(buf + q, '\n', len - q);
		}
		if (!nl || q <= k[nk - 1].start)
			continue;
		k[nk++].start = q;
	}
	for (size_t j = 0; j < nk; j++) {
		k[j].limit = j + 1 < nk ? k[j + 1].start : len;
		k[j].buf = buf;
		k[j].len = len;
	}
	for (size_t j = 1; j < nk; j++)
		started[j] = pthread_create(&th[j], NULL, parse_stretch, &k[j]) == 0;
	parse_stretch(&k[0]);
	for (size_t j = 1; j < nk; j++)
		if (started[j])
			pthread_join(th[j], NULL);
		else
			parse_stretch(&k[j]);
	memset(c, 0, sizeof(*c));
	for (size_t j = 0; j < nk; j++) {
		/* The stretches before j were ok and the array had not ended. */
		if (j > 0 && k[j - 1].stop != k[j].start) {
			/* This stretch's start was not an entry's: the rest, in order, here. */
			for (size_t m = j; m < nk; m++)
				release_entries(&k[m].c);
			nk = j + 1;
			memset(&k[j], 0, sizeof(k[j]));
			k[j].start = k[j - 1].stop;
			k[j].limit = k[j].len = len;
			k[j].buf = buf;
			parse_stretch(&k[j]);
		}
		if (!k[j].ok)
			break;
		for (size_t b = 0; b < k[j].nbad && nbad < MAX_WARN; b++)
			bad[nbad++] = base + k[j].bad[b];
		chunk_append(c, &alloc, &k[j], base);
		base += k[j].entries;
		if (k[j].ended) {
			rc = 0;
			break;
		}
	}
	for (size_t j = 0; j < nk; j++)
		release_entries(&k[j].c);
	if (rc < 0) {
		release_entries(c);
		return -1;
	}
	warn_bad(d, src, bad, nbad);
	return 0;
}

int compdb_parse(const uint8_t *buf, size_t len, struct compdb *c, const char *src,
		 struct pt_diag *d)
{
	json_error_t err;
	json_t *root, *o;
	struct chunk k;
	size_t i;

	memset(c, 0, sizeof(*c));
	if (parse_entries(buf, len, c, src, d) == 0)
		goto counted;
	root = json_loadb((const char *)buf, len, JSON_ALLOW_NUL, &err);
	if (!root) {
		char where[64];

		pt_fmt_trunc(where, sizeof(where), "line %d column %d", err.line, err.column);
		pt_diag_add(d, PT_SEV_ERROR, src, where, "not JSON: %s", err.text);
		return -1;
	}
	if (!json_is_array(root)) {
		pt_diag_add(d, PT_SEV_ERROR, src, NULL, "not a compilation database: the top level is not an array");
		json_decref(root);
		return -1;
	}
	memset(&k, 0, sizeof(k));
	json_array_foreach(root, i, o)
		take_entry(&k, o);
	json_decref(root);
	*c = k.c;
	warn_bad(d, src, k.bad, k.nbad);
counted:
	if (!c->v)
		c->v = pt_xcalloc(1, sizeof(*c->v));
	if (c->n_bad > MAX_WARN)
		pt_diag_add(d, PT_SEV_WARNING, src, NULL, "%zu malformed entries in all", c->n_bad);
	return 0;
}

void compdb_release(struct compdb *c)
{
	release_entries(c);
}

int compdb_has_flag(const char *command, const char *flag)
{
	size_t fl = strlen(flag);

	for (const char *p = command; (p = strstr(p, flag)) != NULL; p += fl) {
		int start = p == command || p[-1] == ' ' || p[-1] == '\t';
		int stop = p[fl] == '\0' || p[fl] == ' ' || p[fl] == '\t';

		if (start && stop)
			return 1;
	}
	return 0;
}
