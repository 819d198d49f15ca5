/* File-system helpers; see fsutil.h. */
#include "fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"
#include "xalloc.h"

int pt_mkdirs(const char *path, mode_t mode)
{
	char *p = pt_xstrdup(path);
	int rc = 0;

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST)
			rc = -1;
		*s = '/';
		if (rc)
			break;
	}
	if (!rc && mkdir(p, mode) < 0 && errno != EEXIST)
		rc = -1;
	free(p);
	return rc;
}

int pt_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

const char *pt_file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	case S_IFLNK: return "a symbolic link";
	}
	return "of an unknown type";
}

int pt_open_regular(const char *path, mode_t *mode)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), fl;
	struct stat st;

	*mode = 0;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*mode = st.st_mode;
		close(fd);
		errno = 0;
		return -1;
	}
	/* Regular files ignore O_NONBLOCK; cleared all the same, so reads are plain ones. */
	if ((fl = fcntl(fd, F_GETFL)) >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int pt_read_regular(const char *path, size_t max, enum pt_severity sev, unsigned flags, uint8_t **buf,
		    size_t *len, struct pt_diag *d)
{
	mode_t mode;
	int fd = pt_open_regular(path, &mode);
	struct stat st;
	size_t got = 0, cap;
	uint8_t *b;

	*buf = NULL;
	*len = 0;
	if (fd < 0) {
		if (mode) {
			pt_diag_add(d, sev, path, NULL, "not a regular file (%s)", pt_file_kind(mode));
			return -1;
		}
		if (errno == ENOENT)
			return 1;
		pt_diag_add(d, sev, path, NULL, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0)
		st.st_size = 0;
	cap = st.st_size > 0 && (uint64_t)st.st_size < max ? (size_t)st.st_size + 2 : 4096;
	if (cap > max + 2)
		cap = max + 2;
	b = pt_xmalloc(cap);
	for (;;) {
		ssize_t r;
		size_t want;

		if (got > max) {
			char lim[32];

			if (max >= (1u << 20))
				pt_fmt_trunc(lim, sizeof(lim), "%zu MiB", max >> 20);
			else
				pt_fmt_trunc(lim, sizeof(lim), "%zu bytes", max);
			if (flags & PT_READ_PREFIX) {
				pt_diag_add(d, PT_SEV_WARNING, path, NULL, "larger than %s: the rest is not read", lim);
				got = max;
				break;
			}
			pt_diag_add(d, sev, path, NULL, "larger than %s", lim);
			free(b);
			close(fd);
			return -1;
		}
		if (got + 1 >= cap) {
			size_t ncap = cap > ((size_t)-1) / 2 ? (size_t)-1 : 2 * cap;

			if (ncap > max + 2)
				ncap = max + 2;
			b = pt_xrealloc(b, ncap);
			cap = ncap;
		}
		/* One byte past max at most: enough to know the file is larger. */
		want = cap - 1 - got;
		if (want > max + 1 - got)
			want = max + 1 - got;
		r = read(fd, b + got, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			pt_diag_add(d, sev, path, NULL, "read: %s", strerror(errno));
			free(b);
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	b[got] = '\0';
	*buf = b;
	*len = got;
	return 0;
}
