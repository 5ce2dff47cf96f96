/*
 * collapse_trace.h - what the DTrace and SystemTap parsers share (not part
 * of the API): the frame cleaners of each format and the helpers they use.
 * The parser itself (count lines, the frame list, warnings) is in
 * collapse_trace.c; each format's frame rules are in collapse_dtrace.c and
 * collapse_stap.c.
 */
#ifndef FG_COLLAPSE_TRACE_H
#define FG_COLLAPSE_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "internal.h"

static inline bool fg_trace_is_hex(unsigned char c)
{
	return fg_is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Narrows [*start, *end) to drop whitespace at both ends. */
static inline void fg_trace_trim(const char **start, const char **end)
{
	while (*start < *end && fg_is_space((unsigned char)**start))
		(*start)++;
	while (*end > *start && fg_is_space((unsigned char)(*end)[-1]))
		(*end)--;
}

/*
 * Pushes one frame named [name, name + length) and then suffix (may be
 * NULL) onto b: an empty name becomes "-", and ';' (the folded format's
 * separator) becomes ':'. Returns 0 or FG_ENOMEM.
 */
int fg_trace_push_frame(fg_stack_builder *b, const char *name, size_t length,
			const char *suffix);

/* DTrace's banner "CPU     ID                    FUNCTION:NAME". */
bool fg_dtrace_is_banner(const char *line, size_t length);
/* The line after the banner: "  0  64091                        :tick-60s". */
bool fg_dtrace_is_probe_line(const char *line, size_t length);

#endif
