/*
 * Reading a dependency tree ahead of the resolver, for a cold page cache.
 *
 * The resolver reads its files one after another, and each file in three
 * dependent steps (the header, then the dynamic array, then the names and
 * the version records): with nothing in the page cache every step waits on
 * the disk alone. Here worker threads read the same pieces of the files
 * the resolver will most likely open (the names of each file read, looked
 * up along its RPATH/RUNPATH, LD_LIBRARY_PATH, /etc/ld.so.cache and the
 * system directories), breadth-first like the loader, many at a time, so
 * that the resolver's own reads find them in the page cache.
 *
 * Nothing read here is used: the workers only fill the page cache. The
 * resolution, its diagnostics and its output are the same whether the
 * workers ran ahead, behind, guessed a path wrong or did not run at all.
 */
#ifndef PT_PREFETCH_H
#define PT_PREFETCH_H

#include "elfobj.h"
#include "ldpath.h"

struct prefetch;

/*
 * Start reading ahead from root (its needed names, then theirs, ...):
 * origin is root's $ORIGIN, env the loader's environment; both, and
 * root, must stay valid until prefetch_stop. Returns NULL when no thread
 * could be started or PT_JOBS is 1 (then nothing is read ahead).
 */
struct prefetch *prefetch_start(const struct elfobj *root, const char *origin,
				const struct ldpath_env *env);

/* Stop the workers (each finishes the file it is reading), wait for them and free p. NULL is fine. */
void prefetch_stop(struct prefetch *p);

#endif
