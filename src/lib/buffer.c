/*
 * buffer.c - fg_buffer, the growable byte string (buffer.h states its
 * invariants).
 */
#include <stdlib.h>

#include "buffer.h"
#include "internal.h"

int fg_buffer_reserve(fg_buffer *b, size_t more)
{
	if (more > SIZE_MAX - 1 - b->length)
		return FG_ENOMEM;
	return fg_grow((void **)&b->data, &b->capacity, b->length + more + 1, 1);
}

int fg_buffer_append(fg_buffer *b, const void *bytes, size_t length)
{
	if (length == 0)
		return 0;
	if (b->capacity - b->length <= length && fg_buffer_reserve(b, length) != 0)
		return FG_ENOMEM;
	memcpy(b->data + b->length, bytes, length);
	b->length += length;
	return 0;
}

void fg_buffer_free(fg_buffer *b)
{
	free(b->data);
	b->data = NULL;
	b->length = b->capacity = 0;
}
