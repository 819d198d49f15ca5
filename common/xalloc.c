/* Allocation wrappers; see xalloc.h. */
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(size_t n)
{
	fprintf(stderr, "out of memory (allocating %zu bytes)\n", n);
	exit(2);
}

void *pt_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *pt_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb * size);
	return p;
}

void *pt_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *pt_xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > (size_t)-1 / size)
		oom((size_t)-1);
	return pt_xrealloc(p, nmemb * size);
}

char *pt_xstrdup(const char *s)
{
	return pt_xstrndup(s, strlen(s));
}

char *pt_xstrndup(const char *s, size_t n)
{
	char *p = pt_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *pt_xvasprintf(const char *fmt, va_list ap)
{
	char *p;

	if (vasprintf(&p, fmt, ap) < 0)
		oom(0);
	return p;
}

char *pt_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = pt_xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}
