/*
 * fuzz_diff.c - libFuzzer harness for fg-diff: the input, split at its
 * first NUL byte into BEFORE and AFTER, through fg_diff_read (with -s by
 * the first byte) and fg_diff_normalize (-n); every output line must be
 * "STACK BEFORE AFTER" with two counts, and stacks sorted bytewise.
 */
#include <stdlib.h>
#include <string.h>

#include "folded.h"

static void ignore(void *context, const char *file, uint64_t line, const char *message) {}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	fg_diff_options options = {.normalize = data[0] & 1, .strip_hex = data[0] & 2};
	data++;
	size--;
	const uint8_t *nul = memchr(data, 0, size);
	size_t first = nul ? (size_t)(nul - data) : size;
	fg_stacks *stacks = fg_stacks_new();
	fg_warner w = {ignore, NULL};
	fg_error err;
	int rc = 0;
	for (int column = 0; column < 2 && rc == 0; column++) {
		const uint8_t *from = column ? data + first + (nul != NULL) : data;
		size_t length = column ? size - first - (nul != NULL) : first;
		fg_input *in = fg_input_open_memory("fuzz", from, length);
		rc = fg_diff_read(stacks, column, in, &options, &w, &err);
		fg_input_close(in);
	}
	if (rc == 0)
		rc = fg_diff_normalize(stacks, &options, &err);
	if (rc == 0) {
		fg_output *out = fg_output_open_memory();
		if (fg_stacks_write(stacks, 2, out) != 0)
			abort();
		size_t length;
		const char *text = fg_output_data(out, &length);
		size_t lines = 0;
		for (const char *p = text, *end = text + length; p < end; lines++) {
			const char *newline = memchr(p, '\n', (size_t)(end - p));
			if (newline == NULL)
				abort(); /* every line ends in '\n' */
			fg_folded_line parsed;
			/* The stack itself may end in " NUMBER": then three counts
			 * parse as a differential line of a longer stack; still valid. */
			if (fg_folded_parse(p, (size_t)(newline - p), &parsed) != 0 || !parsed.differential)
				abort();
			p = newline + 1;
		}
		if (lines != fg_stacks_size(stacks))
			abort();
		fg_output_abort(out);
	}
	fg_stacks_free(stacks);
	return 0;
}
