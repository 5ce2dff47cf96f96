/*
 * fuzz_collapse_trace.c - libFuzzer harness for the DTrace and SystemTap
 * parsers: any bytes through the collapse driver (fg_collapse_text) in both
 * formats (the first byte picks the format and --includeoffset); no
 * resulting stack may hold a newline (an empty stack is allowed).
 *
 *   clang -fsanitize=fuzzer,address,undefined -Iinclude -Isrc/lib \
 *     tests/fuzz/fuzz_collapse_trace.c build-fuzz/libfolded.a -lz -lpthread -lm
 */
#include "fuzz_collapse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	fg_trace_options options = {
		.format = (data[0] & 1) ? FG_TRACE_STAP : FG_TRACE_DTRACE,
		.include_offset = (data[0] & 2) != 0,
	};
	fg_collapse *c = fg_trace_collapse_new(&options, 1, &fuzz_quiet, NULL);
	size_t count = 0;
	const fg_stack_entry **sorted = fuzz_collapse(c, data + 1, size - 1, &count);
	for (size_t i = 0; sorted != NULL && i < count; i++) {
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
