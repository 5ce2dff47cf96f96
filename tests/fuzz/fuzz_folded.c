/*
 * fuzz_folded.c - libFuzzer harness for the folded line parser and exact
 * counts: parsing never reads outside the line, a parsed count prints
 * back to text that parses to the same count, and adding counts either
 * succeeds exactly or reports overflow without changing the sum.
 */
#include <stdlib.h>
#include <string.h>

#include "folded.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size ? size : 1); /* exact size: ASan sees overreads */
	if (size)
		memcpy(line, data, size);
	fg_folded_line parsed;
	if (fg_folded_parse(line, size, &parsed) == 0) {
		if (parsed.stack != line || parsed.stack_length > size)
			abort();
		for (int side = 0; side < 2; side++) {
			fg_count c = side ? parsed.before : parsed.count, back;
			char text[FG_COUNT_TEXT_MAX];
			size_t n = fg_count_format(c, text);
			if (fg_count_parse(text, n, &back) != 0 || fg_count_compare(c, back) != 0)
				abort();
			fg_count sum = parsed.count;
			if (fg_count_add(&sum, c) == 0) {
				if (fg_count_compare(sum, parsed.count) < 0)
					abort();
			} else if (fg_count_compare(sum, parsed.count) != 0) {
				abort();
			}
		}
	}
	(void)fg_is_blank(line, size);
	free(line);
	return 0;
}
