/*
 * perf.h - the parts of the perf parser (fg-collapse-perf) that its files
 * share: collapse_perf.c, the sample state machine and the parser's
 * callbacks; perf_line.c, what a line is; perf_symbol.c, tidying symbols.
 * Internal to libfolded.
 */
#ifndef FG_PERF_H
#define FG_PERF_H

#include <stdbool.h>
#include <stddef.h>

#include "internal.h"
#include "text.h"

/* Longest piece of an input line quoted in a warning. */
#define FG_PERF_QUOTE_MAX 72

/* \w of the script's expressions: [A-Za-z0-9_]. */
static inline bool fg_perf_is_word(unsigned char c)
{
	return fg_is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* [\da-f]: the offsets the script strips are lowercase hex. */
static inline bool fg_perf_is_lower_hex(unsigned char c)
{
	return fg_is_digit(c) || (c >= 'a' && c <= 'f');
}

/* ----------------------------------------------------------- perf_line.c */

/* A frame line, as the script's frame expression splits it. */
typedef struct fg_perf_frame {
	const char *pc, *symbol, *module;
	size_t pc_length, symbol_length, module_length;
} fg_perf_frame;

/* A header line, as the script's header and event expressions split it. */
typedef struct fg_perf_header {
	const char *comm, *pid, *tid, *event, *period;
	size_t comm_length, pid_length, tid_length, event_length, period_length;
	fg_perf_frame frame;     /* a one-line sample's frame */
	bool has_frame;
	bool side_band;          /* perf's "PERF_RECORD_..." record, no sample */
} fg_perf_header;

enum fg_perf_line_kind {
	FG_PERF_LINE_COMMENT, FG_PERF_LINE_BLANK, FG_PERF_LINE_HEADER, FG_PERF_LINE_SIDE_BAND,
	FG_PERF_LINE_OTHER
};

/*
 * What a line is, the same for the parser, prepare and find_boundary (they
 * must agree, or the result would depend on where the input is cut); a
 * header's fields go to *h. one_line: the input's samples are one line
 * each (their headers are indented). *indent is set to the offset of the
 * first non-space byte.
 */
enum fg_perf_line_kind fg_perf_classify(bool one_line, const char *line, size_t n, size_t *indent,
					fg_perf_header *h);

/* The header expression (and the event's, and the fields fg reads beyond
 * them); `indented`: leading spaces are skipped first. */
bool fg_perf_match_header(const char *line, size_t n, bool indented, fg_perf_header *h);

/* The frame expression, from offset start (the first non-space byte). */
bool fg_perf_match_frame(const char *line, size_t n, size_t start, fg_perf_frame *f);

/* "ADDR SYMBOL" with no module: perf's inlined frames under --srcline. */
bool fg_perf_match_moduleless_frame(const char *line, size_t n, size_t start, fg_perf_frame *f);

/* Up to FG_PERF_QUOTE_MAX bytes of line, safe for a terminal (control
 * characters and bytes that are not UTF-8 become '?', "..." when cut),
 * into out (FG_PERF_QUOTE_MAX + 4 bytes). */
void fg_perf_quote(const char *line, size_t n, char *out);

/* --------------------------------------------------------- perf_symbol.c */

/* The bytes that make a symbol need more than a copy, by class. */
enum { FG_PERF_SYMBOL_DASH = 1, FG_PERF_SYMBOL_OPEN = 2, FG_PERF_SYMBOL_EDIT = 4 };

/* The classes of the bytes of text, or-ed. */
unsigned fg_perf_symbol_class(const char *text, size_t n);

/* Appends a symbol (one piece of "a->b") tidied to out; found is its
 * fg_perf_symbol_class (or more). 0 or FG_ENOMEM. */
int fg_perf_tidy(fg_buffer *out, const char *text, size_t n, unsigned found);

/* Whether a module is the kernel's ([...] or ...vmlinux, not unknown), or a
 * perf map of JIT code (/tmp/perf-PID.map). */
bool fg_perf_is_kernel_module(const char *module, size_t n);
bool fg_perf_is_jit_module(const char *module, size_t n);

#endif
