/*
 * Helpers for the cmocka unit tests (compiled into every one, tests/CMakeLists.txt):
 * private scratch directories removed without a shell, paths in them, whole files.
 */
#ifndef PT_PTEST_H
#define PT_PTEST_H

#include <stddef.h>

/*
 * mkdtemp of "$TMPDIR/pt-<tag>.XXXXXX" (TMPDIR defaulting to /tmp) into buf
 * (at least PTEST_PATH_MAX bytes). Returns buf, or NULL with errno.
 */
#define PTEST_PATH_MAX 4096
char *ptest_tmpdir(char *buf, const char *tag);

/* Remove a directory tree (rm -rf, without a shell; symlinks are not followed). 0 or -1. */
int ptest_rmtree(const char *path);

/*
 * Make a tree under dir from entries, one string each, NULL-terminated:
 * "d path" a directory (parents made), "f path" an empty file, "l target path"
 * a symbolic link path -> target (target taken as it is). 0, or -1 with errno
 * (the failing entry printed on stderr).
 */
int ptest_tree(const char *dir, const char *const *entries);

/*
 * Run fn(arg) in a child process whose stderr goes to out (cap bytes, NUL-
 * terminated, cut to fit). 1 when the child died of SIGABRT (a PT_BUG), 0
 * when it ended otherwise, -1 when it could not be run.
 */
int ptest_aborts(void (*fn)(void *), void *arg, char *out, size_t cap);

/* "<dir>/<name>", malloc'd (the caller frees). */
char *ptest_path(const char *dir, const char *name);

/* A whole file, malloc'd and NUL-terminated (*len without the NUL); NULL on error. */
char *ptest_slurp(const char *path, size_t *len);

#endif
