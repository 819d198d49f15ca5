/*
 * rpathlint: each finding on an object described by hand (its RPATH,
 * RUNPATH and NEEDED, as elfobj would read them) against a package-like
 * file system given by callbacks: what a package reader passes for a member.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "rpathlint.h"

/* The files of a pretend installation: "dir/name" entries; a directory exists when a file is in it. */
static const char *const files[] = {
	"/site/pkg/lib/libdep.so",
	"/home/me/pytorch/build/lib/libc10.so",
	"/home/me/pytorch/build/lib/libdep.so",
	"/opt/llp/libdep.so",
	"/usr/lib/x86_64-linux-gnu/libc.so.6",
	NULL,
};

static int dir_exists(void *ctx, const char *dir)
{
	size_t l = strlen(dir);

	(void)ctx;
	for (size_t i = 0; files[i]; i++)
		if (!strncmp(files[i], dir, l) && files[i][l] == '/')
			return 1;
	return 0;
}

static int has_file(void *ctx, const char *dir, const char *name)
{
	size_t l = strlen(dir);

	(void)ctx;
	for (size_t i = 0; files[i]; i++)
		if (!strncmp(files[i], dir, l) && files[i][l] == '/' && !strcmp(files[i] + l + 1, name))
			return 1;
	return 0;
}

static const struct rpathlint_fs fs = { dir_exists, has_file, NULL };

static char *sysdirs[] = { "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib" };

static void lint(const char *rpath, const char *runpath, char **needed, size_t n_needed,
		 const char *llp, struct rpathlint_result *r)
{
	struct elfobj o = { 0 };
	struct ldpath_env env = { 0 };
	struct pt_diag d;
	struct rpathlint_input in = { .o = &o, .origin = "/site/pkg", .env = &env, .fs = &fs };

	env.root = "";
	env.lib = "lib/x86_64-linux-gnu";
	env.platform = "x86_64";
	env.cwd = "/work";
	env.system_dirs = sysdirs;
	env.n_system_dirs = 4;
	env.ld_library_path = llp;
	o.rpath = (char *)rpath;
	o.runpath = (char *)runpath;
	o.needed = needed;
	o.n_needed = n_needed;
	pt_diag_init(&d);
	assert_int_equal(rpathlint_check(&in, r, &d), 0);
	assert_int_equal(d.n, 0);
	pt_diag_release(&d);
}

static const struct rpathlint_finding *find(const struct rpathlint_result *r, enum rpathlint_kind k)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].kind == k)
			return &r->v[i];
	return NULL;
}

/* $ORIGIN/lib where the package has lib/: nothing to say. */
static void test_origin_fine(void **state)
{
	char *needed[] = { "libdep.so", "libc.so.6" };
	struct rpathlint_result r;

	(void)state;
	lint(NULL, "$ORIGIN/lib", needed, 2, NULL, &r);
	assert_int_equal(r.n, 0);
	assert_int_equal(r.n_problems, 0);
	rpathlint_release(&r);
	lint(NULL, NULL, needed, 2, NULL, &r);
	assert_int_equal(r.n, 0);
	rpathlint_release(&r);
}

/* The classic: the build tree's lib in RUNPATH, the NEEDED found only there. */
static void test_build_dir_no_origin(void **state)
{
	char *needed[] = { "libc10.so", "libc.so.6" };
	struct rpathlint_result r;
	const struct rpathlint_finding *f;

	(void)state;
	lint(NULL, "/home/me/pytorch/build/lib:$ORIGIN/lib", needed, 2, NULL, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.n_problems, 2);
	f = find(&r, RPATHLINT_BUILD_DIR);
	assert_non_null(f);
	assert_true(f->runpath);
	assert_string_equal(f->entry, "/home/me/pytorch/build/lib");
	f = find(&r, RPATHLINT_NO_ORIGIN);
	assert_non_null(f);
	assert_string_equal(f->needed, "libc10.so");
	assert_string_equal(f->other, "$ORIGIN/../../home/me/pytorch/build/lib");
	assert_null(find(&r, RPATHLINT_MISSING));
	rpathlint_release(&r);
}

/* A NEEDED the package also has under $ORIGIN is fine even beside an absolute entry. */
static void test_absolute_but_bundled(void **state)
{
	char *needed[] = { "libdep.so" };
	struct rpathlint_result r;

	(void)state;
	lint("/home/me/pytorch/build/lib:$ORIGIN/lib", NULL, needed, 1, NULL, &r);
	assert_non_null(find(&r, RPATHLINT_BUILD_DIR));
	assert_false(find(&r, RPATHLINT_BUILD_DIR)->runpath);
	assert_null(find(&r, RPATHLINT_NO_ORIGIN));
	rpathlint_release(&r);
}

static void test_missing_relative_empty_system(void **state)
{
	struct rpathlint_result r;
	const struct rpathlint_finding *f;

	(void)state;
	lint("/opt/gone/lib:lib::/usr/lib/x86_64-linux-gnu/", NULL, NULL, 0, NULL, &r);
	f = find(&r, RPATHLINT_ABSOLUTE);
	assert_non_null(f);
	assert_string_equal(f->dir, "/opt/gone/lib");
	f = find(&r, RPATHLINT_MISSING);
	assert_non_null(f);
	assert_string_equal(f->dir, "/opt/gone/lib");
	f = find(&r, RPATHLINT_RELATIVE);
	assert_non_null(f);
	assert_string_equal(f->entry, "lib");
	assert_non_null(find(&r, RPATHLINT_EMPTY));
	f = find(&r, RPATHLINT_SYSTEM);
	assert_non_null(f);
	assert_int_equal(f->sev, PT_SEV_NOTE);
	assert_string_equal(f->dir, "/usr/lib/x86_64-linux-gnu");
	assert_int_equal(r.n_problems, 4);
	rpathlint_release(&r);
	/* $ORIGIN into a directory the package lacks */
	lint(NULL, "$ORIGIN/../nolib", NULL, 0, NULL, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].kind, RPATHLINT_MISSING);
	assert_string_equal(r.v[0].dir, "/site/nolib");
	rpathlint_release(&r);
}

static void test_rpath_ignored_llp_first(void **state)
{
	char *needed[] = { "libdep.so" };
	struct rpathlint_result r;
	const struct rpathlint_finding *f;

	(void)state;
	lint("$ORIGIN/lib", "$ORIGIN/lib", needed, 1, NULL, &r);
	f = find(&r, RPATHLINT_RPATH_IGNORED);
	assert_non_null(f);
	assert_int_equal(f->sev, PT_SEV_NOTE);	/* the same list: harmless */
	rpathlint_release(&r);
	lint("/opt/llp", "$ORIGIN/lib", needed, 1, "/opt/llp", &r);
	f = find(&r, RPATHLINT_RPATH_IGNORED);
	assert_non_null(f);
	assert_int_equal(f->sev, PT_SEV_WARNING);
	f = find(&r, RPATHLINT_LLP_FIRST);
	assert_non_null(f);
	assert_string_equal(f->needed, "libdep.so");
	assert_string_equal(f->other, "/opt/llp");
	assert_string_equal(f->dir, "/site/pkg/lib");
	rpathlint_release(&r);
}

static void test_build_dir_names(void **state)
{
	(void)state;
	assert_true(rpathlint_is_build_dir("/home/me/x/lib"));
	assert_true(rpathlint_is_build_dir("/tmp/pip-req-build-1/lib"));
	assert_true(rpathlint_is_build_dir("/src/pytorch/build/lib"));
	assert_true(rpathlint_is_build_dir("/src/x/CMakeFiles/y"));
	assert_true(rpathlint_is_build_dir("/src/x/cmake-build-release"));
	assert_false(rpathlint_is_build_dir("/usr/local/cuda/lib64"));
	assert_false(rpathlint_is_build_dir("/opt/builder/lib"));
	assert_false(rpathlint_is_build_dir("/opt/conda/lib"));
}

static void test_origin_spelling(void **state)
{
	char *s;

	(void)state;
	s = rpathlint_origin_spelling("/a/b/torch/lib", "/a/b/torch/lib");
	assert_string_equal(s, "$ORIGIN");
	free(s);
	s = rpathlint_origin_spelling("/a/b/torch", "/a/b/torch/lib");
	assert_string_equal(s, "$ORIGIN/lib");
	free(s);
	s = rpathlint_origin_spelling("/a/b/torch/lib", "/a/b/nvidia/cudnn/lib/");
	assert_string_equal(s, "$ORIGIN/../../nvidia/cudnn/lib");
	free(s);
	s = rpathlint_origin_spelling("/a/./b/../c", "/a/d");
	assert_string_equal(s, "$ORIGIN/../d");
	free(s);
	assert_string_equal(rpathlint_kind_name(RPATHLINT_NOT_INHERITED), "runpath_not_inherited");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_origin_fine),
		cmocka_unit_test(test_build_dir_no_origin),
		cmocka_unit_test(test_absolute_but_bundled),
		cmocka_unit_test(test_missing_relative_empty_system),
		cmocka_unit_test(test_rpath_ignored_llp_first),
		cmocka_unit_test(test_build_dir_names),
		cmocka_unit_test(test_origin_spelling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
