/*
 * collapse_perf.c - the perf parser: `perf script` text to folded stacks,
 * exactly as stackcollapse-perf.pl folds it, with the fixes that
 * fg-collapse-perf(1) lists, for the collapse driver (collapse.c).
 *
 * The Perl script is a loop of regular expressions over lines. Each one is
 * matched here by hand, in one or two passes over the line and without
 * allocating, but with the same outcome, backtracking included: the
 * comments next to each matcher give the expression it stands for and why
 * the shortcut is equivalent. Byte semantics throughout, as the script has
 * (\s is space, \t, \n, \v, \f, \r; \w is [A-Za-z0-9_]).
 *
 * A sample is a state machine over lines: a header opens it (process name,
 * period), frame lines push frames (leaf first), and a blank line closes it
 * and counts its stack. Everything a sample needs lives in the state, so a
 * sample may be cut anywhere between two parse calls; the driver only cuts
 * where a fresh state gives the same result (find_boundary): after a blank
 * line, or before a one-line sample.
 *
 * Stacks are counted by frame ids, not by text: each state interns its
 * frames (a frame table of unique names), a sample is the ids of its
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

#include "internal.h"

/* fg_collapse_warn_once keys */
enum { ONCE_FILTER = 0 };

/* Longest piece of an input line quoted in a warning. */
#define QUOTE_MAX 72

typedef struct perf_config {
	fg_perf_options options;
	char *filter;            /* the event kept; NULL until known */
	size_t filter_length;
	bool filter_given;       /* --event-filter, else the first event seen */
	bool mode_known;         /* prepare has seen this input's first sample */
	bool one_line;           /* this input's samples are one line each */
	char **skip_after;       /* copies of options.skip_after */
	size_t *skip_after_length;
} perf_config;

/* A frame line, as the script's frame expression splits it. */
typedef struct perf_frame {
	const char *pc, *symbol, *module;
	size_t pc_length, symbol_length, module_length;
} perf_frame;

/* A header line, as the script's header and event expressions split it. */
typedef struct perf_header {
	const char *comm, *pid, *tid, *event, *period;
	size_t comm_length, pid_length, tid_length, event_length, period_length;
	perf_frame frame;        /* a one-line sample's frame */
	bool has_frame;
} perf_header;

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

/*
 * The frame table: the unique frame names of one state, each with an id
 * (its index). Open addressing over the ids, names in an arena.
 */
typedef struct frame_table {
	fg_arena arena;
	const char **names;
	uint32_t *lengths;
	uint64_t *hashes;
	size_t count, capacity;
	uint32_t *slots;          /* id + 1; 0: empty */
	size_t mask;
} frame_table;

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
	unsigned __int128 m = (unsigned __int128)(a ^ 0xa0761d6478bd642full) *
			      (b ^ 0xe7037ed1a0b428dbull);
	return (uint64_t)m ^ (uint64_t)(m >> 64);
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
	char *name;              /* the process element, the root frame */
	size_t name_length, name_capacity;
	frame_table table;
	/* the sample as ids: [0] the process element, then its frames leaf
	 * first; these bytes are its key in the chunk's stack table */
	uint32_t *ids;
	size_t id_count, id_capacity;
	uint32_t last_frame;     /* the id emit_pieces pushed last */

	/* the pieces of the last frame line, and their source lines */
	perf_piece *pieces;
	size_t piece_count, piece_capacity;
	char *pieces_text;
	size_t pieces_length, pieces_capacity;
	char *sources;
	size_t sources_length, sources_capacity;
	size_t sources_wanted;   /* pieces that take a source line (a prefix) */
	size_t sources_taken;    /* source lines taken so far; pending while < wanted */
	bool pending;            /* the pieces wait for source lines */
	char *scratch;           /* "[module]" of an unknown symbol; a frame */
	size_t scratch_length, scratch_capacity;
	struct cache_slot *cache; /* frame line -> frame, CACHE_SLOTS of them */
} perf_state;

/* ------------------------------------------------------------- helpers */

static inline bool is_word(unsigned char c)
{
	return fg_is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool is_lower_hex(unsigned char c)
{
	return fg_is_digit(c) || (c >= 'a' && c <= 'f');
}

static inline bool is_hex(unsigned char c)
{
	return is_lower_hex(c) || (c >= 'A' && c <= 'F');
}

static size_t skip_space(const char *s, size_t at, size_t n)
{
	while (at < n && fg_is_space((unsigned char)s[at]))
		at++;
	return at;
}

static size_t skip_digits(const char *s, size_t at, size_t n)
{
	while (at < n && fg_is_digit((unsigned char)s[at]))
		at++;
	return at;
}

static bool equals(const char *a, size_t a_length, const char *b, size_t b_length)
{
	return a_length == b_length && memcmp(a, b, a_length) == 0;
}

static bool has_prefix(const char *s, size_t n, const char *prefix)
{
	size_t p = strlen(prefix);
	return n >= p && memcmp(s, prefix, p) == 0;
}

static bool has_suffix(const char *s, size_t n, const char *suffix)
{
	size_t p = strlen(suffix);
	return n >= p && memcmp(s + n - p, suffix, p) == 0;
}

static bool contains(const char *s, size_t n, const char *needle)
{
	return memmem(s, n, needle, strlen(needle)) != NULL;
}

/* Appends bytes to a growing buffer; 0 or FG_ENOMEM. */
static int append(char **buffer, size_t *length, size_t *capacity, const char *bytes, size_t n)
{
	if (fg_grow((void **)buffer, capacity, *length + n, 1) != 0)
		return FG_ENOMEM;
	if (n > 0)
		memcpy(*buffer + *length, bytes, n);
	*length += n;
	return 0;
}

/* The length of the valid UTF-8 character at s (at most n bytes), not a
 * C1 control; 0 if there is none. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
	size_t length = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (length == 0 || length > n || (s[0] == 0xc2 && s[1] < 0xa0))
		return 0;
	for (size_t i = 1; i < length; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0; /* overlong, surrogate, beyond U+10FFFF */
	return length;
}

/* A line made short and safe for a terminal, for a warning: control
 * characters and bytes that are not UTF-8 become '?'. */
static void quote_line(const char *line, size_t n, char *out)
{
	const unsigned char *s = (const unsigned char *)line;
	size_t k = 0, i = 0;
	while (i < n && k < QUOTE_MAX) {
		if (s[i] >= 0x80) {
			size_t length = utf8_length(s + i, n - i);
			if (length > 0 && k + length <= QUOTE_MAX) {
				memcpy(out + k, s + i, length);
				k += length;
				i += length;
				continue;
			}
			out[k++] = '?';
		} else {
			out[k++] = s[i] == '\t' ? ' ' : (s[i] < 0x20 || s[i] == 0x7f) ? '?' : (char)s[i];
		}
		i++;
	}
	if (i < n) {
		memcpy(out + k, "...", 3);
		k += 3;
	}
	out[k] = '\0';
}

/* ------------------------------------------------------------- matchers */

/*
 * The frame expression /^\s*(\w+)\s*(.+) \((.*)\)/, from offset `start`
 * (the first non-space byte). (.*) is greedy and followed by \), so the
 * module ends at the last ')' of the line; (.+) is greedy and followed by
 * " (", so the symbol ends at the last " (" that has a ')' after it. When
 * that " (" comes too early for \w+\s* as matched, the engine gives back
 * characters of \s* and then of \w+, one at a time: the symbol starts one
 * byte before the " (" at the latest, and the address keeps at least one
 * byte ("ffff4 ([k])" is address "ffff", symbol "4").
 */
static bool match_frame(const char *line, size_t n, size_t start, perf_frame *f)
{
	size_t word_end = start;
	while (word_end < n && is_word((unsigned char)line[word_end]))
		word_end++;
	if (word_end == start)
		return false;
	const char *close = memrchr(line + start, ')', n - start);
	if (close == NULL)
		return false;
	size_t r = (size_t)(close - line);
	/* The last " (" at q with q + 2 <= r and q >= start + 2. */
	size_t q = 0;
	bool found = false;
	size_t limit = r; /* search '(' in [start + 3, r - 1] */
	while (limit > start + 3) {
		const char *open = memrchr(line + start + 3, '(', limit - (start + 3));
		if (open == NULL)
			break;
		if (open[-1] == ' ') {
			q = (size_t)(open - 1 - line);
			found = true;
			break;
		}
		limit = (size_t)(open - line);
	}
	if (!found)
		return false;
	size_t symbol_start = skip_space(line, word_end, n);
	if (symbol_start > q - 1)
		symbol_start = q - 1;
	size_t pc_end = word_end < symbol_start ? word_end : symbol_start;
	f->pc = line + start;
	f->pc_length = pc_end - start;
	f->symbol = line + symbol_start;
	f->symbol_length = q - symbol_start;
	f->module = line + q + 2;
	f->module_length = r - (q + 2);
	return true;
}

/*
 * The event expression /:\s*(\d+)*\s+(\S+):\s*$/ over the whole line. Its
 * tail must be the line's last token, ending in ':' (the event is that
 * token minus the ':'), after at least one space; before that space comes
 * either the ':' the expression starts with, or one run of digits (the
 * period) and then, after optional spaces, that ':'. These two cases
 * exclude each other, so the leftmost match the engine finds is the only
 * one.
 */
static bool match_event(const char *line, size_t n, perf_header *h)
{
	size_t end = n;
	while (end > 0 && fg_is_space((unsigned char)line[end - 1]))
		end--;
	if (end < 2 || line[end - 1] != ':')
		return false;
	size_t token = end - 1;
	while (token > 0 && !fg_is_space((unsigned char)line[token - 1]))
		token--;
	if (end - token < 2)
		return false;
	size_t gap = token;
	while (gap > 0 && fg_is_space((unsigned char)line[gap - 1]))
		gap--;
	if (gap == token || gap == 0)
		return false;
	h->event = line + token;
	h->event_length = end - 1 - token;
	if (line[gap - 1] == ':') {
		h->period = NULL;
		h->period_length = 0;
		return true;
	}
	size_t digits = gap;
	while (digits > 0 && fg_is_digit((unsigned char)line[digits - 1]))
		digits--;
	if (digits == gap)
		return false;
	size_t colon = digits;
	while (colon > 0 && fg_is_space((unsigned char)line[colon - 1]))
		colon--;
	if (colon == 0 || line[colon - 1] != ':')
		return false;
	h->period = line + digits;
	h->period_length = gap - digits;
	return true;
}

/*
 * What the script cannot read (fg reads more): the fields after PID[/TID]
 * are walked as perf prints them, "[CPU]", "TIME:", "PERIOD", "EVENT:",
 * and whatever follows the event is either a tracepoint's payload (ignored)
 * or, on samples without a call chain, the sample's one frame. Only tried
 * when match_event failed, so nothing the script reads changes.
 */
static bool match_event_fields(const char *line, size_t n, size_t at, perf_header *h)
{
	at = skip_space(line, at, n);
	if (at < n && line[at] == '[') {
		size_t close = skip_digits(line, at + 1, n);
		if (close < n && line[close] == ']')
			at = skip_space(line, close + 1, n);
	}
	size_t digits = skip_digits(line, at, n);
	if (digits > at && digits < n && line[digits] == '.') {
		size_t fraction = skip_digits(line, digits + 1, n);
		if (fraction < n && line[fraction] == ':' &&
		    (fraction + 1 == n || fg_is_space((unsigned char)line[fraction + 1])))
			at = skip_space(line, fraction + 1, n);
	}
	h->period = NULL;
	h->period_length = 0;
	digits = skip_digits(line, at, n);
	if (digits > at && digits < n && fg_is_space((unsigned char)line[digits])) {
		h->period = line + at;
		h->period_length = digits - at;
		at = skip_space(line, digits, n);
	}
	size_t token_end = at;
	while (token_end < n && !fg_is_space((unsigned char)line[token_end]))
		token_end++;
	if (token_end - at < 2 || line[token_end - 1] != ':')
		return false;
	h->event = line + at;
	h->event_length = token_end - 1 - at;
	/* A frame "ADDR SYMBOL (MODULE)" after the event: the address must be
	 * hex and stand alone, so payload text ("fd: 0x3") is not taken. */
	size_t frame = skip_space(line, token_end, n);
	size_t hex = frame;
	while (hex < n && is_hex((unsigned char)line[hex]))
		hex++;
	h->has_frame = hex > frame && hex < n && fg_is_space((unsigned char)line[hex]) &&
		       match_frame(line, n, frame, &h->frame);
	return true;
}

/*
 * The header expression ^(\S.+?)\s+(\d+)[/]*(\d+)*\s+ (the script writes the
 * slashes as an escaped slash, starred): the comm is the shortest prefix
 * followed by spaces, digits (the first number), optional slashes and
 * digits (the second), and a space. Once \s+ and (\d+) have matched at a
 * given comm end, giving characters back cannot help, so each end is tried
 * once, and so is each run of spaces. The script wants two bytes of comm at least, and so reads
 * "X 123 [000] 1.0: 1 cycles:" as the comm "X 123 [000] 1.0:"; fg takes a
 * one-byte comm (only a line whose second byte is a space changes). With
 * `indented`, leading spaces are skipped first (one-line samples pad the
 * comm).
 */
static bool match_header(const char *line, size_t n, bool indented, perf_header *h)
{
	size_t start = indented ? skip_space(line, 0, n) : 0;
	if (start >= n || fg_is_space((unsigned char)line[start]))
		return false;
	for (size_t e = start + 1; e < n; e++) {
		if (!fg_is_space((unsigned char)line[e]))
			continue;
		size_t number = skip_space(line, e, n);
		size_t number_end = skip_digits(line, number, n);
		size_t second = number_end;
		while (second < n && line[second] == '/')
			second++;
		size_t second_end = skip_digits(line, second, n);
		if (number_end == number || second_end >= n ||
		    !fg_is_space((unsigned char)line[second_end])) {
			/* Every comm end inside this run of spaces meets the same
			 * digits: skip the run (trying each would be quadratic). */
			e = number - 1;
			continue;
		}
		h->comm = line + start;
		h->comm_length = e - start;
		h->pid = line + number;
		h->pid_length = number_end - number;
		h->tid = second_end > second ? line + second : NULL;
		h->tid_length = second_end - second;
		h->has_frame = false;
		if (!match_event(line, n, h) && !match_event_fields(line, n, second_end, h)) {
			h->event = NULL;
			h->event_length = 0;
			h->period = NULL;
			h->period_length = 0;
		}
		return true;
	}
	return false;
}

enum line_kind { LINE_COMMENT, LINE_BLANK, LINE_HEADER, LINE_OTHER };

/*
 * What a line is, the same for the parser, prepare and find_boundary (they
 * must agree, or the result would depend on where the input is cut).
 * *indent is set to the offset of the first non-space byte.
 */
static enum line_kind classify(const perf_config *config, const char *line, size_t n,
			       size_t *indent, perf_header *h)
{
	if (n > 0 && line[0] == '#')
		return LINE_COMMENT;
	size_t i = skip_space(line, 0, n);
	*indent = i;
	if (i == n)
		return LINE_BLANK;
	if ((i == 0 || config->one_line) && match_header(line, n, config->one_line, h))
		return LINE_HEADER;
	return LINE_OTHER;
}

/* ----------------------------------------------------------- frame ids */

static int table_grow(frame_table *t)
{
	size_t mask = t->mask ? t->mask * 2 + 1 : 1023;
	uint32_t *slots = calloc(mask + 1, sizeof(*slots));
	if (slots == NULL)
		return FG_ENOMEM;
	for (size_t i = 0; i < t->count; i++) {
		size_t at = t->hashes[i] & mask;
		while (slots[at] != 0)
			at = (at + 1) & mask;
		slots[at] = (uint32_t)(i + 1);
	}
	free(t->slots);
	t->slots = slots;
	t->mask = mask;
	return 0;
}

/* The id of the frame named [name, name + n), added if new; 0 or FG_ENOMEM. */
static int table_intern(frame_table *t, const char *name, size_t n, uint32_t *id)
{
	if (n > UINT32_MAX)
		return FG_ENOMEM;
	if ((t->count + 1) * 2 > t->mask && table_grow(t) != 0)
		return FG_ENOMEM;
	uint64_t hash = fg_hash_bytes(name, n);
	size_t at = hash & t->mask;
	for (uint32_t slot; (slot = t->slots[at]) != 0; at = (at + 1) & t->mask) {
		if (t->hashes[slot - 1] == hash && t->lengths[slot - 1] == n &&
		    memcmp(t->names[slot - 1], name, n) == 0) {
			*id = slot - 1;
			return 0;
		}
	}
	if (t->count >= UINT32_MAX - 1)
		return FG_ENOMEM;
	if (t->count == t->capacity) {
		size_t a = t->capacity, b = t->capacity, c = t->capacity;
		if (fg_grow((void **)&t->names, &a, t->count + 1, sizeof(*t->names)) != 0 ||
		    fg_grow((void **)&t->lengths, &b, t->count + 1, sizeof(*t->lengths)) != 0 ||
		    fg_grow((void **)&t->hashes, &c, t->count + 1, sizeof(*t->hashes)) != 0)
			return FG_ENOMEM;
		t->capacity = a < b ? (a < c ? a : c) : (b < c ? b : c);
	}
	char *copy = fg_arena_copy(&t->arena, name, n);
	if (copy == NULL)
		return FG_ENOMEM;
	t->names[t->count] = copy;
	t->lengths[t->count] = (uint32_t)n;
	t->hashes[t->count] = hash;
	t->slots[at] = (uint32_t)(t->count + 1);
	*id = (uint32_t)t->count++;
	return 0;
}

static void table_free(frame_table *t)
{
	fg_arena_free(&t->arena);
	free(t->names);
	free(t->lengths);
	free(t->hashes);
	free(t->slots);
}

/* Appends a frame id to the sample. */
static int push_id(perf_state *s, uint32_t id)
{
	if (fg_grow((void **)&s->ids, &s->id_capacity, s->id_count + 1, sizeof(*s->ids)) != 0)
		return FG_ENOMEM;
	s->ids[s->id_count++] = id;
	return 0;
}

/* --------------------------------------------------------------- tidying */

/* Whether s holds ".(" and, after it, ")." (a Go method: no argument list). */
static bool is_go_method(const char *s, size_t n)
{
	const char *open = memmem(s, n, ".(", 2);
	if (open == NULL)
		return false;
	size_t after = (size_t)(open - s) + 2;
	return memmem(s + after, n - after, ").", 2) != NULL;
}

static int push_piece_text(perf_state *s, const char *bytes, size_t n)
{
	return append(&s->pieces_text, &s->pieces_length, &s->pieces_capacity, bytes, n);
}

/* The bytes that make a symbol need more than a copy. */
enum { SYMBOL_DASH = 1, SYMBOL_OPEN = 2, SYMBOL_EDIT = 4 };
static const unsigned char symbol_class[256] = {
	['-'] = SYMBOL_DASH, ['('] = SYMBOL_OPEN, [';'] = SYMBOL_EDIT,
	['"'] = SYMBOL_EDIT, ['\''] = SYMBOL_EDIT,
};

static unsigned classify_symbol(const char *text, size_t n)
{
	unsigned found = 0;
	for (size_t i = 0; i < n; i++)
		found |= symbol_class[(unsigned char)text[i]];
	return found;
}

/*
 * Appends the tidied text of one piece to s->pieces_text: ';' becomes ':',
 * the argument list goes from the first '(' that does not open
 * "(anonymous namespace)" (unless a Go method), quotes go. `found` is
 * classify_symbol of the text (or more): most symbols need only a copy.
 */
static int push_tidied(perf_state *s, const char *text, size_t n, unsigned found)
{
	if (!(found & (SYMBOL_OPEN | SYMBOL_EDIT)))
		return push_piece_text(s, text, n);
	size_t cut = n;
	const char *open = memchr(text, '(', n);
	if (open != NULL && !is_go_method(text, n)) {
		static const char anonymous[] = "anonymous namespace)";
		for (; open != NULL; open = memchr(open + 1, '(', n - (size_t)(open + 1 - text))) {
			size_t after = (size_t)(open + 1 - text);
			if (!(n - after >= sizeof(anonymous) - 1 &&
			      memcmp(text + after, anonymous, sizeof(anonymous) - 1) == 0)) {
				cut = (size_t)(open - text);
				break;
			}
		}
	}
	if (fg_grow((void **)&s->pieces_text, &s->pieces_capacity, s->pieces_length + cut, 1) != 0)
		return FG_ENOMEM;
	char *out = s->pieces_text + s->pieces_length;
	for (size_t i = 0; i < cut; i++) {
		char c = text[i];
		if (c == '"' || c == '\'')
			continue;
		*out++ = c == ';' ? ':' : c;
	}
	s->pieces_length = (size_t)(out - s->pieces_text);
	return 0;
}

/* Whether module names a perf map of JIT code: /tmp/perf-DIGITS.map. */
static bool is_jit_module(const char *m, size_t n)
{
	static const char prefix[] = "/tmp/perf-";
	for (const char *p = m; (p = memchr(p, '/', n - (size_t)(p - m))) != NULL; p++) {
		size_t at = (size_t)(p - m);
		if (n - at < sizeof(prefix) - 1 || memcmp(p, prefix, sizeof(prefix) - 1) != 0)
			continue;
		at += sizeof(prefix) - 1;
		size_t digits = skip_digits(m, at, n);
		if (digits > at && n - digits >= 4 && memcmp(m + digits, ".map", 4) == 0)
			return true;
	}
	return false;
}

static bool is_kernel_module(const char *m, size_t n)
{
	return (has_prefix(m, n, "[") || has_suffix(m, n, "vmlinux")) && !contains(m, n, "unknown");
}

/*
 * Tidies one piece of a frame line and records it. *unknown is set when
 * both the symbol and the module are unknown (no source line follows).
 */
static int add_piece(perf_state *s, const perf_frame *f, const char *text, size_t n,
		     unsigned found, size_t index, bool *unknown)
{
	const fg_perf_options *o = &s->config->options;
	if (fg_grow((void **)&s->pieces, &s->piece_capacity, s->piece_count + 1,
		    sizeof(*s->pieces)) != 0 ||
	    fg_grow((void **)&s->pieces_text, &s->pieces_capacity, s->pieces_length + 1, 1) != 0)
		return FG_ENOMEM; /* (pieces_text exists even for an empty piece) */
	perf_piece *p = &s->pieces[s->piece_count];
	memset(p, 0, sizeof(*p));
	p->start = s->pieces_length;
	int rc;
	if (equals(text, n, "[unknown]", 9)) {
		/* "[module basename]" or "[unknown]", with the address on --addrs */
		const char *name = "unknown";
		size_t name_length = 7;
		if (!equals(f->module, f->module_length, "[unknown]", 9)) {
			const char *slash = memrchr(f->module, '/', f->module_length);
			name = slash ? slash + 1 : f->module;
			name_length = f->module_length - (size_t)(name - f->module);
		} else {
			*unknown = true;
		}
		s->scratch_length = 0;
		rc = append(&s->scratch, &s->scratch_length, &s->scratch_capacity, "[", 1);
		rc = rc ? rc : append(&s->scratch, &s->scratch_length, &s->scratch_capacity,
				      name, name_length);
		if (o->addrs) {
			rc = rc ? rc : append(&s->scratch, &s->scratch_length, &s->scratch_capacity,
					      " <", 2);
			rc = rc ? rc : append(&s->scratch, &s->scratch_length, &s->scratch_capacity,
					      f->pc, f->pc_length);
			rc = rc ? rc : append(&s->scratch, &s->scratch_length, &s->scratch_capacity,
					      ">", 1);
		}
		rc = rc ? rc : append(&s->scratch, &s->scratch_length, &s->scratch_capacity, "]", 1);
		rc = rc ? rc : push_tidied(s, s->scratch, s->scratch_length,
					   classify_symbol(s->scratch, s->scratch_length));
	} else {
		rc = push_tidied(s, text, n, found);
	}
	if (rc != 0)
		return rc;
	char *piece = s->pieces_text + p->start;
	size_t length = s->pieces_length - p->start;
	if (s->java && length > 0 && piece[0] == 'L' && memchr(piece, '/', length) != NULL) {
		memmove(piece, piece + 1, length - 1);
		s->pieces_length--;
		length--;
	}
	p->name_end = s->pieces_length;
	const char *annotation = NULL;
	if (index > 0) {
		if (!contains(piece, length, "_[i]"))
			annotation = "_[i]";
	} else if (o->kernel && is_kernel_module(f->module, f->module_length)) {
		annotation = "_[k]";
	} else if (o->jit && is_jit_module(f->module, f->module_length)) {
		if (!contains(piece, length, "_[j]"))
			annotation = "_[j]";
	}
	if (annotation != NULL && push_piece_text(s, annotation, 4) != 0)
		return FG_ENOMEM;
	p->end = s->pieces_length;
	p->inlined = equals(f->module, f->module_length, "inlined", 7);
	s->piece_count++;
	return 0;
}

/* Whether a piece's name is one of the --skip-after names. */
static bool is_skip_after(const perf_state *s, const perf_piece *p)
{
	const perf_config *c = s->config;
	for (size_t i = 0; i < c->options.skip_after_count; i++)
		if (equals(s->pieces_text + p->start, p->name_end - p->start, c->skip_after[i],
			   c->skip_after_length[i]))
			return true;
	return false;
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
	int rc = fg_grow((void **)&s->scratch, &s->scratch_capacity, 1, 1);
	s->scratch_length = 0;
	for (size_t i = first; i < s->piece_count && rc == 0; i++) {
		const perf_piece *p = &s->pieces[i];
		const char *text = s->pieces_text + p->start;
		if (i > first)
			rc = append(&s->scratch, &s->scratch_length, &s->scratch_capacity, ";", 1);
		rc = rc ? rc : append(&s->scratch, &s->scratch_length, &s->scratch_capacity,
				      text, p->end - p->start);
		if (rc == 0 && p->source_length > 0) {
			rc = append(&s->scratch, &s->scratch_length, &s->scratch_capacity, ":", 1);
			rc = rc ? rc : append(&s->scratch, &s->scratch_length, &s->scratch_capacity,
					      s->sources + p->source_start, p->source_length);
		}
		if (rc == 0 && p->inlined && s->config->options.inline_frames &&
		    !has_suffix(text, p->end - p->start, "_[i]"))
			rc = append(&s->scratch, &s->scratch_length, &s->scratch_capacity, "_[i]", 4);
	}
	bool any = first < s->piece_count;
	uint32_t id = 0;
	if (rc == 0 && any)
		rc = table_intern(&s->table, s->scratch, s->scratch_length, &id);
	if (rc == 0 && any)
		rc = push_id(s, id);
	s->last_frame = id;
	if (pushed != NULL)
		*pushed = any;
	s->piece_count = 0;
	s->pieces_length = 0;
	s->sources_length = 0;
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
	size_t start = s->sources_length;
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
		if (append(&s->sources, &s->sources_length, &s->sources_capacity, line + i, j - i))
			return FG_ENOMEM;
		i = j;
	}
	const char *text = s->sources + start;
	size_t length = s->sources_length - start;
	size_t lead = skip_space(text, 0, length);
	while (length > lead && fg_is_space((unsigned char)text[length - 1]))
		length--;
	if (has_suffix(text + lead, length - lead, "(inlined)")) {
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
static int on_frame(perf_state *s, const perf_frame *f, bool *cached, bool *pushed)
{
	if (s->skip_rest)
		return 0;
	const char *symbol = f->symbol;
	size_t n = f->symbol_length;
	/* s/\+0x[\da-f]+$// : one offset, lowercase hex, at the very end */
	size_t hex = n;
	while (hex > 0 && is_lower_hex((unsigned char)symbol[hex - 1]))
		hex--;
	if (hex < n && hex >= 3 && memcmp(symbol + hex - 3, "+0x", 3) == 0)
		n = hex - 3;
	/* The script drops symbols starting with '(' (perf's "(unknown)"
	 * forms); fg keeps C++'s "(anonymous namespace)::". */
	if (n > 0 && symbol[0] == '(' && !has_prefix(symbol, n, "(anonymous namespace)::")) {
		if (cached != NULL)
			*cached = true; /* a line that pushes nothing */
		return 0;
	}
	/* split /->/: pieces in printed order; trailing empty pieces vanish */
	bool unknown = false;
	size_t wanted = 0;
	unsigned found = classify_symbol(symbol, n);
	if (!(found & SYMBOL_DASH)) {
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
		rc = table_intern(&s->table, s->name, s->name_length, &s->ids[0]);
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

static int set_name(perf_state *s, const perf_header *h)
{
	const fg_perf_options *o = &s->config->options;
	const char *pid = h->pid, *tid = h->tid;
	size_t pid_length = h->pid_length, tid_length = h->tid_length;
	/* One number is the TID; a TID of "0" counts as none (swapper-?/0). */
	if (tid == NULL || equals(tid, tid_length, "0", 1)) {
		tid = pid;
		tid_length = pid_length;
		pid = "?";
		pid_length = 1;
	}
	s->name_length = 0;
	int rc = append(&s->name, &s->name_length, &s->name_capacity, h->comm, h->comm_length);
	if (o->tid || o->pid) {
		rc = rc ? rc : append(&s->name, &s->name_length, &s->name_capacity, "-", 1);
		rc = rc ? rc : append(&s->name, &s->name_length, &s->name_capacity, pid, pid_length);
	}
	if (o->tid) {
		rc = rc ? rc : append(&s->name, &s->name_length, &s->name_capacity, "/", 1);
		rc = rc ? rc : append(&s->name, &s->name_length, &s->name_capacity, tid, tid_length);
	}
	if (rc != 0)
		return rc;
	for (size_t i = 0; i < s->name_length; i++)
		if (s->name[i] == ' ')
			s->name[i] = '_';
	s->java = has_prefix(s->name, s->name_length, "java");
	return 0;
}

static int on_header(perf_state *s, const perf_header *h)
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
	    !equals(h->event, h->event_length, c->filter, c->filter_length)) {
		if (!c->filter_given) {
			/* Event names are input: no escape sequences to the terminal. */
			char event[QUOTE_MAX + 4], first[QUOTE_MAX + 4];
			quote_line(h->event, h->event_length, event);
			quote_line(c->filter, c->filter_length, first);
			fg_collapse_warn_once(s->chunk->report, ONCE_FILTER, s->line,
					      "skipping samples of event %s: only the first "
					      "event, %s, is collapsed (see --event-filter)",
					      event, first);
		}
		return 0;
	}
	/* The period counts; none, or "0", counts 1 (as the script's "not"). */
	fg_count period = fg_count_of(1);
	if (h->period != NULL && !equals(h->period, h->period_length, "0", 1) &&
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
 * A frame without a module, perf's inlined frame under --inline
 * -F+srcline ("ADDR SYMBOL", its module is left out, and the source line
 * after it ends in "(inlined)"). Only read with --srcline.
 */
static bool match_moduleless_frame(const char *line, size_t n, size_t start, perf_frame *f)
{
	size_t word_end = start;
	while (word_end < n && is_word((unsigned char)line[word_end]))
		word_end++;
	if (word_end == start || word_end == n || !fg_is_space((unsigned char)line[word_end]))
		return false;
	size_t symbol = skip_space(line, word_end, n);
	size_t end = n;
	while (end > symbol && fg_is_space((unsigned char)line[end - 1]))
		end--;
	if (end == symbol)
		return false;
	f->pc = line + start;
	f->pc_length = word_end - start;
	f->symbol = line + symbol;
	f->symbol_length = end - symbol;
	f->module = "";
	f->module_length = 0;
	return true;
}

static int parse_line(perf_state *s, const char *line, size_t n)
{
	const perf_config *c = s->config;
	size_t indent = 0;
	perf_header h;
	switch (classify(c, line, n, &indent, &h)) {
	case LINE_COMMENT:
		return 0;
	case LINE_BLANK:
		return end_sample(s);
	case LINE_HEADER:
		return on_header(s, &h);
	case LINE_OTHER:
		break;
	}
	if (s->pending)
		return take_source_line(s, line, n);
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
	perf_frame f;
	if (match_frame(line, n, indent, &f) ||
	    (c->options.srcline && match_moduleless_frame(line, n, indent, &f))) {
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
	char quoted[QUOTE_MAX + 4];
	quote_line(line, n, quoted);
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
		perf_header h;
		switch (classify(c, p, (size_t)(line_end - p), &indent, &h)) {
		case LINE_BLANK:
			return (size_t)((newline ? newline + 1 : end) - text);
		case LINE_HEADER:
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
		s->scratch_length = 0;
		for (size_t k = 0; k < count && rc == 0; k++) {
			uint32_t id; /* [0], then the frames from the root down */
			memcpy(&id, entries[i]->stack + (k == 0 ? 0 : count - k) * sizeof(id), sizeof(id));
			if (k > 0)
				rc = append(&s->scratch, &s->scratch_length, &s->scratch_capacity, ";", 1);
			rc = rc ? rc : append(&s->scratch, &s->scratch_length, &s->scratch_capacity,
					      s->table.names[id], s->table.lengths[id]);
		}
		for (int column = 0; column < 2 && rc == 0; column++)
			if (column == 0 || !fg_count_is_zero(entries[i]->count[column]))
				rc = fg_stacks_add(into, s->scratch ? s->scratch : "", s->scratch_length,
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
		perf_header h;
		if (!c->mode_known) {
			if (classify(c, p, n, &indent, &h) != LINE_BLANK &&
			    (n == 0 || p[0] != '#')) {
				/* The first sample line: is it a whole sample? */
				c->one_line = match_header(p, n, true, &h) && h.has_frame;
				c->mode_known = true;
			}
		}
		if (c->mode_known && c->filter == NULL &&
		    classify(c, p, n, &indent, &h) == LINE_HEADER && h.event != NULL) {
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
	fg_arena_init(&s->table.arena);
	if (push_id(s, 0) != 0) { /* [0]: the process element */
		free(s);
		return NULL;
	}
	/* --srcline frames take their next line too: those are not cached. */
	if (!s->config->options.srcline) {
		s->cache = calloc(CACHE_SLOTS, sizeof(*s->cache));
		if (s->cache == NULL) {
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
	table_free(&s->table);
	free(s->ids);
	free(s->name);
	free(s->pieces);
	free(s->pieces_text);
	free(s->sources);
	free(s->scratch);
	free(s->cache);
	free(s);
}

static void perf_config_free(void *config)
{
	perf_config *c = config;
	if (c == NULL)
		return;
	for (size_t i = 0; c->skip_after != NULL && i < c->options.skip_after_count; i++)
		free(c->skip_after[i]);
	free(c->skip_after);
	free(c->skip_after_length);
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
	c->skip_after = calloc(count ? count : 1, sizeof(*c->skip_after));
	c->skip_after_length = calloc(count ? count : 1, sizeof(*c->skip_after_length));
	if (c->skip_after == NULL || c->skip_after_length == NULL)
		goto nomem;
	for (size_t i = 0; i < count; i++) {
		c->skip_after[i] = strdup(options->skip_after[i]);
		if (c->skip_after[i] == NULL)
			goto nomem;
		c->skip_after_length[i] = strlen(c->skip_after[i]);
	}
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
