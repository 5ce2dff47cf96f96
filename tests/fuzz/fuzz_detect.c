/*
 * fuzz_detect.c - libFuzzer harness for fg-collapse's format detection:
 * fg_format_detect on any bytes, complete or not. Detection must agree with
 * itself: a format found in a prefix is found in the whole text, from the
 * same line; the line number is within the text; and a detected format's
 * collapser reads the bytes without failing.
 */
#include <stdlib.h>
#include <string.h>

#include "folded.h"

static void ignore(void *context, const char *file, uint64_t line, const char *message) {}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	uint64_t lines = 1;
	for (size_t i = 0; i < size; i++)
		lines += text[i] == '\n';

	uint64_t line_whole, line_part;
	fg_format whole = fg_format_detect(text, size, true, &line_whole);
	fg_format part = fg_format_detect(text, size / 2, false, &line_part);
	if (line_whole > lines || (whole == FG_FORMAT_UNKNOWN) != (line_whole == 0))
		abort();
	/* A decisive line in the first half decides the whole text too. */
	if (part != FG_FORMAT_UNKNOWN && (part != whole || line_part != line_whole))
		abort();
	if (fg_format_from_name(fg_format_name(whole)) != whole)
		abort();

	if (whole != FG_FORMAT_UNKNOWN) {
		fg_warner w = {ignore, NULL};
		fg_error err = {0};
		fg_collapse *c = fg_format_collapse_new(whole, 1, &w, &err);
		if (c == NULL || fg_collapse_text(c, text, size, "fuzz", &err) != 0)
			abort();
		/* No stacks only when a stack's counts add up beyond 2^64 - 1. */
		if (fg_collapse_stacks(c, &err) == NULL && err.code != FG_ERANGE)
			abort();
		fg_collapse_free(c);
	}
	return 0;
}
