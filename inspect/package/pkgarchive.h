/*
 * The archive door: a wheel (.whl, a zip), a conda package (.tar.bz2, or a
 * .conda: a zip holding info-*.tar.zst and pkg-*.tar.zst) read member by
 * member with libarchive, opened on first use (lazylib.h), without writing
 * anything anywhere. A .conda's inner tarballs are read as streams from
 * the outer zip (one level: nothing deeper is ever opened).
 *
 * Limits are checked on what the archive says and on what it delivers: a
 * member whose declared or inflated size passes max_member, a total past
 * max_total, more than max_entries members, names with "..", absolute
 * names, encrypted members, a truncated archive: each is a PT_SEV_ERROR
 * naming the archive and the member.
 */
#ifndef PT_PKGARCHIVE_H
#define PT_PKGARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

enum pkgar_kind { PKGAR_FILE, PKGAR_DIR, PKGAR_SYMLINK, PKGAR_OTHER };

struct pkgar_entry {
	const char *name;	/* as stored, "./" stripped; for a .conda, inside its inner tarball */
	uint64_t size;		/* declared size (0 when the archive declares none) */
	bool size_known;
	enum pkgar_kind kind;
	const char *link;	/* symlink target, or NULL */
	const char *inner;	/* the .conda inner tarball's name, or NULL */
};

struct pkgar_limits {
	uint64_t max_member;	/* bytes one member may declare or deliver */
	uint64_t max_total;	/* bytes all members together may deliver */
	uint64_t max_entries;
};

/* 4 GiB per member, 64 GiB in all, 1M members. */
extern const struct pkgar_limits pkgar_default_limits;

struct pkgar;

/*
 * Called for each member (not for refused ones). It may read the member's
 * data with pkgar_read; what it does not read is skipped. Returns 0 to go
 * on, nonzero to stop the walk (the walk then returns that value).
 */
typedef int (*pkgar_visit)(void *ctx, const struct pkgar_entry *e, struct pkgar *a);

/*
 * Read the current member's next bytes into buf. Returns the count, 0 at
 * its end, -1 on an error (a PT_SEV_ERROR naming archive and member is in
 * the walk's diag; the walk stops after the visitor returns).
 */
long pkgar_read(struct pkgar *a, void *buf, size_t n);

/*
 * Walk the archive at path (or the bytes buf/len, named name). Returns 0
 * when every member was read, -1 when the archive is unusable or damaged
 * (PT_SEV_ERROR in diag; members visited before stay visited), or the
 * visitor's nonzero value. Refused members (unsafe names, encrypted, too
 * large) are PT_SEV_ERROR too but the walk goes on past them.
 */
int pkgar_walk_file(const char *path, const struct pkgar_limits *lim, pkgar_visit visit,
		    void *ctx, struct pt_diag *diag);
int pkgar_walk_mem(const char *name, const void *buf, size_t len, const struct pkgar_limits *lim,
		   pkgar_visit visit, void *ctx, struct pt_diag *diag);

/* A member name the installer would write outside its target: absolute, "..", empty. */
bool pkgar_name_unsafe(const char *name);

#endif
