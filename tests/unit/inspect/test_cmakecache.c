/*
 * cmakecache: the real CMakeCache.txt of the torch 2.6 build tree
 * (tests/fixtures/buildtree/CMakeCache.txt) and the format's corners: help
 * comments, quoted keys, untyped entries, quoted values, CRLF, repeated keys,
 * malformed lines, garbage, NUL bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmakecache.h"

#define P(s) (const uint8_t *)(s), strlen(s)

static void entries_and_help(void **state)
{
	struct cmakecache c;
	struct pt_diag d;
	const struct cmakecache_entry *e;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(cmakecache_parse(P("# This is the CMakeCache file.\n\n"
					    "//Build type\n//second line\nCMAKE_BUILD_TYPE:STRING=Debug\n"
					    "USE_CUDA:BOOL=0\n"
					    "CMAKE_GENERATOR:INTERNAL=Ninja\n"), &c, "c", &d), 0);
	assert_int_equal(c.n, 3);
	assert_int_equal(d.n, 0);
	e = cmakecache_get(&c, "CMAKE_BUILD_TYPE");
	assert_non_null(e);
	assert_string_equal(e->type, "STRING");
	assert_string_equal(e->value, "Debug");
	assert_string_equal(e->help, "Build type second line");
	assert_int_equal(e->line, 5);
	assert_int_equal(cmakecache_bool(&c, "USE_CUDA"), 0);
	assert_int_equal(cmakecache_bool(&c, "USE_ROCM"), -1);
	assert_null(cmakecache_get(&c, "USE_CUDA")->help);
	assert_string_equal(cmakecache_value(&c, "CMAKE_GENERATOR"), "Ninja");
	cmakecache_release(&c);
	pt_diag_release(&d);
}

static void corners(void **state)
{
	struct cmakecache c;
	struct pt_diag d;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(cmakecache_parse(P("\"KEY:WITH:COLONS\":STRING=a=b\r\n"
					    "UNTYPED=x\n"
					    "QUOTED:STRING='  spaced  '\n"
					    "  INDENTED:PATH=/p  \n"
					    "EMPTY:STRING=\n"
					    "REPEAT:STRING=first\n"
					    "REPEAT:STRING=second\n"
					    "no equals sign here\n"
					    ":STRING=nokey\n"
					    "BAD:lower=x\n"
					    "LAST:BOOL=ON"), &c, "c", &d), 0);
	assert_string_equal(cmakecache_value(&c, "KEY:WITH:COLONS"), "a=b");
	assert_string_equal(cmakecache_get(&c, "UNTYPED")->type, "");
	assert_string_equal(cmakecache_value(&c, "QUOTED"), "  spaced  ");
	assert_string_equal(cmakecache_value(&c, "INDENTED"), "/p");
	assert_string_equal(cmakecache_value(&c, "EMPTY"), "");
	assert_string_equal(cmakecache_value(&c, "REPEAT"), "second");
	assert_int_equal(cmakecache_get(&c, "REPEAT")->line, 7);
	assert_int_equal(cmakecache_bool(&c, "LAST"), 1);
	assert_int_equal(c.n_bad, 3);
	assert_int_equal(pt_diag_count(&d, PT_SEV_WARNING), 3);
	assert_string_equal(d.v[0].where, "line 8");
	cmakecache_release(&c);
	pt_diag_release(&d);
}

static void truth(void **state)
{
	(void)state;
	assert_int_equal(cmake_is_true("ON"), 1);
	assert_int_equal(cmake_is_true("1"), 1);
	assert_int_equal(cmake_is_true("True"), 1);
	assert_int_equal(cmake_is_true("2"), 1);
	assert_int_equal(cmake_is_true("0"), 0);
	assert_int_equal(cmake_is_true("off"), 0);
	assert_int_equal(cmake_is_true(""), 0);
	assert_int_equal(cmake_is_true("CUDNN_LIBRARY-NOTFOUND"), 0);
	assert_int_equal(cmake_is_true("NOTFOUND"), 0);
	assert_int_equal(cmake_is_true("IGNORE"), 0);
}

static void garbage_and_nul(void **state)
{
	struct cmakecache c;
	struct pt_diag d;
	static const uint8_t nul[] = "A:STRING=x\0y\nB:STRING=z\n";
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(cmakecache_parse(P("just some\ntext\n"), &c, "g", &d), -1);
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 1);
	pt_diag_release(&d);
	pt_diag_init(&d);
	assert_int_equal(cmakecache_parse(nul, sizeof(nul) - 1, &c, "n", &d), 0);
	assert_null(cmakecache_get(&c, "A"));
	assert_string_equal(cmakecache_value(&c, "B"), "z");
	cmakecache_release(&c);
	pt_diag_release(&d);
	/* Empty input: no entries, no error. */
	pt_diag_init(&d);
	assert_int_equal(cmakecache_parse((const uint8_t *)"", 0, &c, "e", &d), 0);
	assert_int_equal(c.n, 0);
	assert_null(cmakecache_get(&c, "X"));
	pt_diag_release(&d);
}

static void real_cache(void **state)
{
	char path[4096];
	const char *src = getenv("PT_SRC");
	struct cmakecache c;
	struct pt_diag d;
	FILE *f;
	char *buf;
	long n;
	(void)state;

	snprintf(path, sizeof(path), "%s/tests/fixtures/buildtree/CMakeCache.txt", src ? src : ".");
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	pt_diag_init(&d);
	assert_int_equal(cmakecache_parse((uint8_t *)buf, (size_t)n, &c, path, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(c.n, 478);
	assert_string_equal(cmakecache_value(&c, "CMAKE_BUILD_TYPE"), "Debug");
	assert_string_equal(cmakecache_value(&c, "CMAKE_GENERATOR"), "Ninja");
	assert_int_equal(cmakecache_bool(&c, "USE_CUDA"), 0);
	assert_int_equal(cmakecache_bool(&c, "USE_NUMPY"), 1);
	assert_string_equal(cmakecache_value(&c, "CMAKE_HOME_DIRECTORY"), "/build/pytorch");
	assert_string_equal(cmakecache_value(&c, "BLAS"), "Generic");
	cmakecache_release(&c);
	pt_diag_release(&d);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(entries_and_help),
		cmocka_unit_test(corners),
		cmocka_unit_test(truth),
		cmocka_unit_test(garbage_and_nul),
		cmocka_unit_test(real_cache),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
