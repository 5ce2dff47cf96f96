/*
 * trace_frame.h - the small frame helpers every line-oriented collapser
 * shares (DTrace, SystemTap, bpftrace): trimming, a byte class for
 * one-pass scans, pushing a cleaned frame, and the stack being built. A leaf: it uses nothing but
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

/*
 * The stack a line-oriented parser is building (DTrace, SystemTap,
 * bpftrace): its frames, leaf first; the lines it has taken; and whether
 * it outgrew FG_TRACE_STACK_MAX, in which case its bytes are dropped but
 * its lines still counted, so that the line that ends it can say why it
 * is ignored. Memory stays bounded whatever the input.
 */
typedef struct fg_trace_stack {
	fg_stack_builder frames;
	uint64_t lines;           /* lines of the stack so far (0: none open) */
	bool too_long;            /* frames outgrew FG_TRACE_STACK_MAX: dropped */
} fg_trace_stack;

void fg_trace_stack_init(fg_trace_stack *s);
void fg_trace_stack_free(fg_trace_stack *s);

/* Empties s for the next stack, keeping its memory. */
void fg_trace_stack_clear(fg_trace_stack *s);

/* To call after pushing frames onto s->frames, with the push's result:
 * a stack now beyond FG_TRACE_STACK_MAX loses its bytes and is marked
 * too_long. Returns rc. */
int fg_trace_stack_pushed(fg_trace_stack *s, int rc);

#endif
