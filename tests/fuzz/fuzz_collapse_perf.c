/*
 * fuzz_collapse_perf.c - libFuzzer harness for the perf script parser:
 * any bytes (options from the first byte) through the collapse driver with
 * one thread and with three, which must give the same stacks; no stack may
 * hold a newline, and every stack starts with a process name.
 */
#include <stdlib.h>
#include <string.h>

#include "folded.h"

static void ignore(void *context, const char *file, uint64_t line, const char *message) {}

static fg_stacks *collapse(const fg_perf_options *o, unsigned threads, const uint8_t *data,
			   size_t size, fg_collapse **c)
{
	fg_warner w = {ignore, NULL};
	fg_error err = {0};
	*c = fg_perf_collapse_new(o, threads, &w, &err);
	if (*c == NULL || fg_collapse_text(*c, (const char *)data, size, "fuzz", &err) != 0)
		abort();
	fg_stacks *stacks = fg_collapse_stacks(*c, &err);
	if (stacks == NULL)
		abort();
	return stacks;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	fg_perf_options o;
	memset(&o, 0, sizeof(o));
	o.pid = data[0] & 1;
	o.tid = data[0] & 2;
	o.kernel = data[0] & 4;
	o.jit = data[0] & 8;
	o.addrs = data[0] & 16;
	o.inline_frames = data[0] & 32;
	o.srcline = data[0] & 64;
	fg_collapse *one, *three;
	fg_stacks *a = collapse(&o, 1, data + 1, size - 1, &one);
	fg_stacks *b = collapse(&o, 3, data + 1, size - 1, &three);
	if (fg_stacks_size(a) != fg_stacks_size(b))
		abort();
	const fg_stack_entry **x = fg_stacks_sorted(a), **y = fg_stacks_sorted(b);
	for (size_t i = 0; i < fg_stacks_size(a); i++) {
		if (x[i]->stack_length != y[i]->stack_length ||
		    memcmp(x[i]->stack, y[i]->stack, x[i]->stack_length) != 0 ||
		    fg_count_compare(x[i]->count[0], y[i]->count[0]) != 0)
			abort(); /* threads changed the result */
		if (x[i]->stack_length == 0 || memchr(x[i]->stack, '\n', x[i]->stack_length) != NULL)
			abort();
	}
	free(x);
	free(y);
	fg_collapse_free(one);
	fg_collapse_free(three);
	return 0;
}
