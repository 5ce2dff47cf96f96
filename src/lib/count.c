/*
 * count.c - exact sample counts: 64-bit integers plus 18 decimal places.
 *
 * flamegraph.pl sums counts as doubles, so 0.1 added 100,000 times drifts
 * and integers above 2^53 lose units. Here a count is whole + frac/10^18 in
 * two 64-bit words: sums are exact and overflow is detected, not wrapped.
 */
#include "internal.h"

int fg_count_parse(const char *text, size_t length, fg_count *out)
{
	const unsigned char *p = (const unsigned char *)text;
	const unsigned char *end = p + length;
	uint64_t whole = 0;
	int range = 0;
	if (p == end || !fg_is_digit(*p))
		return FG_EINVAL;
	for (; p < end && fg_is_digit(*p); p++) {
		uint64_t digit = (uint64_t)(*p - '0');
		if (whole > (UINT64_MAX - digit) / 10)
			range = 1;
		else
			whole = whole * 10 + digit;
	}
	uint64_t frac = 0, scale = FG_COUNT_FRAC_ONE;
	if (p < end && *p == '.') {
		for (p++; p < end && fg_is_digit(*p); p++) {
			if (scale == 1 && *p != '0')
				range = 1; /* more decimals than we can keep exactly */
			else if (scale > 1)
				scale /= 10;
			frac += (uint64_t)(*p - '0') * (range ? 0 : scale);
		}
	}
	if (p != end)
		return FG_EINVAL;
	if (range)
		return FG_ERANGE;
	out->whole = whole;
	out->frac = frac;
	return 0;
}

int fg_count_add(fg_count *sum, fg_count addend)
{
	return fg_count_add_inline(sum, addend);
}

int fg_count_compare(fg_count a, fg_count b)
{
	if (a.whole != b.whole)
		return a.whole < b.whole ? -1 : 1;
	if (a.frac != b.frac)
		return a.frac < b.frac ? -1 : 1;
	return 0;
}

fg_count fg_count_sub_floor(fg_count a, fg_count b)
{
	fg_count r = {0, 0};
	if (fg_count_compare(a, b) <= 0)
		return r;
	r.whole = a.whole - b.whole;
	if (a.frac >= b.frac) {
		r.frac = a.frac - b.frac;
	} else {
		r.whole--;
		r.frac = a.frac + FG_COUNT_FRAC_ONE - b.frac;
	}
	return r;
}

double fg_count_to_double(fg_count c)
{
	return (double)c.whole + (double)c.frac / 1e18;
}

size_t fg_count_format(fg_count c, char *buffer)
{
	char digits[24];
	size_t n = 0;
	uint64_t w = c.whole;
	do {
		digits[n++] = (char)('0' + w % 10);
		w /= 10;
	} while (w);
	size_t length = 0;
	while (n)
		buffer[length++] = digits[--n];
	if (c.frac) {
		uint64_t f = c.frac;
		int places = FG_COUNT_FRAC_DIGITS;
		while (f % 10 == 0) {
			f /= 10;
			places--;
		}
		buffer[length++] = '.';
		for (int i = places - 1; i >= 0; i--) {
			buffer[length + (size_t)i] = (char)('0' + f % 10);
			f /= 10;
		}
		length += (size_t)places;
	}
	buffer[length] = '\0';
	return length;
}
