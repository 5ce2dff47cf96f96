/*
 * collapse_dtrace.c - the rules of fg-collapse-dtrace: how one line of
 * DTrace stack()/ustack()/jstack() output becomes frames, and which lines
 * are DTrace's own. The parser around them is collapse_trace.c.
 *
 * Output captured from a terminal or with 2>&1 starts with DTrace's
 * messages ("dtrace: description '...' matched 2 probes"), a banner
 * ("CPU     ID                    FUNCTION:NAME") and the line of the probe
 * that fired ("  1  75195                        :tick-60s"); `dtrace -q`
 * prints none of them. stackcollapse.pl skipped exactly three lines, which
 * loses the first frames of quiet output. Here, wherever a stack is about to
 * start, those lines are recognised and skipped, and so is any line not
 * indented like a stack frame (DTrace indents every frame), with a warning
 * for the ones that are none of the known kinds, unless it is shaped like
 * a frame ("module`function", a bare "0xADDRESS"), or the lines after it
 * show it a frame (FG_TRACE_MAYBE: a Java frame of jstack, flush left
 * before more frames flush left): `-x stackindent=0` prints frames flush
 * left. A "dtrace:" line is never
 * a frame, even inside a stack (messages printed mid-run, such as
 * "dtrace: 12 dynamic variable drops"): it is passed on as a warning.
 *
 * stackcollapse.pl cut every frame at its last '+', which also cut names
 * that contain one (libstdc++.so.6`..., operator+); here only a trailing
 * "+0xHEX" offset is removed. It dropped a leading 'L' from every name
 * (LLVM`f became LVM`f); here only from JVM names, which hold a '/'.
 */
#include "collapse_trace.h"

#include <stdio.h>

/* The start of a trailing "+0xHEX" in [start, end), or end if none. */
static const char *find_offset(const char *start, const char *end)
{
	const char *p = end;
	while (p > start && fg_is_hex((unsigned char)p[-1]))
		p--;
	if (p == end || p - start < 3 || p[-1] != 'x' || p[-2] != '0' || p[-3] != '+')
		return end;
	return p - 3;
}

/*
 * A JVM class name, 'L', the class path, ';' ("Ljava/lang/Thread;::run"),
 * loses its 'L'. A '/' elsewhere does not make one: jstack's frame of a
 * class whose name starts with 'L' ("LoadTest.run(Ljava/lang/Object;)V",
 * "Launcher.main([Ljava/lang/String;)V") and a C name with a '/' in its
 * arguments keep theirs.
 */
static void strip_jvm_l(const char **start, const char *end)
{
	const char *p = *start;
	if (end - p < 2 || *p != 'L')
		return;
	bool slash = false;
	for (p++; p < end && *p != ';'; p++) {
		if (*p == '/')
			slash = true;
		else if (*p == '(' || *p == '.' || *p == '`' || fg_is_space((unsigned char)*p))
			return;
	}
	if (p < end && slash)
		(*start)++;
}

static int clean_frame(const char *line, size_t length, const fg_trace_options *options,
		       fg_stack_builder *b)
{
	return fg_dtrace_clean_frame(line, length, options->include_offset, b);
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

/* DTrace's banner "CPU     ID                    FUNCTION:NAME". */
static bool is_banner(const char *line, const char *end)
{
	return end - line >= 3 && memcmp(line, "CPU", 3) == 0 &&
	       memmem(line, (size_t)(end - line), "FUNCTION:NAME", 13) != NULL;
}

/*
 * The line of the probe that fired: "CPU-NUMBER PROBE-ID [FUNCTION]:NAME".
 * Right after the banner any text with a ':' will do; elsewhere (a script
 * that prints its aggregation every interval, "tick-1s { printa(@);
 * trunc(@); }", prints that line again before each printout) the rest must
 * be one word holding the ':', as DTrace prints it, so that no frame is
 * taken for one.
 */
static bool is_probe_line(const char *line, const char *end, bool after_banner)
{
	size_t n = (size_t)(end - line), at = 0;
	for (int field = 0; field < 2; field++) {
		size_t digits = fg_skip_space(line, at, n);
		at = fg_skip_digits(line, digits, n);
		if (at == digits || at == n || !fg_is_space((unsigned char)line[at]))
			return false;
	}
	if (after_banner)
		return memchr(line + at, ':', n - at) != NULL;
	size_t word = fg_skip_space(line, at, n), word_end = fg_skip_word(line, word, n);
	return fg_skip_space(line, word_end, n) == n && memchr(line + word, ':', word_end - word) != NULL;
}

/* "dtrace: description 'profile-997 ' matched 2 probes": the expected one. */
static bool is_description(const char *line, const char *end)
{
	return end - line >= 21 && memcmp(line, "dtrace: description ", 20) == 0;
}

/* A frame printed flush left (stackindent=0): "module`function[+0xOFF]"
 * or a bare "0xADDRESS", which no banner, message or prose is. */
static bool is_frame_shaped(const char *start, const char *end)
{
	if (memchr(start, '`', (size_t)(end - start)) != NULL)
		return true;
	if (end - start < 3 || start[0] != '0' || start[1] != 'x')
		return false;
	for (const char *p = start + 2; p < end; p++)
		if (!fg_is_hex((unsigned char)*p))
			return false;
	return true;
}

enum { AFTER_BANNER = 1 };

static int is_not_frame(const fg_trace_line *l, unsigned *memory)
{
	bool after_banner = (*memory & AFTER_BANNER) != 0;
	*memory &= ~(unsigned)AFTER_BANNER;
	if (l->raw_end - l->raw >= 7 && memcmp(l->raw, "dtrace:", 7) == 0) {
		if (!is_description(l->raw, l->raw_end))
			fg_trace_pass_message(l, "DTrace's message, not a frame");
		return FG_TRACE_SKIP;
	}
	if (is_banner(l->start, l->end)) {
		/* A second capture begins: frames pending were cut off. */
		*memory |= AFTER_BANNER;
		return l->pending ? FG_TRACE_CUT : FG_TRACE_SKIP;
	}
	if (l->pending)
		return FG_TRACE_FRAME;
	if (is_probe_line(l->start, l->end, after_banner))
		return FG_TRACE_SKIP;
	if (fg_is_space((unsigned char)l->raw[0]) || is_frame_shaped(l->start, l->end))
		return FG_TRACE_FRAME;
	return fg_trace_flush_left(l); /* (a Java frame, or a header) */
}

const fg_trace_rules fg_dtrace_rules = {
	.is_not_frame = is_not_frame,
	.clean_frame = clean_frame,
};
