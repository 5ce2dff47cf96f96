/*
 * trace_frame.h - the small frame helpers every line-oriented collapser
 * shares (DTrace, SystemTap): trimming, a byte class for one-pass scans,
 * and pushing a cleaned frame. A leaf: it uses nothing but
 * internal.h, and no parser's rules live here. Internal to libfolded.
 */
#ifndef FG_TRACE_FRAME_H
#define FG_TRACE_FRAME_H

#include <stdbool.h>
#include <stddef.h>

#include "internal.h"

/* Narrows [*start, *end) to drop whitespace at both ends. */
static inline void fg_trace_trim(const char **start, const char **end)
{
	/* DTrace indents every line by a dozen spaces: skip 8 at a time. */
	uint64_t eight;
	while (*end - *start >= 8 && (memcpy(&eight, *start, 8), eight == 0x2020202020202020ull))
		*start += 8;
	while (*start < *end && fg_is_space((unsigned char)**start))
		(*start)++;
	while (*end > *start && fg_is_space((unsigned char)(*end)[-1]))
		(*end)--;
}

/*
 * The bytes the frame rules look at, so that a cleaner finds them all in
 * one pass over a frame (frames are short and there are many: a pass per
 * rule would cost more than the rules).
 */
enum {
	FG_TRACE_COLON = 1,      /* ':' (C++ "::") */
	FG_TRACE_OPEN = 2,       /* '(' and '<' (C++ arguments, templates) */
	FG_TRACE_DASH = 4,       /* '-' ("->" inline chains) */
	FG_TRACE_SEMICOLON = 8,  /* ';' (the folded separator) */
	FG_TRACE_PLUS = 16,      /* '+' (offsets) */
};
extern const unsigned char fg_trace_byte_class[256];

/*
 * Pushes one frame named [name, name + length) and then suffix (may be
 * NULL) onto b: an empty name becomes "-", and ';' (the folded format's
 * separator) becomes ':' (pass semicolons = false when the name holds
 * none, to save the search). Returns 0 or FG_ENOMEM.
 */
int fg_trace_push_frame(fg_stack_builder *b, const char *name, size_t length,
			const char *suffix, bool semicolons);

#endif
