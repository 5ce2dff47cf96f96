/*
 * test_count.c - unit tests of counts (count.c): parsing, exact sums, overflow, formatting.
 */
#include <stdlib.h>

#include "check.h"
#include "folded.h"

static fg_count count_of(const char *text)
{
	fg_count c = {0, 0};
	if (fg_count_parse(text, strlen(text), &c) != 0)
		c.whole = c.frac = 12345678; /* visible in failures */
	return c;
}

static const char *format(fg_count c)
{
	static char text[FG_COUNT_TEXT_MAX];
	fg_count_format(c, text);
	return text;
}

static void test_counts(void)
{
	fg_count c;
	CHECK(fg_count_parse("42", 2, &c) == 0 && c.whole == 42 && c.frac == 0, "count: integer");
	CHECK(fg_count_parse("5.", 2, &c) == 0 && c.whole == 5 && c.frac == 0, "count: 5. is valid");
	CHECK_STR(format(count_of("2.25")), "2.25", "count: decimal round trip");
	CHECK(fg_count_parse(".5", 2, &c) == FG_EINVAL, "count: .5 is invalid");
	CHECK(fg_count_parse("-1", 2, &c) == FG_EINVAL, "count: negative is invalid");
	CHECK(fg_count_parse("1e3", 3, &c) == FG_EINVAL, "count: exponent is invalid");
	CHECK(fg_count_parse("1.2.3", 5, &c) == FG_EINVAL, "count: two dots are invalid");
	CHECK(fg_count_parse("18446744073709551615", 20, &c) == 0 && c.whole == UINT64_MAX,
	      "count: 2^64-1 fits");
	CHECK(fg_count_parse("18446744073709551616", 20, &c) == FG_ERANGE, "count: 2^64 is out of range");
	CHECK(fg_count_parse("1.0000000000000000000", 21, &c) == 0 && c.whole == 1 && c.frac == 0,
	      "count: zeros past the 18th decimal are the same number");
	CHECK(fg_count_parse("2.1234567890123456780000", 24, &c) == 0 && c.whole == 2 &&
	      c.frac == 123456789012345678u, "count: 18 decimals, then zeros");
	CHECK(fg_count_parse("1.0000000000000000001", 21, &c) == FG_ERANGE,
	      "count: a 19th decimal that is not 0 cannot be kept exactly");
	CHECK(fg_count_parse("1.00000000000000000000007", 25, &c) == FG_ERANGE,
	      "count: nor a later one after zeros");

	fg_count sum = {0, 0};
	for (int i = 0; i < 100000; i++)
		fg_count_add(&sum, count_of("0.1"));
	CHECK_STR(format(sum), "10000", "count: 100,000 x 0.1 is exactly 10000");
	fg_count_add(&sum, count_of("9007199254740993"));
	CHECK_STR(format(sum), "9007199254750993", "count: no binary floating point drift above 2^53");

	fg_count big = {UINT64_MAX, 0};
	CHECK(fg_count_add(&big, count_of("1")) == FG_ERANGE && big.whole == UINT64_MAX,
	      "count: overflow is reported and the sum left unchanged");
	fg_count almost = {UINT64_MAX, FG_COUNT_FRAC_ONE / 2};
	CHECK(fg_count_add(&almost, count_of("0.5")) == FG_ERANGE, "count: overflow through the carry");
	CHECK(fg_count_compare(count_of("2.5"), count_of("2.25")) > 0, "count: compare");
	CHECK_STR(format(fg_count_sub_floor(count_of("3"), count_of("0.75"))), "2.25", "count: subtract");
	CHECK_STR(format(fg_count_sub_floor(count_of("1"), count_of("2"))), "0", "count: subtract floors at 0");
}

int main(void)
{
	test_counts();
	return check_exit();
}
