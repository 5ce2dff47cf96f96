/*
 * perf_line.c - what a line of `perf script` output is, and its fields:
 * the matchers that stand for stackcollapse-perf.pl's regular expressions
 * (header, event, frame), and a line quoted for a warning. No state: the
 * sample state machine (collapse_perf.c) calls these.
 *
 * Each expression is matched by hand, in one or two passes over the line
 * and without allocating, but with the same outcome, backtracking
 * included: the comments next to each matcher give the expression it
 * stands for and why the shortcut is equivalent. Byte semantics, as the
 * script has (\s is space, \t, \n, \v, \f, \r; \w is [A-Za-z0-9_]).
 */
#include "perf.h"

/*
 * A module whose file was replaced after it was loaded (a package upgrade)
 * is printed "(/usr/lib/libx.so.1 (deleted))": the expression below takes
 * "deleted)" for the module and "foo+0x1 (/usr/lib/libx.so.1" for the
 * symbol, which then keeps its offset and loses its name's end (the
 * original's output). The frame is made what it would be had the file not
 * been replaced: symbol "foo+0x1", module "/usr/lib/libx.so.1".
 */
static void deleted_module(fg_perf_frame *f)
{
	static const char mark[] = "deleted)";
	if (f->module_length != sizeof(mark) - 1 || memcmp(f->module, mark, sizeof(mark) - 1) != 0)
		return;
	/* The module's " (" is the symbol's last one (not its first byte). */
	for (size_t length = f->symbol_length; length > 0;) {
		const char *open = memrchr(f->symbol, '(', length);
		if (open == NULL)
			return;
		size_t at = (size_t)(open - f->symbol);
		if (at >= 2 && f->symbol[at - 1] == ' ') {
			f->module = open + 1;
			f->module_length = f->symbol_length - at - 1;
			f->symbol_length = at - 1;
			return;
		}
		length = at;
	}
}

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
bool fg_perf_match_frame(const char *line, size_t n, size_t start, fg_perf_frame *f)
{
	size_t word_end = start;
	while (word_end < n && fg_perf_is_word((unsigned char)line[word_end]))
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
	size_t symbol_start = fg_skip_space(line, word_end, n);
	if (symbol_start > q - 1)
		symbol_start = q - 1;
	size_t pc_end = word_end < symbol_start ? word_end : symbol_start;
	f->pc = line + start;
	f->pc_length = pc_end - start;
	f->symbol = line + symbol_start;
	f->symbol_length = q - symbol_start;
	f->module = line + q + 2;
	f->module_length = r - (q + 2);
	deleted_module(f);
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
static bool match_event(const char *line, size_t n, fg_perf_header *h)
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

/* Past the optional "[CPU]" and "TIME:" fields after PID[/TID]. */
static size_t skip_cpu_time(const char *line, size_t n, size_t at)
{
	at = fg_skip_space(line, at, n);
	if (at < n && line[at] == '[') {
		size_t close = fg_skip_digits(line, at + 1, n);
		if (close < n && line[close] == ']')
			at = fg_skip_space(line, close + 1, n);
	}
	size_t digits = fg_skip_digits(line, at, n);
	if (digits > at && digits < n && line[digits] == '.') {
		size_t fraction = fg_skip_digits(line, digits + 1, n);
		if (fraction < n && line[fraction] == ':' &&
		    (fraction + 1 == n || fg_is_space((unsigned char)line[fraction + 1])))
			at = fg_skip_space(line, fraction + 1, n);
	}
	return at;
}

static const char side_band_record[] = "PERF_RECORD_";

/*
 * Whether a perf side-band record starts at `at`, where a sample's event
 * would be: 'perf script --show-task-events' or --show-mmap-events prints
 * them with a sample's header fields ("prog 123 [000] 1.000:
 * PERF_RECORD_EXIT(123:123):(1:1)"), but they are no sample. Read as one,
 * each would count as a stack of the process name alone, between one-line
 * samples or as an input's last line; its "PERF_RECORD_COMM:" taken for an
 * event would become the event filter, and every sample after it be
 * skipped.
 */
static bool is_side_band(const char *line, size_t n, size_t at)
{
	return n - at >= sizeof(side_band_record) - 1 &&
	       memcmp(line + at, side_band_record, sizeof(side_band_record) - 1) == 0;
}

/*
 * What the script cannot read (fg reads more): the fields after PID[/TID],
 * "[CPU]" and "TIME:" (skipped by the caller: `at` is past them), then
 * "PERIOD", "EVENT:", are walked as perf prints them, and whatever follows
 * the event is either a tracepoint's payload (ignored) or, on samples
 * without a call chain, the sample's one frame. Only tried when
 * match_event failed, so nothing the script reads changes; and never on
 * perf's side-band records, which the script ignores.
 */
static bool match_event_fields(const char *line, size_t n, size_t at, fg_perf_header *h)
{
	h->period = NULL;
	h->period_length = 0;
	size_t digits = fg_skip_digits(line, at, n);
	if (digits > at && digits < n && fg_is_space((unsigned char)line[digits])) {
		h->period = line + at;
		h->period_length = digits - at;
		at = fg_skip_space(line, digits, n);
	}
	size_t token_end = fg_skip_word(line, at, n);
	if (token_end - at < 2 || line[token_end - 1] != ':' || is_side_band(line, n, at))
		return false;
	h->event = line + at;
	h->event_length = token_end - 1 - at;
	/* A frame "ADDR SYMBOL (MODULE)" after the event: the address must be
	 * hex and stand alone, so payload text ("fd: 0x3") is not taken. */
	size_t frame = fg_skip_space(line, token_end, n);
	size_t hex = frame;
	while (hex < n && fg_is_hex((unsigned char)line[hex]))
		hex++;
	h->has_frame = hex > frame && hex < n && fg_is_space((unsigned char)line[hex]) &&
		       fg_perf_match_frame(line, n, frame, &h->frame);
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
bool fg_perf_match_header(const char *line, size_t n, bool indented, fg_perf_header *h)
{
	size_t start = indented ? fg_skip_space(line, 0, n) : 0;
	if (start >= n || fg_is_space((unsigned char)line[start]))
		return false;
	for (size_t e = start + 1; e < n; e++) {
		if (!fg_is_space((unsigned char)line[e]))
			continue;
		size_t number = fg_skip_space(line, e, n);
		size_t number_end = fg_skip_digits(line, number, n);
		size_t second = number_end;
		while (second < n && line[second] == '/')
			second++;
		size_t second_end = fg_skip_digits(line, second, n);
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
		size_t fields = skip_cpu_time(line, n, second_end);
		h->side_band = is_side_band(line, n, fields);
		if (!match_event(line, n, h) && !match_event_fields(line, n, fields, h)) {
			h->event = NULL;
			h->event_length = 0;
			h->period = NULL;
			h->period_length = 0;
		}
		return true;
	}
	return false;
}

enum fg_perf_line_kind fg_perf_classify(bool one_line, const char *line, size_t n, size_t *indent,
					fg_perf_header *h)
{
	if (n > 0 && line[0] == '#')
		return FG_PERF_LINE_COMMENT;
	size_t i = fg_skip_space(line, 0, n);
	*indent = i;
	if (i == n)
		return FG_PERF_LINE_BLANK;
	if ((i == 0 || one_line) && fg_perf_match_header(line, n, one_line, h))
		return h->side_band ? FG_PERF_LINE_SIDE_BAND : FG_PERF_LINE_HEADER;
	return FG_PERF_LINE_OTHER;
}

/*
 * A frame without a module, perf's inlined frame under --inline
 * -F+srcline ("ADDR SYMBOL", its module is left out, and the source line
 * after it ends in "(inlined)"). Only read with --srcline.
 */
bool fg_perf_match_moduleless_frame(const char *line, size_t n, size_t start, fg_perf_frame *f)
{
	size_t word_end = start;
	while (word_end < n && fg_perf_is_word((unsigned char)line[word_end]))
		word_end++;
	if (word_end == start || word_end == n || !fg_is_space((unsigned char)line[word_end]))
		return false;
	size_t symbol = fg_skip_space(line, word_end, n);
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
void fg_perf_quote(const char *line, size_t n, char *out)
{
	const unsigned char *s = (const unsigned char *)line;
	size_t k = 0, i = 0;
	while (i < n && k < FG_PERF_QUOTE_MAX) {
		if (s[i] >= 0x80) {
			size_t length = utf8_length(s + i, n - i);
			if (length > 0 && k + length <= FG_PERF_QUOTE_MAX) {
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

