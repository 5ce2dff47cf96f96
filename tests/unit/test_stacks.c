/*
 * test_stacks.c - unit tests of the stack table (stacks.c) and the stack builder.
 */
#include <stdlib.h>

#include "check.h"
#include "folded.h"

static void test_stacks(void)
{
	fg_stacks *s = fg_stacks_new();
	fg_stacks_add(s, "b;c", 3, 0, fg_count_of(2));
	fg_stacks_add(s, "a", 1, 0, fg_count_of(1));
	fg_stacks_add(s, "b;c", 3, 0, fg_count_of(5));
	fg_stacks_add(s, "b", 1, 0, fg_count_of(1));
	for (int i = 0; i < 5000; i++) {
		char name[32];
		int n = snprintf(name, sizeof(name), "x;%d", i);
		fg_stacks_add(s, name, (size_t)n, 1, fg_count_of(1));
	}
	CHECK(fg_stacks_size(s) == 5003, "stacks: unique stacks counted once (rehashing kept them)");
	const fg_stack_entry **sorted = fg_stacks_sorted(s);
	CHECK(sorted != NULL && sorted[0]->stack_length == 1 && sorted[0]->stack[0] == 'a' &&
	      sorted[1]->stack_length == 1 && sorted[2]->stack_length == 3 &&
	      sorted[2]->count[0].whole == 7, "stacks: sorted bytewise, counts summed");
	free(sorted);
	fg_count total;
	CHECK(fg_stacks_total(s, 1, &total) == 0 && total.whole == 5000, "stacks: column total");
	fg_stacks *other = fg_stacks_new();
	fg_stacks_add(other, "a", 1, 0, fg_count_of(10));
	fg_stacks_add(other, "z", 1, 0, fg_count_of(1));
	fg_stacks_merge(s, other);
	CHECK(fg_stacks_size(s) == 5004 && fg_stacks_total(s, 0, &total) == 0 && total.whole == 20,
	      "stacks: merge adds counts and new stacks");
	fg_stacks_free(other);
	/* Only columns 0 and 1 exist: another is refused, nothing added. */
	CHECK(fg_stacks_add(s, "a", 1, -1, fg_count_of(1)) == FG_EINVAL &&
	      fg_stacks_add(s, "new", 3, 2, fg_count_of(1)) == FG_EINVAL && fg_stacks_size(s) == 5004 &&
	      fg_stacks_total(s, 0, &total) == 0 && total.whole == 20,
	      "stacks: a column other than 0 and 1 is refused, the table unchanged");
	CHECK(fg_stacks_total(s, 2, &total) == FG_EINVAL, "stacks: the total of column 2 is refused");
	fg_output *out = fg_output_open_memory();
	size_t written;
	CHECK(fg_stacks_write(s, 3, out) == FG_EINVAL && fg_stacks_write(s, 0, out) == FG_EINVAL &&
	      (fg_output_data(out, &written), written == 0),
	      "stacks: writing 0 or 3 columns is refused, nothing written");
	fg_output_abort(out);
	fg_stacks_free(s);

	fg_stack_builder b;
	fg_stack_builder_init(&b);
	const char *stack;
	size_t length;
	fg_stack_builder_push(&b, "leaf", 4);
	fg_stack_builder_push(&b, "mid", 3);
	fg_stack_builder_append(&b, "dle", 3);
	fg_stack_builder_push(&b, "root", 4);
	fg_stack_builder_join(&b, "comm", 4, &stack, &length);
	CHECK(length == 21 && memcmp(stack, "comm;root;middle;leaf", 21) == 0,
	      "builder: leaf-first frames joined root first");
	fg_stack_builder_clear(&b);
	fg_stack_builder_join(&b, "comm", 4, &stack, &length);
	CHECK(length == 4 && memcmp(stack, "comm", 4) == 0, "builder: empty stack is the root alone");
	fg_stack_builder_free(&b);
}

int main(void)
{
	test_stacks();
	return check_exit();
}
