/*
 * collapse_dtrace.c - the frame rules of fg-collapse-dtrace: how one line of
 * DTrace stack()/ustack()/jstack() output becomes frames, and how DTrace's
 * banner is recognised. The parser around them is collapse_trace.c.
 *
 * stackcollapse.pl cut every frame at its last '+', which also cut names
 * that contain one (libstdc++.so.6`..., operator+); here only a trailing
 * "+0xHEX" offset is removed. It dropped a leading 'L' from every name
 * (LLVM`f became LVM`f); here only from JVM names, which hold a '/'.
 */
#include "collapse_trace.h"

/* The start of a trailing "+0xHEX" in [start, end), or end if none. */
static const char *find_offset(const char *start, const char *end)
{
	const char *p = end;
	while (p > start && fg_trace_is_hex((unsigned char)p[-1]))
		p--;
	if (p == end || p - start < 3 || p[-1] != 'x' || p[-2] != '0' || p[-3] != '+')
		return end;
	return p - 3;
}

/* A JVM class name: "Ljava/lang/Thread;::run" loses its 'L'. */
static void strip_jvm_l(const char **start, const char *end)
{
	if (end - *start > 1 && **start == 'L' && memchr(*start, '/', (size_t)(end - *start)) != NULL)
		(*start)++;
}

int fg_dtrace_clean_frame(const char *line, size_t length, bool include_offset,
			  fg_stack_builder *b)
{
	const char *start = line, *end = line + length;
	fg_trace_trim(&start, &end);
	if (!include_offset)
		end = find_offset(start, end);

	/*
	 * One pass finds the first "::", the last '(' or '<' after it (where
	 * C++ arguments and template tails begin: the name ends there), and
	 * whether "->" or ';' occur.
	 */
	const char *colons = NULL, *cut = end;
	bool arrows = false, semicolons = false;
	for (const char *p = start; p < end; p++) {
		unsigned char c = fg_trace_byte_class[(unsigned char)*p];
		if (c == 0)
			continue;
		if (c == FG_TRACE_COLON && colons == NULL && p + 1 < end && p[1] == ':')
			colons = p++;
		else if (c == FG_TRACE_OPEN && colons != NULL)
			cut = p;
		else if (c == FG_TRACE_DASH && p + 1 < end && p[1] == '>')
			arrows = true;
		else if (c == FG_TRACE_SEMICOLON)
			semicolons = true;
	}
	end = cut;

	/*
	 * "a->b->c": a calls b, inlined, which calls c, inlined. Root first
	 * that is a;b_[i];c_[i], and as the builder takes frames leaf first,
	 * the pieces are pushed from the last one back.
	 */
	const char *piece_end = end;
	for (;;) {
		const char *arrow = NULL;
		for (const char *p = piece_end; arrows && p - start >= 2; p--)
			if (p[-2] == '-' && p[-1] == '>') {
				arrow = p - 2;
				break;
			}
		const char *piece = arrow != NULL ? arrow + 2 : start;
		strip_jvm_l(&piece, piece_end);
		int rc = fg_trace_push_frame(b, piece, (size_t)(piece_end - piece),
					     arrow != NULL ? "_[i]" : NULL, semicolons);
		if (rc != 0 || arrow == NULL)
			return rc;
		piece_end = arrow;
	}
}

bool fg_dtrace_is_banner(const char *line, size_t length)
{
	const char *end = line + length;
	fg_trace_trim(&line, &end);
	return end - line >= 3 && memcmp(line, "CPU", 3) == 0 &&
	       memmem(line, (size_t)(end - line), "FUNCTION:NAME", 13) != NULL;
}

bool fg_dtrace_is_probe_line(const char *line, size_t length)
{
	/* "CPU-NUMBER PROBE-ID [FUNCTION]:NAME" */
	const char *p = line, *end = line + length;
	for (int field = 0; field < 2; field++) {
		while (p < end && fg_is_space((unsigned char)*p))
			p++;
		const char *digits = p;
		while (p < end && fg_is_digit((unsigned char)*p))
			p++;
		if (p == digits || p == end || !fg_is_space((unsigned char)*p))
			return false;
	}
	return memchr(p, ':', (size_t)(end - p)) != NULL;
}
