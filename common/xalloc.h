/*
 * Allocation that cannot fail: on exhaustion it prints one line and exits 2
 * (the project's "unusable input" code), like git's xmalloc. Modules use it
 * so that every other error path stays about the input, not about memory.
 */
#ifndef PT_XALLOC_H
#define PT_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *pt_xmalloc(size_t n);
void *pt_xcalloc(size_t nmemb, size_t size);
void *pt_xrealloc(void *p, size_t n);
void *pt_xreallocarray(void *p, size_t nmemb, size_t size);
char *pt_xstrdup(const char *s);
char *pt_xstrndup(const char *s, size_t n);
char *pt_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *pt_xvasprintf(const char *fmt, va_list ap);

/*
 * The one growth idiom: every array (and byte buffer) that grows keeps its
 * capacity in a variable beside it and grows through these, doubling (8
 * elements first), so n appends cost O(n) copies.
 *
 * PT_GROW: grow v (holding alloc elements) so that index n fits.
 * PT_RESERVE: so that n elements fit (n == 0: nothing to do).
 */
#define PT_RESERVE(v, n, alloc)                                                 \
	do {                                                                   \
		size_t pt_need_ = (n);                                         \
		if (pt_need_ > (alloc))                                        \
			PT_GROW(v, pt_need_ - 1, alloc);                       \
	} while (0)

#define PT_GROW(v, n, alloc)                                                    \
	do {                                                                   \
		if ((n) >= (alloc)) {                                          \
			(alloc) = (alloc) ? 2 * (alloc) : 8;                   \
			if ((alloc) <= (n))                                    \
				(alloc) = (n) + 1;                             \
			(v) = pt_xreallocarray((v), (alloc), sizeof(*(v)));    \
		}                                                              \
	} while (0)

/* The number of elements of an array (not a pointer: a pointer's size gives nonsense). */
#define PT_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
