/*
 * collapse_folded.c - already folded stacks on the collapse driver, for
 * fg-collapse: every "STACK COUNT" line is added to the table, so equal
 * stacks are summed and the output is sorted like any collapser's. Each
 * line is a record, so the driver may cut the input anywhere. A stack of
 * white space only ("      5": a DTrace or SystemTap capture of empty
 * stacks, which detection takes for folded) is the empty stack, not a
 * frame of spaces.
 */
#include <stdlib.h>

#include "internal.h"

static void *state_new(void *config)
{
	/* Nothing to remember between lines; a non-NULL state all the same. */
	return config;
}

static void state_free(void *state) {}

static void config_free(void *config) {}

static size_t find_boundary(const void *config, const char *text, size_t length)
{
	return 0;
}

static int parse(void *state, fg_collapse_chunk *chunk)
{
	const char *text = chunk->text, *end = text + chunk->length;
	uint64_t line = 0;
	while (text < end) {
		const char *newline = memchr(text, '\n', (size_t)(end - text));
		const char *stop = newline != NULL ? newline : end;
		size_t length = (size_t)(stop - text);
		line++;
		fg_folded_line folded;
		int rc;
		if (fg_is_blank(text, length)) {
			/* nothing */
		} else if ((rc = fg_folded_parse(text, length, &folded)) != 0) {
			fg_collapse_warn(chunk->report, line, "%s", fg_folded_problem(rc));
		} else if (folded.differential) {
			fg_collapse_warn(chunk->report, line,
					 "two counts (a differential line, for fg-render): line ignored");
		} else if ((rc = fg_collapse_add(chunk, line, folded.stack,
						 fg_is_blank(folded.stack, folded.stack_length)
							 ? 0 : folded.stack_length,
						 folded.count)) != 0) {
			chunk->lines = line;
			return rc;
		}
		text = newline != NULL ? newline + 1 : end;
	}
	chunk->lines = line;
	return 0;
}

static int folded_config;  /* the parser has no options: a non-NULL config */

const fg_collapse_parser fg_folded_parser = {
	.name = "folded",
	.config_free = config_free,
	.state_new = state_new,
	.state_free = state_free,
	.find_boundary = find_boundary,
	.parse = parse,
};

fg_collapse *fg_folded_collapse_new(unsigned threads, const fg_warner *warner, fg_error *err)
{
	return fg_collapse_new(&fg_folded_parser, &folded_config, threads, warner, err);
}
