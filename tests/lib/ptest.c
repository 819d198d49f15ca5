/* Unit-test helpers; see ptest.h. The C library and libptcommon, which every unit test links. */
#include "ptest.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsutil.h"

char *ptest_tmpdir(char *buf, const char *tag)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if ((size_t)snprintf(buf, PTEST_PATH_MAX, "%s/pt-%s.XXXXXX", tmp, tag) >= PTEST_PATH_MAX) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return mkdtemp(buf);
}

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (type == FTW_DP ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT ? -1 : 0;
}

int ptest_rmtree(const char *path)
{
	if (access(path, F_OK) < 0)
		return errno == ENOENT ? 0 : -1;
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) == 0 ? 0 : -1;
}

static int tree_entry(const char *dir, const char *e)
{
	const char *arg = e + 2, *sp;
	char *path, *target = NULL;
	int rc = -1, fd;

	if (strlen(e) < 3 || e[1] != ' ') {
		errno = EINVAL;
		return -1;
	}
	if (e[0] == 'l') {
		if (!(sp = strchr(arg, ' '))) {
			errno = EINVAL;
			return -1;
		}
		target = strndup(arg, (size_t)(sp - arg));
		arg = sp + 1;
	}
	path = ptest_path(dir, arg);
	if (!path || (e[0] == 'l' && !target))
		goto out;
	switch (e[0]) {
	case 'd':
		rc = pt_mkdirs(path, 0700);
		break;
	case 'f':
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		rc = fd < 0 ? -1 : close(fd);
		break;
	case 'l':
		rc = symlink(target, path);
		break;
	default:
		errno = EINVAL;
	}
out:
	free(path);
	free(target);
	return rc;
}

int ptest_tree(const char *dir, const char *const *entries)
{
	for (; *entries; entries++)
		if (tree_entry(dir, *entries) < 0) {
			int e = errno;

			fprintf(stderr, "ptest_tree: %s: '%s': %s\n", dir, *entries, strerror(e));
			errno = e;
			return -1;
		}
	return 0;
}

int ptest_aborts(void (*fn)(void *), void *arg, char *out, size_t cap)
{
	int fds[2], status;
	size_t got = 0;
	ssize_t r;
	pid_t pid;

	if (cap == 0 || pipe(fds) < 0)
		return -1;
	fflush(NULL);
	if ((pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		signal(SIGABRT, SIG_DFL);
		fn(arg);
		_exit(0);
	}
	close(fds[1]);
	while ((r = read(fds[0], out + got, cap - 1 - got)) > 0 || (r < 0 && errno == EINTR))
		if (r > 0 && (got += (size_t)r) == cap - 1)
			break;
	out[got] = '\0';
	close(fds[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

char *ptest_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

char *ptest_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (cap - n < 65536) {
			char *nb = realloc(buf, cap += 65536 + cap);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);

		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}
