/*
 * CMakeCache.txt: "KEY:TYPE=VALUE" lines, "//" help lines before them, "#"
 * comments. Bytes and a length in, entries and diagnostics out.
 */
#ifndef PT_CMAKECACHE_H
#define PT_CMAKECACHE_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct cmakecache_entry {
	char *key;
	char *type;	/* BOOL, STRING, PATH, FILEPATH, INTERNAL, STATIC, UNINITIALIZED; "" when absent */
	char *value;
	char *help;	/* the "//" lines before it joined with spaces; NULL when none */
	size_t line;	/* 1-based */
};

struct cmakecache {
	struct cmakecache_entry *v;	/* sorted by key (bsearch) */
	size_t n, alloc;
	size_t n_bad;			/* lines that were neither entries nor comments */
};

/*
 * Parse; src names the file in diagnostics. Returns 0 (malformed lines are
 * warnings and counted in n_bad), -1 when the text is not a CMake cache at
 * all (an error in d).
 */
int cmakecache_parse(const uint8_t *buf, size_t len, struct cmakecache *c, const char *src,
		     struct pt_diag *d);
void cmakecache_release(struct cmakecache *c);

/* The entry for key, or NULL. The last one wins when a key repeats. */
const struct cmakecache_entry *cmakecache_get(const struct cmakecache *c, const char *key);
/* Its value, or NULL. */
const char *cmakecache_value(const struct cmakecache *c, const char *key);
/*
 * CMake's truth: 1 for ON/YES/TRUE/Y/non-zero numbers, 0 for OFF/NO/FALSE/N/
 * IGNORE/NOTFOUND/...-NOTFOUND/""/0, -1 when the key is absent.
 */
int cmakecache_bool(const struct cmakecache *c, const char *key);
int cmake_is_true(const char *v);

/*
 * key's truth (cmakecache_bool) in the CMakeCache.txt of a build tree: DIR's
 * own or DIR/build's, the first that reads as a cache; -1 when neither does
 * or the key is absent. *cache (may be NULL) gets the file read (the caller
 * frees it), or NULL. Errors reading are not reported: a tree that is not
 * there simply says nothing.
 */
int cmakecache_dir_bool(const char *dir, const char *key, char **cache);

#endif
