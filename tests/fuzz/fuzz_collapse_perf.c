/*
 * fuzz_collapse_perf.c - libFuzzer harness for the perf script parser:
 * any bytes (options from the first byte) through the collapse driver with
 * one thread and with three, which must give the same stacks; no stack may
 * hold a newline, and every stack starts with a process name.
 */
#include "fuzz_collapse.h"

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
	fg_collapse *one = fg_perf_collapse_new(&o, 1, &fuzz_quiet, NULL);
	fg_collapse *three = fg_perf_collapse_new(&o, 3, &fuzz_quiet, NULL);
	size_t count = 0, count3 = 0;
	const fg_stack_entry **x = fuzz_collapse(one, data + 1, size - 1, &count);
	const fg_stack_entry **y = fuzz_collapse(three, data + 1, size - 1, &count3);
	if ((x == NULL) != (y == NULL) || count != count3)
		abort(); /* threads changed the result */
	for (size_t i = 0; x != NULL && i < count; i++) {
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
