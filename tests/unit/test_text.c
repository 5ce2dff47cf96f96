/*
 * test_text.c - unit tests of text.c: UTF-8 cleaning, XML escaping, characters, annotations.
 */
#include <stdlib.h>

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
	CHECK_STR(clean_escape("\xed\xa0\x80", 3), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "clean: UTF-8 surrogate replaced");
	CHECK_STR(clean_escape("\xef\xbf\xbe", 3), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "clean: U+FFFE replaced");
	CHECK_STR(clean_escape("\xc0\xaf", 2), "\xef\xbf\xbd\xef\xbf\xbd", "clean: overlong encoding replaced");
	CHECK_STR(clean_escape("\xe4\xb8\xad\xe6\x96\x87", 6), "\xe4\xb8\xad\xe6\x96\x87", "clean: valid UTF-8 kept");
	CHECK_STR(clean_escape("\xe4\xb8", 2), "\xef\xbf\xbd\xef\xbf\xbd", "clean: truncated sequence replaced");
	const char *mixed = "a\xc3\xa9" "b\xe4\xb8\xad";
	CHECK(fg_text_characters(mixed, strlen(mixed)) == 4, "text: characters counted as code points");
	CHECK(fg_text_prefix_bytes(mixed, strlen(mixed), 2) == 3, "text: prefix ends on a character boundary");
	CHECK(fg_name_without_annotation("foo_[k]", 7) == 3 && fg_name_without_annotation("foo_[x]", 7) == 7,
	      "text: annotations _[k] _[j] _[i] _[w] stripped, others kept");
}

int main(void)
{
	test_text();
	return check_exit();
}
