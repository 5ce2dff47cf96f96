/*
 * buffer.h - fg_buffer, a growable byte string: the one buffer type of
 * libfolded (markup being written, cleaned names, a frame being built).
 * Internal to libfolded.
 *
 * Invariants, for a zeroed buffer ({0}) and after every call below:
 * - data[0 .. length) are the contents: any bytes, NUL included. Nothing
 *   here NUL-terminates them; to store a terminator as content, append
 *   one ("", 1).
 * - An empty buffer may have data == NULL: {0} and fg_buffer_free leave
 *   it so, and appending zero bytes allocates nothing. Check data before
 *   using an empty buffer's bytes.
 * - Whenever data != NULL, length < capacity: there is always room for one
 *   more byte, so a caller may write data[length] = '\0' to pass the
 *   contents as a C string without growing the buffer.
 * - The buffer owns data. Copying the struct moves that ownership: keep
 *   using one copy only, and free that one.
 * - Callers read data and length directly, and may lower length (to 0 to
 *   reuse the memory); they never raise it past bytes they wrote within
 *   the capacity that fg_buffer_reserve guaranteed.
 * - Out of memory: a function returns FG_ENOMEM and leaves the buffer
 *   exactly as it was. The failure is not sticky: a later append may
 *   succeed, leaving a hole. So a caller that appends several times
 *   either checks each result, or ORs them (failed |= ...) or records the
 *   first failure (svg.c's CHECKED), and then passes FG_ENOMEM on instead
 *   of using the contents.
 */
#ifndef FG_BUFFER_H
#define FG_BUFFER_H

#include <stddef.h>
#include <string.h>

typedef struct fg_buffer {
	char *data;       /* NULL or the contents; owned */
	size_t length;    /* bytes of contents */
	size_t capacity;  /* bytes allocated at data; > length when data != NULL */
} fg_buffer;

/* Makes room for `more` bytes after the contents (plus the spare byte),
 * doubling. 0 or FG_ENOMEM (unchanged). */
int fg_buffer_reserve(fg_buffer *b, size_t more);

/* Appends length bytes, which must not lie in b's own data (growing
 * would move them). 0 or FG_ENOMEM (unchanged). */
int fg_buffer_append(fg_buffer *b, const void *bytes, size_t length);

/* Appends a C string's bytes, without its NUL. 0 or FG_ENOMEM. */
static inline int fg_buffer_append_str(fg_buffer *b, const char *s)
{
	return fg_buffer_append(b, s, strlen(s));
}

/* Frees the contents and leaves b empty ({0}), ready for reuse. */
void fg_buffer_free(fg_buffer *b);

#endif
