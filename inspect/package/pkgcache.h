/*
 * The facts cache of archive packages: what package_read learnt from the
 * bytes of a wheel's, a .conda's or a .tar.bz2's members (metadata, the
 * member list, each ELF member's fields after elfobj_drop_bytes, its fat
 * binary summary and torch symbols, the walk's own messages), kept in one
 * file per archive so that reading the archive again inflates nothing.
 * What depends on the target (resolution, floors against policy, the
 * RPATH lint, --root, --tag, --against) is never kept: package.c computes
 * it from these facts on every run, so a warm answer is the cold one.
 *
 * Key: the archive's identity (realpath, st_dev, st_ino, st_size, st_mtim
 * and st_ctim to the nanosecond), the package type, the options that
 * change what is read from members (whole_max, the pkgar limits), the
 * cache format version and ptools' own identity (PT_VERSION and the
 * running program's GNU build-id). The whole key is stored in the file and
 * compared: a mismatch is a miss.
 *
 * Where: $PT_CACHE_DIR ("off" or empty: no cache), else
 * $XDG_CACHE_HOME/ptools, else $HOME/.cache/ptools; one file
 * "pkg-HASH.ptc" per archive, written to a temporary file (0600) in the
 * directory (made 0700) and renamed; beyond PKGCACHE_MAX_BYTES or
 * PKGCACHE_MAX_FILES in all, the least recently used files are removed.
 * Nothing here is ever an error: a directory that cannot be made or
 * written, a file that cannot be read, a corrupt, truncated or foreign
 * file are all a miss (and the file is replaced).
 *
 * package.c knows nothing of this module (the include graph goes one way):
 * it offers the read in its two halves, package_walk and package_finish.
 *
 * The file parser (pkgcache_decode) takes bytes and a length and trusts no
 * count, length or offset in them; a checksum of the whole file comes last.
 */
#ifndef PT_PKGCACHE_H
#define PT_PKGCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "package.h"
#include "pkgarchive.h"

#define PKGCACHE_FORMAT 1
#define PKGCACHE_MAX_BYTES (256ull << 20)
#define PKGCACHE_MAX_FILES 4096
#define PKGCACHE_FILE_MAX (64ull << 20)	/* a larger file is not read: a miss */

/* "none", "off", "miss", "hit". */
const char *pkgcache_state_name(enum pkgcache_state s);

/*
 * package_read with the cache: an archive's walk (package_walk) is skipped
 * on a hit, its facts decoded instead, and stored after a miss; then
 * package_finish, either way. A directory, opt->no_cache or no cache
 * directory: package_read itself. p->cache says which.
 */
int pkgcache_package_read(const char *path, const struct pkg_opts *opt, struct package *p,
			  struct pt_diag *diag);

/* The cache directory ($PT_CACHE_DIR, $XDG_CACHE_HOME/ptools, $HOME/.cache/ptools), or NULL. */
char *pkgcache_dir(void);

struct pkgcache_key {
	uint8_t *b;		/* the key's bytes, as stored in the file */
	size_t n;
	char name[32];		/* "pkg-<16 hex>.ptc" */
};

/*
 * The key of the archive at path read as type with those options. Returns
 * 0, or -1 when the archive cannot be stat'ed or resolved (no caching).
 */
int pkgcache_key_make(struct pkgcache_key *k, const char *path, int type, uint64_t whole_max,
		      const struct pkgar_limits *lim);
/* The same from given parts (tests, fuzzing). */
void pkgcache_key_raw(struct pkgcache_key *k, const void *id, size_t n);
void pkgcache_key_release(struct pkgcache_key *k);

/*
 * The file's bytes for p as the walk left it (before resolution) and the
 * walk's messages. p->path is replaced by a mark in messages and ELF
 * labels, so the same archive named otherwise hits. Caller frees *out.
 */
void pkgcache_encode(const struct pkgcache_key *k, const struct package *p,
		     const struct pt_diag *walk, uint8_t **out, size_t *len);

/*
 * Parse a file's bytes: 0 when it is a whole, valid file for key k, and
 * then p (whose path and type the caller set, nothing else) holds the
 * walk's facts and walk its messages; -1 otherwise (p and walk untouched).
 */
int pkgcache_decode(const struct pkgcache_key *k, const void *buf, size_t len, struct package *p,
		    struct pt_diag *walk);

/* The messages of encode that cannot be stored faithfully: then nothing is stored. */
bool pkgcache_storable(const struct package *p, const struct pt_diag *walk);

/* Read dir's file for k: pkgcache_decode's answer (-1 for no file too). */
int pkgcache_load(const char *dir, const struct pkgcache_key *k, struct package *p,
		  struct pt_diag *walk);

/* Write dir's file for k (atomically), then keep the directory within its bounds. 0 or -1. */
int pkgcache_store(const char *dir, const struct pkgcache_key *k, const struct package *p,
		   const struct pt_diag *walk);

#endif
