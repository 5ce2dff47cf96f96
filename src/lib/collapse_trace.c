/*
 * collapse_trace.c - the parser shared by fg-collapse-dtrace and
 * fg-collapse-stap: frames one a line, leaf first, each stack ended by a
 * count line.
 *
 * Every line is one of: blank (ignored), a count (ends the stack), a line
 * that looks like a number but is no count, or holds control characters
 * (skipped with a warning: it is neither a frame nor a count), or a frame,
 * which the format's cleaner (collapse_dtrace.c, collapse_stap.c) turns
 * into one or more frames of the stack builder. A stack is complete only at
 * its count line, so the parser keeps the pending frames between calls and
 * needs nothing but the current line: it streams, and memory grows with the
 * deepest stack, never with the input (FG_TRACE_STACK_MAX bounds a stack
 * that no count line ends).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "collapse_trace.h"

struct fg_trace_parser {
	fg_trace_options options;
	fg_stack_builder frames;   /* the pending stack, leaf first */
	const char *file;          /* where the pending stack started */
	uint64_t first_line;       /* its first frame's line; 0: no frames pending */
	uint64_t pending_lines;    /* frame lines in the pending stack */
	bool too_long;             /* the pending stack outgrew FG_TRACE_STACK_MAX */
	bool after_banner;         /* the last line was a DTrace banner */
	uint64_t skipped;          /* malformed lines and stacks */
};

fg_trace_parser *fg_trace_parser_new(const fg_trace_options *options)
{
	fg_trace_parser *p = calloc(1, sizeof(*p));
	if (p == NULL)
		return NULL;
	p->options = *options;
	fg_stack_builder_init(&p->frames);
	return p;
}

void fg_trace_parser_free(fg_trace_parser *p)
{
	if (p == NULL)
		return;
	fg_stack_builder_free(&p->frames);
	free(p);
}

uint64_t fg_trace_parser_skipped(const fg_trace_parser *p) { return p->skipped; }

/* Counts one skipped thing and passes the first few warnings on. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static void skip(fg_trace_parser *p, const fg_warner *warner, const char *file,
		 uint64_t line, const char *format, ...)
{
	if (++p->skipped > FG_TRACE_WARNINGS_MAX || warner == NULL || warner->warn == NULL)
		return;
	char message[256];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof(message), format, args);
	va_end(args);
	if (p->skipped == FG_TRACE_WARNINGS_MAX) {
		size_t used = strlen(message);
		snprintf(message + used, sizeof(message) - used,
			 " (further warnings are not shown)");
	}
	warner->warn(warner->context, file, line, message);
}

static void forget_stack(fg_trace_parser *p)
{
	fg_stack_builder_clear(&p->frames);
	p->first_line = 0;
	p->pending_lines = 0;
	p->too_long = false;
}

void fg_trace_parser_end(fg_trace_parser *p, const fg_warner *warner)
{
	if (p->first_line != 0)
		skip(p, warner, p->file, p->first_line,
		     "%llu frame line%s with no count line after %s ignored",
		     (unsigned long long)p->pending_lines, p->pending_lines == 1 ? "" : "s",
		     p->pending_lines == 1 ? "it" : "them");
	forget_stack(p);
	p->after_banner = false;
}

/* Whether [p, end) holds a C0 control character other than tab. */
static bool has_control(const char *p, const char *end)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	/* Eight bytes at a time: a byte below 0x20 sets its high bit here. */
	for (; end - p >= 8; p += 8) {
		uint64_t x;
		memcpy(&x, p, 8);
		if (((x - ones * 0x20) & ~x & highs) != 0)
			break;
	}
	for (; p < end; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t')
			return true;
	return false;
}

/* A line that looks like a number: digits with signs, dots or exponents. */
static bool is_number_like(const char *p, const char *end)
{
	bool digit = false;
	for (; p < end; p++) {
		if (fg_is_digit((unsigned char)*p))
			digit = true;
		else if (!fg_is_space((unsigned char)*p) && *p != '.' && *p != '+' &&
			 *p != '-' && *p != 'e' && *p != 'E')
			return false;
	}
	return digit;
}

static int end_stack(fg_trace_parser *p, const char *digits, size_t length,
		     const char *file, uint64_t line, fg_stacks *into,
		     const fg_warner *warner, fg_error *err)
{
	fg_count count;
	const char *stack;
	size_t stack_length;
	if (p->too_long) {
		skip(p, warner, p->file, p->first_line,
		     "stack longer than %u bytes ignored", FG_TRACE_STACK_MAX);
	} else if (p->first_line == 0) {
		skip(p, warner, file, line, "count with no frames before it ignored");
	} else if (fg_count_parse(digits, length, &count) != 0) {
		skip(p, warner, file, line, "count beyond 2^64 - 1: stack ignored");
	} else {
		if (fg_stack_builder_join(&p->frames, NULL, 0, &stack, &stack_length) != 0)
			return fg_fail(err, FG_ENOMEM, "%s:%llu: out of memory", file,
				       (unsigned long long)line);
		int rc = fg_stacks_add(into, stack, stack_length, 0, count);
		if (rc == FG_ENOMEM)
			return fg_fail(err, rc, "%s:%llu: out of memory", file,
				       (unsigned long long)line);
		if (rc != 0)
			skip(p, warner, file, line, "the counts of this stack add up beyond 2^64 - 1: count ignored");
	}
	forget_stack(p);
	return 0;
}

int fg_trace_parser_line(fg_trace_parser *p, const char *line, size_t length,
			 const char *file, uint64_t line_number, fg_stacks *into,
			 const fg_warner *warner, fg_error *err)
{
	const char *start = line, *end = line + length;
	fg_trace_trim(&start, &end);
	if (start == end)
		return 0;
	bool after_banner = p->after_banner;
	p->after_banner = false;

	const char *q = start;
	while (q < end && fg_is_digit((unsigned char)*q))
		q++;
	if (q == end)
		return end_stack(p, start, (size_t)(end - start), file, line_number,
				 into, warner, err);
	if (has_control(start, end) || is_number_like(start, end)) {
		skip(p, warner, file, line_number, "neither a frame nor a count: line ignored");
		return 0;
	}

	bool dtrace = p->options.format == FG_TRACE_DTRACE;
	if (dtrace && p->first_line == 0) {
		if (fg_dtrace_is_banner(start, (size_t)(end - start))) {
			p->after_banner = true;
			return 0;
		}
		if (after_banner && fg_dtrace_is_probe_line(start, (size_t)(end - start)))
			return 0;
	}
	if (p->first_line == 0) {
		p->file = file;
		p->first_line = line_number;
	}
	p->pending_lines++;
	if (p->too_long)
		return 0;
	int rc = dtrace ? fg_dtrace_clean_frame(start, (size_t)(end - start),
						p->options.include_offset, &p->frames)
			: fg_stap_clean_frame(start, (size_t)(end - start), &p->frames);
	if (rc != 0)
		return fg_fail(err, rc, "%s:%llu: out of memory", file,
			       (unsigned long long)line_number);
	if (p->frames.length > FG_TRACE_STACK_MAX) {
		/* Keep the position, drop the bytes: the count line will say. */
		fg_stack_builder_clear(&p->frames);
		p->too_long = true;
	}
	return 0;
}

int fg_trace_parser_buffer(fg_trace_parser *p, const char *bytes, size_t length,
			   const char *file, uint64_t first_line, fg_stacks *into,
			   const fg_warner *warner, fg_error *err)
{
	const char *end = bytes + length;
	uint64_t number = first_line;
	while (bytes < end) {
		const char *newline = memchr(bytes, '\n', (size_t)(end - bytes));
		const char *stop = newline != NULL ? newline : end;
		int rc = fg_trace_parser_line(p, bytes, (size_t)(stop - bytes), file, number++,
					      into, warner, err);
		if (rc != 0)
			return rc;
		bytes = newline != NULL ? newline + 1 : end;
	}
	return 0;
}

const unsigned char fg_trace_byte_class[256] = {
	[':'] = FG_TRACE_COLON, ['('] = FG_TRACE_OPEN, ['<'] = FG_TRACE_OPEN,
	['-'] = FG_TRACE_DASH, [';'] = FG_TRACE_SEMICOLON, ['+'] = FG_TRACE_PLUS,
};

int fg_trace_push_frame(fg_stack_builder *b, const char *name, size_t length,
			const char *suffix, bool semicolons)
{
	if (length == 0) {
		name = "-";
		length = 1;
	}
	size_t start = b->length;
	if (fg_stack_builder_push(b, name, length) != 0 ||
	    (suffix != NULL && fg_stack_builder_append(b, suffix, strlen(suffix)) != 0))
		return FG_ENOMEM;
	if (semicolons)
		for (char *s = b->bytes + start, *stop = b->bytes + start + length;
		     (s = memchr(s, ';', (size_t)(stop - s))) != NULL; s++)
			*s = ':';
	return 0;
}

/* One input into stacks, line by line. */
static int collapse_input(fg_trace_parser *p, const char *path, fg_stacks *into,
			  const fg_warner *warner, fg_error *err)
{
	fg_input *in = fg_input_open(path, err);
	if (in == NULL)
		return err != NULL ? err->code : FG_EIO;
	const char *name = fg_input_name(in), *line;
	size_t length;
	int rc;
	while ((rc = fg_input_read_line(in, &line, &length, err)) > 0) {
		rc = fg_trace_parser_line(p, line, length, name, fg_input_line_number(in),
					  into, warner, err);
		if (rc != 0)
			break;
	}
	fg_trace_parser_end(p, warner);
	fg_input_close(in);
	return rc;
}

int fg_trace_collapse(const fg_trace_options *options, const char *const *paths,
		      size_t count, const char *output, unsigned jobs,
		      const fg_warner *warner, fg_error *err)
{
	static const char *const standard_input[] = {"-"};
	if (count == 0) {
		paths = standard_input;
		count = 1;
	}
	fg_stacks *stacks = fg_stacks_new();
	fg_trace_parser *p = fg_trace_parser_new(options);
	int rc = stacks == NULL || p == NULL ? fg_fail(err, FG_ENOMEM, "out of memory") : 0;
	for (size_t i = 0; i < count && rc == 0; i++)
		rc = collapse_input(p, paths[i], stacks, warner, err);
	if (rc == 0 && fg_trace_parser_skipped(p) > FG_TRACE_WARNINGS_MAX &&
	    warner != NULL && warner->warn != NULL) {
		char message[128];
		snprintf(message, sizeof(message), "%llu malformed lines or stacks skipped in all",
			 (unsigned long long)fg_trace_parser_skipped(p));
		warner->warn(warner->context, NULL, 0, message);
	}
	if (rc == 0) {
		fg_output *out = fg_output_open(output, err);
		if (out == NULL)
			rc = err != NULL ? err->code : FG_EIO;
		else if (fg_stacks_write(stacks, 1, out) == FG_ENOMEM) {
			fg_output_abort(out);
			rc = fg_fail(err, FG_ENOMEM, "out of memory");
		} else {
			rc = fg_output_commit(out, err); /* reports write errors too */
		}
	}
	if (rc == 0 && fg_stacks_size(stacks) == 0)
		rc = fg_fail(err, FG_EEMPTY, "no stacks found in the input");
	fg_trace_parser_free(p);
	fg_stacks_free(stacks);
	return rc;
}
