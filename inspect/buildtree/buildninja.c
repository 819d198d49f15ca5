/*
 * build.ninja, as ninja's manifest_parser.cc reads it, for what a report
 * needs: "build OUTS [| IMPLICIT_OUTS]: RULE INS [| IMPLICIT] [|| ORDER_ONLY]
 * [|@ VALIDATIONS]" with its indented bindings skipped, "rule NAME", "include"
 * and "subninja", top-level "NAME = VALUE". Escapes: "$\n" continues a line
 * (the next one's leading blanks dropped), "$ ", "$:", "$$" are literal;
 * "$name" and "${name}" are kept as written (CMake's paths rarely use them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildninja.h"
#include "diag.h"
#include "strbuf.h"
#include "xalloc.h"

#define MAX_WARN 20
#define LINE_MAX_BYTES (64u << 20)

/* A logical line: physical lines joined at "$\n". */
struct lexer {
	const char *p, *end;
	size_t line;		/* line of the current logical line's start */
	size_t next_line;
	struct pt_strbuf sb;
};

/* Next logical line into lx->sb (escapes kept, continuations joined): 1, or 0 at the end. */
static int next_line(struct lexer *lx)
{
	pt_strbuf_reset(&lx->sb);
	/* Bindings (indented lines) are not needed: skipped without copying. */
	while (lx->p < lx->end && *lx->p == ' ') {
		const char *nl = memchr(lx->p, '\n', (size_t)(lx->end - lx->p));
		const char *e = nl ? nl : lx->end;
		size_t dollars = 0;

		for (const char *q = e; q > lx->p && q[-1] == '$'; q--)
			dollars++;
		lx->next_line++;
		lx->p = nl ? nl + 1 : lx->end;
		/* "$" + newline: the binding goes on; skip that line too. */
		while (dollars % 2 == 1 && lx->p < lx->end) {
			nl = memchr(lx->p, '\n', (size_t)(lx->end - lx->p));
			e = nl ? nl : lx->end;
			dollars = 0;
			for (const char *q = e; q > lx->p && q[-1] == '$'; q--)
				dollars++;
			lx->next_line++;
			lx->p = nl ? nl + 1 : lx->end;
		}
	}
	if (lx->p >= lx->end)
		return 0;
	lx->line = lx->next_line;
	while (lx->p < lx->end) {
		const char *nl = memchr(lx->p, '\n', (size_t)(lx->end - lx->p));
		const char *e = nl ? nl : lx->end;
		size_t dollars = 0;

		lx->next_line++;
		for (const char *q = e; q > lx->p && q[-1] == '$'; q--)
			dollars++;
		if (dollars % 2 == 1) {
			/* "$" + newline: continue on the next line, blanks skipped. */
			pt_strbuf_add_trunc(&lx->sb, lx->p, (size_t)(e - 1 - lx->p));
			lx->p = nl ? nl + 1 : lx->end;
			while (lx->p < lx->end && *lx->p == ' ')
				lx->p++;
			continue;
		}
		{
			const char *ee = e;

			if (ee > lx->p && ee[-1] == '\r')
				ee--;
			pt_strbuf_add_trunc(&lx->sb, lx->p, (size_t)(ee - lx->p));
		}
		lx->p = nl ? nl + 1 : lx->end;
		break;
	}
	return 1;
}

/* Unescape one path token from s (stops at ' ', ':' or '|' unescaped). */
static char *take_path(const char **sp, const char *end)
{
	const char *s = *sp;
	struct pt_strbuf t;

	pt_strbuf_init(&t, LINE_MAX_BYTES);
	while (s < end && *s != ' ' && *s != ':' && *s != '|') {
		const char *run = s;

		if (*s == '$' && s + 1 < end && (s[1] == ' ' || s[1] == ':' || s[1] == '$')) {
			if (pt_strbuf_add(&t, s + 1, 1) < 0)
				PT_BUG("a path token longer than its line");
			s += 2;
			continue;
		}
		while (s < end && *s != ' ' && *s != ':' && *s != '|' && *s != '$')
			s++;
		if (s == run)	/* a lone '$' (a variable reference): kept as written */
			s++;
		if (pt_strbuf_add(&t, run, (size_t)(s - run)) < 0)
			PT_BUG("a path token longer than its line");
	}
	*sp = s;
	return t.buf ? pt_strbuf_detach(&t) : NULL;
}

static void skip_blanks(const char **s, const char *end)
{
	while (*s < end && **s == ' ')
		(*s)++;
}

static void bad(struct buildninja *b, struct pt_diag *d, const char *src, size_t line, const char *what)
{
	char where[32];

	if (++b->n_bad > MAX_WARN)
		return;
	pt_fmt_trunc(where, sizeof(where), "line %zu", line);
	pt_diag_add(d, PT_SEV_WARNING, src, where, "%s", what);
}

static void push(char ***v, size_t *n, size_t *alloc, char *s)
{
	PT_GROW(*v, *n, *alloc);
	(*v)[(*n)++] = s;
}

static void free_edge(struct ninja_edge *e)
{
	free(e->rule);
	for (size_t i = 0; i < e->n_outs; i++)
		free(e->outs[i]);
	for (size_t i = 0; i < e->n_ins; i++)
		free(e->ins[i]);
	free(e->outs);
	free(e->ins);
}

/* "build ..." after the keyword. 0 or -1 (malformed). */
static int parse_build(const char *s, const char *end, struct ninja_edge *e)
{
	size_t alloc_o = 0, alloc_i = 0;
	int section = 0;	/* 0 explicit, 1 implicit, 2 order-only, 3 validation */
	char *tok;

	/* Outputs. */
	for (;;) {
		skip_blanks(&s, end);
		if (s >= end)
			return -1;
		if (*s == ':')
			break;
		if (*s == '|') {
			if (section)
				return -1;
			section = 1;
			e->n_explicit_outs = e->n_outs;
			s++;
			continue;
		}
		tok = take_path(&s, end);
		if (!tok)
			return -1;
		push(&e->outs, &e->n_outs, &alloc_o, tok);
	}
	if (!section)
		e->n_explicit_outs = e->n_outs;
	if (e->n_outs == 0)
		return -1;
	s++;	/* ':' */
	skip_blanks(&s, end);
	{
		const char *r = s;

		while (s < end && *s != ' ')
			s++;
		if (s == r)
			return -1;
		e->rule = pt_xstrndup(r, (size_t)(s - r));
	}
	section = 0;
	for (;;) {
		skip_blanks(&s, end);
		if (s >= end)
			break;
		if (*s == '|') {
			int next;

			if (s + 1 < end && s[1] == '|')
				next = 2, s += 2;
			else if (s + 1 < end && s[1] == '@')
				next = 3, s += 2;
			else
				next = 1, s++;
			if (next <= section)
				return -1;
			if (section == 0)
				e->n_explicit_ins = e->n_ins;
			if (section <= 1 && next >= 2)
				e->n_implicit_ins = e->n_ins - e->n_explicit_ins;
			section = next;
			continue;
		}
		if (*s == ':')
			return -1;
		tok = take_path(&s, end);
		if (!tok)
			return -1;
		/* Validations are not dependencies: dropped. */
		if (section == 3)
			free(tok);
		else
			push(&e->ins, &e->n_ins, &alloc_i, tok);
	}
	if (section == 0)
		e->n_explicit_ins = e->n_ins;
	if (section <= 1)
		e->n_implicit_ins = e->n_ins - e->n_explicit_ins;
	return 0;
}

int buildninja_parse(const uint8_t *buf, size_t len, struct buildninja *b, const char *src,
		     struct pt_diag *d)
{
	struct lexer lx = { .p = (const char *)buf, .end = (const char *)buf + len, .next_line = 1 };

	memset(b, 0, sizeof(*b));
	if (len && memchr(buf, '\0', len)) {
		pt_diag_add(d, PT_SEV_ERROR, src, NULL, "not a ninja manifest: it holds NUL bytes");
		return -1;
	}
	pt_strbuf_init(&lx.sb, LINE_MAX_BYTES);
	while (next_line(&lx)) {
		const char *s = pt_strbuf_str(&lx.sb), *end = s + lx.sb.len;

		if (lx.sb.clipped)
			bad(b, d, src, lx.line, "line longer than 64 MiB: its end is cut");
		if (s == end || *s == '#')
			continue;
		if (*s == ' ' || *s == '\t')
			continue;	/* a binding of the rule/build/pool above */
		if (!strncmp(s, "build ", 6)) {
			struct ninja_edge e = { .line = lx.line };

			if (parse_build(s + 6, end, &e) < 0) {
				free_edge(&e);
				bad(b, d, src, lx.line, "malformed 'build' statement");
				continue;
			}
			PT_GROW(b->edges, b->n_edges, b->alloc_edges);
			b->edges[b->n_edges++] = e;
		} else if (!strncmp(s, "rule ", 5)) {
			s += 5;
			skip_blanks(&s, end);
			push(&b->rules, &b->n_rules, &b->alloc_rules, pt_xstrndup(s, (size_t)(end - s)));
		} else if (!strncmp(s, "include ", 8) || !strncmp(s, "subninja ", 9)) {
			s += s[0] == 'i' ? 8 : 9;
			skip_blanks(&s, end);
			push(&b->includes, &b->n_includes, &b->alloc_includes,
			     pt_xstrndup(s, (size_t)(end - s)));
		} else if (!strncmp(s, "default ", 8) || !strncmp(s, "pool ", 5)) {
			continue;
		} else {
			const char *eq = memchr(s, '=', (size_t)(end - s));
			const char *ne, *v;

			if (!eq) {
				bad(b, d, src, lx.line, "neither a statement nor a 'name = value' binding");
				continue;
			}
			ne = eq;
			while (ne > s && ne[-1] == ' ')
				ne--;
			v = eq + 1;
			skip_blanks(&v, end);
			if (ne == s) {
				bad(b, d, src, lx.line, "binding without a name");
				continue;
			}
			PT_GROW(b->vars, b->n_vars, b->alloc_vars);
			b->vars[b->n_vars].name = pt_xstrndup(s, (size_t)(ne - s));
			b->vars[b->n_vars].value = pt_xstrndup(v, (size_t)(end - v));
			b->n_vars++;
		}
	}
	pt_strbuf_release(&lx.sb);
	if (b->n_bad > MAX_WARN)
		pt_diag_add(d, PT_SEV_WARNING, src, NULL, "%zu malformed lines in all", b->n_bad);
	return 0;
}

void buildninja_release(struct buildninja *b)
{
	for (size_t i = 0; i < b->n_edges; i++)
		free_edge(&b->edges[i]);
	for (size_t i = 0; i < b->n_includes; i++)
		free(b->includes[i]);
	for (size_t i = 0; i < b->n_rules; i++)
		free(b->rules[i]);
	for (size_t i = 0; i < b->n_vars; i++) {
		free(b->vars[i].name);
		free(b->vars[i].value);
	}
	free(b->edges);
	free(b->includes);
	free(b->rules);
	free(b->vars);
	free(b->out_index);
	memset(b, 0, sizeof(*b));
}

static int cmp_out(const void *a, const void *b)
{
	return strcmp(((const struct ninja_out *)a)->path, ((const struct ninja_out *)b)->path);
}

void buildninja_index(struct buildninja *b)
{
	size_t n = 0;

	free(b->out_index);
	for (size_t i = 0; i < b->n_edges; i++)
		n += b->edges[i].n_outs;
	b->out_index = pt_xmalloc((n ? n : 1) * sizeof(*b->out_index));
	n = 0;
	for (size_t i = 0; i < b->n_edges; i++)
		for (size_t k = 0; k < b->edges[i].n_outs; k++)
			b->out_index[n++] = (struct ninja_out){ b->edges[i].outs[k], i };
	qsort(b->out_index, n, sizeof(*b->out_index), cmp_out);
	b->n_out_index = n;
}

size_t buildninja_producer(const struct buildninja *b, const char *path)
{
	struct ninja_out key = { path, 0 }, *hit;

	if (!b->n_out_index)
		return (size_t)-1;
	hit = bsearch(&key, b->out_index, b->n_out_index, sizeof(key), cmp_out);
	return hit ? hit->edge : (size_t)-1;
}

const char *buildninja_var(const struct buildninja *b, const char *name)
{
	const char *v = NULL;

	for (size_t i = 0; i < b->n_vars; i++)
		if (!strcmp(b->vars[i].name, name))
			v = b->vars[i].value;
	return v;
}
