/* abiname: symbol names compared across the two libstdc++ ABIs (mangled and demangled corners). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "abiname.h"

/* The normalised demangled form of a mangled name. */
static char *norm_of(const char *mangled)
{
	char *d = abiname_demangle(mangled), *n;

	assert_non_null(d);
	n = abiname_normalise(d);
	free(d);
	return n;
}

/* Two mangled names are ABI twins: same normalised name, same index key, other ABI. */
static void assert_twins(const char *old, const char *cxx11)
{
	char *a = norm_of(old), *b = norm_of(cxx11);
	size_t so, sc, lo = abiname_key(old, &so), lc = abiname_key(cxx11, &sc);

	assert_string_equal(a, b);
	assert_int_equal(lo, lc);
	assert_memory_equal(old + so, cxx11 + sc, lo);
	assert_false(abiname_is_cxx11(old));
	assert_true(abiname_is_cxx11(cxx11));
	free(a);
	free(b);
}

static void string_parameter(void **state)
{
	char *n = norm_of("_Z1fRKSs");

	(void)state;
	assert_string_equal(n, "f(std::string const&)");
	free(n);
	assert_twins("_Z1fRKSs", "_Z1fRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE");
}

/* Back-references shift: S2_ in one is S5_ in the other; the demangled names agree. */
static void back_references_shift(void **state)
{
	(void)state;
	assert_twins("_ZN3c106detail14torchCheckFailEPKcS2_jRKSs",
		     "_ZN3c106detail14torchCheckFailEPKcS2_jRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE");
	assert_twins("_Z1hRKSsS0_",
		     "_Z1hRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES6_");
}

static void list_and_abi_tag(void **state)
{
	char *n;

	(void)state;
	assert_twins("_Z1gRKSt4listIiSaIiEE", "_Z1gRKNSt7__cxx114listIiSaIiEEE");
	/* Returning std::string: only the [abi:cxx11] tag differs. */
	assert_twins("_Z1kv", "_Z1kB5cxx11v");
	n = norm_of("_Z1kB5cxx11v");
	assert_string_equal(n, "k()");
	free(n);
}

/* Member functions of std::string itself: the nested name is the difference. */
static void string_members(void **state)
{
	(void)state;
	assert_twins("_ZNKSs4sizeEv", "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE4sizeEv");
	/* std::to_string: not nested in the old ABI, in std::__cxx11 in the new. */
	assert_twins("_ZSt9to_stringi", "_ZNSt7__cxx119to_stringEi");
}

/* A different parameter is no twin; a non-C++ name is not demangled. */
static void not_twins(void **state)
{
	char *a = norm_of("_Z1fRKSs"), *b = norm_of("_Z1fRKNSt7__cxx1112basic_stringIwSt11char_traitsIwESaIwEEE");
	size_t st;

	(void)state;
	assert_string_not_equal(a, b);
	free(a);
	free(b);
	assert_null(abiname_demangle("malloc"));

	assert_int_equal(abiname_key("malloc", &st), 6);
	assert_int_equal(abiname_key("_Z", &st), 0);
	/* A length past the end stops at the end. */
	assert_int_equal(abiname_key("_Z99ab", &st), 4);
	assert_int_equal(abiname_key("_ZN3c106detail14torchCheckFailEPKc", &st), 27);
	assert_int_equal(st, 3);
	a = abiname_normalise("");
	assert_string_equal(a, "");
	free(a);
	/* Already-short spellings and the C++11 '>>' spelling normalise alike. */
	a = abiname_normalise("f(std::basic_string<char, std::char_traits<char>, std::allocator<char>>)");
	assert_string_equal(a, "f(std::string)");
	free(a);
	a = abiname_normalise("std::__cxx11::std::__cxx11::");
	assert_string_equal(a, "std::std::");
	free(a);
}

static void torch_namespaces(void **state)
{
	(void)state;
	assert_true(abiname_torch_ns("c10::detail::torchCheckFail(char const*, char const*, unsigned int, long)"));
	assert_true(abiname_torch_ns("typeinfo for c10::TensorImpl"));
	assert_true(abiname_torch_ns("vtable for at::Tensor"));
	assert_true(abiname_torch_ns("torch::jit::load()"));
	assert_false(abiname_torch_ns("c10x::f()"));
	assert_false(abiname_torch_ns("std::string::size() const"));
	assert_false(abiname_torch_ns(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(string_parameter),
		cmocka_unit_test(back_references_shift),
		cmocka_unit_test(list_and_abi_tag),
		cmocka_unit_test(string_members),
		cmocka_unit_test(not_twins),
		cmocka_unit_test(torch_namespaces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
