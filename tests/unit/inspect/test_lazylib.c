/*
 * lazylib: a library opened on first use. A real one fills its slots and is
 * opened once; a missing library or entry point is a message naming it,
 * given again on every later call, never a crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <unistd.h>

#include "lazylib.h"

static __typeof__(getpid) *p_getpid;
static const struct pt_lazysym c_syms[] = { PT_LAZYSYM(getpid) };

static void opens_real_library(void **state)
{
	struct pt_lazylib c = PT_LAZYLIB("libc.so.6", c_syms);

	(void)state;
	assert_null(pt_lazylib_load(&c));
	assert_non_null(p_getpid);
	assert_int_equal(p_getpid(), getpid());
	assert_null(pt_lazylib_load(&c));
}

static void missing_library(void **state)
{
	static void *slot;
	const struct pt_lazysym syms[] = { { "f", &slot } };
	struct pt_lazylib l = PT_LAZYLIB("libpt-no-such-library.so.0", syms);
	const char *why = pt_lazylib_load(&l);

	(void)state;
	assert_non_null(why);
	assert_non_null(strstr(why, "cannot load libpt-no-such-library.so.0: "));
	assert_ptr_equal(pt_lazylib_load(&l), why);
}

static void missing_entry_point(void **state)
{
	static void *a, *b;
	const struct pt_lazysym syms[] = { { "getpid", &a }, { "pt_no_such_function", &b } };
	struct pt_lazylib l = PT_LAZYLIB("libc.so.6", syms);

	(void)state;
	assert_string_equal(pt_lazylib_load(&l), "cannot load libc.so.6: no pt_no_such_function in it");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(opens_real_library),
		cmocka_unit_test(missing_library),
		cmocka_unit_test(missing_entry_point),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
