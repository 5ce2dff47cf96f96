/*
 * collapse_trace.c - the parser shared by fg-collapse-dtrace and
 * fg-collapse-stap, plugged into the collapse driver (collapse.c): frames
 * one a line, leaf first, each stack ended by a count line.
 *
 * Every line is one of: blank (ignored, but it ends a spoilt stack), a
 * count (ends the stack; with no frames before it, the sample had an empty
 * stack and is kept as one, as the original tools keep it), a line that
 * looks like a number but is no whole count ("-3" of a DTrace sum, "1.5":
 * it stands where a count goes, so it ends its stack, which is dropped
 * with a warning, instead of being glued to the next entry's frames), a
 * line with control characters (a frame gone bad: its stack is dropped
 * with a warning, up to the next count line or blank line, where entries
 * end, rather than joined without it, a made-up path), the tracer's own
 * text (the format's rules say which: DTrace's and SystemTap's banners
 * and messages; lines flush left where a stack starts are told by the
 * lines after them, FG_TRACE_MAYBE), or a frame, which the format's rules
 * (collapse_dtrace.c, collapse_stap.c) turn into one or more frames of
 * the stack builder. A stack is complete only at
 * its count line, so a state keeps the pending frames from one chunk to the
 * next and never needs more than the current line: memory grows with the
 * deepest stack, never with the input (FG_TRACE_STACK_MAX bounds a stack
 * that no count line ends). Right after a count line nothing is pending,
 * which makes the next line a place where the driver may cut the input.
 */
#include <stdio.h>
#include <stdlib.h>

#include "collapse_trace.h"

/* The formats' rules, by fg_trace_format. */
static const fg_trace_rules *const rules_of_format[] = {
	[FG_TRACE_DTRACE] = &fg_dtrace_rules,
	[FG_TRACE_STAP] = &fg_stap_rules,
};

typedef struct trace_config {
	fg_trace_options options;
	const fg_trace_rules *rules;
} trace_config;

struct trace_state {
	const trace_config *config;
	fg_trace_stack pending;    /* the pending stack; its lines are frame lines */
	bool spoilt;               /* the pending stack had a line with control characters */
	bool tentative;            /* its lines may all be text, not frames (FG_TRACE_MAYBE) */
	unsigned memory;           /* the format rules' own state */
};

void *fg_trace_config_new(const fg_trace_options *options)
{
	if ((size_t)options->format >= sizeof(rules_of_format) / sizeof(*rules_of_format))
		return NULL;
	trace_config *copy = malloc(sizeof(*copy));
	if (copy != NULL) {
		copy->options = *options;
		copy->rules = rules_of_format[options->format];
	}
	return copy;
}

static void *state_new(void *config)
{
	struct trace_state *t = calloc(1, sizeof(*t));
	if (t == NULL)
		return NULL;
	t->config = config;
	fg_trace_stack_init(&t->pending);
	return t;
}

static void state_free(void *state)
{
	struct trace_state *t = state;
	fg_trace_stack_free(&t->pending);
	free(t);
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

/* Nothing pending from here on. */
static void drop_pending(struct trace_state *t)
{
	fg_trace_stack_clear(&t->pending);
	t->spoilt = false;
	t->tentative = false;
}

static int end_stack(struct trace_state *t, const char *digits, size_t length,
		     fg_collapse_chunk *chunk, uint64_t line)
{
	fg_count count;
	const char *stack;
	size_t stack_length;
	int rc = 0;
	if (t->spoilt) {
		/* (warned about at its bad line) */
	} else if (t->pending.too_long) {
		fg_collapse_warn(chunk->report, line, "stack longer than %u bytes ignored",
				 FG_TRACE_STACK_MAX);
	} else if (fg_count_parse(digits, length, &count) != 0) {
		fg_collapse_warn(chunk->report, line, "count beyond 2^64 - 1 or with more than 18 decimals: stack ignored");
	} else if ((rc = fg_stack_builder_join(&t->pending.frames, NULL, 0, &stack, &stack_length)) == 0) {
		rc = fg_collapse_add(chunk, line, stack, stack_length, count);
	}
	drop_pending(t);
	t->memory = 0; /* (the driver may cut the input after a count line) */
	return rc;
}

int fg_trace_flush_left(const fg_trace_line *line)
{
	if (line->end - line->start == 2 && line->start[0] == '^' && line->start[1] == 'C') {
		fg_collapse_warn(line->chunk->report, line->number,
				 "not indented like a stack frame: header line ignored");
		return FG_TRACE_SKIP;
	}
	return FG_TRACE_MAYBE; /* (the next lines tell) */
}

void fg_trace_pass_message(const fg_trace_line *line, const char *what)
{
	char message[160];
	size_t n = 0;
	for (const char *p = line->start; p < line->end && n < sizeof(message) - 1; p++)
		message[n++] = *p >= 0x20 && *p < 0x7f ? *p : '?';
	message[n] = '\0';
	fg_collapse_warn(line->chunk->report, line->number, "%s: %s", what, message);
}

/*
 * Drops the pending lines, which no count line ended, with a warning
 * saying where they stopped: frame lines, or lines that were text (still
 * tentative; FG_TRACE_MAYBE: "Done." after the last stack) whose warning
 * is at the line that showed it, not at theirs (they may be in a block
 * read before: named from here, the message is the same for any -j).
 */
static void drop_unended(struct trace_state *t, fg_collapse_chunk *chunk, uint64_t line,
			 const char *where)
{
	unsigned long long n = t->pending.lines;
	if (t->tentative && n == 1)
		fg_collapse_warn(chunk->report, line, "a line not indented like a stack frame %s: "
				 "header line ignored", where);
	else if (t->tentative)
		fg_collapse_warn(chunk->report, line, "%llu lines not indented like stack frames %s: "
				 "header lines ignored", n, where);
	else if (n != 0 && !t->spoilt) /* (a spoilt one was reported) */
		fg_collapse_warn(chunk->report, line,
				 "%llu frame line%s %s, with no count line after %s, ignored",
				 n, n == 1 ? "" : "s", where, n == 1 ? "it" : "them");
	drop_pending(t);
}

/* One line (trimmed of its '\n'), line number `line` of the chunk. */
static int parse_line(struct trace_state *t, const char *raw, const char *raw_end,
		      fg_collapse_chunk *chunk, uint64_t line)
{
	const char *start = raw, *end = raw_end;
	fg_trace_trim(&start, &end);
	if (start == end) {
		if (t->spoilt) /* (entries are separated by blank lines) */
			drop_pending(t);
		return 0;
	}
	if (is_count(start, end))
		return end_stack(t, start, (size_t)(end - start), chunk, line);
	if (is_number_like(start, end)) {
		/* Where a count goes: it ends its stack, dropped. */
		if (t->spoilt)
			; /* (reported at its bad line) */
		else if (t->pending.lines == 0)
			fg_collapse_warn(chunk->report, line, "not a whole count: line ignored");
		else
			fg_collapse_warn(chunk->report, line,
					 "not a whole count: the stack it ends (%llu frame line%s) ignored",
					 (unsigned long long)t->pending.lines, t->pending.lines == 1 ? "" : "s");
		drop_pending(t);
		return 0;
	}
	if (has_control(start, end)) {
		if (!t->spoilt)
			fg_collapse_warn(chunk->report, line, "control characters in a frame: its stack "
					 "ignored, up to the next count or blank line");
		t->spoilt = true;
		t->tentative = false;
		t->pending.lines++; /* (pending: the lines after it are its frames) */
		return 0;
	}
	const fg_trace_rules *rules = t->config->rules;
	if (rules->is_not_frame != NULL) {
		/* While the stack's lines may all be text, this one is asked as
		 * if it started a stack: its kind says what they were. */
		bool pending = t->pending.lines != 0 && !t->tentative;
		fg_trace_line l = {raw, raw_end, start, end, pending, chunk, line};
		int kind = rules->is_not_frame(&l, &t->memory);
		if (kind == FG_TRACE_MAYBE) {
			t->tentative = true; /* (the rules say it of a stack's first lines only) */
		} else if (t->tentative && kind == FG_TRACE_FRAME) {
			/* A frame follows: indented, it shows the lines before it
			 * text; flush left, the stack's first frames (nothing tells
			 * a greeting before frames flush left from a frame). */
			if (fg_is_space((unsigned char)*raw))
				drop_unended(t, chunk, line, "before this line");
			t->tentative = false;
		} else if (kind == FG_TRACE_CUT) {
			drop_unended(t, chunk, line, "before this line");
		}
		if (kind != FG_TRACE_FRAME && kind != FG_TRACE_MAYBE)
			return 0;
	}
	t->pending.lines++;
	if (t->pending.too_long || t->spoilt)
		return 0;
	int rc = rules->clean_frame(start, (size_t)(end - start), &t->config->options, &t->pending.frames);
	return fg_trace_stack_pushed(&t->pending, rc); /* the count line says if it is too long */
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
		drop_unended(t, chunk, line, "at the end");
		t->memory = 0;
	}
	return rc;
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
