/* The interpreters both tools try; see pyfind.h. */
#include "pyfind.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

bool pt_pyfind_executable(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

bool pt_pyfind_same_file(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

size_t pt_pyfind_candidates(const char *path, const char *skip, char ***out)
{
	char *names[PT_PYFIND_MAX];
	size_t nn = 0, n = 0, alloc = 0;

	*out = NULL;
	names[nn++] = pt_xstrdup("/usr/bin/python3");
	names[nn++] = pt_xstrdup("/usr/local/bin/python3");
	if (path) {
		char *copy = pt_xstrdup(path), *save = NULL;

		/* Empty entries (the current directory for a shell) are not tried. */
		for (char *d = strtok_r(copy, ":", &save); d && nn < PT_PYFIND_MAX; d = strtok_r(NULL, ":", &save))
			names[nn++] = pt_xasprintf("%s/python3", d);
		free(copy);
	}
	for (size_t i = 0; i < nn; i++) {
		bool dup = !pt_pyfind_executable(names[i]) || (skip && pt_pyfind_same_file(names[i], skip));

		/* Each file once, under the first name it has in the list. */
		for (size_t k = 0; k < i && !dup; k++)
			dup = pt_pyfind_executable(names[k]) && pt_pyfind_same_file(names[k], names[i]);
		if (dup)
			continue;
		PT_GROW(*out, n, alloc);
		(*out)[n++] = pt_xstrdup(names[i]);
	}
	for (size_t i = 0; i < nn; i++)
		free(names[i]);
	return n;
}

void pt_pyfind_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
