/* Masking what differs from run to run (runnorm.h). */
#include "runnorm.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/*
 * Applied in this order, each to the result of the one before. A path
 * pattern matches only where a path starts (not "/home/u/tmp/x/").
 */
static const struct {
	const char *re, *with;
	int path;
} pat[] = {
	{ "0x[0-9a-fA-F]+", "0x?", 0 },
	/* The directory a run made in /tmp: masked, what lies in it kept. */
	{ "/var/tmp/[^/ :,'\")]+/", "/var/tmp/?/", 1 },
	{ "/tmp/[^/ :,'\")]+/", "/tmp/?/", 1 },
	/* A file right in /tmp named by mkstemp or Python's tempfile: its random part. */
	{ "/tmp/tmp[._]?[A-Za-z0-9_]{6,}", "/tmp/tmp?", 1 },
	{ "[0-9]+(\\.[0-9]+)? ?(s|ms|us|sec|seconds)\\b", "? s", 0 },
};

/* 1 when c can stand in a path before a '/' (then no path starts at the '/'). */
static int path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("_.~/-+", c) != NULL;
}

char *runnorm_text(const char *in)
{
	char *s = pt_xstrdup(in ? in : "");

	for (size_t k = 0; k < PT_ARRAY_SIZE(pat); k++) {
		regex_t re;
		regmatch_t m;
		char *out, *p;
		size_t cap, o = 0, rl = strlen(pat[k].with);

		if (regcomp(&re, pat[k].re, REG_EXTENDED) != 0)
			continue;
		cap = strlen(s) + 1;
		out = pt_xmalloc(cap);
		for (p = s; regexec(&re, p, 1, &m, p == s ? 0 : REG_NOTBOL) == 0 && m.rm_eo > 0;) {
			size_t need = o + (size_t)m.rm_eo + rl + strlen(p) + 1;
			const char *before = m.rm_so > 0 ? p + m.rm_so - 1 : p > s ? p - 1 : NULL;

			PT_RESERVE(out, need, cap);
			if (pat[k].path && before && path_char(*before)) {
				/* Inside a longer path: kept as it is. */
				memcpy(out + o, p, (size_t)m.rm_eo);
				o += (size_t)m.rm_eo;
				p += m.rm_eo;
				continue;
			}
			memcpy(out + o, p, (size_t)m.rm_so);
			o += (size_t)m.rm_so;
			memcpy(out + o, pat[k].with, rl);
			o += rl;
			p += m.rm_eo;
		}
		PT_RESERVE(out, o + strlen(p) + 1, cap);
		strcpy(out + o, p);
		regfree(&re);
		free(s);
		s = out;
	}
	return s;
}
