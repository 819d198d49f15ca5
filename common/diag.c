/* Collected diagnostics; see diag.h. */
#include "diag.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "term.h"
#include "xalloc.h"

void pt_diag_init(struct pt_diag *d)
{
	memset(d, 0, sizeof(*d));
}

void pt_diag_release(struct pt_diag *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].file);
		free(d->v[i].where);
		free(d->v[i].what);
	}
	free(d->v);
	size_t max = d->max;
	pt_diag_init(d);
	d->max = max;
}

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;	/* a separator: ("ab", "c") != ("a", "bc") */
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

void pt_diag_vadd(struct pt_diag *d, enum pt_severity sev, const char *file,
		  const char *where, const char *fmt, va_list ap)
{
	size_t max = d->max ? d->max : 1000;
	char *what = pt_xvasprintf(fmt, ap);
	unsigned long long h = fnv(fnv(fnv(0xcbf29ce484222325ULL ^ (uint64_t)sev, file), where), what);

	/*
	 * The same message twice says nothing new: a file opened by two readers
	 * (the report and the resolver) gives its warnings once.
	 */
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].hash == h && d->v[i].sev == sev && same_str(d->v[i].file, file) &&
		    same_str(d->v[i].where, where) && !strcmp(d->v[i].what, what)) {
			free(what);
			return;
		}
	/* A damaged 500 MB file can produce millions of warnings: keep a bounded number. */
	if (d->n >= max) {
		d->dropped++;
		free(what);
		return;
	}
	PT_GROW(d->v, d->n, d->alloc);
	struct pt_diag_msg *m = &d->v[d->n++];
	m->sev = sev;
	m->file = file ? pt_xstrdup(file) : NULL;
	m->where = where ? pt_xstrdup(where) : NULL;
	m->what = what;
	m->hash = h;
}

void pt_diag_add(struct pt_diag *d, enum pt_severity sev, const char *file,
		 const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pt_diag_vadd(d, sev, file, where, fmt, ap);
	va_end(ap);
}

size_t pt_diag_count(const struct pt_diag *d, enum pt_severity sev)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].sev >= sev)
			n++;
	if (sev <= PT_SEV_WARNING)
		n += d->dropped;
	return n;
}

void pt_diag_take(struct pt_diag *dst, struct pt_diag *src)
{
	for (size_t i = 0; i < src->n; i++) {
		struct pt_diag_msg *m = &src->v[i];
		pt_diag_add(dst, m->sev, m->file, m->where, "%s", m->what);
	}
	dst->dropped += src->dropped;
	pt_diag_release(src);
}

void pt_diag_format(FILE *f, const char *prog, const struct pt_diag_msg *m, int color)
{
	const char *label = "", *c = "", *r = color ? PT_C_RESET : "";

	if (m->sev == PT_SEV_WARNING) {
		label = "warning: ";
		c = color ? PT_C_YELLOW : "";
	} else if (m->sev == PT_SEV_NOTE) {
		label = "note: ";
		c = color ? PT_C_CYAN : "";
	} else {
		c = color ? PT_C_RED : "";
	}
	fprintf(f, "%s: %s%s%s", prog, c, label, r);
	if (m->file)
		fprintf(f, "'%s': ", m->file);
	if (m->where)
		fprintf(f, "%s: ", m->where);
	fprintf(f, "%s\n", m->what);
}

void pt_diag_print(const struct pt_diag *d, FILE *f, const char *prog, int color)
{
	for (size_t i = 0; i < d->n; i++)
		pt_diag_format(f, prog, &d->v[i], color);
	if (d->dropped)
		fprintf(f, "%s: %zu more messages not shown\n", prog, d->dropped);
}

void pt_diag_downgrade(struct pt_diag *d, enum pt_severity sev)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].sev > sev)
			d->v[i].sev = sev;
}

void pt_bug(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
