/*
 * collapse_trace.h - how a trace format plugs into the trace parser
 * (collapse_trace.c), internal to libfolded.
 *
 * "Trace" text is frames one a line, leaf first, each stack ended by a
 * line holding only its count: DTrace aggregations and SystemTap's
 * print_stack(). The parser owns the shared shape (blank lines, counts,
 * pending frames, warnings); a format brings its rules in a table, as
 * the collapse driver takes parsers (fg_collapse_parser): how one frame
 * line becomes frames, and optionally which lines are the tracer's own
 * (headers, banners, messages) and never frames. collapse_dtrace.c and
 * collapse_stap.c each define one table; neither calls the parser, and
 * the parser knows no format's rules.
 */
#ifndef FG_COLLAPSE_TRACE_H
#define FG_COLLAPSE_TRACE_H

#include "trace_frame.h"

/* One line, as the parser hands it to a format's rules. */
typedef struct fg_trace_line {
	const char *raw, *raw_end;  /* the whole line, without its '\n' */
	const char *start, *end;    /* trimmed: not empty, not a count */
	bool pending;               /* frames of a stack came before it */
	fg_collapse_chunk *chunk;   /* for fg_collapse_warn */
	uint64_t number;            /* its line number in the chunk */
} fg_trace_line;

enum { FG_TRACE_FRAME, FG_TRACE_SKIP, FG_TRACE_CUT, FG_TRACE_MAYBE };

typedef struct fg_trace_rules {
	/*
	 * Whether the line is the tracer's own text rather than a frame:
	 * FG_TRACE_FRAME (it is a frame), FG_TRACE_SKIP (skipped; the rule
	 * warns if it should), FG_TRACE_CUT (skipped, and it starts new
	 * output, so frames pending before it were cut off: the parser drops
	 * them with a warning) or, where a stack is about to start, for a line
	 * flush left that is not shaped like a frame, FG_TRACE_MAYBE: a frame
	 * named without decoration (a script's symname(), a Java frame of
	 * jstack) or text around the stacks ("Tracing... Hit Ctrl-C to end.").
	 * The parser takes it, and any such lines after it, as the start of a
	 * stack until a line says which: an indented frame makes them text,
	 * skipped with a warning; a count or a frame flush left makes them
	 * frames (nothing tells a greeting before frames flush left from a
	 * frame). memory is the format's own word of state, kept from line to
	 * line, 0 at the start of each input and after each count line. NULL:
	 * every line is a frame.
	 */
	int (*is_not_frame)(const fg_trace_line *line, unsigned *memory);
	/* Cleans one frame line and pushes its frame(s): 0 or FG_ENOMEM. */
	int (*clean_frame)(const char *line, size_t length, const fg_trace_options *options,
			   fg_stack_builder *b);
} fg_trace_rules;

/* What a format's is_not_frame says of a line flush left, where a stack
 * is about to start, that is not shaped like one of its frames: the
 * terminal's "^C" is never a frame (skipped, with a warning); anything
 * else FG_TRACE_MAYBE. */
int fg_trace_flush_left(const fg_trace_line *line);

/* Passes a line of the tracer's own messages on as a warning: "WHAT:
 * TEXT", the text in printable ASCII (it goes to a terminal), cut at 159
 * bytes. */
void fg_trace_pass_message(const fg_trace_line *line, const char *what);

extern const fg_trace_rules fg_dtrace_rules;
extern const fg_trace_rules fg_stap_rules;

#endif
