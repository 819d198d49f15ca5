/* ldpath: dynamic string tokens and path lists (elf-loader.md §4, §8). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldpath.h"
#include "ptest.h"

static struct ldpath_env env = {
	.root = "", .cwd = "/work", .lib = "lib/x86_64-linux-gnu", .platform = "x86_64",
};

static void expect_expand(const char *in, const char *origin, const char *want, bool secure)
{
	char *out;

	env.secure = secure;
	out = ldpath_expand(in, origin, &env, true);
	if (!want) {
		assert_null(out);
	} else {
		assert_non_null(out);
		assert_string_equal(out, want);
	}
	free(out);
	env.secure = false;
}

static void tokens(void **state)
{
	(void)state;
	expect_expand("$ORIGIN/../lib", "/opt/t/bin", "/opt/t/bin/../lib", false);
	expect_expand("${ORIGIN}/x", "/o", "/o/x", false);
	/* Debian's $LIB is the multiarch directory, not "lib" or "lib64". */
	expect_expand("/usr/$LIB", "/o", "/usr/lib/x86_64-linux-gnu", false);
	expect_expand("/p/$PLATFORM/${PLATFORM}", "/o", "/p/x86_64/x86_64", false);
	/* Tokens glibc does not know stay literal; so does a lone '$'. */
	expect_expand("/a/$OSNAME/$FOO/$", "/o", "/a/$OSNAME/$FOO/$", false);
	expect_expand("$ORIGINAL", "/o", "$ORIGINAL", false);
	/* A recognised token without a value drops the element. */
	expect_expand("$ORIGIN/lib", NULL, NULL, false);
	/* Secure mode: $ORIGIN only at the start of an element. */
	expect_expand("$ORIGIN/lib", "/o", "/o/lib", true);
	expect_expand("/x/$ORIGIN", "/o", NULL, true);
}

static void split(void **state)
{
	char **v;
	size_t n;

	(void)state;
	n = ldpath_split("/a/:/b//::rel:$ORIGIN/c", false, "/o", &env, &v);
	assert_int_equal(n, 5);
	assert_string_equal(v[0], "/a");		/* trailing slash removed */
	assert_string_equal(v[1], "/b");
	assert_string_equal(v[2], "/work");		/* empty element: the cwd */
	assert_string_equal(v[3], "/work/rel");		/* relative to the cwd */
	assert_string_equal(v[4], "/o/c");
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	/* LD_LIBRARY_PATH also splits on ';'; RPATH does not. */
	n = ldpath_split("/x;/y", true, "/o", &env, &v);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	n = ldpath_split("/x;/y", false, "/o", &env, &v);
	assert_int_equal(n, 1);
	assert_string_equal(v[0], "/x;/y");
	free(v[0]);
	free(v);
	/* A dropped element vanishes from the list. */
	n = ldpath_split("$ORIGIN/a:/b", false, NULL, &env, &v);
	assert_int_equal(n, 1);
	assert_string_equal(v[0], "/b");
	free(v[0]);
	free(v);
}

static void in_root(void **state)
{
	struct ldpath_env r = env;
	char *p;

	(void)state;
	r.root = "/sys/root";
	p = ldpath_in_root(&r, "/etc/ld.so.cache");
	assert_string_equal(p, "/sys/root/etc/ld.so.cache");
	free(p);
	p = ldpath_in_root(&env, "/etc/ld.so.cache");
	assert_string_equal(p, "/etc/ld.so.cache");
	free(p);
}

/*
 * Links inside the root resolve inside it, as Debian's alternatives for the
 * NVIDIA driver need: lib/libcuda.so.1 -> /etc/alternatives/cuda ->
 * /usr/lib/nvidia/current/libcuda.so.1 -> libcuda.so.550 (relative).
 */
static void in_root_follows_links(void **state)
{
	static const char *const tree[] = {
		"d lib", "d etc/alternatives", "d usr/lib/nvidia/current",
		"f usr/lib/nvidia/current/libcuda.so.550",
		"l libcuda.so.550 usr/lib/nvidia/current/libcuda.so.1",
		"l /usr/lib/nvidia/current/libcuda.so.1 etc/alternatives/cuda",
		"l /etc/alternatives/cuda lib/libcuda.so.1",
		"l ../../../../.. usr/lib/nvidia/current/up", "l /lib usr/lib64",
		"l loop1 loop2", "l loop2 loop1", NULL,
	};
	char dir[PTEST_PATH_MAX], want[PTEST_PATH_MAX + 64];
	struct ldpath_env r = env;
	char *p;

	(void)state;
	assert_non_null(ptest_tmpdir(dir, "inroot"));
	assert_int_equal(ptest_tree(dir, tree), 0);
	r.root = dir;
	p = ldpath_in_root(&r, "/lib/libcuda.so.1");
	snprintf(want, sizeof(want), "%s/usr/lib/nvidia/current/libcuda.so.550", dir);
	assert_string_equal(p, want);
	free(p);
	/* A directory link on the way, then a file that does not exist: appended as is. */
	p = ldpath_in_root(&r, "/usr/lib64/libnone.so");
	snprintf(want, sizeof(want), "%s/lib/libnone.so", dir);
	assert_string_equal(p, want);
	free(p);
	/* ".." never leaves the root. */
	p = ldpath_in_root(&r, "/usr/lib/nvidia/current/up/etc");
	snprintf(want, sizeof(want), "%s/etc", dir);
	assert_string_equal(p, want);
	free(p);
	/* A loop ends after 40 links with a path inside the root. */
	p = ldpath_in_root(&r, "/loop1");
	assert_int_equal(strncmp(p, dir, strlen(dir)), 0);
	free(p);
	p = ldpath_in_root(&r, "/");
	snprintf(want, sizeof(want), "%s/", dir);
	assert_string_equal(p, want);
	free(p);
	assert_int_equal(ptest_rmtree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tokens),
		cmocka_unit_test(split),
		cmocka_unit_test(in_root),
		cmocka_unit_test(in_root_follows_links),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
