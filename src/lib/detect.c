/*
 * detect.c - which profiler wrote an input, from its first lines, and the
 * collapser for each format (fg-collapse).
 *
 * Each line is asked, in turn, whether it is a shape that only one format
 * prints: "@map[" or "Attaching N probes..." (bpftrace), "dtrace: ..." or
 * DTrace's banner or a "module`func" frame (DTrace), " 0xADDR : func" or
 * " 0xADDR [module" (SystemTap), a sample header with its "TIME:" or an
 * "ADDR symbol (module)" frame (perf script), an unindented "STACK COUNT"
 * line (folded; but perf when a blank ends it and an indented perf frame
 * follows: the header "comm TID " of perf script -F comm,tid,ip,sym,dso).
 * The first such line decides. Lines that every format may hold (blank
 * lines, bare counts, prose, "^C") decide nothing. DTrace
 * output whose frames carry no module (rare: bare addresses) is told only
 * by its shape, indented frames then an indented count; that weak sign is
 * used only when the whole window has nothing better.
 *
 * Why not a score over many lines: the formats' own lines rarely look like
 * another's, a capture often starts with noise (banners, prompts), and a
 * first decisive line gives one rule a user can check with -v.
 */
#include <strings.h>

#include "internal.h"

#define DETECT_WINDOW (1u << 20)   /* bytes looked at, at most */

static const char *const format_names[] = {
	[FG_FORMAT_UNKNOWN] = "unknown",
	[FG_FORMAT_PERF] = "perf",
	[FG_FORMAT_DTRACE] = "dtrace",
	[FG_FORMAT_STAP] = "stap",
	[FG_FORMAT_BPFTRACE] = "bpftrace",
	[FG_FORMAT_FOLDED] = "folded",
};

const char *fg_format_name(fg_format format)
{
	return (unsigned)format < FG_ARRAY_LENGTH(format_names) ? format_names[format] : "unknown";
}

fg_format fg_format_from_name(const char *name)
{
	for (unsigned f = FG_FORMAT_PERF; f < FG_ARRAY_LENGTH(format_names); f++)
		if (strcasecmp(name, format_names[f]) == 0)
			return (fg_format)f;
	return FG_FORMAT_UNKNOWN;
}

/* ----------------------------------------------------------- line tests */

static bool starts_with(const char *p, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);
	return (size_t)(end - p) >= n && memcmp(p, prefix, n) == 0;
}

static const char *skip_digits(const char *p, const char *end)
{
	while (p < end && fg_is_digit((unsigned char)*p))
		p++;
	return p;
}

/* "@", a map name, "[": a bpftrace map entry. */
static bool is_bpftrace_entry(const char *p, const char *end)
{
	if (p >= end || *p != '@')
		return false;
	for (p++; p < end && (fg_is_digit((unsigned char)*p) || *p == '_' ||
			      ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')); p++)
		;
	return p < end && *p == '[';
}

/* "Attaching 3 probes..." and "Attached 5 probes". */
static bool is_bpftrace_banner(const char *p, const char *end)
{
	if (starts_with(p, end, "Attaching "))
		p += 10;
	else if (starts_with(p, end, "Attached "))
		p += 9;
	else
		return false;
	const char *digits = p;
	p = skip_digits(p, end);
	return p > digits && starts_with(p, end, " probe");
}

/* DTrace: "dtrace: ...", the banner "CPU ID FUNCTION:NAME", a module`func frame. */
static bool is_dtrace_line(const char *line, const char *p, const char *end)
{
	if (starts_with(line, end, "dtrace: "))
		return true;
	if (starts_with(p, end, "CPU") && memmem(p, (size_t)(end - p), "FUNCTION:NAME", 13) != NULL)
		return true;
	/* A frame "module`function" with no space before the '`': indented,
	 * or flush left (-x stackindent=0) with no space or ';' at all (a
	 * folded line of DTrace frames has both). */
	const char *tick = memchr(p, '`', (size_t)(end - p));
	if (tick == NULL || tick == p || memchr(p, ' ', (size_t)(tick - p)) != NULL)
		return false;
	return p > line || (memchr(p, ' ', (size_t)(end - p)) == NULL &&
			    memchr(p, ';', (size_t)(end - p)) == NULL);
}

/* SystemTap: an indented " 0xADDR : func" or " 0xADDR [module+0x...]". */
static bool is_stap_frame(const char *line, const char *p, const char *end)
{
	if (p == line || !starts_with(p, end, "0x"))
		return false;
	const char *hex = p + 2, *q = hex;
	while (q < end && fg_is_hex((unsigned char)*q))
		q++;
	return q > hex && (starts_with(q, end, " : ") || starts_with(q, end, " ["));
}

/* perf script: a frame "ADDR symbol (module)" (old perf did not indent it). */
static bool is_perf_frame(const char *line, const char *p, const char *end)
{
	const char *q = p;
	while (q < end && fg_is_hex((unsigned char)*q))
		q++;
	return q - p >= (p == line ? 6 : 1) && q < end && *q == ' ' && end[-1] == ')' &&
	       memmem(q, (size_t)(end - q), " (", 2) != NULL;
}

/* perf script: the header of its "perf record" data ("# ========",
 * "# captured on: ..."). */
static bool is_perf_comment(const char *p, const char *end)
{
	return starts_with(p, end, "# ========") || starts_with(p, end, "# captured on");
}

/*
 * perf script: a sample header, "comm PID[/TID] [CPU] SECS.USECS: ..." or,
 * without times, "comm PID [PERIOD] EVENT:" ending the line or followed by
 * the frame of a one-line sample (the comm may be right-aligned).
 */
static bool is_perf_header(const char *line, const char *end)
{
	bool pid = false;   /* the token before was "PID" or "PID/TID" (or "[CPU]" after it) */
	for (const char *p = line; p < end;) {
		while (p < end && *p == ' ')
			p++;
		const char *token = p;
		while (p < end && *p != ' ')
			p++;
		const char *digits = skip_digits(token, p);
		if (digits > token && (digits == p || (*digits == '/' && skip_digits(digits + 1, p) == p))) {
			pid = true;
		} else if (pid && *token == '[' && p[-1] == ']') {
			/* "[003]": the CPU, after the pid */
		} else if (pid && digits > token && *digits == '.') {
			const char *fraction = skip_digits(digits + 1, p);
			if (fraction > digits + 1 && fraction + 1 == p && *fraction == ':')
				return true;  /* "1360.665435:" */
			pid = false;
		} else if (pid && p - token > 1 && p[-1] == ':' &&
			   (*token | 0x20) >= 'a' && (*token | 0x20) <= 'z') {
			/* "cycles:" right after the pid (or a period), ending the
			 * line or followed by the frame of a one-line sample
			 * (perf script -F comm,tid,event,ip,sym,dso without -g). */
			const char *frame = p;
			while (frame < end && *frame == ' ')
				frame++;
			if (p == end || (frame > p && is_perf_frame(p, frame, end)))
				return true;
			pid = false;
		} else {
			pid = false;
		}
	}
	return false;
}

/*
 * folded: an unindented "STACK COUNT" whose stack has a ';' or no space
 * (prose may end with a number too: "It took 42").
 */
static bool is_folded_line(const char *line, const char *end)
{
	if (line == end || fg_is_space((unsigned char)*line))
		return false;
	fg_folded_line f;
	return fg_folded_parse(line, (size_t)(end - line), &f) == 0 && f.stack_length > 0 &&
	       (memchr(f.stack, ';', f.stack_length) != NULL ||
		memchr(f.stack, ' ', f.stack_length) == NULL);
}

/* The line at `line` (up to end): returns its newline (NULL: it runs to
 * end); *stop is after its last non-blank (trailing blanks and '\r' off),
 * *p at its first non-blank. */
static const char *line_bounds(const char *line, const char *end, const char **p,
			       const char **stop)
{
	const char *newline = memchr(line, '\n', (size_t)(end - line));
	*stop = newline != NULL ? newline : end;
	while (*stop > line && fg_is_space((unsigned char)(*stop)[-1]))
		(*stop)--;
	*p = line;
	while (*p < *stop && fg_is_space((unsigned char)**p))
		(*p)++;
	return newline;
}

/* Whether the line at `line` (up to end) is an indented perf frame: after
 * a header of perf script -F comm,tid,... ("prog 123 ", a folded line too). */
static bool perf_frame_follows(const char *line, const char *end)
{
	const char *p, *stop;
	line_bounds(line, end, &p, &stop);
	return p > line && p < stop && is_perf_frame(line, p, stop);
}

/* Whether [p, end) holds only digits (a DTrace or SystemTap count, trimmed). */
static bool is_count(const char *p, const char *end)
{
	return p < end && skip_digits(p, end) == end;
}

/* ------------------------------------------------------------ detection */

fg_format fg_format_detect(const char *text, size_t length, bool complete, uint64_t *line_number)
{
	const char *end = text + length;
	uint64_t number = 0;
	uint64_t weak_line = 0;       /* the count line after indented frames */
	bool indented_frame = false;  /* an indented line that is no count, since the last count */
	uint64_t first_count = 0;     /* the first line that is a count alone */
	bool any_frame = false;       /* an indented line that is no count, anywhere */
	if (line_number != NULL)
		*line_number = 0;
	for (const char *line = text; line < end;) {
		const char *p, *stop;
		const char *newline = line_bounds(line, end, &p, &stop);
		if (newline == NULL && !complete)
			break;  /* a partial line says nothing yet */
		const char *next = newline != NULL ? newline + 1 : end;
		number++;
		fg_format found = FG_FORMAT_UNKNOWN;
		if (p == stop)
			found = FG_FORMAT_UNKNOWN;
		else if (is_bpftrace_entry(p, stop) || is_bpftrace_banner(p, stop))
			found = FG_FORMAT_BPFTRACE;
		else if (is_dtrace_line(line, p, stop))
			found = FG_FORMAT_DTRACE;
		else if (is_stap_frame(line, p, stop))
			found = FG_FORMAT_STAP;
		else if (is_perf_header(p, stop) || is_perf_frame(line, p, stop) ||
			 is_perf_comment(p, stop))
			found = FG_FORMAT_PERF;
		else if (is_folded_line(line, stop)) {
			/* perf's "comm TID " header (blank after the TID, as
			 * fg-collapse-perf wants it) is a folded line too: the
			 * line after tells, so wait for it to be whole. */
			const char *ends = newline != NULL ? newline : end;
			bool blank = memchr(stop, ' ', (size_t)(ends - stop)) != NULL ||
				     memchr(stop, '\t', (size_t)(ends - stop)) != NULL;
			if (blank && !complete && memchr(next, '\n', (size_t)(end - next)) == NULL)
				break;
			found = blank && perf_frame_follows(next, end) ? FG_FORMAT_PERF : FG_FORMAT_FOLDED;
		}
		else if (p > line && is_count(p, stop)) {
			if (indented_frame && weak_line == 0)
				weak_line = number;
			if (first_count == 0)
				first_count = number;
			indented_frame = false;
		} else if (p > line) {
			indented_frame = any_frame = true;
		}
		if (found != FG_FORMAT_UNKNOWN) {
			if (line_number != NULL)
				*line_number = number;
			return found;
		}
		line = next;
	}
	if (complete && weak_line != 0) {
		if (line_number != NULL)
			*line_number = weak_line;
		return FG_FORMAT_DTRACE;
	}
	/* Nothing but indented counts: folded empty stacks (" 5"), which a
	 * DTrace or SystemTap capture of empty stacks also is (fg-collapse's
	 * folded parser reads "    5" as an empty stack too, not a frame of
	 * spaces). */
	if (complete && first_count != 0 && !any_frame) {
		if (line_number != NULL)
			*line_number = first_count;
		return FG_FORMAT_FOLDED;
	}
	return FG_FORMAT_UNKNOWN;
}

/* ------------------------------------------------------ the collapsers */

fg_collapse *fg_format_collapse_new(fg_format format, unsigned threads, const fg_warner *warner,
				    fg_error *err)
{
	fg_trace_options trace = {.format = format == FG_FORMAT_STAP ? FG_TRACE_STAP
								 : FG_TRACE_DTRACE};
	fg_perf_options perf;
	fg_bpftrace_options bpftrace = {0};
	switch (format) {
	case FG_FORMAT_PERF:
		fg_perf_options_init(&perf);
		return fg_perf_collapse_new(&perf, threads, warner, err);
	case FG_FORMAT_DTRACE:
	case FG_FORMAT_STAP:
		return fg_trace_collapse_new(&trace, threads, warner, err);
	case FG_FORMAT_BPFTRACE:
		return fg_bpftrace_collapse_new(&bpftrace, threads, warner, err);
	case FG_FORMAT_FOLDED:
		return fg_folded_collapse_new(threads, warner, err);
	default:
		fg_fail(err, FG_EINVAL, "no collapser for format %d", (int)format);
		return NULL;
	}
}

/* Whether line `number` (from 1) of text starts with white space. */
static bool line_indented(const char *text, size_t length, uint64_t number)
{
	const char *p = text, *end = text + length;
	for (uint64_t n = 1; n < number && p < end; n++) {
		const char *newline = memchr(p, '\n', (size_t)(end - p));
		p = newline != NULL ? newline + 1 : end;
	}
	return p < end && fg_is_space((unsigned char)*p);
}

/* The format of an open input: forced, or detected from its first bytes. */
static int input_format(fg_input *in, fg_format forced, fg_format *format, uint64_t *line,
			fg_error *err)
{
	*line = 0;
	if (forced != FG_FORMAT_UNKNOWN) {
		*format = forced;
		return 0;
	}
	for (size_t want = 64u << 10;; want *= 4) {
		const char *bytes;
		size_t length;
		int rc = fg_input_peek(in, want, &bytes, &length, err);
		if (rc < 0)
			return rc;
		bool complete = rc == 1 || length >= DETECT_WINDOW;
		size_t window = length < DETECT_WINDOW ? length : DETECT_WINDOW;
		/* A window that the input goes on past ends with whole lines:
		 * a line cut at the window's edge ("java 24636" of a perf
		 * header) would be judged as if it were all. */
		if (rc != 1 || window < length)
			while (window > 0 && bytes[window - 1] != '\n')
				window--;
		*format = fg_format_detect(bytes, window, complete, line);
		/* Counts alone (an indented count decided: no folded line did)
		 * tell nothing when more input follows: a capture may begin with
		 * a megabyte of empty stacks. */
		if (*format == FG_FORMAT_FOLDED && rc != 1 && line_indented(bytes, window, *line))
			*format = FG_FORMAT_UNKNOWN;
		if (*format != FG_FORMAT_UNKNOWN)
			return 0;
		if (complete) {
			if (rc == 1 && fg_is_blank(bytes, length))
				return 0; /* empty, or blank lines: any format reads it */
			return fg_fail(err, FG_EINVAL,
				       "%s: cannot tell the format%s: is it perf script, DTrace, "
				       "SystemTap, bpftrace or folded stacks? (--format NAME "
				       "chooses one)", fg_input_name(in),
				       rc == 1 ? "" : " from the first MB");
		}
	}
}

int fg_collapse_detected(fg_format forced, const char *const *paths, size_t count,
			 const char *output, unsigned threads, const fg_warner *warner,
			 const fg_warner *verbose, fg_error *err)
{
	static const char *const standard_input[] = {"-"};
	if (count == 0) {
		paths = standard_input;
		count = 1;
	}
	fg_collapse *c = NULL;
	fg_format chosen = FG_FORMAT_UNKNOWN;
	const char *chosen_from = NULL;
	int rc = 0;
	for (size_t i = 0; i < count && rc == 0; i++) {
		fg_input *in = fg_input_open(paths[i], err);
		if (in == NULL) {
			rc = err != NULL && err->code != 0 ? err->code : FG_EIO;
			break;
		}
		fg_format format;
		uint64_t line;
		rc = input_format(in, forced, &format, &line, err);
		if (rc == 0 && verbose != NULL && verbose->warn != NULL) {
			char message[128];
			snprintf(message, sizeof(message), "%s%s", fg_format_name(format),
				 forced != FG_FORMAT_UNKNOWN ? " (--format)"
				 : line > 0 ? " (detected from this line)" : " (empty or blank input)");
			verbose->warn(verbose->context, fg_input_name(in), line, message);
		}
		/* An empty input holds nothing to read, in any format. */
		if (rc == 0 && format == FG_FORMAT_UNKNOWN) {
			fg_input_close(in);
			continue;
		}
		if (rc == 0 && chosen == FG_FORMAT_UNKNOWN) {
			chosen = format;
			chosen_from = paths[i];
			c = fg_format_collapse_new(format, threads, warner, err);
			if (c == NULL)
				rc = FG_ENOMEM;
		} else if (rc == 0 && format != chosen) {
			rc = fg_fail(err, FG_EINVAL,
				     "%s:%llu: %s output, but %s holds %s output: collapse them "
				     "separately, or choose one format with --format",
				     fg_input_name(in), (unsigned long long)line, fg_format_name(format),
				     strcmp(chosen_from, "-") == 0 ? "<stdin>" : chosen_from,
				     fg_format_name(chosen));
		}
		if (rc == 0)
			rc = fg_collapse_read(c, in, err);
		fg_input_close(in);
	}
	/* Only empty inputs: the empty output of any collapser. */
	if (rc == 0 && c == NULL && (c = fg_folded_collapse_new(1, warner, err)) == NULL)
		rc = FG_ENOMEM;
	if (rc == 0)
		rc = fg_collapse_write(c, output, err);
	fg_collapse_free(c);
	return rc;
}
