/*
 * /etc/ld.so.cache, read from its binary format (glibc >= 2.32 "new"
 * format, elf-loader.md §11), never by running ldconfig.
 */
#ifndef PT_LDCACHE_H
#define PT_LDCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct ldcache_entry {
	int32_t flags;		/* 0x0303: ELF libc6 x86-64 */
	const char *key;	/* library name (points into the cache's bytes) */
	const char *value;	/* full path */
	uint64_t hwcap;
};

struct ldcache {
	uint8_t *buf;		/* owned copy of the file */
	size_t len;
	struct ldcache_entry *v;
	size_t n;
	const char **hwcaps_names;	/* extension tag 1: glibc-hwcaps subdir names */
	size_t n_hwcaps_names;
	char *generator;	/* extension tag 0 (owned), or NULL */
	size_t strings_end;	/* 1 + offset of the last NUL in buf (0: none): strings end before */
};

/*
 * Parse a cache from bytes; takes ownership of buf (malloc'ed). Entries
 * with a string offset outside the data are skipped with a warning.
 * Returns 0, or -1 when the data is not a cache this reader understands
 * (old-only format, bad magic, truncated header).
 */
int ldcache_parse(struct ldcache *c, uint8_t *buf, size_t len, const char *name,
		  struct pt_diag *diag);

/* Read and parse path. Returns 0, or -1 (with a diag) when unreadable or unusable. */
int ldcache_load(struct ldcache *c, const char *path, struct pt_diag *diag);

/*
 * The path ld.so takes for name: among entries whose key equals name, with
 * flags 0x0303, the best active glibc-hwcaps entry (hwcaps: the active
 * subdirs, best first) else the first plain one. NULL when not cached.
 */
const char *ldcache_lookup(const struct ldcache *c, const char *name, char *const *hwcaps,
			   size_t n_hwcaps);

void ldcache_release(struct ldcache *c);

#endif
