/*
 * test_diff.c - unit tests of diff.c: the union of two profiles against an
 * independent model (a list of (stack, before, after) summed by hand), -s
 * (hex addresses), -n (BEFORE scaled to AFTER's total, floored, exact) and
 * invalid lines.
 */
#include <stdlib.h>

#include "check.h"
#include "folded.h"

/* The diff of two texts as "STACK BEFORE AFTER" lines. */
static const char *diff(const char *before, const char *after, bool normalize, bool strip_hex)
{
	static char result[4096];
	fg_diff_options o = {.normalize = normalize, .strip_hex = strip_hex};
	fg_warner w = {check_collect, NULL};
	fg_error err = {0};
	fg_stacks *s = fg_stacks_new();
	check_warnings()[0] = '\0';
	fg_input *a = fg_input_open_memory("before", before, strlen(before));
	fg_input *b = fg_input_open_memory("after", after, strlen(after));
	int rc = fg_diff_read(s, 0, a, &o, &w, &err);
	if (rc == 0)
		rc = fg_diff_read(s, 1, b, &o, &w, &err);
	if (rc == 0)
		rc = fg_diff_normalize(s, &o, &err);
	fg_output *out = fg_output_open_memory();
	if (rc == 0)
		rc = fg_stacks_write(s, 2, out);
	size_t length;
	const char *data = fg_output_data(out, &length);
	if (rc == 0)
		snprintf(result, sizeof(result), "%.*s", (int)length, data);
	else
		snprintf(result, sizeof(result), "error %s", err.message);
	fg_output_abort(out);
	fg_input_close(a);
	fg_input_close(b);
	fg_stacks_free(s);
	return result;
}

int main(void)
{
	CHECK_STR(diff("a;b 1\nc 2\na;b 3\n", "c 5\nd 1\n", false, false),
		  "a;b 4 0\nc 2 5\nd 0 1\n", "diff: the union, summed, sorted");
	CHECK_STR(diff(" 5\n", " 2\nx 1\n", false, false), " 5 2\nx 0 1\n", "diff: an empty stack is a stack");
	CHECK_STR(diff("f;0x1f2e;g 3\nf;0xABC;g 1\n", "f;0x99;g 2\n", false, true),
		  "f;0x...;g 4 2\n", "diff -s: hex addresses become 0x...");
	CHECK_STR(diff("a 1\nb 3\n", "a 4\nb 4\n", true, false), "a 2 4\nb 6 4\n",
		  "diff -n: BEFORE scaled to AFTER's total (8/4)");
	CHECK_STR(diff("a 1\nb 2\n", "a 5\nb 5\n", true, false), "a 3 5\nb 6 5\n",
		  "diff -n: floor(1 * 10 / 3) = 3, floor(2 * 10 / 3) = 6");
	CHECK_STR(diff("a 2.5\n", "a 1.25\n", false, false), "a 2.5 1.25\n", "diff: decimals stay exact");
	CHECK_STR(diff("a 1\nno count here\nb 2\n", "a 1\n", false, false), "a 1 1\nb 2 0\n",
		  "diff: an invalid line is skipped, the rest kept");
	CHECK(strstr(check_warnings(), "before:2:") != NULL, "diff: the invalid line is reported with its line");
	CHECK_STR(diff("a;b 1 2\n", "a;b 3\n", false, false), "a;b 0 3\na;b 1 2 0\n",
		  "diff: a line with two counts keeps the first in its stack (as difffolded.pl)");
	return check_exit();
}
