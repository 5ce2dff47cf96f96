/*
 * fuzz_collapse_bpftrace.c - libFuzzer harness for the bpftrace parser: any
 * bytes through the collapse driver (fg_collapse_text; the first byte picks
 * --includeoffset); every resulting stack must hold no newline, and every
 * frame of a non-empty stack must be non-empty, without white space at
 * either end (an empty stack, from "@[]: N", is allowed).
 */
#include "fuzz_collapse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	fg_bpftrace_options options = {.include_offset = (data[0] & 1) != 0};
	fg_collapse *c = fg_bpftrace_collapse_new(&options, 1, &fuzz_quiet, NULL);
	size_t count = 0;
	const fg_stack_entry **sorted = fuzz_collapse(c, data + 1, size - 1, &count);
	for (size_t i = 0; sorted != NULL && i < count; i++) {
		const char *s = sorted[i]->stack;
		size_t n = sorted[i]->stack_length;
		if (memchr(s, '\n', n) != NULL)
			abort();
		if (n == 0)
			continue; /* an empty stack (@[]: N) is allowed */
		/* Frames are never empty and never padded. */
		for (size_t start = 0; start <= n;) {
			const char *semi = memchr(s + start, ';', n - start);
			size_t end = semi != NULL ? (size_t)(semi - s) : n;
			if (end == start || is_space(s[start]) || is_space(s[end - 1]))
				abort();
			start = end + 1;
			if (semi == NULL)
				break;
		}
	}
	free(sorted);
	fg_collapse_free(c);
	return 0;
}
