/*
 * Reading a file through a memory mapping (libelf's ELF_C_READ_MMAP, libdw,
 * our own mmap) raises SIGBUS when the file shrinks underneath: a build
 * rewriting a library while ptinspect reads it. A guard turns that signal
 * into an error the caller reports, naming the file, instead of a crash:
 *
 *	struct pt_mapguard g;
 *	if (PT_MAPGUARD_BEGIN(&g)) {
 *		... SIGBUS happened inside: the guard is already popped ...
 *		return error;
 *	}
 *	... read the mapping ...
 *	pt_mapguard_end(&g);
 *
 * Guards nest and are per thread. The code between BEGIN and end must not
 * hold locks or leave state that a jump out of it would break; what it
 * allocated may leak (the caller gives up on that file). A SIGBUS outside
 * any guard is fatal as before.
 */
#ifndef PT_MAPGUARD_H
#define PT_MAPGUARD_H

#include <setjmp.h>

struct pt_mapguard {
	sigjmp_buf jb;
	struct pt_mapguard *prev;
};

/* Push g; 0 now, non-zero when a SIGBUS inside jumped back here (g popped). */
#define PT_MAPGUARD_BEGIN(g) (pt_mapguard_push(g), sigsetjmp((g)->jb, 1))

void pt_mapguard_push(struct pt_mapguard *g);

/* Pop g (the innermost guard). */
void pt_mapguard_end(struct pt_mapguard *g);

#endif
