/*
 * trace_frame.c - the frame helpers of trace_frame.h: the byte class table
 * and pushing one cleaned frame onto a stack builder.
 */
#include "trace_frame.h"

const unsigned char fg_trace_byte_class[256] = {
	[':'] = FG_TRACE_COLON, ['('] = FG_TRACE_OPEN, ['<'] = FG_TRACE_OPEN,
	['-'] = FG_TRACE_DASH, [';'] = FG_TRACE_SEMICOLON, ['+'] = FG_TRACE_PLUS,
};

int fg_trace_push_frame(fg_stack_builder *b, const char *name, size_t length,
			const char *suffix, bool semicolons)
{
	if (length == 0) {
		name = "-";
		length = 1;
	}
	size_t start = b->length;
	if (fg_stack_builder_push(b, name, length) != 0 ||
	    (suffix != NULL && fg_stack_builder_append(b, suffix, strlen(suffix)) != 0))
		return FG_ENOMEM;
	if (semicolons)
		for (char *s = b->bytes + start, *stop = b->bytes + start + length;
		     (s = memchr(s, ';', (size_t)(stop - s))) != NULL; s++)
			*s = ':';
	return 0;
}
