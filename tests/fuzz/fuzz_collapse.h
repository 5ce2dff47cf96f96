/*
 * fuzz_collapse.h - what the collapser harnesses share: a quiet warner,
 * and one collapse run over the fuzzer's bytes whose stacks come back
 * sorted (or not at all, when their counts overflow).
 */
#ifndef FUZZ_COLLAPSE_H
#define FUZZ_COLLAPSE_H

#include <stdlib.h>
#include <string.h>

#include "folded.h"

static void fuzz_ignore(void *context, const char *file, uint64_t line, const char *message)
{
	(void)context, (void)file, (void)line, (void)message;
}

/* Warnings are expected (the input is random): none is printed. */
static const fg_warner fuzz_quiet = {fuzz_ignore, NULL};

/*
 * Collapses data with c (NULL: the constructor failed, which aborts) and
 * returns its stacks sorted, *count of them: free the array, then c. NULL
 * when a stack's counts add up beyond 2^64 - 1 (FG_ERANGE, a correct
 * refusal since issue 13). Anything else that fails aborts.
 */
static const fg_stack_entry **fuzz_collapse(fg_collapse *c, const uint8_t *data, size_t size,
					    size_t *count)
{
	fg_error err = {0};
	if (c == NULL || fg_collapse_text(c, (const char *)data, size, "fuzz", &err) != 0)
		abort();
	fg_stacks *stacks = fg_collapse_stacks(c, &err);
	if (stacks == NULL && err.code == FG_ERANGE)
		return NULL;
	const fg_stack_entry **sorted = stacks != NULL ? fg_stacks_sorted(stacks) : NULL;
	if (sorted == NULL)
		abort();
	*count = fg_stacks_size(stacks);
	return sorted;
}

#endif
