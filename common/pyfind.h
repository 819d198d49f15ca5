/*
 * The Python interpreters both tools try when the one first on PATH cannot
 * import torch (ptinspect doctor, env, config; pttrace run): one list, in
 * one order, so that both tools pick the same interpreter. Each tool says
 * itself what "has torch" means (doctor imports it; pttrace run finds the
 * package without importing it).
 */
#ifndef PT_PYFIND_H
#define PT_PYFIND_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The candidates, in order: /usr/bin/python3, /usr/local/bin/python3, then
 * python3 in each directory of path (a PATH value; NULL: none; empty
 * entries, the current directory to a shell, are not tried), at most PT_PYFIND_MAX names. Only
 * regular files this process may execute, each file once (the first name of
 * it, by realpath), and none that is the file skip names (NULL: no skip).
 * Returns the count; *out is an array of new strings (pt_pyfind_free).
 */
#define PT_PYFIND_MAX 64
size_t pt_pyfind_candidates(const char *path, const char *skip, char ***out);
void pt_pyfind_free(char **v, size_t n);

/* A regular file this process may execute. */
bool pt_pyfind_executable(const char *p);

/* a and b are the same file (after realpath). */
bool pt_pyfind_same_file(const char *a, const char *b);

#endif
