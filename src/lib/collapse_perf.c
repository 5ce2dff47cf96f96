/*
 * collapse_perf.c - the perf parser's state machine: `perf script` text to
 * folded stacks, exactly as stackcollapse-perf.pl folds it, with the fixes
 * that fg-collapse-perf(1) lists, for the collapse driver (collapse.c).
 *
 * The Perl script is a loop of regular expressions over lines; here
 * perf_line.c says what a line is (its matchers stand for the script's
 * expressions), perf_symbol.c tidies symbols, and this file keeps the
 * samples: what each kind of line does to the open sample.
 *
 * A sample is a state machine over lines: a header opens it (process name,
 * period), frame lines push frames (leaf first), and a blank line closes it
 * and counts its stack. Everything a sample needs lives in the state, so a
 * sample may be cut anywhere between two parse calls; the driver only cuts
 * where a fresh state gives the same result (find_boundary): after a blank
 * line, or before a one-line sample.
 *
 * Stacks are counted by frame ids, not by text: each state interns its
 * frames (a string map of unique names, strmap.h), a sample is the ids of its
 * process and frames, and the table of unique stacks holds those (four
 * bytes a frame instead of the name). The folded text of each unique stack
 * is written once, at the end (perf_collect). Together with the cache of
 * frame lines below, a repeated line costs a hash, a compare and four
 * bytes.
 *
 * Settings the whole input shares are decided by prepare, which sees the
 * start of each input before any thread parses it: the default event filter
 * (the first event in the run, as the script does) and whether samples are
 * one line each (perf script without call chains pads the comm, so those
 * headers start with spaces and would otherwise read as frames).
 */
#include <stdlib.h>

#include "perf.h"
#include "strmap.h"

/* fg_collapse_warn_once keys */
enum { ONCE_FILTER = 0 };

typedef struct perf_config {
	fg_perf_options options;
	char *filter;            /* the event kept; NULL until known */
	size_t filter_length;
	bool filter_given;       /* --event-filter, else the first event seen */
	bool mode_known;         /* prepare has seen this input's first sample */
	bool one_line;           /* this input's samples are one line each */
	fg_string_map *skip_after; /* the options.skip_after names (a set: each
				      frame is looked up once, however many) */
} perf_config;

/* One piece of a frame line ("a->b" has two), tidied. */
typedef struct perf_piece {
	size_t start, name_end, end;  /* in state->pieces_text; name_end: before annotations */
	size_t source_start, source_length;  /* the --srcline text, in state->sources */
	bool inlined;            /* perf marked it "(inlined)" */
} perf_piece;

/*
 * Frame lines repeat: every sample through a call site prints the same
 * return address, symbol and module. A small direct-mapped cache per state
 * maps a frame line (from its first non-space byte) to the frame it gave,
 * so a repeated line costs a hash and a compare instead of the matching and
 * tidying. Fixed size: memory stays flat, whatever the input.
 */
#define CACHE_SLOTS 4096
#define CACHE_KEY_MAX 232
struct cache_slot {
	uint64_t hash;            /* 0: empty */
	uint32_t frame;           /* the frame's id */
	uint16_t key_length;
	bool java;                /* the state's java flag it was made with */
	bool pushed;              /* the line gave a frame (not a dropped symbol) */
	bool matched;             /* --skip-after matched */
	char key[CACHE_KEY_MAX];
};

/* The cache's index: a few words of the line (its address, the start of
 * the symbol, the middle, the tail); a hit is confirmed by comparing the
 * bytes, so this only has to spread the lines over the slots. */
static inline uint64_t read_word(const char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
	return w;
}

static inline uint64_t mix_words(uint64_t a, uint64_t b)
{
	return fg_hash_mix(a ^ FG_HASH_K0, b ^ FG_HASH_K1);
}

static inline uint64_t cache_hash(const char *key, size_t n)
{
	uint64_t h;
	if (n >= 24) {
		h = mix_words(read_word(key) ^ n, read_word(key + 8));
		h = mix_words(h ^ read_word(key + 16), read_word(key + n / 2) ^ read_word(key + n - 8));
	} else {
		h = fg_hash_bytes(key, n);
	}
	return h | 1;
}

typedef struct perf_state {
	const perf_config *config;
	fg_collapse_chunk *chunk;
	uint64_t line;           /* of the chunk being parsed */

	/* the open sample */
	bool open;               /* a header named the process */
	bool one_line;           /* opened by a header that carried its frame */
	bool skip_rest;          /* --skip-after matched: no more callers */
	bool java;               /* the process element starts with "java" */
	fg_count period;
	fg_buffer name;          /* the process element, the root frame */
	fg_string_map *frames;   /* the unique frame names; a frame's id is its number */
	/* the sample as ids: [0] the process element, then its frames leaf
	 * first; these bytes are its key in the chunk's stack table */
	uint32_t *ids;
	size_t id_count, id_capacity;
	uint32_t last_frame;     /* the id emit_pieces pushed last */

	/* the pieces of the last frame line, and their source lines */
	perf_piece *pieces;
	size_t piece_count, piece_capacity;
	fg_buffer pieces_text;
	fg_buffer sources;
	size_t sources_wanted;   /* pieces that take a source line (a prefix) */
	size_t sources_taken;    /* source lines taken so far; pending while < wanted */
	bool pending;            /* the pieces wait for source lines */
	fg_buffer scratch;       /* "[module]" of an unknown symbol; a frame */
	struct cache_slot *cache; /* frame line -> frame, CACHE_SLOTS of them */
} perf_state;

/* ------------------------------------------------------------ frame ids */

/* The id of the frame named [name, name + n), added if new; 0 or FG_ENOMEM. */
static int intern(perf_state *s, const char *name, size_t n, uint32_t *id)
{
	fg_string_entry *e = fg_string_map_add(s->frames, name, n, NULL);
	if (e == NULL)
		return FG_ENOMEM;
	*id = (uint32_t)fg_string_map_index(s->frames, e);
	return 0;
}

/* Appends a frame id to the sample. */
static int push_id(perf_state *s, uint32_t id)
{
	if (fg_grow((void **)&s->ids, &s->id_capacity, s->id_count + 1, sizeof(*s->ids)) != 0)
		return FG_ENOMEM;
	s->ids[s->id_count++] = id;
	return 0;
}

/* --------------------------------------------------------------- frames */

/*
 * Tidies one piece of a frame line and records it. *unknown is set when
 * both the symbol and the module are unknown (no source line follows).
 */
static int add_piece(perf_state *s, const fg_perf_frame *f, const char *text, size_t n,
		     unsigned found, size_t index, bool *unknown)
{
	const fg_perf_options *o = &s->config->options;
	if (fg_grow((void **)&s->pieces, &s->piece_capacity, s->piece_count + 1,
		    sizeof(*s->pieces)) != 0 ||
	    fg_buffer_reserve(&s->pieces_text, 1) != 0)
		return FG_ENOMEM; /* (pieces_text exists even for an empty piece) */
	perf_piece *p = &s->pieces[s->piece_count];
	memset(p, 0, sizeof(*p));
	p->start = s->pieces_text.length;
	int rc;
	if (fg_bytes_equal(text, n, "[unknown]", 9)) {
		/* "[module basename]" or "[unknown]", with the address on --addrs */
		const char *name = "unknown";
		size_t name_length = 7;
		if (!fg_bytes_equal(f->module, f->module_length, "[unknown]", 9)) {
			const char *slash = memrchr(f->module, '/', f->module_length);
			name = slash ? slash + 1 : f->module;
			name_length = f->module_length - (size_t)(name - f->module);
		} else {
			*unknown = true;
		}
		s->scratch.length = 0;
		rc = fg_buffer_append(&s->scratch, "[", 1);
		rc = rc ? rc : fg_buffer_append(&s->scratch, name, name_length);
		if (o->addrs) {
			rc = rc ? rc : fg_buffer_append(&s->scratch, " <", 2);
			rc = rc ? rc : fg_buffer_append(&s->scratch, f->pc, f->pc_length);
			rc = rc ? rc : fg_buffer_append(&s->scratch, ">", 1);
		}
		rc = rc ? rc : fg_buffer_append(&s->scratch, "]", 1);
		rc = rc ? rc : fg_perf_tidy(&s->pieces_text, s->scratch.data, s->scratch.length,
					     fg_perf_symbol_class(s->scratch.data, s->scratch.length));
	} else {
		rc = fg_perf_tidy(&s->pieces_text, text, n, found);
	}
	if (rc != 0)
		return rc;
	char *piece = s->pieces_text.data + p->start;
	size_t length = s->pieces_text.length - p->start;
	if (s->java && length > 0 && piece[0] == 'L' && memchr(piece, '/', length) != NULL) {
		memmove(piece, piece + 1, length - 1);
		s->pieces_text.length--;
		length--;
	}
	p->name_end = s->pieces_text.length;
	const char *annotation = NULL;
	if (index > 0) {
		if (!fg_contains(piece, length, "_[i]"))
			annotation = "_[i]";
	} else if (o->kernel && fg_perf_is_kernel_module(f->module, f->module_length)) {
		annotation = "_[k]";
	} else if (o->jit && fg_perf_is_jit_module(f->module, f->module_length)) {
		if (!fg_contains(piece, length, "_[j]"))
			annotation = "_[j]";
	}
	if (annotation != NULL && fg_buffer_append(&s->pieces_text, annotation, 4) != 0)
		return FG_ENOMEM;
	p->end = s->pieces_text.length;
	p->inlined = fg_bytes_equal(f->module, f->module_length, "inlined", 7);
	s->piece_count++;
	return 0;
}

/* Whether a piece's name is one of the --skip-after names. */
static bool is_skip_after(const perf_state *s, const perf_piece *p)
{
	return fg_string_map_find(s->config->skip_after, s->pieces_text.data + p->start,
				  p->name_end - p->start) != NULL;
}

/* Pushes the pieces of the last frame line as one frame: "a;b_[i]". Its
 * id stays in s->last_frame (for the cache); *pushed says if there was one. */
static int emit_pieces(perf_state *s, bool *pushed)
{
	s->pending = false;
	size_t first = 0;
	bool matched = false;
	for (size_t i = 0; i < s->piece_count; i++)
		if (s->config->options.skip_after_count > 0 && is_skip_after(s, &s->pieces[i])) {
			first = i; /* the callers of the deepest match go */
			matched = true;
		}
	s->scratch.length = 0;
	int rc = fg_buffer_reserve(&s->scratch, 0);
	for (size_t i = first; i < s->piece_count && rc == 0; i++) {
		const perf_piece *p = &s->pieces[i];
		const char *text = s->pieces_text.data + p->start;
		if (i > first)
			rc = fg_buffer_append(&s->scratch, ";", 1);
		rc = rc ? rc : fg_buffer_append(&s->scratch, text, p->end - p->start);
		if (rc == 0 && p->source_length > 0) {
			rc = fg_buffer_append(&s->scratch, ":", 1);
			rc = rc ? rc : fg_buffer_append(&s->scratch, s->sources.data + p->source_start, p->source_length);
		}
		if (rc == 0 && p->inlined && s->config->options.inline_frames &&
		    !fg_has_suffix(text, p->end - p->start, "_[i]"))
			rc = fg_buffer_append(&s->scratch, "_[i]", 4);
	}
	bool any = first < s->piece_count;
	uint32_t id = 0;
	if (rc == 0 && any)
		rc = intern(s, s->scratch.data, s->scratch.length, &id);
	if (rc == 0 && any)
		rc = push_id(s, id);
	s->last_frame = id;
	if (pushed != NULL)
		*pushed = any;
	s->piece_count = 0;
	s->pieces_text.length = 0;
	s->sources.length = 0;
	if (matched)
		s->skip_rest = true;
	return rc ? FG_ENOMEM : 0;
}

/*
 * A source line (--srcline) for the next piece that waits for one: every
 * "[...]" group goes, spaces around go; fg also takes perf's " (inlined)"
 * mark off the end (perf prints it there with --inline -F+srcline).
 */
static int take_source_line(perf_state *s, const char *line, size_t n)
{
	perf_piece *p = &s->pieces[s->sources_taken++];
	size_t start = s->sources.length;
	for (size_t i = 0; i < n;) {
		if (line[i] == '[') {
			const char *close = memchr(line + i + 1, ']', n - i - 1);
			if (close != NULL) {
				i = (size_t)(close + 1 - line);
				continue;
			}
		}
		size_t j = i + 1;
		while (j < n && line[j] != '[')
			j++;
		if (fg_buffer_append(&s->sources, line + i, j - i))
			return FG_ENOMEM;
		i = j;
	}
	const char *text = s->sources.data + start;
	size_t length = s->sources.length - start;
	size_t lead = fg_skip_space(text, 0, length);
	while (length > lead && fg_is_space((unsigned char)text[length - 1]))
		length--;
	if (fg_has_suffix(text + lead, length - lead, "(inlined)")) {
		p->inlined = true;
		length -= 9;
		while (length > lead && fg_is_space((unsigned char)text[length - 1]))
			length--;
	}
	p->source_start = start + lead;
	p->source_length = length - lead;
	if (s->sources_taken == s->sources_wanted)
		return emit_pieces(s, NULL);
	return 0;
}

/* A frame line of an open sample. */
static int on_frame(perf_state *s, const fg_perf_frame *f, bool *cached, bool *pushed)
{
	if (s->skip_rest)
		return 0;
	const char *symbol = f->symbol;
	size_t n = f->symbol_length;
	/* s/\+0x[\da-f]+$// : one offset, lowercase hex, at the very end */
	size_t hex = n;
	while (hex > 0 && fg_perf_is_lower_hex((unsigned char)symbol[hex - 1]))
		hex--;
	if (hex < n && hex >= 3 && memcmp(symbol + hex - 3, "+0x", 3) == 0)
		n = hex - 3;
	/* The script drops symbols starting with '(' (perf's "(unknown)"
	 * forms); fg keeps C++'s "(anonymous namespace)::". */
	if (n > 0 && symbol[0] == '(' && !fg_has_prefix(symbol, n, "(anonymous namespace)::")) {
		if (cached != NULL)
			*cached = true; /* a line that pushes nothing */
		return 0;
	}
	/* split /->/: pieces in printed order; trailing empty pieces vanish */
	bool unknown = false;
	size_t wanted = 0;
	unsigned found = fg_perf_symbol_class(symbol, n);
	if (!(found & FG_PERF_SYMBOL_DASH)) {
		if (n > 0) {
			int rc = add_piece(s, f, symbol, n, found, 0, &unknown);
			if (rc != 0)
				return rc;
			wanted = s->config->options.srcline && !unknown;
		}
	} else {
		size_t end = n;
		while (end >= 2 && symbol[end - 2] == '-' && symbol[end - 1] == '>')
			end -= 2; /* "a->" and "->": trailing empty pieces */
		size_t index = 0;
		for (size_t at = 0; end > 0;) {
			const char *arrow = memmem(symbol + at, end - at, "->", 2);
			size_t piece_end = arrow ? (size_t)(arrow - symbol) : end;
			int rc = add_piece(s, f, symbol + at, piece_end - at, found, index++, &unknown);
			if (rc != 0)
				return rc;
			if (s->config->options.srcline && !unknown)
				wanted++;
			if (arrow == NULL)
				break;
			at = piece_end + 2;
		}
	}
	if (wanted == 0 || s->piece_count == 0) {
		if (cached != NULL)
			*cached = true;
		return emit_pieces(s, pushed);
	}
	s->pending = true;
	s->sources_wanted = wanted;
	s->sources_taken = 0;
	return 0;
}

/* ------------------------------------------------------------- samples */

/* The end of a sample: count its stack (if a header named the process). */
static int end_sample(perf_state *s)
{
	int rc = 0;
	if (s->pending)
		rc = emit_pieces(s, NULL);
	if (rc == 0 && s->open) {
		rc = intern(s, s->name.data, s->name.length, &s->ids[0]);
		if (rc == 0)
			rc = fg_stacks_add(s->chunk->stacks, (const char *)s->ids,
					   s->id_count * sizeof(*s->ids), 0, s->period);
		if (rc == FG_ERANGE) {
			s->chunk->overflowed = true; /* fatal at the end, for any -j */
			rc = 0;
		}
	}
	s->id_count = 1; /* [0] is the process element */
	s->open = s->one_line = s->skip_rest = false;
	return rc;
}

static int set_name(perf_state *s, const fg_perf_header *h)
{
	const fg_perf_options *o = &s->config->options;
	const char *pid = h->pid, *tid = h->tid;
	size_t pid_length = h->pid_length, tid_length = h->tid_length;
	/* One number is the TID; a TID of "0" counts as none (swapper-?/0). */
	if (tid == NULL || fg_bytes_equal(tid, tid_length, "0", 1)) {
		tid = pid;
		tid_length = pid_length;
		pid = "?";
		pid_length = 1;
	}
	s->name.length = 0;
	int rc = fg_buffer_append(&s->name, h->comm, h->comm_length);
	if (o->tid || o->pid) {
		rc = rc ? rc : fg_buffer_append(&s->name, "-", 1);
		rc = rc ? rc : fg_buffer_append(&s->name, pid, pid_length);
	}
	if (o->tid) {
		rc = rc ? rc : fg_buffer_append(&s->name, "/", 1);
		rc = rc ? rc : fg_buffer_append(&s->name, tid, tid_length);
	}
	if (rc != 0)
		return rc;
	for (size_t i = 0; i < s->name.length; i++)
		if (s->name.data[i] == ' ')
			s->name.data[i] = '_';
	s->java = fg_has_prefix(s->name.data, s->name.length, "java");
	return 0;
}

static int on_header(perf_state *s, const fg_perf_header *h)
{
	const perf_config *c = s->config;
	int rc = 0;
	/* A one-line sample ends at the next header; one starts fresh. */
	if (h->has_frame || s->one_line)
		rc = end_sample(s);
	else if (s->pending)
		rc = emit_pieces(s, NULL);
	if (rc != 0)
		return rc;
	if (h->event != NULL && c->filter != NULL &&
	    !fg_bytes_equal(h->event, h->event_length, c->filter, c->filter_length)) {
		if (!c->filter_given) {
			/* Event names are input: no escape sequences to the terminal. */
			char event[FG_PERF_QUOTE_MAX + 4], first[FG_PERF_QUOTE_MAX + 4];
			fg_perf_quote(h->event, h->event_length, event);
			fg_perf_quote(c->filter, c->filter_length, first);
			fg_collapse_warn_once(s->chunk->report, ONCE_FILTER, s->line,
					      "skipping samples of event %s: only the first "
					      "event, %s, is collapsed (see fg-collapse-perf --event-filter)",
					      event, first);
		}
		return 0;
	}
	/* The period counts; none, or "0", counts 1 (as the script's "not"). */
	fg_count period = fg_count_of(1);
	if (h->period != NULL && !fg_bytes_equal(h->period, h->period_length, "0", 1) &&
	    fg_count_parse(h->period, h->period_length, &period) != 0) {
		fg_collapse_warn(s->chunk->report, s->line,
				 "period beyond 2^64 - 1: sample skipped");
		return 0;
	}
	rc = set_name(s, h);
	if (rc != 0)
		return rc;
	s->period = period;
	s->open = true;
	s->one_line = h->has_frame;
	if (h->has_frame)
		rc = on_frame(s, &h->frame, NULL, NULL);
	return rc;
}

/*
 * Whether a line where --srcline waits for a source line is a frame line
 * instead, "ADDRESS SYMBOL (MODULE)" or "ADDRESS SYMBOL (inlined)": input
 * not from -F+srcline (such as --context on plain 'perf script' output, as
 * the original's --inline --context was used), where taking it as a source
 * line would glue this frame into the name of the one before. A source
 * line ("file.c:12", "libc.so.6[27b25]", "inl.h:7 (inlined)") does not
 * start with a hexadecimal address followed by white space, or does not
 * end in ')' (before any trailing white space).
 */
static bool is_frame_not_source(const char *line, size_t n, size_t indent)
{
	fg_perf_frame f;
	size_t last = n; /* (a CR of CRLF input, trailing blanks) */
	while (last > indent && fg_is_space((unsigned char)line[last - 1]))
		last--;
	if (last == 0 || line[last - 1] != ')' || !fg_perf_match_frame(line, n, indent, &f) ||
	    f.pc_length == 0)
		return false;
	for (size_t i = 0; i < f.pc_length; i++)
		if (!fg_is_hex((unsigned char)f.pc[i]))
			return false;
	size_t after = (size_t)(f.pc + f.pc_length - line);
	return after < n && fg_is_space((unsigned char)line[after]);
}

static int parse_line(perf_state *s, const char *line, size_t n)
{
	const perf_config *c = s->config;
	size_t indent = 0;
	fg_perf_header h;
	switch (fg_perf_classify(c->one_line, line, n, &indent, &h)) {
	case FG_PERF_LINE_COMMENT:
	case FG_PERF_LINE_SIDE_BAND:
		return 0;
	case FG_PERF_LINE_BLANK:
		return end_sample(s);
	case FG_PERF_LINE_HEADER:
		return on_header(s, &h);
	case FG_PERF_LINE_OTHER:
		break;
	}
	if (s->pending) {
		if (!is_frame_not_source(line, n, indent))
			return take_source_line(s, line, n);
		/* No source line came: the frame before keeps its bare name,
		 * and this line is read as the frame it is. */
		fg_collapse_warn(s->chunk->report, s->line,
				 "a frame where --srcline expects a source line (is the input "
				 "from 'perf script -F+srcline'?)");
		int rc = emit_pieces(s, NULL);
		if (rc != 0)
			return rc;
	}
	if (s->skip_rest)
		return 0;
	struct cache_slot *slot = NULL;
	uint64_t hash = 0;
	size_t key_length = n - indent;
	if (s->open && s->cache != NULL && key_length <= CACHE_KEY_MAX) {
		hash = cache_hash(line + indent, key_length);
		slot = &s->cache[hash & (CACHE_SLOTS - 1)];
		if (slot->hash == hash && slot->key_length == key_length && slot->java == s->java &&
		    memcmp(slot->key, line + indent, key_length) == 0) {
			s->skip_rest = slot->matched;
			return slot->pushed ? push_id(s, slot->frame) : 0;
		}
	}
	fg_perf_frame f;
	if (fg_perf_match_frame(line, n, indent, &f) ||
	    (c->options.srcline && fg_perf_match_moduleless_frame(line, n, indent, &f))) {
		if (!s->open)
			return 0;
		bool cached = false, pushed = false;
		int rc = on_frame(s, &f, &cached, &pushed);
		if (rc == 0 && cached && slot != NULL) {
			slot->hash = hash;
			slot->key_length = (uint16_t)key_length;
			memcpy(slot->key, line + indent, key_length);
			slot->java = s->java;
			slot->pushed = pushed;
			slot->matched = s->skip_rest;
			slot->frame = s->last_frame;
		}
		return rc;
	}
	char quoted[FG_PERF_QUOTE_MAX + 4];
	fg_perf_quote(line, n, quoted);
	fg_collapse_warn(s->chunk->report, s->line, "unrecognized line: %s", quoted);
	return 0;
}

/* ------------------------------------------------ the parser's functions */

static int perf_parse(void *state, fg_collapse_chunk *chunk)
{
	perf_state *s = state;
	s->chunk = chunk;
	s->line = 0;
	const char *p = chunk->text, *end = p + chunk->length;
	int rc = 0;
	while (p < end && rc == 0) {
		const char *newline = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = newline ? newline : end;
		s->line++;
		rc = parse_line(s, p, (size_t)(line_end - p));
		p = newline ? newline + 1 : end;
	}
	chunk->lines = s->line;
	if (rc == 0 && chunk->finish)
		rc = end_sample(s); /* fg counts a last sample with no blank line */
	return rc;
}

static size_t perf_find_boundary(const void *config, const char *text, size_t length)
{
	const perf_config *c = config;
	const char *p = text, *end = text + length;
	while (p < end) {
		const char *newline = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = newline ? newline : end;
		size_t indent;
		fg_perf_header h;
		switch (fg_perf_classify(c->one_line, p, (size_t)(line_end - p), &indent, &h)) {
		case FG_PERF_LINE_BLANK:
			return (size_t)((newline ? newline + 1 : end) - text);
		case FG_PERF_LINE_HEADER:
			if (h.has_frame)
				return (size_t)(p - text);
			break;
		default:
			break;
		}
		p = newline ? newline + 1 : end;
	}
	return length;
}

/*
 * The folded stacks of a state: each unique id sequence of its table
 * becomes "process;frame;...;frame" (root first) in `into`.
 */
static int perf_collect(void *state, const fg_stacks *stacks, fg_stacks *into)
{
	perf_state *s = state;
	const fg_stack_entry **entries = fg_stacks_sorted(stacks);
	if (entries == NULL)
		return FG_ENOMEM;
	int rc = 0;
	for (size_t i = 0; i < fg_stacks_size(stacks) && rc == 0; i++) {
		size_t count = entries[i]->stack_length / sizeof(uint32_t);
		s->scratch.length = 0;
		for (size_t k = 0; k < count && rc == 0; k++) {
			uint32_t id; /* [0], then the frames from the root down */
			memcpy(&id, entries[i]->stack + (k == 0 ? 0 : count - k) * sizeof(id), sizeof(id));
			if (k > 0)
				rc = fg_buffer_append(&s->scratch, ";", 1);
			rc = rc ? rc : fg_buffer_append(&s->scratch, fg_string_map_get(s->frames, id)->key,
					      fg_string_map_get(s->frames, id)->length);
		}
		for (int column = 0; column < 2 && rc == 0; column++)
			if (column == 0 || !fg_count_is_zero(entries[i]->count[column]))
				rc = fg_stacks_add(into, s->scratch.data ? s->scratch.data : "", s->scratch.length,
						   column, entries[i]->count[column]);
	}
	free(entries);
	return rc;
}

static void perf_begin_input(void *config, size_t index)
{
	perf_config *c = config;
	c->mode_known = false;
	c->one_line = false;
	if (index == 0 && !c->filter_given) {
		free(c->filter);
		c->filter = NULL;
		c->filter_length = 0;
	}
}

static bool perf_prepare(void *config, const char *block, size_t length)
{
	perf_config *c = config;
	const char *p = block, *end = block + length;
	while (p < end && !(c->mode_known && c->filter != NULL)) {
		const char *newline = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((newline ? newline : end) - p);
		size_t indent;
		fg_perf_header h;
		if (!c->mode_known && fg_perf_classify(c->one_line, p, n, &indent, &h) != FG_PERF_LINE_BLANK &&
		    (n == 0 || p[0] != '#')) {
			/* The first sample line: is it a whole sample? (A side-band
			 * record, padded or not, tells nothing.) */
			bool header = fg_perf_match_header(p, n, true, &h);
			if (!(header && h.side_band)) {
				c->one_line = header && h.has_frame;
				c->mode_known = true;
			}
		}
		if (c->mode_known && c->filter == NULL &&
		    fg_perf_classify(c->one_line, p, n, &indent, &h) == FG_PERF_LINE_HEADER && h.event != NULL) {
			c->filter = malloc(h.event_length + 1);
			if (c->filter != NULL) {
				memcpy(c->filter, h.event, h.event_length);
				c->filter_length = h.event_length;
			} else {
				c->filter_given = true; /* out of memory: keep every event */
			}
		}
		p = newline ? newline + 1 : end;
	}
	return c->mode_known && (c->filter != NULL || c->filter_given);
}

static void *perf_state_new(void *config)
{
	perf_state *s = calloc(1, sizeof(*s));
	if (s == NULL)
		return NULL;
	s->config = config;
	if ((s->frames = fg_string_map_new()) == NULL || push_id(s, 0) != 0) {
		/* [0]: the process element */
		fg_string_map_free(s->frames);
		free(s);
		return NULL;
	}
	/* --srcline frames take their next line too: those are not cached. */
	if (!s->config->options.srcline) {
		s->cache = calloc(CACHE_SLOTS, sizeof(*s->cache));
		if (s->cache == NULL) {
			fg_string_map_free(s->frames);
			free(s->ids);
			free(s);
			return NULL;
		}
	}
	return s;
}

static void perf_state_free(void *state)
{
	perf_state *s = state;
	if (s == NULL)
		return;
	fg_string_map_free(s->frames);
	free(s->ids);
	fg_buffer_free(&s->name);
	free(s->pieces);
	fg_buffer_free(&s->pieces_text);
	fg_buffer_free(&s->sources);
	fg_buffer_free(&s->scratch);
	free(s->cache);
	free(s);
}

static void perf_config_free(void *config)
{
	perf_config *c = config;
	if (c == NULL)
		return;
	fg_string_map_free(c->skip_after);
	free(c->filter);
	free(c);
}

void fg_perf_options_init(fg_perf_options *options)
{
	memset(options, 0, sizeof(*options));
}

void *fg_perf_config_new(const fg_perf_options *options)
{
	perf_config *c = calloc(1, sizeof(*c));
	if (c == NULL)
		return NULL;
	c->options = *options;
	c->options.event_filter = NULL;
	c->options.skip_after = NULL;
	size_t count = options->skip_after_count;
	if ((c->skip_after = fg_string_map_new()) == NULL)
		goto nomem;
	for (size_t i = 0; i < count; i++)
		if (fg_string_map_add(c->skip_after, options->skip_after[i], strlen(options->skip_after[i]),
				      NULL) == NULL)
			goto nomem;
	if (options->event_filter != NULL && options->event_filter[0] != '\0') {
		c->filter = strdup(options->event_filter);
		if (c->filter == NULL)
			goto nomem;
		c->filter_length = strlen(c->filter);
		c->filter_given = true;
	}
	return c;
nomem:
	perf_config_free(c);
	return NULL;
}

const fg_collapse_parser fg_perf_parser = {
	.name = "perf",
	.config_free = perf_config_free,
	.state_new = perf_state_new,
	.state_free = perf_state_free,
	.begin_input = perf_begin_input,
	.prepare = perf_prepare,
	.find_boundary = perf_find_boundary,
	.parse = perf_parse,
	.collect = perf_collect,
};

fg_collapse *fg_perf_collapse_new(const fg_perf_options *options, unsigned threads,
				  const fg_warner *warner, fg_error *err)
{
	return fg_collapse_new(&fg_perf_parser, fg_perf_config_new(options), threads, warner, err);
}
