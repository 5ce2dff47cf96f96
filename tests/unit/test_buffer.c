/*
 * test_buffer.c - unit tests of buffer.c: the invariants buffer.h states
 * (an empty buffer allocates nothing, room for a terminator, free leaves
 * it reusable, bytes are bytes).
 */
#include "buffer.h"
#include "check.h"
#include "folded.h"

int main(void)
{
	fg_buffer b = {0};
	CHECK(fg_buffer_append(&b, "", 0) == 0 && b.data == NULL && b.length == 0,
	      "buffer: appending nothing allocates nothing");
	CHECK(fg_buffer_append(&b, "a\0b", 3) == 0 && b.length == 3 && memcmp(b.data, "a\0b", 3) == 0,
	      "buffer: bytes, NUL included");
	CHECK(b.capacity > b.length, "buffer: room for a terminator");
	for (int i = 0; i < 10000; i++)
		fg_buffer_append_str(&b, "xyz");
	CHECK(b.length == 30003 && b.capacity > b.length && memcmp(b.data + 30000, "xyz", 3) == 0,
	      "buffer: grows, keeping the spare byte");
	b.length = 0;
	CHECK(fg_buffer_reserve(&b, 5) == 0 && b.capacity > 5, "buffer: reserve after reuse");
	CHECK(fg_buffer_reserve(&b, (size_t)-1) == FG_ENOMEM && b.data != NULL && b.length == 0,
	      "buffer: an impossible reserve fails and leaves it as it was");
	fg_buffer_free(&b);
	CHECK(b.data == NULL && b.length == 0 && b.capacity == 0, "buffer: free leaves it empty");
	CHECK(fg_buffer_append_str(&b, "again") == 0 && b.length == 5, "buffer: reusable after free");
	fg_buffer_free(&b);
	return check_exit();
}
