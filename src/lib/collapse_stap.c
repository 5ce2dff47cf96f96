/*
 * collapse_stap.c - the frame rules of fg-collapse-stap: how one line of
 * SystemTap print_stack()/print_ustack() output becomes a frame. The parser
 * around them is collapse_trace.c; every line it hands over is a frame.
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

const fg_trace_rules fg_stap_rules = {
	.is_not_frame = NULL,
	.clean_frame = clean_frame,
};
