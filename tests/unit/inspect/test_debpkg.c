/* debpkg: dpkg-query -S output, every line shape it prints, and a buffer's end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "debpkg.h"

static void search_output(void **state)
{
	static const char out[] =
		"gcc-12: /usr/lib/gcc/x86_64-linux-gnu/12/liblto_plugin.so\n"
		"diversion by dash from: /bin/sh\n"
		"libc6:amd64, libc6:i386: /usr/share/doc/libc6\n"
		"no separator here\n"
		"zlib1g:amd64: /lib/x86_64-linux-gnu/libz.so.1";
	struct debpkg_owner *v;
	size_t n;

	(void)state;
	n = debpkg_parse_search(out, sizeof(out) - 1, &v);
	assert_int_equal(n, 4);
	assert_string_equal(v[0].package, "gcc-12");
	assert_string_equal(v[0].path, "/usr/lib/gcc/x86_64-linux-gnu/12/liblto_plugin.so");
	assert_string_equal(v[1].package, "libc6:amd64");
	assert_string_equal(v[2].package, "libc6:i386");
	assert_string_equal(v[2].path, "/usr/share/doc/libc6");
	assert_string_equal(v[3].package, "zlib1g:amd64");
	assert_string_equal(v[3].path, "/lib/x86_64-linux-gnu/libz.so.1");
	debpkg_owners_free(v, n);
	for (size_t cut = 0; cut < sizeof(out) - 1; cut++) {
		n = debpkg_parse_search(out, cut, &v);
		assert_true(n <= 4);
		debpkg_owners_free(v, n);
	}
	assert_int_equal(debpkg_parse_search("", 0, &v), 0);
	assert_int_equal(debpkg_parse_search(": /x\n,: /y\n", 11, &v), 0);
}

/* The last line shorter than "diversion " with no NUL after the buffer (fuzz_debpkg's
 * finding: strncmp read past the end): exact-size heap copies, every length. */
static void short_last_line(void **state)
{
	static const char out[] = "a: /p\n, h8: /";
	struct debpkg_owner *v;

	(void)state;
	for (size_t len = 0; len <= sizeof(out) - 1; len++) {
		char *b = malloc(len ? len : 1);
		size_t n;

		memcpy(b, out, len);
		n = debpkg_parse_search(b, len, &v);
		assert_int_equal(n, (len >= 4) + (len == sizeof(out) - 1));
		debpkg_owners_free(v, n);
		free(b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(search_output),
		cmocka_unit_test(short_last_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
