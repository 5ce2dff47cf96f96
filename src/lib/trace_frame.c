/*
 * trace_frame.c - the frame helpers of trace_frame.h: the byte class table,
 * pushing one cleaned frame onto a stack builder, and the stack being
 * built with its size limit.
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

void fg_trace_stack_init(fg_trace_stack *s)
{
	fg_stack_builder_init(&s->frames);
	s->lines = 0;
	s->too_long = false;
}

void fg_trace_stack_free(fg_trace_stack *s)
{
	fg_stack_builder_free(&s->frames);
}

void fg_trace_stack_clear(fg_trace_stack *s)
{
	fg_stack_builder_clear(&s->frames);
	s->lines = 0;
	s->too_long = false;
}

int fg_trace_stack_pushed(fg_trace_stack *s, int rc)
{
	if (rc == 0 && s->frames.length > FG_TRACE_STACK_MAX) {
		/* Drop the bytes, keep reading: the line that ends it will say. */
		fg_stack_builder_clear(&s->frames);
		s->too_long = true;
	}
	return rc;
}
