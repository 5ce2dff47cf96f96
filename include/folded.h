/*
 * folded.h - libfolded, the core of fg: folded stacks in, flame graphs out.
 *
 * The data flows one way:
 *
 *   bytes (fg_input) -> records (a profiler parser, or fg_folded_parse)
 *     -> fg_stacks (unique stacks with summed counts; what collapsers print)
 *     -> fg_tree   (frames merged by prefix, children sorted by name)
 *     -> fg_graph_write_svg (an SVG flame graph) into an fg_output.
 *
 * Conventions, true of every function below unless it says otherwise:
 * - Strings are (pointer, length) pairs of arbitrary bytes; nothing needs a
 *   terminating NUL and embedded NULs are ordinary bytes.
 * - Functions that can fail return 0 on success and a negative FG_E* code on
 *   failure, and fill an fg_error (if one is passed) with a message that names
 *   the file and line. The library never prints and never exits; the programs
 *   decide what to print and which exit status to use.
 * - There is no global state: objects are independent, and different objects
 *   may be used from different threads at the same time.
 * - Nothing recurses in proportion to stack depth.
 */
#ifndef FOLDED_H
#define FOLDED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Every declaration from here to the end of this header is libfolded's API
 * and is exported from the shared library; nothing else is (the library is
 * built with hidden visibility, so its internal modules stay internal).
 */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* The release, in one place: the Makefile reads it from here. */
#define FG_VERSION "0.1.0"

/* ------------------------------------------------------------------ errors */

enum {
	FG_OK = 0,
	FG_EIO = -1,      /* read or write failed (errno-based message) */
	FG_ENOMEM = -2,   /* out of memory */
	FG_EINVAL = -3,   /* malformed input or argument */
	FG_ERANGE = -4,   /* a count overflowed 64 bits */
	FG_ENOZLIB = -5,  /* gzip input, but built without zlib */
	FG_EEMPTY = -6,   /* no valid input at all */
};

/* What went wrong, for a human: "FILE:LINE: reason" or "FILE: reason". */
typedef struct fg_error {
	int code;          /* an FG_E* value, 0 when no error was recorded */
	char message[512];
} fg_error;

/* Records code and a printf-style message in err (if err is not NULL) and
 * returns code, so that "return fg_fail(err, FG_EIO, ...)" reads naturally. */
int fg_fail(fg_error *err, int code, const char *format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/*
 * Warnings go through a callback, so that the library can keep going (a bad
 * line is skipped, never fatal) while the program decides how to print.
 * file may be NULL (no file involved) and line 0 (no line involved).
 */
typedef void fg_warn_fn(void *context, const char *file, uint64_t line,
			const char *message);

typedef struct fg_warner {
	fg_warn_fn *warn;  /* NULL: warnings are dropped */
	void *context;
} fg_warner;

/* ------------------------------------------------------------------ counts */

/*
 * An exact, non-negative sample count: whole + frac / 10^18.
 * Integers are exact to 2^64 - 1; decimals are exact to 18 places (further
 * places are rejected by the parser, so a sum never drifts as binary
 * floating point does). Sums whose whole part would exceed 2^64 - 1 are
 * reported, never wrapped (2^64 - 1 and a fraction is a count).
 */
typedef struct fg_count {
	uint64_t whole;
	uint64_t frac;     /* 0 <= frac < FG_COUNT_FRAC_ONE */
} fg_count;

#define FG_COUNT_FRAC_ONE 1000000000000000000ULL /* 10^18 */
#define FG_COUNT_FRAC_DIGITS 18

/* Parses "DIGITS" or "DIGITS.DIGITS*" (as flamegraph.pl accepts: "5", "5.",
 * "5.25"; not ".5", "-1", "1e3"). Returns 0, FG_EINVAL (not a count) or
 * FG_ERANGE (the integer part exceeds 2^64 - 1, or a decimal past the 18th
 * is not 0: trailing zeros may follow). */
int fg_count_parse(const char *text, size_t length, fg_count *out);

/* *sum += addend; returns 0, or FG_ERANGE (and leaves *sum unchanged). */
int fg_count_add(fg_count *sum, fg_count addend);

/* a - b when a >= b, else 0. */
fg_count fg_count_sub_floor(fg_count a, fg_count b);

/* <0, 0, >0 as a <, ==, > b. */
int fg_count_compare(fg_count a, fg_count b);

/* Whether c is 0; the count of a whole number. */
static inline bool fg_count_is_zero(fg_count c) { return (c.whole | c.frac) == 0; }
static inline fg_count fg_count_of(uint64_t whole) { fg_count c = {whole, 0}; return c; }

/* The nearest double (for geometry and percentages only, never for sums). */
double fg_count_to_double(fg_count c);

/* Writes the shortest exact decimal ("42", "2.5", "0.1") and a NUL into
 * buffer, which must hold FG_COUNT_TEXT_MAX bytes; returns the length. */
#define FG_COUNT_TEXT_MAX 48
size_t fg_count_format(fg_count c, char *buffer);

/* ------------------------------------------------------------------- input */

/*
 * A source of bytes: a file, or stdin for NULL or "-". gzip data is detected
 * by its magic bytes (files and pipes alike) and inflated when libfolded was
 * built with zlib (FG_HAVE_ZLIB); otherwise opening or reading reports
 * FG_ENOZLIB. Reads are large and buffered; nothing is read ahead of need
 * beyond one buffer, so memory does not grow with the input.
 */
typedef struct fg_input fg_input;

/* Opens path (NULL or "-": stdin); NULL on failure, with err filled in.
 * fg_input_close closes and frees (NULL is allowed). */
fg_input *fg_input_open(const char *path, fg_error *err);
/* An input reading a copy of bytes (not inflated); name is used in
 * messages. NULL when out of memory. */
fg_input *fg_input_open_memory(const char *name, const void *bytes, size_t length);
void fg_input_close(fg_input *in);

/* The name used in messages: the path, or "<stdin>". */
const char *fg_input_name(const fg_input *in);

/*
 * Returns 1 and the next line (without its '\n'; a final line without '\n'
 * counts too), 0 at the end, or a negative FG_E* on a read error. The line
 * stays valid until the next call. Lines of any length are supported.
 */
int fg_input_read_line(fg_input *in, const char **line, size_t *length,
		       fg_error *err);

/* The number of the line last returned by fg_input_read_line (1-based). */
uint64_t fg_input_line_number(const fg_input *in);

/*
 * Block reading, for parsers that split work across threads: returns 1 and a
 * block of whole lines (it ends just after a '\n', or at the end of input),
 * of about `want` bytes: the lines that end within the first `want`, or
 * the one line that starts there when it is longer, or what is left at the
 * end of the input; 0 at the end; or a
 * negative FG_E*, after the whole lines read before it (a line cut short by
 * the error is dropped), so that they do not depend on `want`. The block
 * stays valid until the next call. Line numbers
 * are not tracked in block mode: the caller counts '\n' if it needs them.
 * Do not mix with fg_input_read_line on one input.
 */
int fg_input_read_block(fg_input *in, size_t want, const char **block,
			size_t *length, fg_error *err);

/*
 * Looks ahead without consuming: makes at least `want` bytes available
 * (fewer only at the end of the input) and points *bytes at all the unread
 * bytes (inflated, if gzip), valid until the next call on in. The next
 * read returns them again. Returns 1 when they reach the end of the input,
 * 0 when more follow, or a negative FG_E*.
 */
int fg_input_peek(fg_input *in, size_t want, const char **bytes, size_t *length,
		  fg_error *err);

/* Whether this build can read gzip input. */
bool fg_have_zlib(void);

/* ------------------------------------------------------------------ output */

/*
 * A destination: stdout for NULL or "-", or a file written atomically: the
 * bytes go to a temporary file in the same directory, which fg_output_commit
 * renames over PATH, so readers (a web server) see the old file or the whole
 * new one, never a part. fg_output_abort (or a failed commit) removes the
 * temporary file and leaves PATH as it was. Writes are buffered; every error
 * (a full disk, a closed pipe) is remembered and reported by commit.
 *
 * A PATH that is a symbolic link is followed: the file it points to is
 * replaced and the link stays. A PATH that exists and is not a regular file
 * (a FIFO, /dev/stdout, /dev/null, a terminal) is written through, as a
 * shell redirection would; it cannot be replaced atomically. A temporary
 * name that would exceed NAME_MAX uses a shortened copy of the base name.
 */
typedef struct fg_output fg_output;

/* Opens path (NULL or "-": stdout); NULL on failure, with err filled in.
 * The writers return 0, or FG_EIO once any write has failed (FG_ENOMEM or
 * FG_EINVAL from printf); commit reports the error all the same. */
fg_output *fg_output_open(const char *path, fg_error *err);
int fg_output_write(fg_output *out, const void *bytes, size_t length);
int fg_output_puts(fg_output *out, const char *text);
int fg_output_printf(fg_output *out, const char *format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
/* An output into memory (to embed a graph, or to test): the bytes written
 * so far are at fg_output_data, valid until the next write or commit. */
fg_output *fg_output_open_memory(void);
const char *fg_output_data(fg_output *out, size_t *length);

/* Flushes, syncs and renames; frees out in every case. */
int fg_output_commit(fg_output *out, fg_error *err);
/* Discards everything written; frees out. */
void fg_output_abort(fg_output *out);
/* 0, or the error of the first failed write ("PATH: write failed: REASON",
 * FG_EIO; FG_ENOMEM for a memory output), without committing. */
int fg_output_check(const fg_output *out, fg_error *err);
/*
 * Removes the temporary files of every output not yet committed or
 * aborted. Async-signal-safe: for a SIGINT/SIGTERM handler, so that an
 * interrupted run leaves no .NAME.XXXXXX file behind. The library's one
 * process-wide table (a signal handler cannot be given a context).
 */
void fg_output_remove_temporaries(void);

/* ------------------------------------------------------------ folded lines */

/*
 * One line of folded input: "frame;frame;...;frame COUNT", or with a second
 * count "STACK BEFORE AFTER" (a differential line). The count is the last
 * whitespace-separated token, and exactly one whitespace character before it
 * is consumed (as flamegraph.pl does: "a;b  5" has the leaf "b "). A
 * trailing '\r' (CRLF input) is ignored.
 */
typedef struct fg_folded_line {
	const char *stack;    /* points into the parsed line */
	size_t stack_length;
	fg_count count;       /* the only count, or AFTER on differential lines */
	fg_count before;      /* BEFORE on differential lines, else zero */
	bool differential;
} fg_folded_line;

/* Returns 0, FG_EINVAL (no valid count: the line is to be skipped), or
 * FG_ERANGE (a count beyond 2^64 - 1). Blank lines return FG_EINVAL too;
 * callers that want to skip them silently test fg_is_blank first. */
int fg_folded_parse(const char *line, size_t length, fg_folded_line *out);

/* True for an empty line or one of only whitespace (incl. '\r'). */
bool fg_is_blank(const char *line, size_t length);

/* -------------------------------------------------------------- stack table */

/*
 * The unique stacks of a profile with their summed counts: what the
 * collapsers print. Memory grows with the unique stacks, not with the
 * samples. Each stack may carry two counts (before, after) for fg-diff.
 */
typedef struct fg_stacks fg_stacks;

typedef struct fg_stack_entry {
	const char *stack;
	size_t stack_length;
	fg_count count[2];    /* [0] the count (or BEFORE), [1] AFTER for diffs */
} fg_stack_entry;

/* An empty table (NULL when out of memory); free frees it and its entries. */
fg_stacks *fg_stacks_new(void);
void fg_stacks_free(fg_stacks *stacks);

/* Adds count to column (0 or 1) of stack, creating the entry. Returns 0,
 * FG_ENOMEM, FG_ERANGE (the sum would overflow; nothing is changed) or
 * FG_EINVAL (another column; nothing is added). */
int fg_stacks_add(fg_stacks *stacks, const char *stack, size_t length,
		  int column, fg_count count);

/* Adds every entry of `from` into `into` (column by column). Returns 0,
 * FG_ENOMEM or FG_ERANGE; after an error `into` holds the entries merged
 * before it (still a valid table, but not the sum). */
int fg_stacks_merge(fg_stacks *into, const fg_stacks *from);

/* The number of unique stacks. */
size_t fg_stacks_size(const fg_stacks *stacks);

/* Sum of one column (0 or 1) over all stacks (FG_ERANGE on overflow,
 * FG_EINVAL for another column). */
int fg_stacks_total(const fg_stacks *stacks, int column, fg_count *total);

/*
 * Returns an array of pointers to the entries, sorted bytewise by stack
 * (like LC_ALL=C sort), or NULL when out of memory. The caller frees the
 * array (not the entries). Valid until the table changes.
 */
const fg_stack_entry **fg_stacks_sorted(const fg_stacks *stacks);

/* Writes "STACK COUNT\n" (columns == 1) or "STACK BEFORE AFTER\n"
 * (columns == 2) for every entry, sorted bytewise; FG_EINVAL for any other
 * columns. */
int fg_stacks_write(const fg_stacks *stacks, int columns, fg_output *out);

/* ------------------------------------------------------------ stack builder */

/* ADVANCED, UNSTABLE until 1.0: for parsers written against the collapse
 * driver's plugin interface below; the fields may change. */

/*
 * Assembles one stack from frames that arrive one at a time, leaf first (as
 * profilers print them), and yields it root first, joined by ';'. Reused
 * from sample to sample without allocating once it has grown.
 */
typedef struct fg_stack_builder {
	char *bytes;          /* frames, in arrival order */
	size_t length, capacity;
	size_t *ends;         /* end offset of each frame in bytes */
	size_t frames, frames_capacity;
	char *joined;         /* the last result of fg_stack_builder_join */
	size_t joined_capacity;
} fg_stack_builder;

/* init: an empty builder (allocates nothing); free: releases its memory;
 * clear: forgets the frames but keeps the memory, for the next sample. */
void fg_stack_builder_init(fg_stack_builder *b);
void fg_stack_builder_free(fg_stack_builder *b);
static inline void fg_stack_builder_clear(fg_stack_builder *b) { b->length = 0; b->frames = 0; }
/* Appends one frame (the next one towards the root). */
int fg_stack_builder_push(fg_stack_builder *b, const char *frame, size_t length);
/* Extends the frame pushed last (to build a frame from pieces). */
int fg_stack_builder_append(fg_stack_builder *b, const char *bytes, size_t length);
/* The stack root first: frames in reverse arrival order joined by ';'. If
 * root is not NULL it comes first of all (the process name, say). */
int fg_stack_builder_join(fg_stack_builder *b, const char *root, size_t root_length,
			  const char **stack, size_t *length);

/* --------------------------------------------------------------- the tree */

/*
 * The frame tree: stacks merged by common prefix. Node 0 is the root ("all").
 * Children are ordered by comparing names bytewise (so "foo" < "foo.cold"),
 * or kept in input order for flame charts, where only consecutive stacks
 * share frames. Memory grows with the number of distinct frames (nodes).
 */
typedef struct fg_tree fg_tree;

typedef uint32_t fg_node_id;
#define FG_NODE_NONE UINT32_MAX

enum fg_tree_flags {
	FG_TREE_FLAMECHART = 1 << 0, /* keep input order; merge only with the previous stack */
};

/* An empty tree holding only the root; flags are fg_tree_flags. NULL when
 * out of memory. */
fg_tree *fg_tree_new(unsigned flags);
void fg_tree_free(fg_tree *tree);

/*
 * Adds a stack ("a;b;c", root first; trailing empty frames are dropped as
 * flamegraph.pl does, empty interior frames stay) with its count. For
 * differential input pass before != NULL: the node totals of both sides are
 * kept. Returns 0, FG_ENOMEM, or FG_ERANGE (nothing is added).
 */
int fg_tree_add(fg_tree *tree, const char *stack, size_t length,
		fg_count count, const fg_count *before);

/* Orders children (unless FLAMECHART) and sums the totals. Call once,
 * after the last add. Returns 0, or FG_ENOMEM (the children could not be
 * ordered: do not draw the tree). */
int fg_tree_finish(fg_tree *tree);

/* Read access, valid after fg_tree_finish. */
size_t fg_tree_size(const fg_tree *tree);
bool fg_tree_is_differential(const fg_tree *tree);
fg_node_id fg_tree_first_child(const fg_tree *tree, fg_node_id node);
fg_node_id fg_tree_next_sibling(const fg_tree *tree, fg_node_id node);
fg_node_id fg_tree_parent(const fg_tree *tree, fg_node_id node);
const char *fg_tree_name(const fg_tree *tree, fg_node_id node, size_t *length);
/* Inclusive count (the node and everything above it). */
fg_count fg_tree_total(const fg_tree *tree, fg_node_id node);
/* Inclusive BEFORE count of a differential tree (zero otherwise). */
fg_count fg_tree_total_before(const fg_tree *tree, fg_node_id node);
/* Flame charts: the sum of the counts added before the node's first stack,
 * i.e. where it starts on the time axis (zero for other trees). */
fg_count fg_tree_start(const fg_tree *tree, fg_node_id node);

/* ---------------------------------------------------------------- a graph */

/*
 * Options of fg-render, named and defaulted as flamegraph.pl's.
 * fg_graph_options_init fills in the defaults.
 */
typedef struct fg_graph_options {
	const char *title;        /* NULL: "Flame Graph" / "Icicle Graph" / "Flame Chart" */
	const char *subtitle;     /* NULL: none */
	int width;                /* 1200 */
	int frame_height;         /* 16 */
	double min_width;         /* 0.1 */
	bool min_width_percent;   /* min_width is a % of the total */
	const char *font_type;    /* "Verdana" */
	double font_size;         /* 12 */
	double font_width;        /* 0.59 */
	const char *count_name;   /* "samples" */
	const char *name_type;    /* "Function:" */
	const char *colors;       /* "hot" */
	const char *bg_colors;    /* NULL: from the palette */
	bool hash;                /* --hash */
	bool random;              /* --random */
	bool consistent_palette;  /* --cp: palette.map in palette_map_path */
	const char *palette_map_path; /* "palette.map" */
	bool reverse;             /* reverse each stack before merging */
	bool inverted;            /* icicle graph */
	bool flamechart;          /* input order, no sorting */
	bool negate;              /* swap the differential hues */
	const char *notes;        /* XML comment */
	fg_count total;           /* --total; zero: the sum */
	double factor;            /* 1: scales displayed counts */
	const char *name_attr_path; /* --nameattr FILE */
	const char *encoding;     /* --encoding */
	/* Differential input ("STACK BEFORE AFTER"): */
	bool diff_union;          /* widths from max(BEFORE, AFTER): vanished frames stay visible */
	double diff_threshold;    /* |self change| below this % of the total counts as none */
	unsigned threads;         /* fg_graph_read's threads, and with 2 or more the SVG writer
				     writes the view data on a second one; 0 = one per CPU;
				     the SVG is the same for any */
	/* The view data (the whole tree, for the viewer's function table and
	 * views; docs/svg-contract.md): at most this many nodes, the lightest
	 * past it folded into an exact "other" remainder; 0 writes none.
	 * Default 100000. Not written for differential graphs and flame charts. */
	int view_nodes;
} fg_graph_options;

void fg_graph_options_init(fg_graph_options *options);

/* Whether name is a known palette ("hot", "java", ...); an unknown one
 * draws every frame black, as flamegraph.pl does. */
bool fg_palette_is_valid(const char *name);

/* Whether name is a valid --bgcolors value: yellow, blue, green, grey or
 * "#" and six hex digits. */
bool fg_background_is_valid(const char *name);

/*
 * A flame graph being built: folded lines go in (fg_graph_add_line or
 * fg_graph_read), an SVG comes out (fg_graph_write_svg). Invalid lines are
 * skipped and counted, never fatal.
 */
typedef struct fg_graph fg_graph;

/* A new, empty graph; options are copied, but the strings they point to
 * must stay valid until fg_graph_free. font_type, count_name, name_type,
 * colors and palette_map_path left NULL take their defaults (the other
 * options are checked when the graph is written: fg_graph_options_check).
 * NULL when out of memory. */
fg_graph *fg_graph_new(const fg_graph_options *options);
void fg_graph_free(fg_graph *graph);

/* Parses and adds one folded line. Blank lines are ignored; an invalid line
 * is counted (fg_graph_invalid_lines) and reported through warner, with file
 * and line, for the first few. Returns 0, or FG_ENOMEM / FG_ERANGE (fatal),
 * or FG_EINVAL once the graph was written (as fg_graph_read and
 * fg_graph_run: a graph is written once, after all its lines). */
int fg_graph_add_line(fg_graph *graph, const char *line, size_t length,
		      const char *file, uint64_t line_number,
		      const fg_warner *warner, fg_error *err);

/* Adds every line of in. */
int fg_graph_read(fg_graph *graph, fg_input *in, const fg_warner *warner,
		  fg_error *err);

/* The number of lines skipped as invalid so far. */
uint64_t fg_graph_invalid_lines(const fg_graph *graph);

/* The sum of all counts so far. */
fg_count fg_graph_total(const fg_graph *graph);

/*
 * Checks the numeric options against the ranges fg-render(1) documents
 * (beyond them the drawing means nothing, and coordinates overflow):
 * width 21 to 1000000, frame_height 2 to 10000, font_size 0.1 to 1000,
 * font_width 0.01 to 10, factor 1e-9 to 1e9, diff_threshold 0 to 100,
 * min_width 0 to 1000000 (a percentage: to 100), threads 0 to 1024,
 * view_nodes 0 to 100000000, and encoding: NULL or "UTF-8" (any case),
 * the SVG's own. Returns 0, or FG_EINVAL with err naming the first option
 * out of range as fg-render spells it ("--width must be between 21 and
 * 1000000"). fg_graph_write_svg checks too.
 */
int fg_graph_options_check(const fg_graph_options *options, fg_error *err);

/*
 * Writes the SVG. The options are checked first (fg_graph_options_check:
 * FG_EINVAL, nothing written). Warnings of flamegraph.pl ("Stack count is
 * low", ignored lines, --total ignored) go to warner. With no samples at
 * all it writes the small "no valid input" SVG and returns FG_EEMPTY.
 * With consistent_palette it reads palette_map_path before and rewrites it
 * after (a failure to write it is a warning, but for FG_ENOMEM); with name_attr_path it reads
 * that file. May be called once.
 */
int fg_graph_write_svg(fg_graph *graph, fg_output *out, const fg_warner *warner,
		       fg_error *err);

/*
 * All of fg-render after its options: reads the inputs (count paths; none
 * is stdin, as is "-"; gzip is detected) into graph, then writes the SVG
 * to output (NULL or "-": stdout; else atomically, fg_output_open). With
 * no valid input it returns FG_EEMPTY, having written the "no valid input"
 * SVG when the output is stdout, as flamegraph.pl does, while an output
 * file keeps its old contents (and nothing goes to stdout); on any other
 * error an output file keeps its old contents, and
 * stdout has what was written before the error (a large SVG goes out as
 * it is written; when only palette.map's preparation ran out of memory,
 * the whole SVG). With
 * consistent_palette, palette.map is rewritten only once the SVG is
 * committed, so a failed run changes neither file; a palette.map that
 * cannot be written is a warning (the SVG is delivered), but for
 * FG_ENOMEM. Otherwise it returns what
 * fg_graph_read, fg_graph_write_svg or the output return, err saying what
 * happened.
 */
int fg_graph_run(fg_graph *graph, const char *const *paths, size_t count, const char *output,
		 const fg_warner *warner, fg_error *err);

/* ------------------------------------------------------------- collapsers */

/* fg-collapse-perf: perf script text -> folded stacks. */

/*
 * The collapse driver, shared by the collapsers: it reads an input in large
 * blocks, cuts each block into ranges at record boundaries (for perf: after
 * a blank line), lets N threads parse the ranges at once, each into its own
 * fg_stacks, and merges the tables at the end. Because the stacks are
 * printed sorted and counts add exactly, the output is the same for any
 * number of threads; warnings are buffered per range and passed on in input
 * order with absolute line numbers, so stderr is the same too.
 *
 * ADVANCED, UNSTABLE until 1.0 (the plugin interface: fg_collapse_parser,
 * fg_collapse_chunk, fg_collapse_warn, and each format's parser table and
 * config_new): a format plugs in through an fg_collapse_parser: a table of functions
 * over two objects it defines itself,
 * - a config: the options, shared read-only by all threads (only
 *   begin_input and prepare may change it, and only while no range is being
 *   parsed);
 * - a state: one per thread, holding the record being read (a perf sample
 *   whose blank line has not come yet) and scratch buffers.
 * A record may straddle two blocks: the driver then hands the next block's
 * first range to the same state, so a parser never needs to look ahead of
 * the line it is given, and memory never grows with the input.
 */
typedef struct fg_collapse_report fg_collapse_report;

/* One range of whole lines for fg_collapse_parser.parse. */
typedef struct fg_collapse_chunk {
	const char *text;      /* whole lines; only an input's last may lack '\n' */
	size_t length;
	bool end_of_input;     /* after text, the input ends */
	bool finish;           /* after text comes the end of the input or a
				  record boundary: finish any open record */
	fg_stacks *stacks;     /* add the finished stacks here */
	uint64_t lines;        /* the parser sets it: the number of lines in text */
	fg_collapse_report *report; /* for fg_collapse_warn */
	bool overflowed;       /* the parser sets it when fg_stacks_add found a
				  stack's counts adding up beyond 2^64 - 1 (and
				  goes on): the run then fails at its end, as it
				  would when merging, so the result and the
				  message are the same for any number of threads */
} fg_collapse_chunk;

typedef struct fg_collapse_parser {
	const char *name;      /* "perf", for messages */
	/* Frees the config given to fg_collapse_new. */
	void (*config_free)(void *config);
	/* A new state for one thread, with no open record; NULL: out of memory. */
	void *(*state_new)(void *config);
	void (*state_free)(void *state);
	/* Optional. An input begins (index 0 for the first input of a run). */
	void (*begin_input)(void *config, size_t index);
	/*
	 * Optional. Sees each block of an input, in order, before any of it is
	 * parsed, until it returns true ("seen enough of this input"): for
	 * settings that the first records decide for all (perf's default event
	 * filter is the first event of the input).
	 */
	bool (*prepare)(void *config, const char *block, size_t length);
	/*
	 * Where a record begins in text (which starts at a line start and holds
	 * whole lines): the offset of the first line L such that parsing from L
	 * with a fresh state gives what parsing on from before L would have
	 * given; length if there is none. NULL: never split (one thread).
	 */
	size_t (*find_boundary)(const void *config, const char *text, size_t length);
	/* Parses chunk->text, continuing the state's open record. Returns 0, or
	 * FG_ENOMEM / FG_ERANGE (fatal; malformed lines are warnings). */
	int (*parse)(void *state, fg_collapse_chunk *chunk);
	/*
	 * Optional. Adds the stacks that parse put in a thread's table, as
	 * folded stacks, to `into`: for parsers that key their tables their own
	 * way (perf keys them by frame ids). NULL: the tables hold folded
	 * stacks, and are merged as they are.
	 */
	int (*collect)(void *state, const fg_stacks *stacks, fg_stacks *into);
} fg_collapse_parser;

/*
 * For parsers: a warning about line `line` of the chunk (1-based, counted
 * from chunk->text). The driver adds the file name and the line number in
 * the input, and passes on only the first FG_COLLAPSE_WARNINGS_MAX of each
 * input (then one line saying how many more there were).
 */
#define FG_COLLAPSE_WARNINGS_MAX 10
void fg_collapse_warn(fg_collapse_report *report, uint64_t line, const char *format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
/* The same, but only the first warning of a kind (key 0..31) in the whole
 * run is passed on, and it does not count towards the limit. */
void fg_collapse_warn_once(fg_collapse_report *report, unsigned key, uint64_t line,
			   const char *format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* The same, but a message is passed on only the first time its text
 * occurs in the run ("map @usecs holds histograms"), and it does not count
 * towards the limit. */
void fg_collapse_warn_unique(fg_collapse_report *report, uint64_t line, const char *format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* For parsers: adds a finished stack to chunk->stacks. A sum beyond
 * 2^64 - 1 sets chunk->overflowed (the count is not added; the run fails
 * at its end, the same way for any number of threads). Returns 0 or
 * FG_ENOMEM. `line` is kept for the parsers' calls. */
int fg_collapse_add(fg_collapse_chunk *chunk, uint64_t line, const char *stack, size_t length,
		    fg_count count);

/* One run of a collapser over one or more inputs, into one stack table. */
typedef struct fg_collapse fg_collapse;

/*
 * Starts a run of `parser` with `config`, which the run owns from now on
 * (even when this fails). threads: how many threads parse at once (0: one
 * per online CPU). warner may be NULL. Returns NULL on failure (err set).
 */
fg_collapse *fg_collapse_new(const fg_collapse_parser *parser, void *config,
			     unsigned threads, const fg_warner *warner, fg_error *err);
void fg_collapse_free(fg_collapse *c);

/* Reads all of in (inputs follow each other: the records of one never
 * continue in the next). Returns 0 or FG_EIO / FG_ENOMEM / FG_ERANGE /
 * FG_ENOZLIB with err naming the input. */
int fg_collapse_read(fg_collapse *c, fg_input *in, fg_error *err);

/* The same for bytes in memory (tests, fuzzers, library users); name is
 * used in warnings. One thread; the result is what fg_collapse_read gives. */
int fg_collapse_text(fg_collapse *c, const char *text, size_t length,
		     const char *name, fg_error *err);

/* The stacks of everything read so far (the threads' tables merged), or
 * NULL when out of memory or when a stack's counts add up beyond 2^64 - 1
 * (FG_ERANGE). Owned by c; read no more input after this. */
fg_stacks *fg_collapse_stacks(fg_collapse *c, fg_error *err);

/*
 * All of a collapser program after its options: reads the inputs (count
 * paths; none is stdin, as is "-"; gzip is detected) into c and writes the
 * folded stacks, sorted, to output (NULL or "-": stdout; else atomically).
 * Returns 0; or FG_EEMPTY (no input held a stack), FG_EIO (an input could
 * not be read, or the output not written), FG_ENOZLIB, FG_ENOMEM,
 * FG_ERANGE, with err saying what happened; on these nothing is written
 * (an output file keeps its old contents).
 */
int fg_collapse_run(fg_collapse *c, const char *const *paths, size_t count, const char *output,
		    fg_error *err);

/*
 * The end of fg_collapse_run, for programs that read the inputs themselves
 * (fg_collapse_read): writes the folded stacks of c, sorted, to output
 * (NULL or "-": stdout; else atomically). Returns 0, FG_EEMPTY (no stack:
 * nothing is written, an output file keeps its old contents), or FG_EIO /
 * FG_ENOMEM.
 */
int fg_collapse_write(fg_collapse *c, const char *output, fg_error *err);

/*
 * The perf parser: `perf script` output, as stackcollapse-perf.pl reads it
 * (with the fixes listed in fg-collapse-perf(1)).
 *
 * A sample is a header line ("comm PID[/TID] [CPU] TIME: [PERIOD] EVENT:"),
 * then its frames leaf first ("ADDR SYMBOL[+0xOFF] (MODULE)"), then a blank
 * (or whitespace-only) line. Its stack is the process element (comm, spaces
 * as '_', "-PID" with pid, "-PID/TID" with tid) followed by the tidied
 * frames root first, and it counts its period (1 when the header has none
 * or 0). Only samples of one event are kept: event_filter, or the first
 * event read (in any input of the run). Tidying: "+0xOFF" goes;
 * "[unknown]" becomes "[module basename]" ("[module <ADDR>]" with addrs);
 * argument lists are cut from the first '(' except in Go method names and
 * "(anonymous namespace)"; quotes go; ';' becomes ':'; a leading 'L' goes
 * from Java names; perf's inline chains "a->b" become "a;b_[i]".
 * Annotations: "_[k]" kernel, "_[j]" JIT, "_[i]" inlined.
 */
typedef struct fg_perf_options {
	bool pid;              /* --pid: "comm-PID" */
	bool tid;              /* --tid: "comm-PID/TID" (wins over pid) */
	bool kernel;           /* --kernel: "_[k]" on kernel frames */
	bool jit;              /* --jit: "_[j]" on /tmp/perf-N.map frames */
	bool addrs;            /* --addrs: "[module <ADDR>]" for unknown symbols */
	bool inline_frames;    /* --inline: perf's "(inlined)" frames get "_[i]" */
	bool srcline;          /* --srcline: the line after a frame is its source
				  location (perf script -F+srcline), appended */
	const char *event_filter;        /* NULL or "": the first event read */
	const char *const *skip_after;   /* --skip-after: drop the callers of */
	size_t skip_after_count;         /* frames with these names */
} fg_perf_options;

/* The defaults: every option off, no filter (what fg-collapse-perf does
 * without options). */
void fg_perf_options_init(fg_perf_options *options);

/* The perf parser's table, and a config for it from options (copied);
 * NULL when out of memory. */
extern const fg_collapse_parser fg_perf_parser;
void *fg_perf_config_new(const fg_perf_options *options);

/* Shorthand: fg_collapse_new(&fg_perf_parser, fg_perf_config_new(options), ...). */
fg_collapse *fg_perf_collapse_new(const fg_perf_options *options, unsigned threads,
				  const fg_warner *warner, fg_error *err);

/* fg-collapse-dtrace and fg-collapse-stap. */

/*
 * The trace parsers, for the collapse driver above: DTrace aggregations of
 * stack()/ustack()/jstack() and SystemTap print_stack()/print_ustack()
 * output share one shape, called "trace" text here: frames one a line,
 * leaf first, each stack ended by a line holding only a whole number (its
 * count; whitespace around it is allowed). Blank lines are ignored. Each
 * frame is cleaned as its format requires; a stack is added root first.
 * Records begin after count lines, so any input splits across threads.
 *
 * DTrace frames (`module\`function+0xOFF`): the trailing "+0xOFF" is removed
 * unless include_offset (names keep any other '+': libstdc++, operator+);
 * after the first "::" the name is cut at the last '(' or '<' (C++
 * arguments and template tails); "a->b->c" inline chains become the frames
 * a;b_[i];c_[i]; a leading 'L' is dropped from JVM names (those holding a
 * '/'). DTrace's own text is no frame: where a stack is about to start,
 * its messages ("dtrace: ..."), its banner ("CPU ID FUNCTION:NAME"), the
 * probe line after it and any line not indented like a frame (warned
 * about) are skipped, so every input may carry its own header; a
 * "dtrace:" line elsewhere (a message printed mid-run) is skipped and
 * passed on as a warning.
 * SystemTap frames (" 0xADDR : func+0xOFF/0xSIZE [module]"): the frame is
 * func; only the "0xADDR : " prefix, the "+0xOFF/0xSIZE" offset and the
 * " [module]" suffix are removed; a frame with no name stays its address.
 * Both: ';' inside a name becomes ':', an empty name becomes "-". A count
 * line with no frames before it is a sample with an empty stack, added as
 * the empty stack "" (written " N"), as the original tools keep it.
 *
 * Malformed input is never fatal and loses nothing else: frames that no
 * count line ends (reported at the input's last line), a line that looks
 * like a number but is no count ("1.5", "-3",
 * a count beyond 2^64 - 1), a line holding control characters, and a stack
 * longer than FG_TRACE_STACK_MAX bytes are dropped with a warning
 * (fg_collapse_warn: the driver adds file and line).
 */
typedef enum fg_trace_format {
	FG_TRACE_DTRACE,  /* stackcollapse.pl input */
	FG_TRACE_STAP,    /* stackcollapse-stap.pl input */
} fg_trace_format;

typedef struct fg_trace_options {
	fg_trace_format format;
	bool include_offset;  /* DTrace: keep "+0xOFF" (--includeoffset) */
} fg_trace_options;

#define FG_TRACE_STACK_MAX (64u << 20)

/* The trace parsers' table, and a config for it from options (copied);
 * NULL when out of memory. */
extern const fg_collapse_parser fg_trace_parser;
void *fg_trace_config_new(const fg_trace_options *options);

/* Shorthand: fg_collapse_new(&fg_trace_parser, fg_trace_config_new(options), ...). */
fg_collapse *fg_trace_collapse_new(const fg_trace_options *options, unsigned threads,
				   const fg_warner *warner, fg_error *err);

/*
 * fg_collapse_run over a new trace collapser with `threads` threads (0: one
 * per CPU; the output is the same for any): all of fg-collapse-dtrace and
 * fg-collapse-stap after their options.
 */
int fg_trace_collapse(const fg_trace_options *options, const char *const *paths,
		      size_t count, const char *output, unsigned threads,
		      const fg_warner *warner, fg_error *err);

/*
 * Frame cleaning alone (for tests): cleans one input line that is a frame
 * and pushes the frame(s) it yields onto b, so that fg_stack_builder_join
 * gives them in root-first order ("a->b" gives "a;b_[i]"). Return 0 or
 * FG_ENOMEM.
 */
int fg_dtrace_clean_frame(const char *line, size_t length, bool include_offset,
			  fg_stack_builder *b);
int fg_stap_clean_frame(const char *line, size_t length, fg_stack_builder *b);

/* fg-collapse-bpftrace. */

/*
 * The bpftrace parser, for the collapse driver: the maps bpftrace prints
 * when it exits (`@[kstack] = count()`), as stackcollapse-bpftrace.pl
 * reads them, with the fixes listed in fg-collapse-bpftrace(1).
 *
 * An entry starts with a line "@NAME[" (NAME may be empty), holds its key
 * and ends with "]: VALUE". A key is a list of fields separated by ", ";
 * a stack field prints as its frames one a line, leaf first, so an entry
 * looks like
 *
 *   @[probe, comm,            <- fields before the stack
 *       func+12               <- frames, leaf first
 *       caller+40
 *   , 1234]: 7                <- fields after it, and the value
 *
 * Every entry whose key holds a stack is folded: the other fields become
 * root frames in key order, then the stacks follow, the first stack of the
 * key nearest the leaf (so `@[kstack, ustack]` puts the kernel frames above
 * the user frames, as a CPU flame graph shows them). An empty stack prints
 * as nothing (`@[]: 1623`, `@[, bash]: 7`): it adds no frames, and an entry
 * with nothing else is kept as an empty stack. Values must be whole counts;
 * entries of histogram (hist, lhist) and stats maps are skipped with one
 * warning naming the map, other values with a warning each.
 *
 * Frames: leading and trailing white space goes (indentation, CR);
 * "func+OFF" loses "+OFF" unless include_offset; perf mode's address
 * ("ffffffff81000000 func+5") and a trailing " (module)" go; raw mode's
 * bare addresses, "[unknown]" and other frames stay; ';' becomes ':'.
 * Blank lines are ignored everywhere, and so is every line outside an
 * entry (banners, "^C", prompts, histogram rows, one-line maps without a
 * stack). An entry that no "]:" line ends is reported and dropped. Records
 * begin after a "]:" line, so any input splits across threads.
 */
typedef struct fg_bpftrace_options {
	bool include_offset;  /* keep "+OFF" (--includeoffset) */
} fg_bpftrace_options;

/* The bpftrace parser's table, and a config for it from options (copied);
 * NULL when out of memory. */
extern const fg_collapse_parser fg_bpftrace_parser;
void *fg_bpftrace_config_new(const fg_bpftrace_options *options);

/* Shorthand: fg_collapse_new(&fg_bpftrace_parser, fg_bpftrace_config_new(options), ...). */
fg_collapse *fg_bpftrace_collapse_new(const fg_bpftrace_options *options, unsigned threads,
				      const fg_warner *warner, fg_error *err);

/* Frame cleaning alone (for tests): cleans one frame line and pushes the
 * frame onto b. Returns 0 or FG_ENOMEM. */
int fg_bpftrace_clean_frame(const char *line, size_t length, bool include_offset,
			    fg_stack_builder *b);

/* fg-collapse: any supported input. */

/*
 * Already folded stacks ("STACK COUNT" lines) on the collapse driver:
 * equal stacks are summed and the output sorted like any collapser's.
 * Blank lines are ignored; invalid lines and differential lines (two
 * counts) are skipped with a warning.
 */
extern const fg_collapse_parser fg_folded_parser;
fg_collapse *fg_folded_collapse_new(unsigned threads, const fg_warner *warner, fg_error *err);

typedef enum fg_format {
	FG_FORMAT_UNKNOWN = 0,
	FG_FORMAT_PERF,       /* perf script text */
	FG_FORMAT_DTRACE,     /* DTrace stack aggregations */
	FG_FORMAT_STAP,       /* SystemTap print_stack() output */
	FG_FORMAT_BPFTRACE,   /* bpftrace maps */
	FG_FORMAT_FOLDED,     /* folded stacks */
} fg_format;

/* "perf", "dtrace", "stap", "bpftrace", "folded" ("unknown" for anything
 * else), and back (case-insensitive; FG_FORMAT_UNKNOWN if no such name). */
const char *fg_format_name(fg_format format);
fg_format fg_format_from_name(const char *name);

/*
 * Which format the first lines of an input are in: the first line that only
 * one format prints decides ("@map[" or "Attaching N probes": bpftrace;
 * "dtrace: ...", DTrace's banner or an indented "module`func": DTrace; an
 * indented "0xADDR : func" or "0xADDR [module": SystemTap; a sample header
 * "comm PID [CPU] SECS.USECS:" or "comm PID EVENT:", a frame "ADDR symbol
 * (module)" or perf's "# ========" header: perf; an unindented "STACK
 * COUNT" whose stack has a ';' or no space: folded). Blank lines, bare
 * counts and other text decide nothing. complete: text is all there is to
 * look at (else its last, partial line is ignored); then indented frames
 * followed by a count line, with nothing more telling, are taken for
 * DTrace, and counts alone (folded empty stacks, " 5") for folded.
 * Returns FG_FORMAT_UNKNOWN when the lines do not tell; *line (may
 * be NULL) is the number of the deciding line, 0 if none.
 */
fg_format fg_format_detect(const char *text, size_t length, bool complete, uint64_t *line);

/* A collapser for format with its default options (what the program of
 * that format does without options); NULL on failure, err set. */
fg_collapse *fg_format_collapse_new(fg_format format, unsigned threads, const fg_warner *warner,
				    fg_error *err);

/*
 * All of fg-collapse after its options: reads the inputs (count paths;
 * none is stdin), each in format `forced`, or, for FG_FORMAT_UNKNOWN, in
 * the format fg_format_detect finds in its first MB (fg_input_peek), and
 * writes the folded stacks as fg_collapse_run does: the same bytes as the
 * format's own collapser. verbose (may be NULL) is told each input's
 * format and the line that decided. Returns what fg_collapse_run returns,
 * or FG_EINVAL when an input's format cannot be told or differs from the
 * first input's (nothing is written then).
 */
int fg_collapse_detected(fg_format forced, const char *const *paths, size_t count,
			 const char *output, unsigned threads, const fg_warner *warner,
			 const fg_warner *verbose, fg_error *err);

/* ------------------------------------------------------------------- diff */

/*
 * fg-diff (difffolded.pl): two folded profiles into one differential
 * profile, "STACK BEFORE AFTER" for the union of their stacks.
 */
typedef struct fg_diff_options {
	bool normalize;   /* -n: scale BEFORE counts by total(AFTER) / total(BEFORE) */
	bool strip_hex;   /* -s: "0x" followed by hex digits becomes "0x..." */
} fg_diff_options;

/*
 * Adds every folded line of in to column (0: BEFORE, 1: AFTER) of stacks.
 * The count is the line's last token; a line with two counts keeps the
 * first in its stack, as difffolded.pl does. Invalid lines are reported
 * through warner (file:line) and skipped. Returns 0 or a negative FG_E*.
 */
int fg_diff_read(fg_stacks *stacks, int column, fg_input *in, const fg_diff_options *options,
		 const fg_warner *warner, fg_error *err);

/*
 * With options->normalize, scales column 0 so that its total equals column
 * 1's: each BEFORE count becomes floor(BEFORE * total1 / total0), as the
 * original's int(). Exact for integer counts. Then nothing else changes.
 */
int fg_diff_normalize(fg_stacks *stacks, const fg_diff_options *options, fg_error *err);

/*
 * All of fg-diff after its options: reads BEFORE and AFTER (paths; "-" is
 * stdin; gzip is detected) into one table, normalizes as options say, and
 * writes "STACK BEFORE AFTER" lines, sorted bytewise, to output (NULL or
 * "-": stdout; else atomically). Returns 0; FG_EEMPTY when neither file
 * holds a valid line; or the error of a read or the write (FG_EIO,
 * FG_ENOMEM, ...), err saying what happened. On an error nothing is
 * written (an output file keeps its old contents).
 */
int fg_diff_run(const char *before, const char *after, const char *output,
		const fg_diff_options *options, const fg_warner *warner, fg_error *err);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* FOLDED_H */
