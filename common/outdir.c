/* A fresh output directory, written safely; see outdir.h. */
#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "strbuf.h"
#include "xalloc.h"

#define TMP_NAME ".pttrace-tmp-XXXXXX"
#define OLD_NAME ".pttrace-old-XXXXXX"
#define RMTREE_MAX_DEPTH 64

/* The target without trailing slashes (a trailing slash would make lstat follow a link). */
static char *trimmed(const char *target)
{
	char *t = pt_xstrdup(target);
	size_t n = strlen(t);

	while (n > 1 && t[n - 1] == '/')
		t[--n] = '\0';
	return t;
}

/*
 * Examine target: its state, and for an existing directory the resolved path
 * (*dir, caller frees) with its device and inode.
 */
static enum pt_outdir_state examine(const char *target, pt_outdir_earlier_fn earlier, char **dir,
				    dev_t *dev, ino_t *ino)
{
	char *t = trimmed(target), *real = NULL;
	enum pt_outdir_state st;
	struct stat lsb, sb;
	struct dirent *e;
	int fd, entries = 0;
	DIR *d;

	*dir = NULL;
	if (lstat(t, &lsb) < 0) {
		st = errno == ENOENT ? PT_OUTDIR_MISSING : PT_OUTDIR_UNREADABLE;
		if (st == PT_OUTDIR_MISSING)
			*dir = t;
		else
			free(t);
		return st;
	}
	if (S_ISLNK(lsb.st_mode)) {
		/* Followed only when the link is the caller's own. */
		if (lsb.st_uid != geteuid()) {
			free(t);
			return PT_OUTDIR_FOREIGN;
		}
		if (!(real = realpath(t, NULL))) {
			free(t);
			return errno == ENOENT || errno == ELOOP ? PT_OUTDIR_NOT_DIR : PT_OUTDIR_UNREADABLE;
		}
		free(t);
		t = real;
		if (lstat(t, &lsb) < 0) {
			free(t);
			return PT_OUTDIR_UNREADABLE;
		}
	}
	if (!S_ISDIR(lsb.st_mode)) {
		free(t);
		return PT_OUTDIR_NOT_DIR;
	}
	if (lsb.st_uid != geteuid()) {
		free(t);
		return PT_OUTDIR_FOREIGN;
	}
	fd = open(t, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb) < 0 || sb.st_dev != lsb.st_dev || sb.st_ino != lsb.st_ino) {
		if (fd >= 0)
			close(fd);
		free(t);
		return PT_OUTDIR_UNREADABLE;
	}
	if (!(d = fdopendir(dup(fd)))) {
		close(fd);
		free(t);
		return PT_OUTDIR_UNREADABLE;
	}
	while ((e = readdir(d)))
		entries += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	st = !entries ? PT_OUTDIR_EMPTY : earlier && earlier(fd) ? PT_OUTDIR_EARLIER : PT_OUTDIR_BUSY;
	close(fd);
	/* The real path: "." or a link's target has a real name and parent. */
	if (!real && !(real = realpath(t, NULL))) {
		free(t);
		return PT_OUTDIR_UNREADABLE;
	}
	if (real != t)
		free(t);
	*dir = real;
	*dev = lsb.st_dev;
	*ino = lsb.st_ino;
	return st;
}

enum pt_outdir_state pt_outdir_check(const char *target, pt_outdir_earlier_fn earlier)
{
	char *dir;
	dev_t dev;
	ino_t ino;
	enum pt_outdir_state st = examine(target, earlier, &dir, &dev, &ino);

	free(dir);
	return st;
}

const char *pt_outdir_refusal(enum pt_outdir_state st, const char *what, char *buf, size_t n)
{
	switch (st) {
	case PT_OUTDIR_MISSING:
	case PT_OUTDIR_EMPTY:
	case PT_OUTDIR_EARLIER:
		return NULL;
	case PT_OUTDIR_BUSY:
		pt_fmt_trunc(buf, n, "exists and is not empty nor an earlier %s", what);
		break;
	case PT_OUTDIR_FOREIGN:
		pt_fmt_trunc(buf, n, "belongs to another user: a %s is written only into a "
			     "directory of your own", what);
		break;
	case PT_OUTDIR_NOT_DIR:
		pt_fmt_trunc(buf, n, "exists and is not a directory");
		break;
	case PT_OUTDIR_UNREADABLE:
		pt_fmt_trunc(buf, n, "cannot be examined: %s", strerror(errno));
		break;
	}
	return buf;
}

static void od_release(struct pt_outdir *od)
{
	if (od->dfd >= 0)
		close(od->dfd);
	if (od->pfd >= 0)
		close(od->pfd);
	free(od->target);
	free(od->dir);
	free(od->tmp);
	memset(od, 0, sizeof(*od));
	od->pfd = od->dfd = -1;
}

static const char *base_of(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

int pt_outdir_begin(struct pt_outdir *od, const char *target, const char *what,
		    pt_outdir_earlier_fn earlier, unsigned flags, struct pt_diag *diag)
{
	char why[256], *parent, *tmpl;
	const char *base;

	memset(od, 0, sizeof(*od));
	od->pfd = od->dfd = -1;
	od->target = pt_xstrdup(target);
	od->state = examine(target, earlier, &od->dir, &od->dev, &od->ino);
	if (pt_outdir_refusal(od->state, what, why, sizeof(why))) {
		pt_diag_add(diag, PT_SEV_ERROR, target, NULL, "%s", why);
		od_release(od);
		return -1;
	}
	base = base_of(od->dir);
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		pt_diag_add(diag, PT_SEV_ERROR, target, NULL, "cannot be an output directory");
		od_release(od);
		return -1;
	}
	{
		/* dirname may return a static string or modify its argument: a copy of a copy. */
		char *copy = pt_xstrdup(od->dir);

		parent = pt_xstrdup(dirname(copy));
		free(copy);
	}
	if ((flags & PT_OUTDIR_MKPARENTS) && od->state == PT_OUTDIR_MISSING && pt_mkdirs(parent, 0777) < 0) {
		pt_diag_add(diag, PT_SEV_ERROR, target, NULL, "cannot create its directory %s: %s",
			    parent, strerror(errno));
		free(parent);
		od_release(od);
		return -1;
	}
	od->pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	tmpl = pt_xasprintf("%s/" TMP_NAME, parent);
	if (od->pfd < 0 || !mkdtemp(tmpl)) {
		pt_diag_add(diag, PT_SEV_ERROR, target, NULL, "cannot create a directory beside it in %s: %s",
			    parent, strerror(errno));
		free(tmpl);
		free(parent);
		od_release(od);
		return -1;
	}
	free(parent);
	od->tmp = tmpl;
	od->dfd = openat(od->pfd, base_of(tmpl), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (od->dfd < 0) {
		pt_diag_add(diag, PT_SEV_ERROR, tmpl, NULL, "cannot open: %s", strerror(errno));
		pt_outdir_abort(od);
		return -1;
	}
	return 0;
}

int pt_outdir_mkdirs(struct pt_outdir *od, const char *rel)
{
	char *p = pt_xstrdup(rel);
	int rc = 0;

	for (char *s = p;; s++) {
		if (*s != '/' && *s)
			continue;
		if (s > p && s[-1] != '/') {
			char c = *s;

			*s = '\0';
			if (mkdirat(od->dfd, p, 0777) < 0 && errno != EEXIST)
				rc = -1;
			*s = c;
		}
		if (rc || !*s)
			break;
	}
	free(p);
	return rc;
}

FILE *pt_outdir_fopen(struct pt_outdir *od, const char *rel)
{
	const int fl = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd = openat(od->dfd, rel, fl, 0666);
	FILE *f;

	/* Written twice (tlparse's dump_file/ of one name): the later one, as before. */
	if (fd < 0 && errno == EEXIST && unlinkat(od->dfd, rel, 0) == 0)
		fd = openat(od->dfd, rel, fl, 0666);
	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}

char *pt_outdir_path(const struct pt_outdir *od, const char *rel)
{
	size_t n = strlen(od->target);

	return pt_xasprintf("%s%s%s", od->target, n && od->target[n - 1] == '/' ? "" : "/", rel);
}

static int rmtree(int dirfd, const char *name, int depth)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), rc = 0;
	size_t removed;
	DIR *d;

	if (fd < 0)
		return errno == ENOTDIR || errno == ELOOP ? unlinkat(dirfd, name, 0) : -1;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return -1;
	}
	/* Entries removed while reading may hide others: read again until a pass removes none. */
	do {
		struct dirent *e;

		removed = 0;
		rewinddir(d);
		while ((e = readdir(d))) {
			struct stat sb;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (fstatat(fd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			if (S_ISDIR(sb.st_mode) ? depth < RMTREE_MAX_DEPTH && rmtree(fd, e->d_name, depth + 1) == 0
						: unlinkat(fd, e->d_name, 0) == 0)
				removed++;
		}
	} while (removed);
	closedir(d);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0)
		rc = -1;
	return rc;
}

int pt_rmtree_at(int dirfd, const char *name)
{
	return rmtree(dirfd, name, 0);
}

void pt_outdir_abort(struct pt_outdir *od)
{
	if (od->tmp && od->pfd >= 0) {
		if (od->dfd >= 0)
			close(od->dfd);
		od->dfd = -1;
		pt_rmtree_at(od->pfd, base_of(od->tmp));
	}
	od_release(od);
}

/* The directory at name (relative to pfd) is still the one examined, and the caller's. */
static int same_dir(const struct pt_outdir *od, const char *name)
{
	struct stat sb;

	return fstatat(od->pfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(sb.st_mode) &&
	       sb.st_dev == od->dev && sb.st_ino == od->ino && sb.st_uid == geteuid();
}

/* renameat2 with flags; -1 and EINVAL where the file system (or kernel) cannot. */
static int rename2(int fd, const char *from, const char *to, unsigned flags)
{
	int rc = renameat2(fd, from, fd, to, flags);

	if (rc < 0 && (errno == ENOSYS || errno == ENOTSUP))
		errno = EINVAL;
	return rc;
}

int pt_outdir_commit(struct pt_outdir *od, struct pt_diag *diag)
{
	const char *base = base_of(od->dir), *tmp = base_of(od->tmp);
	mode_t mask = umask(0);
	char *old = NULL;
	int rc;

	umask(mask);
	if (fchmod(od->dfd, 0777 & ~mask) < 0) {
		pt_diag_add(diag, PT_SEV_ERROR, od->tmp, NULL, "cannot set its mode: %s", strerror(errno));
		pt_outdir_abort(od);
		return -1;
	}
	if (od->state == PT_OUTDIR_MISSING) {
		rc = rename2(od->pfd, tmp, base, RENAME_NOREPLACE);
		if (rc < 0 && errno == EINVAL && faccessat(od->pfd, base, F_OK, AT_SYMLINK_NOFOLLOW) < 0)
			rc = renameat(od->pfd, tmp, od->pfd, base);
		if (rc < 0) {
			pt_diag_add(diag, PT_SEV_ERROR, od->target, NULL, "cannot create: %s%s", strerror(errno),
				    errno == EEXIST || errno == ENOTEMPTY ? " (created meanwhile by another program)" : "");
			pt_outdir_abort(od);
			return -1;
		}
		od_release(od);
		return 0;
	}
	/* Replacing the earlier directory: swap the two at once, or move the old one aside first. */
	if (!same_dir(od, base)) {
		pt_diag_add(diag, PT_SEV_ERROR, od->target, NULL, "changed while it was written: not replaced");
		pt_outdir_abort(od);
		return -1;
	}
	rc = rename2(od->pfd, tmp, base, RENAME_EXCHANGE);
	if (rc == 0) {
		/* The earlier directory is now at tmp. */
		if (same_dir(od, tmp))
			pt_rmtree_at(od->pfd, tmp);
		free(od->tmp);
		od->tmp = NULL;
		od_release(od);
		return 0;
	}
	if (errno == EINVAL) {
		char *aside = pt_xasprintf("%s", od->tmp);

		/* The name: a fresh one beside it (mkdtemp), then renamed onto (an empty directory). */
		strcpy(aside + strlen(aside) - strlen(TMP_NAME), OLD_NAME);
		if (mkdtemp(aside) && renameat(od->pfd, base, od->pfd, base_of(aside)) == 0) {
			old = aside;
			rc = rename2(od->pfd, tmp, base, RENAME_NOREPLACE);
			if (rc < 0 && errno == EINVAL)
				rc = renameat(od->pfd, tmp, od->pfd, base);
			if (rc < 0) {
				int e = errno;

				renameat(od->pfd, base_of(old), od->pfd, base);	/* put it back */
				errno = e;
			}
		} else {
			int e = errno;

			unlinkat(od->pfd, base_of(aside), AT_REMOVEDIR);
			free(aside);
			errno = e;
			rc = -1;
		}
	}
	if (rc < 0) {
		pt_diag_add(diag, PT_SEV_ERROR, od->target, NULL, "cannot replace: %s", strerror(errno));
		free(old);
		pt_outdir_abort(od);
		return -1;
	}
	if (same_dir(od, base_of(old)))
		pt_rmtree_at(od->pfd, base_of(old));
	free(old);
	free(od->tmp);
	od->tmp = NULL;
	od_release(od);
	return 0;
}
