/*
 * folded.c - one line of folded input: "STACK COUNT" or "STACK BEFORE AFTER".
 *
 * The rule is flamegraph.pl's /^(.*)\s+?(\d+(?:\.\d*)?)$/: the count is the
 * last token and exactly one whitespace character before it is consumed, so
 * "a;b  5" keeps the leaf "b ". If the stack part itself again ends in
 * whitespace and a number, that number is BEFORE and the line differential.
 * Unlike flamegraph.pl a trailing '\r' is dropped, so CRLF files work.
 */
#include "internal.h"

bool fg_is_blank(const char *line, size_t length)
{
	for (size_t i = 0; i < length; i++)
		if (!fg_is_space((unsigned char)line[i]))
			return false;
	return true;
}

/* Finds a trailing " NUMBER" in line[0, *length): on success stores the
 * number's start in *number and returns 0. */
static int split_count(const char *line, size_t length, size_t *number)
{
	size_t i = length;
	while (i > 0 && (fg_is_digit((unsigned char)line[i - 1]) || line[i - 1] == '.'))
		i--;
	/* The token must start with a digit: skip back over any leading dots
	 * only as part of digits (".5" is invalid; the parser rejects it). */
	if (i == length || i == 0 || !fg_is_space((unsigned char)line[i - 1]))
		return FG_EINVAL;
	/* "1.2.3" would scan as one token; let the count parser reject it. */
	*number = i;
	return 0;
}

int fg_folded_parse(const char *line, size_t length, fg_folded_line *out)
{
	if (length > 0 && line[length - 1] == '\r')
		length--;
	size_t at;
	if (split_count(line, length, &at) != 0)
		return FG_EINVAL;
	int rc = fg_count_parse(line + at, length - at, &out->count);
	if (rc != 0)
		return rc;
	size_t stack_length = at - 1; /* one whitespace character consumed */
	out->stack = line;
	out->differential = false;
	out->before.whole = out->before.frac = 0;
	size_t before_at;
	if (split_count(line, stack_length, &before_at) == 0 &&
	    fg_count_parse(line + before_at, stack_length - before_at, &out->before) == 0) {
		out->differential = true;
		stack_length = before_at - 1;
	}
	out->stack_length = stack_length;
	return 0;
}

const char *fg_folded_problem(int code)
{
	return code == FG_ERANGE ? "count beyond 2^64 - 1 or with more than 18 decimals; line ignored"
				 : "no valid count at the end of the line; line ignored";
}
