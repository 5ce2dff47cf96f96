/*
 * collapse_stap.c - the frame rules of fg-collapse-stap: how one line of
 * SystemTap print_stack()/print_ustack() output becomes a frame, and which
 * lines are not frames. The parser around them is collapse_trace.c.
 *
 * stackcollapse-stap.pl took every line for a frame, so what a script
 * printed before its stacks ("Tracing... Hit Ctrl-C to end.") and
 * SystemTap's messages in output captured with 2>&1 ("WARNING: ...")
 * became frames of the first stack. Here a "WARNING:" or "ERROR:" line is
 * never a frame (it is passed on as a warning), and wherever a stack is
 * about to start, a line flush left that is not shaped like a frame (an
 * address "0x...", an offset "+0xOFF/0xSIZE", a trailing " [module]":
 * print_stack indents its frames, sprint_stack's have the offset) is
 * skipped with a warning if the lines after it show it text
 * (FG_TRACE_MAYBE): indented frames after it; before frames flush left
 * and a count, as a script's symname() prints them, it is a frame.
 *
 * SystemTap prints " 0xADDR : func+0xOFF/0xSIZE [module]", or
 * " 0xADDR [module+0xOFF]" when it knows no name, or " 0xADDR".
 * stackcollapse-stap.pl cut each line at its last '+' and then took what
 * follows the last " : ", which mangled names and modules holding a '+'
 * ([libstdc++.so.6], operator+) and kept the module of frames without an
 * offset. Here exactly the three decorations are removed: the "0xADDR : "
 * prefix, the offset and the module.
 */
#include "collapse_trace.h"

/* Skips "0x" and hex digits at p; returns p itself if there are none. */
static const char *skip_hex_number(const char *p, const char *end)
{
	if (end - p < 3 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X') || !fg_is_hex((unsigned char)p[2]))
		return p;
	for (p += 2; p < end && fg_is_hex((unsigned char)*p); p++)
		;
	return p;
}

/* Whether [p, end) starts with "+0xOFF/0xSIZE" followed by the end or " [". */
static bool is_offset_at(const char *p, const char *end)
{
	if (p >= end || *p != '+')
		return false;
	const char *q = skip_hex_number(p + 1, end);
	if (q == p + 1 || q >= end || *q != '/')
		return false;
	const char *r = skip_hex_number(q + 1, end);
	return r > q + 1 && (r == end || (end - r >= 2 && r[0] == ' ' && r[1] == '['));
}

int fg_stap_clean_frame(const char *line, size_t length, fg_stack_builder *b)
{
	const char *start = line, *end = line + length;
	fg_trace_trim(&start, &end);

	const char *after_address = skip_hex_number(start, end);
	if (after_address != start && end - after_address >= 3 &&
	    memcmp(after_address, " : ", 3) == 0)
		start = after_address + 3;

	/* One pass: the offset ends the name (and the module goes with it). */
	bool semicolons = false;
	for (const char *p = start; p < end; p++) {
		unsigned char c = fg_trace_byte_class[(unsigned char)*p];
		if (c == FG_TRACE_SEMICOLON)
			semicolons = true;
		else if (c == FG_TRACE_PLUS && is_offset_at(p, end))
			return fg_trace_push_frame(b, start, (size_t)(p - start), NULL, semicolons);
	}
	/* No offset: a trailing " [module]" still goes. */
	if (end > start && end[-1] == ']')
		for (const char *p = end - 1; p - start >= 2; p--)
			if (p[-2] == ' ' && p[-1] == '[') {
				end = p - 2;
				break;
			}
	return fg_trace_push_frame(b, start, (size_t)(end - start), NULL, semicolons);
}

static int clean_frame(const char *line, size_t length, const fg_trace_options *options,
		       fg_stack_builder *b)
{
	return fg_stap_clean_frame(line, length, b);
}

/* Whether a trimmed line is shaped like a frame: an address first, an
 * offset "+0xOFF/0xSIZE", or a trailing " [module]". */
static bool is_frame_shaped(const char *start, const char *end)
{
	if (skip_hex_number(start, end) != start)
		return true;
	if (end - start >= 3 && end[-1] == ']' && memmem(start, (size_t)(end - start), " [", 2) != NULL)
		return true;
	for (const char *p = start; (p = memchr(p, '+', (size_t)(end - p))) != NULL; p++) {
		const char *q = skip_hex_number(p + 1, end);
		if (q > p + 1 && q < end && *q == '/' && skip_hex_number(q + 1, end) > q + 1)
			return true;
	}
	return false;
}

static int is_not_frame(const fg_trace_line *l, unsigned *memory)
{
	(void)memory;
	size_t length = (size_t)(l->raw_end - l->raw);
	if (fg_has_prefix(l->raw, length, "WARNING:") || fg_has_prefix(l->raw, length, "ERROR:")) {
		fg_trace_pass_message(l, "SystemTap's message, not a frame");
		return FG_TRACE_SKIP;
	}
	if (l->pending || fg_is_space((unsigned char)l->raw[0]) || is_frame_shaped(l->start, l->end))
		return FG_TRACE_FRAME;
	return fg_trace_flush_left(l); /* (a name alone, or a header) */
}

const fg_trace_rules fg_stap_rules = {
	.is_not_frame = is_not_frame,
	.clean_frame = clean_frame,
};
