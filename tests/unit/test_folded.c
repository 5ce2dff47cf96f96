/*
 * test_folded.c - unit tests of one folded line (folded.c): stacks, counts, differential lines, CRLF, blanks.
 */
#include <stdlib.h>

#include "check.h"
#include "folded.h"

static int parse(const char *line, fg_folded_line *out)
{
	return fg_folded_parse(line, strlen(line), out);
}

static bool stack_is(const fg_folded_line *l, const char *stack)
{
	return l->stack_length == strlen(stack) && memcmp(l->stack, stack, l->stack_length) == 0;
}

static void test_folded(void)
{
	fg_folded_line l;
	CHECK(parse("a;b;c 42", &l) == 0 && stack_is(&l, "a;b;c") && l.count.whole == 42 &&
	      !l.differential, "folded: plain line");
	CHECK(parse("a;with space;c 7", &l) == 0 && stack_is(&l, "a;with space;c"),
	      "folded: frames may contain spaces");
	CHECK(parse("a;b   5", &l) == 0 && stack_is(&l, "a;b  "),
	      "folded: only one whitespace character before the count is consumed");
	CHECK(parse("a;b\t5", &l) == 0 && stack_is(&l, "a;b"), "folded: tab separator");
	CHECK(parse("a;b 5\r", &l) == 0 && stack_is(&l, "a;b") && l.count.whole == 5,
	      "folded: CRLF line end");
	CHECK(parse("a;b 3 7", &l) == 0 && l.differential && stack_is(&l, "a;b") &&
	      l.before.whole == 3 && l.count.whole == 7, "folded: differential line");
	CHECK(parse("a;b 2.5", &l) == 0 && l.count.whole == 2 && l.count.frac == FG_COUNT_FRAC_ONE / 2,
	      "folded: decimal count");
	CHECK(parse(" 5", &l) == 0 && l.stack_length == 0, "folded: empty stack counts for the root");
	CHECK(parse("a;b", &l) == FG_EINVAL, "folded: no count");
	CHECK(parse("a;b5", &l) == FG_EINVAL, "folded: no whitespace before the count");
	CHECK(parse("a;b 5 ", &l) == FG_EINVAL, "folded: trailing whitespace");
	CHECK(parse("5", &l) == FG_EINVAL, "folded: a count alone");
	CHECK(parse("a;b 99999999999999999999", &l) == FG_ERANGE, "folded: count beyond 64 bits");
	char with_nul[] = "a\0b;c 3";
	CHECK(fg_folded_parse(with_nul, sizeof(with_nul) - 1, &l) == 0 && l.stack_length == 5,
	      "folded: NUL bytes are ordinary bytes");
	CHECK(fg_is_blank(" \t\r", 3) && fg_is_blank("", 0) && !fg_is_blank(" a", 2), "folded: blank lines");
}

int main(void)
{
	test_folded();
	return check_exit();
}
