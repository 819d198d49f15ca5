/*
 * A library opened on first use (dlopen) rather than at start-up: libdw,
 * liblz4, libzstd and libyaml serve only some subcommands, and loading them
 * for every run costs about half a millisecond of a 12 ms report. Each stays
 * behind its one door file (debuginfo.c, fatbin_unpack.c, nativefuncs.c),
 * which includes the library's header for the types and names the entry
 * points it calls:
 *
 *	static __typeof__(ZSTD_decompress) *p_ZSTD_decompress;
 *	static const struct pt_lazysym syms[] = { PT_LAZYSYM(ZSTD_decompress) };
 *	static struct pt_lazylib zstd = PT_LAZYLIB("libzstd.so.1", syms);
 *	#define ZSTD_decompress (*p_ZSTD_decompress)
 *	...
 *	if ((why = pt_lazylib_load(&zstd))) ... report why ...
 */
#ifndef PT_LAZYLIB_H
#define PT_LAZYLIB_H

#include <stdbool.h>
#include <stddef.h>

#include "xalloc.h"

/* An entry point: its name and the pointer dlsym fills. */
struct pt_lazysym {
	const char *name;
	void **slot;
};

/* The entry for fn, whose pointer is p_<fn>. */
#define PT_LAZYSYM(fn) { #fn, (void **)&p_##fn }

struct pt_lazylib {
	const char *soname;
	const struct pt_lazysym *syms;
	size_t n;
	bool tried;
	const char *error;	/* NULL once loaded */
	char buf[256];
};

#define PT_LAZYLIB(soname, syms) { (soname), (syms), PT_ARRAY_SIZE(syms), false, NULL, { 0 } }

/*
 * Open the library and fill every slot, once (thread-safe). NULL when they
 * are there, else a message naming the library and what is missing
 * ("cannot load libzstd.so.1: ...: install libzstd1"-like text from dlerror).
 */
const char *pt_lazylib_load(struct pt_lazylib *l);

#endif
