/*
 * A fresh output directory, written safely (`pttrace report`, `pttrace
 * artifact --out`): the files go into a new private directory created beside
 * the target (mkdtemp), each opened with O_CREAT|O_EXCL|O_NOFOLLOW relative
 * to that directory's descriptor, and the whole directory is renamed into
 * place at the end. Nothing is ever written through a path that another user
 * can change, and no symbolic link is followed when writing.
 *
 * The target may be:
 *   - missing (its parent must exist, or is created with PT_OUTDIR_MKPARENTS);
 *   - an empty directory of the caller's (same effective uid);
 *   - an earlier output of the caller's, as the `earlier` test says: replaced
 *     whole (exchanged atomically where the file system can, else moved aside
 *     first), and the old tree then removed without following any link in it.
 * A symbolic link as the target is followed only when the link is the
 * caller's; the directory it names must then qualify as above. Anything else
 * (a directory of another user, a non-empty directory that is no earlier
 * output, a file) is refused and nothing is written.
 */
#ifndef PT_OUTDIR_H
#define PT_OUTDIR_H

#include <stdio.h>
#include <sys/types.h>

#include "diag.h"

enum pt_outdir_state {
	PT_OUTDIR_MISSING,	/* nothing there: created */
	PT_OUTDIR_EMPTY,	/* an empty directory of the caller's */
	PT_OUTDIR_EARLIER,	/* an earlier output of the caller's: replaced */
	PT_OUTDIR_BUSY,		/* a directory holding something else */
	PT_OUTDIR_FOREIGN,	/* a directory (or the link to it) another user owns */
	PT_OUTDIR_NOT_DIR,	/* a file, a device, a dangling link */
	PT_OUTDIR_UNREADABLE,	/* cannot be examined (errno) */
};

/* 1 when the directory open as dirfd looks like an earlier output, else 0. */
typedef int (*pt_outdir_earlier_fn)(int dirfd);

enum { PT_OUTDIR_MKPARENTS = 1 };

struct pt_outdir {
	char *target;		/* as given: the name in messages */
	char *dir;		/* where the directory goes (a link resolved) */
	char *tmp;		/* the private directory being written */
	int pfd, dfd;		/* the parent's and tmp's descriptors */
	enum pt_outdir_state state;
	dev_t dev;		/* the earlier directory, when replacing one */
	ino_t ino;
};

/* What target is now (no change made). */
enum pt_outdir_state pt_outdir_check(const char *target, pt_outdir_earlier_fn earlier);
/* The reason a state refuses the target ("exists and is not empty nor an earlier WHAT"),
 * NULL for the states that accept it; what names the output ("pttrace report"). */
const char *pt_outdir_refusal(enum pt_outdir_state st, const char *what, char *buf, size_t n);

/*
 * Check target and create the private directory beside it. 0, or -1 with a
 * message naming target in diag (nothing created).
 */
int pt_outdir_begin(struct pt_outdir *od, const char *target, const char *what,
		    pt_outdir_earlier_fn earlier, unsigned flags, struct pt_diag *diag);
/* Create rel's directories (mkdir -p, inside the private directory); 0 or -1 (errno). */
int pt_outdir_mkdirs(struct pt_outdir *od, const char *rel);
/* Create the file rel (its directory must exist), never following a link: a
 * FILE opened for writing, or NULL (errno). */
FILE *pt_outdir_fopen(struct pt_outdir *od, const char *rel);
/* "target/rel" for messages; caller frees. */
char *pt_outdir_path(const struct pt_outdir *od, const char *rel);
/*
 * Put the directory in place (mode 0777 less the umask) and remove what it
 * replaced. 0, or -1 (diag; the private directory is removed and the target
 * stays as it was). Releases od either way.
 */
int pt_outdir_commit(struct pt_outdir *od, struct pt_diag *diag);
/* Give up: remove the private directory; the target stays as it was. Releases od. */
void pt_outdir_abort(struct pt_outdir *od);

/* Remove the tree name (relative to dirfd) without following any link in it.
 * 0 or -1 (errno). */
int pt_rmtree_at(int dirfd, const char *name);

#endif
