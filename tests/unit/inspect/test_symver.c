/* symver: Verneed/Verdef records from bytes, every size field distrusted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "elfobj.h"
#include "symver.h"

static const char strtab[] = "\0libstdc++.so.6\0GLIBCXX_3.4.30\0CXXABI_1.3\0libc.so.6\0GLIBC_2.34";
/* offsets:                   1                16               31          42          52 */

static void put16(uint8_t *p, uint16_t v) { p[0] = v & 0xff; p[1] = v >> 8; }
static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = v >> (8 * i); }

/* Verneed for libstdc++ (2 aux) then libc (1 aux), little-endian. */
static size_t make_verneed(uint8_t *b)
{
	memset(b, 0, 96);
	put16(b + 0, 1); put16(b + 2, 2); put32(b + 4, 1); put32(b + 8, 16); put32(b + 12, 48);
	put32(b + 16 + 8, 16); put32(b + 16 + 12, 16);			/* GLIBCXX_3.4.30 */
	put16(b + 32 + 4, 0x2); put32(b + 32 + 8, 31);			/* CXXABI_1.3, weak */
	put16(b + 48, 1); put16(b + 50, 1); put32(b + 52, 42); put32(b + 56, 16);
	put32(b + 64 + 8, 52);						/* GLIBC_2.34 */
	return 80;
}

static void verneed_two_files(void **state)
{
	uint8_t b[96];
	size_t len = make_verneed(b), n;
	struct elf_verneed *v;
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(symver_parse_verneed(b, len, 2, false, strtab, sizeof(strtab), &v, &n, "f", &d), 2);
	assert_int_equal(d.n, 0);
	assert_string_equal(v[0].file, "libstdc++.so.6");
	assert_int_equal(v[0].n, 2);
	assert_string_equal(v[0].v[0].name, "GLIBCXX_3.4.30");
	assert_false(v[0].v[0].weak);
	assert_true(v[0].v[1].weak);
	assert_string_equal(v[1].v[0].name, "GLIBC_2.34");
	symver_free_verneed(v, n);
	pt_diag_release(&d);
}

/* Every truncation of the records warns and keeps what came before. */
static void verneed_truncated_everywhere(void **state)
{
	uint8_t b[96];
	size_t len = make_verneed(b);

	(void)state;
	for (size_t cut = 0; cut < len; cut++) {
		struct elf_verneed *v;
		size_t n;
		struct pt_diag d;
		uint8_t *copy = malloc(cut ? cut : 1);	/* exact size: ASan sees any overread */

		memcpy(copy, b, cut);
		pt_diag_init(&d);
		symver_parse_verneed(copy, cut, 2, false, strtab, sizeof(strtab), &v, &n, "f", &d);
		assert_true(d.n >= 1);
		assert_true(n <= 2);
		symver_free_verneed(v, n);
		pt_diag_release(&d);
		free(copy);
	}
}

/* A name offset past the string table, and a vn_next that loops back. */
static void verneed_bad_offsets(void **state)
{
	uint8_t b[96];
	size_t len = make_verneed(b), n;
	struct elf_verneed *v;
	struct pt_diag d;

	(void)state;
	put32(b + 16 + 8, 9999);
	pt_diag_init(&d);
	symver_parse_verneed(b, len, 2, false, strtab, sizeof(strtab), &v, &n, "f", &d);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].what, "outside the string table"));
	symver_free_verneed(v, n);
	pt_diag_release(&d);

	make_verneed(b);
	put32(b + 48 + 12, (uint32_t)-48);	/* back to the first record */
	pt_diag_init(&d);
	/* count bounds the walk even when vn_next cycles. */
	symver_parse_verneed(b, len, 5, false, strtab, sizeof(strtab), &v, &n, "f", &d);
	assert_true(n <= 5);
	symver_free_verneed(v, n);
	pt_diag_release(&d);
}

static void verdef_skips_base(void **state)
{
	uint8_t b[64] = { 0 };
	char **v;
	size_t n;
	struct pt_diag d;

	(void)state;
	/* base entry (libstdc++.so.6) then GLIBCXX_3.4.30 */
	put16(b, 1); put16(b + 2, 1); put32(b + 12, 20); put32(b + 16, 28);
	put32(b + 20, 1);
	put16(b + 28, 1); put32(b + 28 + 12, 20);
	put32(b + 48, 16);
	pt_diag_init(&d);
	assert_int_equal(symver_parse_verdef(b, 56, 2, false, strtab, sizeof(strtab), &v, &n, "f", &d), 2);
	assert_int_equal(n, 1);
	assert_string_equal(v[0], "GLIBCXX_3.4.30");
	free(v[0]);
	free(v);
	pt_diag_release(&d);
}

/* The check: required, not weak, not defined -> missing. */
static void missing_versions(void **state)
{
	uint8_t b[96];
	size_t len = make_verneed(b);
	struct elfobj user = { 0 }, prov = { 0 };
	struct pt_diag d;
	char *defs[] = { "GLIBCXX_3.4.29" };
	bool nov;
	char **miss;

	(void)state;
	pt_diag_init(&d);
	symver_parse_verneed(b, len, 2, false, strtab, sizeof(strtab), &user.verneed, &user.n_verneed, "f", &d);
	prov.has_verdef = true;
	prov.verdef = defs;
	prov.n_verdef = 1;
	miss = symver_missing(user.verneed, user.n_verneed, "libstdc++.so.6", prov.has_verdef, prov.verdef,
			      prov.n_verdef, &nov);
	assert_non_null(miss);
	assert_string_equal(miss[0], "GLIBCXX_3.4.30");
	assert_null(miss[1]);	/* CXXABI_1.3 is weak */
	assert_false(nov);
	free(miss[0]);
	free(miss);
	prov.has_verdef = false;
	assert_null(symver_missing(user.verneed, user.n_verneed, "libstdc++.so.6", prov.has_verdef,
				   prov.verdef, prov.n_verdef, &nov));
	assert_true(nov);
	symver_free_verneed(user.verneed, user.n_verneed);
	pt_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(verneed_two_files),
		cmocka_unit_test(verneed_truncated_everywhere),
		cmocka_unit_test(verneed_bad_offsets),
		cmocka_unit_test(verdef_skips_base),
		cmocka_unit_test(missing_versions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
