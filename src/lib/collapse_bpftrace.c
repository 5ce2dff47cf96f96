/*
 * collapse_bpftrace.c - the parser of fg-collapse-bpftrace, plugged into
 * the collapse driver (collapse.c): the maps bpftrace prints at exit.
 *
 * A line machine with two states. Outside an entry only a line that opens
 * one ("@NAME[...") means anything: a one-line entry ("@[]: 5",
 * "@[sys_read]: 5") is folded at once if its key holds an (empty) stack,
 * and everything else there is skipped: banners, "^C", prompts, histogram
 * rows. Inside an entry, a line starting with ',' or ']' is key text
 * (fields between and after stacks, and at last "]: VALUE"), a blank line
 * is nothing (perf and raw modes end stacks with one), and every other
 * line is a frame. stackcollapse-bpftrace.pl knew only "@[" alone on a
 * line and a key that ends after the stack; its eleven failures are listed
 * in fg-collapse-bpftrace(1) and each has a test.
 *
 * Key text is split at ", " into fields. An empty field is a stack that
 * printed as nothing and adds no frame; the others become root frames in
 * key order. The frames of all stacks go into one builder in arrival
 * order, leaf first, so joining it reversed puts the key's last stack at
 * the root and its first at the leaf end, each root first.
 *
 * After a "]:" line nothing is pending, which makes the next line a place
 * where the driver may cut the input. A state keeps the open entry from
 * one chunk to the next; FG_TRACE_STACK_MAX bounds an entry that nothing
 * closes, so memory never grows with the input.
 */
#include <stdio.h>
#include <stdlib.h>

#include "buffer.h"
#include "trace_frame.h"

#define MAP_NAME_MAX 64   /* longer map names are cut in messages */

struct bpftrace_state {
	const fg_bpftrace_options *options;
	bool inside;               /* an entry is open */
	fg_trace_stack entry;      /* its frames, leaf first, stack after stack;
				    * its lines so far, the first included */
	fg_buffer fields;          /* its other key fields, "a;b", in key order */
	char map[MAP_NAME_MAX + 1]; /* "@name", for messages */
};

void *fg_bpftrace_config_new(const fg_bpftrace_options *options)
{
	fg_bpftrace_options *copy = malloc(sizeof(*copy));
	if (copy != NULL)
		*copy = *options;
	return copy;
}

static void *state_new(void *config)
{
	struct bpftrace_state *t = calloc(1, sizeof(*t));
	if (t == NULL)
		return NULL;
	t->options = config;
	fg_trace_stack_init(&t->entry);
	return t;
}

static void state_free(void *state)
{
	struct bpftrace_state *t = state;
	fg_trace_stack_free(&t->entry);
	fg_buffer_free(&t->fields);
	free(t);
}

static void forget_entry(struct bpftrace_state *t)
{
	fg_trace_stack_clear(&t->entry);
	t->fields.length = 0;
	t->inside = false;
}

/* ------------------------------------------------------------- frames */

/* The end of a leading run of hex digits at p (p itself if none). */
static const char *skip_hex(const char *p, const char *end)
{
	while (p < end && fg_is_hex((unsigned char)*p))
		p++;
	return p;
}

/* The '(' of a trailing " (module)" of [start, end) (end[-1] is ')'): the
 * one the last ')' closes, as a module replaced since it was loaded is
 * "(/usr/lib/libx.so.1 (deleted))"; where none does (a ')' in the path),
 * the last '('. NULL when it is not after a blank. */
static const char *module_open(const char *start, const char *end)
{
	if (end[-1] != ')' || end - start <= 3)
		return NULL;
	const char *open = end - 1;
	size_t depth = 1;
	while (open > start && depth > 0) {
		open--;
		if (*open == ')')
			depth++;
		else if (*open == '(')
			depth--;
	}
	if (depth > 0)
		for (open = end - 1; open > start && *open != '(';)
			open--;
	return open - start >= 2 && open[-1] == ' ' ? open : NULL;
}

/* The start of a "+OFF" ending [start, end) (a name before it), or NULL. */
static const char *offset_start(const char *start, const char *end)
{
	const char *digits = end;
	while (digits > start && fg_is_digit((unsigned char)digits[-1]))
		digits--;
	return digits < end && digits - start >= 2 && digits[-1] == '+' ? digits - 1 : NULL;
}

/* Whether [p, end) is the rest of a ustack(perf) frame after its address:
 * "func+OFF (module)" or "[unknown] (module)". */
static bool perf_frame_rest(const char *p, const char *end)
{
	const char *open = module_open(p, end);
	if (open == NULL)
		return false;
	const char *before = open - 1;
	return offset_start(p, before) != NULL ||
	       ((size_t)(before - p) == 9 && memcmp(p, "[unknown]", 9) == 0);
}

/* clean_frame on a line without white space at either end. */
static int clean_trimmed(const char *start, const char *end, bool include_offset,
			 bool semicolons, fg_stack_builder *b)
{
	/* perf mode: "ADDR func+OFF" or "ADDR func+OFF (module)". An address
	 * is 6 hex digits or more (kstack(perf)'s have 16); a shorter run is
	 * one only before a whole ustack(perf) frame, "func+OFF (module)" (a
	 * 32-bit ARM program loads at 0x10000: "10578 main+12 (/tmp/a.out)"),
	 * not a word of a name ("f32 lerp<f32>(f32)+12"). */
	bool perf = false;
	if (fg_is_hex((unsigned char)*start)) {
		const char *hex = skip_hex(start, end);
		const char *rest = hex;
		while (rest < end && fg_is_space((unsigned char)*rest))
			rest++;  /* the line ends in a non-space */
		if (hex < end && *hex == ' ' &&
		    (hex - start >= 6 || perf_frame_rest(rest, end))) {
			start = rest;
			perf = true;
		}
	}

	/* A trailing " (module)": always in perf mode, else after "+OFF". */
	const char *open = module_open(start, end);
	if (open != NULL && (perf || offset_start(start, open - 1) != NULL))
		end = open - 1;

	const char *offset = include_offset ? NULL : offset_start(start, end);
	if (offset != NULL)
		end = offset;
	/* "func\t+1" and "func\t (module)" leave a blank. */
	while (end > start && fg_is_space((unsigned char)end[-1]))
		end--;
	if (!semicolons && end > start)
		return fg_stack_builder_push_inline(b, start, (size_t)(end - start));
	return fg_trace_push_frame(b, start, (size_t)(end - start), NULL, semicolons);
}

int fg_bpftrace_clean_frame(const char *line, size_t length, bool include_offset,
			    fg_stack_builder *b)
{
	const char *start = line, *end = line + length;
	fg_trace_trim(&start, &end);
	if (start == end)
		return fg_trace_push_frame(b, start, 0, NULL, false);
	return clean_trimmed(start, end, include_offset,
			     memchr(start, ';', (size_t)(end - start)) != NULL, b);
}

/* ----------------------------------------------------------- key text */

/* Appends one key field (trimmed) as a root frame; empty fields are empty
 * stacks and add nothing. Returns 0 or FG_ENOMEM. */
static int add_field(struct bpftrace_state *t, const char *start, const char *end)
{
	fg_trace_trim(&start, &end);
	size_t length = (size_t)(end - start);
	if (length == 0)
		return 0;
	if (fg_buffer_reserve(&t->fields, 1 + length) != 0)
		return FG_ENOMEM;
	char *p = t->fields.data + t->fields.length;
	if (t->fields.length > 0)
		*p++ = ';';
	memcpy(p, start, length);
	for (char *s = p; (s = memchr(s, ';', (size_t)(p + length - s))) != NULL; s++)
		*s = ':';
	t->fields.length = (size_t)(p + length - t->fields.data);
	return 0;
}

/* Adds the fields of [start, end), separated by ", ". Sets *empty if one
 * of them is empty (a stack that printed as nothing). */
static int add_fields(struct bpftrace_state *t, const char *start, const char *end, bool *empty)
{
	for (;;) {
		const char *comma = start;
		while (comma + 1 < end && !(comma[0] == ',' && comma[1] == ' '))
			comma++;
		if (comma + 1 >= end)
			comma = end;
		const char *field_start = start, *field_end = comma;
		fg_trace_trim(&field_start, &field_end);
		if (field_start == field_end)
			*empty = true;
		int rc = add_field(t, field_start, field_end);
		if (rc != 0 || comma == end)
			return rc;
		start = comma + 2;
	}
}

/* Where "]:" ends a key in [start, end): the last "]:" followed by the end
 * or white space; NULL if none. */
static const char *find_key_end(const char *start, const char *end)
{
	for (const char *p = end - 1; p > start; p--)
		if (p[-1] == ']' && p[0] == ':' && (p + 1 == end || fg_is_space((unsigned char)p[1])))
			return p - 1;
	return NULL;
}

/* "@" and a map name, then '[': returns what follows the '[', or NULL. */
static const char *entry_start(const char *start, const char *end)
{
	if (start >= end || *start != '@')
		return NULL;
	const char *p = start + 1;
	while (p < end && (fg_is_digit((unsigned char)*p) || *p == '_' ||
			   ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')))
		p++;
	return p < end && *p == '[' ? p + 1 : NULL;
}

static void set_map_name(struct bpftrace_state *t, const char *at, const char *bracket)
{
	size_t length = (size_t)(bracket - at);
	if (length > MAP_NAME_MAX)
		length = MAP_NAME_MAX;
	memcpy(t->map, at, length);
	t->map[length] = '\0';
}

/* ---------------------------------------------------------- the value */

/* The entry ends with value [start, end): adds its stack, or says why not. */
static int end_entry(struct bpftrace_state *t, const char *start, const char *end,
		     fg_collapse_chunk *chunk, uint64_t line)
{
	fg_trace_trim(&start, &end);
	fg_count count;
	const char *stack;
	size_t stack_length;
	int rc = 0;
	if (start == end) {
		fg_collapse_warn_unique(chunk->report, line,
					"map %s holds histograms (hist, lhist), not counts: "
					"its entries are skipped", t->map);
	} else if (end - start > 6 && memcmp(start, "count ", 6) == 0) {
		fg_collapse_warn_unique(chunk->report, line,
					"map %s holds stats(), not counts: its entries are skipped",
					t->map);
	} else if (t->entry.too_long) {
		fg_collapse_warn(chunk->report, line, "stack longer than %u bytes ignored",
				 FG_TRACE_STACK_MAX);
	} else if ((rc = fg_count_parse(start, (size_t)(end - start), &count)) != 0 ||
		   memchr(start, '.', (size_t)(end - start)) != NULL) {
		if (rc == FG_ERANGE)
			fg_collapse_warn(chunk->report, line, "map %s: count beyond 2^64 - 1: entry ignored",
					 t->map);
		else
			fg_collapse_warn(chunk->report, line,
					 "map %s: value '%.*s' is not a count: entry ignored",
					 t->map, (int)(end - start > 40 ? 40 : end - start), start);
		rc = 0;
	} else if ((rc = fg_stack_builder_join(&t->entry.frames, t->fields.length ? t->fields.data : NULL,
					       t->fields.length, &stack, &stack_length)) == 0) {
		rc = fg_collapse_add(chunk, line, stack, stack_length, count);
	}
	forget_entry(t);
	return rc;
}

/* ------------------------------------------------------------ the lines */

/* A line outside an entry. */
static int parse_outside(struct bpftrace_state *t, const char *start, const char *end,
			 fg_collapse_chunk *chunk, uint64_t line)
{
	const char *key = entry_start(start, end);
	if (key == NULL)
		return 0;
	set_map_name(t, start, key - 1);
	const char *key_end = find_key_end(key, end);
	bool empty = false;
	int rc;
	if (key_end != NULL) {
		/* One line: folded only if its key holds a stack, empty here. */
		rc = add_fields(t, key, key_end, &empty);
		if (rc == 0 && empty)
			return end_entry(t, key_end + 2, end, chunk, line);
		forget_entry(t);
		return rc;
	}
	t->inside = true;
	t->entry.lines = 1;
	/* "@[" alone: the stack comes first; else fields, then ", ". */
	const char *fields_end = end;
	if (fields_end > key && fields_end[-1] == ',')
		fields_end--;
	return key == end ? 0 : add_fields(t, key, fields_end, &empty);
}

/* A line inside an entry starting with ',' or ']': key text. */
static int parse_key_text(struct bpftrace_state *t, const char *start, const char *end,
			  fg_collapse_chunk *chunk, uint64_t line)
{
	bool empty = false;
	if (*start == ',') {
		start++;
		while (start < end && fg_is_space((unsigned char)*start))
			start++;
	}
	const char *key_end = find_key_end(start, end);
	if (key_end != NULL) {
		int rc = key_end > start ? add_fields(t, start, key_end, &empty) : 0;
		return rc != 0 ? rc : end_entry(t, key_end + 2, end, chunk, line);
	}
	/* More key follows, and a stack after it. */
	if (start < end && end[-1] == ',')
		end--;
	else if (start == end)
		return 0;
	return add_fields(t, start, end, &empty);
}

static int parse_inside(struct bpftrace_state *t, const char *start, const char *end,
			bool semicolons, fg_collapse_chunk *chunk, uint64_t line)
{
	if (*start == ',' || *start == ']')
		return parse_key_text(t, start, end, chunk, line);
	if (*start == '@' && entry_start(start, end) != NULL) {
		fg_collapse_warn(chunk->report, line,
				 "map %s: the entry begun above has no ']:' line: ignored", t->map);
		forget_entry(t);
		return parse_outside(t, start, end, chunk, line);
	}
	if (t->entry.too_long)
		return 0;
	return fg_trace_stack_pushed(&t->entry, clean_trimmed(start, end, t->options->include_offset,
							     semicolons, &t->entry.frames));
}

/* One line; semicolons: whether it may hold a ';'. */
static int parse_line(struct bpftrace_state *t, const char *start, const char *end,
		      bool semicolons, fg_collapse_chunk *chunk, uint64_t line)
{
	fg_trace_trim(&start, &end);
	if (t->inside)
		t->entry.lines++;
	if (start == end)
		return 0;
	return t->inside ? parse_inside(t, start, end, semicolons, chunk, line)
			 : parse_outside(t, start, end, chunk, line);
}

/* A record begins after a line whose key text ends an entry. */
static size_t find_boundary(const void *config, const char *text, size_t length)
{
	const char *end = text + length;
	for (const char *line = text; line < end;) {
		const char *newline = memchr(line, '\n', (size_t)(end - line));
		const char *stop = newline != NULL ? newline : end;
		const char *start = line;
		fg_trace_trim(&start, &stop);
		if (start < stop && (*start == ']' || *start == ',') &&
		    find_key_end(start, stop) != NULL)
			return newline != NULL ? (size_t)(newline + 1 - text) : length;
		line = newline != NULL ? newline + 1 : end;
	}
	return length;
}

/*
 * The end of the line at p (its '\n', or end), and whether it holds a ';':
 * one pass, eight bytes at a time, where a memchr per line and another per
 * frame cost more than the rest of the parsing (lines are short).
 */
static const char *find_line_end(const char *p, const char *end, bool *semicolon)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	bool seen = false;
	for (; end - p >= 8; p += 8) {
		uint64_t x, n, c;
		memcpy(&x, p, 8);
		n = x ^ (ones * '\n');
		c = x ^ (ones * ';');
		/* The lowest flagged byte of each mask is a true '\n' or ';'
		 * (bytes above a match may be flagged falsely). */
		n = (n - ones) & ~n & highs;
		c = (c - ones) & ~c & highs;
		if ((n | c) == 0)
			continue;
		if (n == 0) {
			seen = true;
			continue;
		}
		seen |= c != 0 && __builtin_ctzll(c) < __builtin_ctzll(n);
		*semicolon = seen;
		return p + __builtin_ctzll(n) / 8; /* little-endian */
	}
	for (; p < end && *p != '\n'; p++)
		seen |= *p == ';';
	*semicolon = seen;
	return p;
}

static int parse(void *state, fg_collapse_chunk *chunk)
{
	struct bpftrace_state *t = state;
	const char *text = chunk->text, *end = text + chunk->length;
	uint64_t line = 0;
	int rc = 0;
	while (text < end && rc == 0) {
		bool semicolons;
		const char *stop = find_line_end(text, end, &semicolons);
		rc = parse_line(t, text, stop, semicolons, chunk, ++line);
		text = stop < end ? stop + 1 : end;
	}
	chunk->lines = line;
	if (chunk->end_of_input) {
		if (t->inside)
			fg_collapse_warn(chunk->report, line,
					 "map %s: the entry of the last %llu line%s has no ']:' line "
					 "(the input is cut off): ignored", t->map,
					 (unsigned long long)t->entry.lines,
					 t->entry.lines == 1 ? "" : "s");
		forget_entry(t);
	}
	return rc;
}

const fg_collapse_parser fg_bpftrace_parser = {
	.name = "bpftrace",
	.config_free = free,
	.state_new = state_new,
	.state_free = state_free,
	.find_boundary = find_boundary,
	.parse = parse,
};

fg_collapse *fg_bpftrace_collapse_new(const fg_bpftrace_options *options, unsigned threads,
				      const fg_warner *warner, fg_error *err)
{
	return fg_collapse_new(&fg_bpftrace_parser, fg_bpftrace_config_new(options), threads,
			       warner, err);
}
