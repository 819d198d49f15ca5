/*
 * compile_commands.json through jansson (the project's JSON door); every
 * member's type is checked, entries that are not objects with string
 * "directory" and "file" are counted and reported, never trusted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "compdb.h"
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
		if (i)
			pt_strbuf_adds(&sb, " ");
		pt_strbuf_add(&sb, json_string_value(v), json_string_length(v));
	}
	return sb.buf ? pt_strbuf_detach(&sb) : pt_xstrdup("");
}

int compdb_parse(const uint8_t *buf, size_t len, struct compdb *c, const char *src,
		 struct pt_diag *d)
{
	json_error_t err;
	json_t *root, *o;
	size_t i, w = 0;

	memset(c, 0, sizeof(*c));
	root = json_loadb((const char *)buf, len, JSON_ALLOW_NUL, &err);
	if (!root) {
		char where[64];

		snprintf(where, sizeof(where), "line %d column %d", err.line, err.column);
		pt_diag_add(d, PT_SEV_ERROR, src, where, "not JSON: %s", err.text);
		return -1;
	}
	if (!json_is_array(root)) {
		pt_diag_add(d, PT_SEV_ERROR, src, NULL, "not a compilation database: the top level is not an array");
		json_decref(root);
		return -1;
	}
	c->v = pt_xcalloc(json_array_size(root) ? json_array_size(root) : 1, sizeof(*c->v));
	json_array_foreach(root, i, o) {
		struct compdb_entry e = { .index = i };

		if (json_is_object(o)) {
			e.directory = str_member(o, "directory");
			e.file = str_member(o, "file");
			e.output = str_member(o, "output");
			e.command = str_member(o, "command");
			if (!e.command)
				e.command = join_args(json_object_get(o, "arguments"));
		}
		if (!e.directory || !e.file || !e.command) {
			char where[32];

			if (++c->n_bad <= MAX_WARN) {
				snprintf(where, sizeof(where), "entry %zu", i);
				pt_diag_add(d, PT_SEV_WARNING, src, where,
					    "not an object with string 'directory', 'file' and 'command' or 'arguments'");
			}
			free(e.directory);
			free(e.file);
			free(e.output);
			free(e.command);
			continue;
		}
		c->v[w++] = e;
	}
	c->n = w;
	if (c->n_bad > MAX_WARN)
		pt_diag_add(d, PT_SEV_WARNING, src, NULL, "%zu malformed entries in all", c->n_bad);
	json_decref(root);
	return 0;
}

void compdb_release(struct compdb *c)
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
