/*
 * common/pyfind: the interpreters both tools try when python3 first on PATH
 * has no torch: the fixed places first, then PATH in order; only executable
 * regular files; each file once under its first name; the skipped one (and
 * its other names) left out; empty PATH entries not tried.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pyfind.h"

static char root[] = "/tmp/pt-pyfind-XXXXXX";

static void mk(const char *rel, int mode)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_non_null(f = fopen(p, "w"));
	fputs("#!/bin/sh\n", f);
	fclose(f);
	assert_int_equal(chmod(p, (mode_t)mode), 0);
}

/* The candidates below root (the fixed places of this machine are left out of the comparison). */
static char *mine(char **v, size_t n)
{
	static char out[1024];
	size_t k = strlen(root);

	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		if (!strncmp(v[i], root, k)) {
			strcat(out, v[i] + k);
			strcat(out, " ");
		}
	return out;
}

static void order_and_dedup(void **state)
{
	char path[1024], skip[256], a[256], **v;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(root));
	for (const char *d = "a\0b\0c\0d\0e\0"; *d; d += 2) {
		char p[256];

		snprintf(p, sizeof(p), "%s/%s", root, d);
		assert_int_equal(mkdir(p, 0755), 0);
	}
	mk("a/python3", 0755);
	mk("b/python3", 0644);			/* not executable */
	snprintf(a, sizeof(a), "%s/a/python3", root);
	snprintf(path, sizeof(path), "%s/c/python3", root);
	assert_int_equal(symlink(a, path), 0);	/* a's file again */
	mk("d/python3", 0755);
	snprintf(path, sizeof(path), "%s/e/python3", root);
	assert_int_equal(mkdir(path, 0755), 0);	/* a directory */
	snprintf(path, sizeof(path), "%s/d::%s/a:%s/b:%s/c:%s/e:", root, root, root, root, root);
	n = pt_pyfind_candidates(path, NULL, &v);
	assert_string_equal(mine(v, n), "/d/python3 /a/python3 ");
	/* PATH's come after the fixed places (which this machine may or may not have). */
	assert_true(n >= 2);
	assert_non_null(strstr(v[n - 2], root));
	pt_pyfind_free(v, n);
	/* The skipped file under any of its names. */
	snprintf(skip, sizeof(skip), "%s/c/python3", root);
	n = pt_pyfind_candidates(path, skip, &v);
	assert_string_equal(mine(v, n), "/d/python3 ");
	pt_pyfind_free(v, n);
	n = pt_pyfind_candidates(NULL, NULL, &v);
	assert_string_equal(mine(v, n), "");
	pt_pyfind_free(v, n);
	assert_true(pt_pyfind_same_file(a, skip));
	assert_false(pt_pyfind_executable(root));
	assert_int_equal(system((snprintf(path, sizeof(path), "rm -rf %s", root), path)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(order_and_dedup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
