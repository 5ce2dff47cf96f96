/*
 * test_text.c - unit tests of text.c: UTF-8 cleaning, XML escaping, characters, annotations.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "folded.h"
#include "text.h"

static const char *clean_escape(const char *bytes, size_t length)
{
	static fg_buffer out;
	fg_buffer clean = {0, 0, 0};
	out.length = 0;
	fg_text_clean(&clean, bytes, length);
	fg_text_escape(&out, clean.data, clean.length);
	fg_buffer_append(&out, "", 1);
	fg_buffer_free(&clean);
	return out.data;
}

static void test_text(void)
{
	CHECK_STR(clean_escape("</title><script>", 16), "&lt;/title&gt;&lt;script&gt;", "escape: markup");
	CHECK_STR(clean_escape("a&b \"q\" 'x' ]]>", 15), "a&amp;b &quot;q&quot; 'x' ]]&gt;", "escape: & quotes ]]>");
	CHECK_STR(clean_escape("a\x01" "b\tc", 5), "a\xef\xbf\xbd" "b\tc", "clean: C0 control replaced, tab kept");
	CHECK_STR(clean_escape("a\0b", 3), "a\xef\xbf\xbd" "b", "clean: NUL replaced");
	CHECK_STR(clean_escape("\xff\xfe", 2), "\xef\xbf\xbd\xef\xbf\xbd", "clean: invalid UTF-8 bytes replaced");
	/* A well-formed sequence that is not allowed is one character, as
	 * flamegraph.pl (perl) counts it: one U+FFFD, so labels are cut after
	 * as many characters as there. */
	CHECK_STR(clean_escape("\xed\xa0\x80", 3), "\xef\xbf\xbd", "clean: UTF-8 surrogate replaced, by one U+FFFD");
	CHECK_STR(clean_escape("\xef\xbf\xbe" "x", 4), "\xef\xbf\xbd" "x", "clean: U+FFFE replaced, by one U+FFFD");
	CHECK_STR(clean_escape("\xf4\x90\x80\x80", 4), "\xef\xbf\xbd", "clean: past U+10FFFF replaced, by one U+FFFD");
	CHECK_STR(clean_escape("\xe0\x80\xaf", 3), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
		  "clean: overlong 3-byte encoding replaced byte by byte");
	CHECK_STR(clean_escape("\xed\xa0" "a", 3), "\xef\xbf\xbd\xef\xbf\xbd" "a", "clean: a cut surrogate replaced byte by byte");
	CHECK_STR(clean_escape("\xc0\xaf", 2), "\xef\xbf\xbd\xef\xbf\xbd", "clean: overlong encoding replaced");
	/* (a name ending in U+202E showed its title's counts reversed) */
	CHECK_STR(clean_escape("f\xe2\x80\xae", 4), "f\xef\xbf\xbd", "clean: bidi override U+202E replaced");
	CHECK_STR(clean_escape("\xe2\x80\xaa\xe2\x81\xa6\xe2\x81\xa9", 9), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
		  "clean: bidi embedding U+202A and isolates U+2066, U+2069 replaced");
	CHECK_STR(clean_escape("\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa", 12),
		  "\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa", "clean: U+2029, U+202F, U+2065, U+206A kept");
	CHECK_STR(clean_escape("\xe4\xb8\xad\xe6\x96\x87", 6), "\xe4\xb8\xad\xe6\x96\x87", "clean: valid UTF-8 kept");
	CHECK_STR(clean_escape("\xe4\xb8", 2), "\xef\xbf\xbd\xef\xbf\xbd", "clean: truncated sequence replaced");
	const char *mixed = "a\xc3\xa9" "b\xe4\xb8\xad";
	CHECK(fg_text_characters(mixed, strlen(mixed)) == 4, "text: characters counted as code points");
	CHECK(fg_text_prefix_bytes(mixed, strlen(mixed), 2) == 3, "text: prefix ends on a character boundary");
	CHECK(fg_name_without_annotation("foo_[k]", 7) == 3 && fg_name_without_annotation("foo_[x]", 7) == 7,
	      "text: annotations _[k] _[j] _[i] _[w] stripped, others kept");
}

/* fg_format_fixed2 against printf's "%.2f" itself: random percentages,
 * exact ties of binary fractions, signs, huge and odd values. */
static void test_fixed2(void)
{
	srand48(12);
	long wrong = 0;
	char first[400] = "";
	for (long i = 0; i < 2000000; i++) {
		double v;
		switch (i % 6) {
		case 0: v = drand48() * 100; break;
		case 1: v = (double)(lrand48() % 100000) / 1000.0; break;
		case 2: v = 100.0 * (double)(lrand48() % 1000 + 1) / (double)(lrand48() % 100000 + 1); break;
		case 3: v = (double)(lrand48() % 20001 - 10000) / 200.0; break; /* ties: x.xx5 exactly? */
		case 4: v = (double)(lrand48() % 4001 - 2000) / 8000.0; break; /* exact ties */
		default: v = drand48() * pow(10, (double)(lrand48() % 30)) * (lrand48() % 2 ? 1 : -1);
		}
		char ours[FG_FIXED2_MAX], theirs[FG_FIXED2_MAX];
		size_t n = fg_format_fixed2(ours, v);
		int m = snprintf(theirs, sizeof(theirs), "%.2f", v);
		if (n != (size_t)m || memcmp(ours, theirs, n) != 0) {
			if (wrong++ == 0)
				snprintf(first, sizeof(first), "%.17g: %.*s, printf %s", v, (int)n, ours, theirs);
		}
	}
	const double odd[] = {0.0, -0.0, 0.005, 0.015, 0.125, -0.004, 99.995, 1e13, -1e13, 1e300, -1e-300,
			      INFINITY, -INFINITY, NAN, 1.7976931348623157e308};
	for (size_t i = 0; i < sizeof(odd) / sizeof(*odd); i++) {
		char ours[FG_FIXED2_MAX], theirs[FG_FIXED2_MAX];
		size_t n = fg_format_fixed2(ours, odd[i]);
		int m = snprintf(theirs, sizeof(theirs), "%.2f", odd[i]);
		if (n != (size_t)m || memcmp(ours, theirs, n) != 0)
			if (wrong++ == 0)
				snprintf(first, sizeof(first), "%g: %.*s, printf %s", odd[i], (int)n, ours, theirs);
	}
	CHECK(wrong == 0, "fg_format_fixed2 is printf's %%.2f on 2,000,015 values (first difference: %s)", first);
}

int main(void)
{
	test_text();
	test_fixed2();
	return check_exit();
}
