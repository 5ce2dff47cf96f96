/*
 * collapse_trace.c - the parser shared by fg-collapse-dtrace and
 * fg-collapse-stap, plugged into the collapse driver (collapse.c): frames
 * one a line, leaf first, each stack ended by a count line.
 *
 * Every line is one of: blank (ignored), a count (ends the stack), a line
 * that looks like a number but is no count, or holds control characters
 * (skipped with a warning: it is neither a frame nor a count), or a frame,
 * which the format's cleaner (collapse_dtrace.c, collapse_stap.c) turns
 * into one or more frames of the stack builder. A stack is complete only at
 * its count line, so a state keeps the pending frames from one chunk to the
 * next and never needs more than the current line: memory grows with the
 * deepest stack, never with the input (FG_TRACE_STACK_MAX bounds a stack
 * that no count line ends). Right after a count line nothing is pending,
 * which makes the next line a place where the driver may cut the input.
 */
#include <stdio.h>
#include <stdlib.h>

#include "collapse_trace.h"

struct trace_state {
	const fg_trace_options *options;
	fg_stack_builder frames;   /* the pending stack, leaf first */
	uint64_t pending_lines;    /* frame lines in it; 0: nothing pending */
	bool too_long;             /* the pending stack outgrew FG_TRACE_STACK_MAX */
	bool after_banner;         /* the last line was a DTrace banner */
};

void *fg_trace_config_new(const fg_trace_options *options)
{
	fg_trace_options *copy = malloc(sizeof(*copy));
	if (copy != NULL)
		*copy = *options;
	return copy;
}

static void *state_new(void *config)
{
	struct trace_state *t = calloc(1, sizeof(*t));
	if (t == NULL)
		return NULL;
	t->options = config;
	fg_stack_builder_init(&t->frames);
	return t;
}

static void state_free(void *state)
{
	struct trace_state *t = state;
	fg_stack_builder_free(&t->frames);
	free(t);
}

static void forget_stack(struct trace_state *t)
{
	fg_stack_builder_clear(&t->frames);
	t->pending_lines = 0;
	t->too_long = false;
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

/* Whether a trimmed line is a count line: digits only. */
static bool is_count(const char *start, const char *end)
{
	const char *p = start;
	while (p < end && fg_is_digit((unsigned char)*p))
		p++;
	return p == end && start < end;
}

static size_t find_boundary(const void *config, const char *text, size_t length)
{
	const char *end = text + length;
	for (const char *line = text; line < end;) {
		const char *newline = memchr(line, '\n', (size_t)(end - line));
		const char *stop = newline != NULL ? newline : end;
		const char *start = line;
		fg_trace_trim(&start, &stop);
		if (is_count(start, stop))
			return newline != NULL ? (size_t)(newline + 1 - text) : length;
		line = newline != NULL ? newline + 1 : end;
	}
	return length;
}

static int end_stack(struct trace_state *t, const char *digits, size_t length,
		     fg_collapse_chunk *chunk, uint64_t line)
{
	fg_count count;
	const char *stack;
	size_t stack_length;
	int rc = 0;
	if (t->too_long) {
		fg_collapse_warn(chunk->report, line, "stack longer than %u bytes ignored",
				 FG_TRACE_STACK_MAX);
	} else if (t->pending_lines == 0) {
		fg_collapse_warn(chunk->report, line, "count with no frames before it ignored");
	} else if (fg_count_parse(digits, length, &count) != 0) {
		fg_collapse_warn(chunk->report, line, "count beyond 2^64 - 1: stack ignored");
	} else if ((rc = fg_stack_builder_join(&t->frames, NULL, 0, &stack, &stack_length)) == 0) {
		rc = fg_stacks_add(chunk->stacks, stack, stack_length, 0, count);
		if (rc == FG_ERANGE) {
			fg_collapse_warn(chunk->report, line,
					 "the counts of this stack add up beyond 2^64 - 1: count ignored");
			rc = 0;
		}
	}
	forget_stack(t);
	return rc;
}

/* One line (trimmed of its '\n'), line number `line` of the chunk. */
static int parse_line(struct trace_state *t, const char *start, const char *end,
		      fg_collapse_chunk *chunk, uint64_t line)
{
	fg_trace_trim(&start, &end);
	if (start == end)
		return 0;
	if (is_count(start, end))
		return end_stack(t, start, (size_t)(end - start), chunk, line);
	bool after_banner = t->after_banner;
	t->after_banner = false;
	if (has_control(start, end) || is_number_like(start, end)) {
		fg_collapse_warn(chunk->report, line, "neither a frame nor a count: line ignored");
		return 0;
	}
	bool dtrace = t->options->format == FG_TRACE_DTRACE;
	if (dtrace && t->pending_lines == 0) {
		if (fg_dtrace_is_banner(start, (size_t)(end - start))) {
			t->after_banner = true;
			return 0;
		}
		if (after_banner && fg_dtrace_is_probe_line(start, (size_t)(end - start)))
			return 0;
	}
	t->pending_lines++;
	if (t->too_long)
		return 0;
	int rc = dtrace ? fg_dtrace_clean_frame(start, (size_t)(end - start),
						t->options->include_offset, &t->frames)
			: fg_stap_clean_frame(start, (size_t)(end - start), &t->frames);
	if (rc == 0 && t->frames.length > FG_TRACE_STACK_MAX) {
		/* Drop the bytes, keep reading: the count line will say. */
		fg_stack_builder_clear(&t->frames);
		t->too_long = true;
	}
	return rc;
}

static int parse(void *state, fg_collapse_chunk *chunk)
{
	struct trace_state *t = state;
	const char *text = chunk->text, *end = text + chunk->length;
	uint64_t line = 0;
	int rc = 0;
	while (text < end && rc == 0) {
		const char *newline = memchr(text, '\n', (size_t)(end - text));
		const char *stop = newline != NULL ? newline : end;
		rc = parse_line(t, text, stop, chunk, ++line);
		text = newline != NULL ? newline + 1 : end;
	}
	chunk->lines = line;
	if (chunk->end_of_input) {
		if (t->pending_lines != 0)
			fg_collapse_warn(chunk->report, line,
					 "%llu frame line%s at the end, with no count line after %s, ignored",
					 (unsigned long long)t->pending_lines,
					 t->pending_lines == 1 ? "" : "s",
					 t->pending_lines == 1 ? "it" : "them");
		forget_stack(t);
		t->after_banner = false;
	}
	return rc;
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

const fg_collapse_parser fg_trace_parser = {
	.name = "trace",
	.config_free = free,
	.state_new = state_new,
	.state_free = state_free,
	.find_boundary = find_boundary,
	.parse = parse,
};

fg_collapse *fg_trace_collapse_new(const fg_trace_options *options, unsigned threads,
				   const fg_warner *warner, fg_error *err)
{
	return fg_collapse_new(&fg_trace_parser, fg_trace_config_new(options), threads,
			       warner, err);
}

int fg_trace_collapse(const fg_trace_options *options, const char *const *paths,
		      size_t count, const char *output, unsigned threads,
		      const fg_warner *warner, fg_error *err)
{
	fg_collapse *c = fg_trace_collapse_new(options, threads, warner, err);
	if (c == NULL)
		return FG_ENOMEM;
	int rc = fg_collapse_run(c, paths, count, output, err);
	fg_collapse_free(c);
	return rc;
}
