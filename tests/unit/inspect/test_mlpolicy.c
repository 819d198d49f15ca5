/*
 * verfloor and mlpolicy: the floor of version records described by hand (as
 * elfobj reads DT_VERNEED), auditwheel's policy choice from the embedded
 * policy files, claims of platform tags, and damaged policy input.
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "mlpolicy.h"
#include "verfloor.h"

static void floor_of(struct elf_verneed *vn, size_t n, struct verfloor *f)
{
	struct elfobj o = { 0 };

	o.cls = ELFCLASS64;
	o.data = ELFDATA2LSB;
	o.machine = EM_X86_64;
	o.verneed = vn;
	o.n_verneed = n;
	verfloor_compute(&o, f);
}

static void test_cmp(void **state)
{
	(void)state;
	assert_true(verfloor_cmp("GLIBC_2.9", "GLIBC_2.17") < 0);
	assert_true(verfloor_cmp("GLIBC_2.17", "GLIBC_2.17.1") < 0);
	assert_int_equal(verfloor_cmp("GLIBCXX_3.4.30", "GLIBCXX_3.4.30"), 0);
	assert_true(verfloor_cmp("GLIBC_PRIVATE", "GLIBC_2.36") > 0);
	assert_true(verfloor_cmp("CXXABI_1.3.13", "CXXABI_1.3.9") > 0);
	assert_string_equal(verfloor_arch_name(EM_AARCH64, ELFCLASS64, ELFDATA2LSB), "aarch64");
	assert_string_equal(verfloor_arch_name(EM_PPC64, ELFCLASS64, ELFDATA2LSB), "ppc64le");
	assert_null(verfloor_arch_name(EM_X86_64, ELFCLASS32, ELFDATA2LSB));
}

static void test_floor(void **state)
{
	struct elf_vername c[] = { { "GLIBC_2.2.5", false }, { "GLIBC_2.34", false }, { "GLIBC_2.17", false },
				   { "GLIBC_PRIVATE", false } };
	struct elf_vername cxx[] = { { "GLIBCXX_3.4.21", false }, { "CXXABI_1.3.9", false }, { "GLIBCXX_3.4", false } };
	struct elf_vername ld[] = { { "GLIBC_2.35", false } };
	struct elf_vername gcc[] = { { "GCC_3.0", false }, { "GCC_4.2.0", false } };
	struct elf_verneed vn[] = {
		{ "libc.so.6", c, 4 }, { "libstdc++.so.6", cxx, 3 }, { "ld-linux-x86-64.so.2", ld, 1 },
		{ "libgcc_s.so.1", gcc, 2 },
	};
	struct verfloor f;

	(void)state;
	floor_of(vn, 4, &f);
	assert_string_equal(f.max[VERFLOOR_GLIBC], "GLIBC_2.34");	/* ld-linux's 2.35 left out, PRIVATE too */
	assert_string_equal(f.max_file[VERFLOOR_GLIBC], "libc.so.6");
	assert_string_equal(f.max[VERFLOOR_GLIBCXX], "GLIBCXX_3.4.21");
	assert_string_equal(f.max[VERFLOOR_CXXABI], "CXXABI_1.3.9");
	assert_string_equal(f.max[VERFLOOR_GCC], "GCC_4.2.0");
	assert_int_equal(f.n_versions, 9);	/* 4 + 3 + 2: ld-linux's left out */
	assert_string_equal(f.arch, "x86_64");
	assert_false(f.musl);
	verfloor_release(&f);
}

static void test_implied(void **state)
{
	struct mlpolicy_set s;
	struct pt_diag d;
	const struct mlpolicy *p;
	const char *blocking;
	char *v1[] = { "GLIBC_2.17", "GLIBC_2.2.5" };
	char *v2[] = { "GCC_3.0", "GLIBCXX_3.4.21", "GLIBC_2.2.5" };
	char *v3[] = { "GLIBC_2.2.5", "GLIBC_PRIVATE" };
	char *v4[] = { "OPENSSL_3.0.0", "GLIBC_2.2.5" };

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(mlpolicy_load_builtin(&s, MLPOLICY_GLIBC, "x86_64", &d), 0);
	assert_int_equal(d.n, 0);
	assert_string_equal(s.v[0].name, "manylinux_2_5_x86_64");
	assert_string_equal(s.v[0].aliases[0], "manylinux1_x86_64");
	assert_string_equal(s.v[s.n - 1].name, "linux_x86_64");
	p = mlpolicy_implied(&s, v1, 2, &blocking);
	assert_string_equal(p->name, "manylinux_2_17_x86_64");
	assert_string_equal(blocking, "GLIBC_2.17");
	assert_int_equal(p->glibc_major, 2);
	assert_int_equal(p->glibc_minor, 17);
	p = mlpolicy_implied(&s, v2, 3, &blocking);
	assert_string_equal(p->name, "manylinux_2_24_x86_64");
	assert_string_equal(blocking, "GLIBCXX_3.4.21");
	p = mlpolicy_implied(&s, v3, 2, &blocking);
	assert_string_equal(p->name, "linux_x86_64");
	p = mlpolicy_implied(&s, v4, 2, &blocking);	/* a family no policy lists does not count */
	assert_string_equal(p->name, "manylinux_2_5_x86_64");
	assert_null(blocking);
	assert_ptr_equal(mlpolicy_find(&s, "manylinux2014_x86_64"), mlpolicy_find(&s, "manylinux_2_17_x86_64"));
	assert_true(mlpolicy_whitelisted(mlpolicy_find(&s, "manylinux_2_17_x86_64"), "libc.so.6"));
	assert_false(mlpolicy_whitelisted(mlpolicy_find(&s, "manylinux_2_17_x86_64"), "libcudart.so.12"));
	mlpolicy_release(&s);
	/* musl: no symbol versions; auditwheel's newest musllinux without a musl to ask. */
	assert_int_equal(mlpolicy_load_builtin(&s, MLPOLICY_MUSL, "aarch64", &d), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(mlpolicy_implied(&s, v1, 2, NULL)->name, "musllinux_1_2_aarch64");
	mlpolicy_release(&s);
	pt_diag_release(&d);
}

static void test_claims(void **state)
{
	struct mlpolicy_set s;
	struct pt_diag d;
	struct mlpolicy_claim *c;
	const struct mlpolicy *p;
	size_t n;

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(mlpolicy_load_builtin(&s, MLPOLICY_GLIBC, "x86_64", &d), 0);
	p = mlpolicy_find(&s, "manylinux_2_28_x86_64");
	n = mlpolicy_check_claim(&s, p, "manylinux_2_17_x86_64.manylinux2014_x86_64", &c);
	assert_int_equal(n, 2);
	assert_false(c[0].ok);
	assert_false(c[1].ok);
	assert_string_equal(c[1].tag, "manylinux2014_x86_64");
	mlpolicy_claims_release(c, n);
	n = mlpolicy_check_claim(&s, p, "manylinux_2_28_x86_64.manylinux_2_29_x86_64.linux_x86_64", &c);
	assert_int_equal(n, 3);
	assert_true(c[0].ok);
	assert_true(c[1].ok);	/* not in the file: compared by its glibc */
	assert_null(c[1].policy);
	assert_true(c[2].ok);
	mlpolicy_claims_release(c, n);
	n = mlpolicy_check_claim(&s, p, "manylinux_2_27_x86_64.manylinux_2_17_aarch64.win_amd64", &c);
	assert_int_equal(n, 3);
	assert_false(c[0].ok);
	assert_true(c[1].other_arch);
	assert_true(c[2].unknown);
	mlpolicy_claims_release(c, n);
	mlpolicy_release(&s);
	pt_diag_release(&d);
}

static void test_damaged(void **state)
{
	struct mlpolicy_set s;
	struct pt_diag d;
	static const char notjson[] = "[{\"name\": ";
	static const char noarch[] = "[{\"name\": \"manylinux_2_5\", \"priority\": 100, \"symbol_versions\": {\"i686\": {}}}]";
	static const char odd[] = "[1, {\"name\": 2}, {\"name\": \"manylinux_9_9\", \"aliases\": [3], \"priority\": \"x\","
				  " \"symbol_versions\": {\"x86_64\": {\"GLIBC\": [4, \"2.5\"], \"ZLIB\": 5}}, \"lib_whitelist\": {}}]";

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(mlpolicy_load(&s, MLPOLICY_GLIBC, "x86_64", notjson, sizeof(notjson) - 1, "t", &d), -1);
	assert_int_equal(d.n, 1);
	assert_int_equal(mlpolicy_load(&s, MLPOLICY_GLIBC, "x86_64", noarch, sizeof(noarch) - 1, "t", &d), -1);
	assert_int_equal(d.n, 2);
	assert_int_equal(mlpolicy_load(&s, MLPOLICY_GLIBC, "x86_64", odd, sizeof(odd) - 1, "t", &d), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.v[0].name, "manylinux_9_9_x86_64");
	mlpolicy_release(&s);
	pt_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmp),
		cmocka_unit_test(test_floor),
		cmocka_unit_test(test_implied),
		cmocka_unit_test(test_claims),
		cmocka_unit_test(test_damaged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
