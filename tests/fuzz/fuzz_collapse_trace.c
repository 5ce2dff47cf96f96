/*
 * fuzz_collapse_trace.c - libFuzzer harness for the DTrace and SystemTap
 * parsers: any bytes through the collapse driver (fg_collapse_text) in both
 * formats (the first byte picks the format and --includeoffset); no
 * resulting stack may hold a newline (an empty stack is allowed).
 *
 *   clang -fsanitize=fuzzer,address,undefined -Iinclude -Isrc/lib \
 *     tests/fuzz/fuzz_collapse_trace.c build-fuzz/libfolded.a -lz -lpthread -lm
 */
#include <stdlib.h>
#include <string.h>

#include "folded.h"

static void ignore(void *context, const char *file, uint64_t line, const char *message) {}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	fg_trace_options options = {
		.format = (data[0] & 1) ? FG_TRACE_STAP : FG_TRACE_DTRACE,
		.include_offset = (data[0] & 2) != 0,
	};
	fg_warner w = {ignore, NULL};
	fg_error err = {0};
	fg_collapse *c = fg_trace_collapse_new(&options, 1, &w, &err);
	if (c == NULL || fg_collapse_text(c, (const char *)data + 1, size - 1, "fuzz", &err) != 0)
		abort();
	fg_stacks *stacks = fg_collapse_stacks(c, &err);
	if (stacks == NULL && err.code == FG_ERANGE) {
		fg_collapse_free(c); /* a stack's counts add up beyond 2^64 - 1 */
		return 0;
	}
	if (stacks == NULL)
		abort();
	const fg_stack_entry **sorted = fg_stacks_sorted(stacks);
	for (size_t i = 0; i < fg_stacks_size(stacks); i++) {
		const fg_stack_entry *e = sorted[i];
		/* No frame holds a newline (an empty stack, a count with no
		 * frames, is kept since the trace parsers keep such samples). */
		if (memchr(e->stack, '\n', e->stack_length) != NULL)
			abort();
	}
	free(sorted);
	fg_collapse_free(c);
	return 0;
}
