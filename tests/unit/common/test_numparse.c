/* common/numparse: decimal numbers in bytes, every corner. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "numparse.h"

#define S(lit) (lit), (sizeof(lit) - 1)

static void empty_and_non_digit(void **state)
{
	uint64_t u = 77;
	int64_t i = 77;

	(void)state;
	assert_int_equal(pt_dec_u64(S(""), UINT64_MAX, &u), 0);
	assert_int_equal(pt_dec_u64(S("x1"), UINT64_MAX, &u), 0);
	assert_int_equal(pt_dec_u64(S(" 1"), UINT64_MAX, &u), 0);
	assert_int_equal(u, 77);	/* untouched */
	assert_int_equal(pt_dec_i64(S("-"), INT64_MIN, INT64_MAX, &i), 0);
	assert_int_equal(pt_dec_i64(S("-x"), INT64_MIN, INT64_MAX, &i), 0);
	assert_int_equal(i, 77);
	assert_int_equal(pt_dec_scan(S(""), UINT64_MAX, &u), 0);
	assert_int_equal(u, 0);
	assert_int_equal(pt_dec_u64_all(S(""), UINT64_MAX, &u), -1);
	/* A length of 0 reads nothing, even with digits behind it. */
	assert_int_equal(pt_dec_u64("12", 0, UINT64_MAX, &u), 0);
}

static void stops_at_non_digit_and_length(void **state)
{
	uint64_t u;

	(void)state;
	assert_int_equal(pt_dec_u64(S("123abc"), UINT64_MAX, &u), 3);
	assert_int_equal(u, 123);
	assert_int_equal(pt_dec_u64("123456", 4, UINT64_MAX, &u), 4);
	assert_int_equal(u, 1234);
	assert_int_equal(pt_dec_u64(S("9:"), UINT64_MAX, &u), 1);
	assert_int_equal(u, 9);
	/* '/' and ':' border the digits in ASCII. */
	assert_int_equal(pt_dec_u64(S("/"), UINT64_MAX, &u), 0);
	assert_int_equal(pt_dec_u64(S("5/"), UINT64_MAX, &u), 1);
	assert_int_equal(pt_dec_u64_all(S("12a"), UINT64_MAX, &u), -1);
	assert_int_equal(pt_dec_u64_all(S("120"), UINT64_MAX, &u), 0);
	assert_int_equal(u, 120);
}

static void leading_zeros(void **state)
{
	uint64_t u;

	(void)state;
	assert_int_equal(pt_dec_u64(S("007"), UINT64_MAX, &u), 3);
	assert_int_equal(u, 7);
	assert_int_equal(pt_dec_u64(S("0"), UINT64_MAX, &u), 1);
	assert_int_equal(u, 0);
	/* Zeros never overflow, however many. */
	assert_int_equal(pt_dec_u64(S("000000000000000000000000000001"), 1, &u), 30);
	assert_int_equal(u, 1);
}

static void overflow(void **state)
{
	uint64_t u = 5;

	(void)state;
	assert_int_equal(pt_dec_u64(S("18446744073709551615"), UINT64_MAX, &u), 20);
	assert_true(u == UINT64_MAX);
	u = 5;
	assert_int_equal(pt_dec_u64(S("18446744073709551616"), UINT64_MAX, &u), -1);
	assert_int_equal(u, 5);
	assert_int_equal(pt_dec_u64(S("99999999999999999999"), UINT64_MAX, &u), -1);
	assert_int_equal(pt_dec_u64(S("256"), 255, &u), -1);
	assert_int_equal(pt_dec_u64(S("255"), 255, &u), 3);
	assert_int_equal(pt_dec_u64(S("7"), 5, &u), -1);
	assert_int_equal(pt_dec_u64(S("0"), 0, &u), 1);
	/* The scan leaves the digit that would pass max unread. */
	assert_int_equal(pt_dec_scan(S("18446744073709551616"), UINT64_MAX, &u), 19);
	assert_true(u == 1844674407370955161ull);
	assert_int_equal(pt_dec_scan(S("1234567"), 999999, &u), 6);
	assert_int_equal(u, 123456);
	assert_int_equal(pt_dec_scan(S("7"), 5, &u), 0);
	assert_int_equal(u, 0);
}

static void sign(void **state)
{
	int64_t i = 0;

	(void)state;
	assert_int_equal(pt_dec_i64(S("-42x"), INT64_MIN, INT64_MAX, &i), 3);
	assert_int_equal(i, -42);
	assert_int_equal(pt_dec_i64(S("42"), INT64_MIN, INT64_MAX, &i), 2);
	assert_int_equal(i, 42);
	assert_int_equal(pt_dec_i64(S("-0"), INT64_MIN, INT64_MAX, &i), 2);
	assert_int_equal(i, 0);
	assert_int_equal(pt_dec_i64(S("+1"), INT64_MIN, INT64_MAX, &i), 0);
	assert_int_equal(pt_dec_i64(S("--1"), INT64_MIN, INT64_MAX, &i), 0);
	assert_int_equal(pt_dec_i64(S("-9223372036854775808"), INT64_MIN, INT64_MAX, &i), 20);
	assert_true(i == INT64_MIN);
	assert_int_equal(pt_dec_i64(S("-9223372036854775809"), INT64_MIN, INT64_MAX, &i), -1);
	assert_int_equal(pt_dec_i64(S("9223372036854775807"), INT64_MIN, INT64_MAX, &i), 19);
	assert_true(i == INT64_MAX);
	assert_int_equal(pt_dec_i64(S("9223372036854775808"), INT64_MIN, INT64_MAX, &i), -1);
	/* The caller's range. */
	assert_int_equal(pt_dec_i64(S("-1"), 0, 10, &i), -1);
	assert_int_equal(pt_dec_i64(S("11"), 0, 10, &i), -1);
	assert_int_equal(pt_dec_i64(S("-9223372036854775808"), -5, 5, &i), -1);
	assert_int_equal(pt_dec_i64_all(S("-3"), -5, 5, &i), 0);
	assert_int_equal(i, -3);
	assert_int_equal(pt_dec_i64_all(S("-3 "), -5, 5, &i), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_and_non_digit),
		cmocka_unit_test(stops_at_non_digit_and_length),
		cmocka_unit_test(leading_zeros),
		cmocka_unit_test(overflow),
		cmocka_unit_test(sign),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
