/*
 * graph.c - folded lines into a frame tree, as fg-render's options say.
 *
 * Parsing is folded.c's, merging tree.c's; this file holds what sits
 * between them: skipping and reporting invalid lines, --reverse, the
 * palette's stack (color.c), and the defaults of every option.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "color.h"
#include "graph.h"
#include "viewdata.h"
#include "tree.h"

void fg_graph_options_init(fg_graph_options *o)
{
	memset(o, 0, sizeof(*o));
	o->width = 1200;
	o->frame_height = 16;
	o->min_width = 0.1;
	o->font_type = "Verdana";
	o->font_size = 12;
	o->font_width = 0.59;
	o->count_name = "samples";
	o->name_type = "Function:";
	o->colors = "hot";
	o->palette_map_path = "palette.map";
	o->factor = 1;
	o->view_nodes = FG_VIEW_NODES_DEFAULT;
}

#define AUTO_THREADS 4

size_t fg_graph_thread_count(const fg_graph_options *o)
{
	if (o->flamechart)
		return 1; /* the x axis is input order: one tree */
	/* One per CPU by default, at most AUTO_THREADS: past two, only the
	 * parsing goes faster (merging, ordering and drawing the tree take one
	 * or two), and each thread adds a tree and a block of input. */
	size_t n = o->threads > 0 ? o->threads : fg_usable_cpus();
	size_t most = o->threads > 0 ? 16 : AUTO_THREADS;
	return n > most ? most : n;
}

fg_graph *fg_graph_new(const fg_graph_options *options)
{
	fg_graph *g = calloc(1, sizeof(*g));
	if (g == NULL)
		return NULL;
	g->options = *options;
	g->sink_count = fg_graph_thread_count(options);
	g->sinks = calloc(g->sink_count, sizeof(*g->sinks));
	if (g->sinks == NULL) {
		free(g);
		return NULL;
	}
	for (size_t i = 0; i < g->sink_count; i++)
		if ((g->sinks[i].tree = fg_tree_new(options->flamechart ? FG_TREE_FLAMECHART : 0)) == NULL) {
			fg_graph_free(g);
			return NULL;
		}
	g->tree = g->sinks[0].tree;
	return g;
}

void fg_graph_free(fg_graph *g)
{
	if (g == NULL)
		return;
	for (size_t i = 0; i < g->sink_count; i++) {
		fg_tree_free(g->sinks[i].tree);
		fg_buffer_free(&g->sinks[i].scratch);
		fg_buffer_free(&g->sinks[i].reversed);
	}
	free(g->sinks);
	for (size_t i = 0; i < FG_REPORT_INVALID_LINES; i++)
		free(g->invalid_files[i]);
	free(g);
}

uint64_t fg_graph_invalid_lines(const fg_graph *g) { return g->invalid_lines; }

/* The running sum: node totals exist only after fg_tree_finish. */
fg_count fg_graph_total(const fg_graph *g)
{
	fg_count total = {0, 0};
	for (size_t i = 0; i < g->sink_count; i++)
		fg_count_add_inline(&total, g->sinks[i].tree->grand_total);
	return total;
}

/* "a;b;c" -> "c;b;a" into scratch. */
static int reverse_stack(fg_buffer *out, const char *stack, size_t length)
{
	out->length = 0;
	if (fg_buffer_reserve(out, length) != 0)
		return FG_ENOMEM;
	/* Trailing empty frames vanish first, as in the tree. */
	while (length > 0 && stack[length - 1] == ';')
		length--;
	size_t end = length;
	for (;;) {
		size_t start = end;
		while (start > 0 && stack[start - 1] != ';')
			start--;
		fg_buffer_append(out, stack + start, end - start);
		if (start == 0)
			break;
		fg_buffer_append(out, ";", 1);
		end = start - 1;
	}
	return 0;
}

/*
 * Parses one line into sink s. Returns 0 (added, or blank), FG_EINVAL or
 * FG_ERANGE for an invalid line (the caller counts it), or a fatal error
 * with *fatal set (out of memory, or the sum of counts would overflow).
 */
static int add_to_sink(const fg_graph_options *o, fg_graph_sink *s, const char *line,
		       size_t length, bool *fatal)
{
	*fatal = false;
	if (fg_is_blank(line, length))
		return 0;
	fg_folded_line parsed;
	int rc = fg_folded_parse(line, length, &parsed);
	if (rc != 0)
		return rc;
	const char *stack = parsed.stack;
	size_t stack_length = parsed.stack_length;
	*fatal = true;
	if (o->reverse) {
		/* Into `reversed`: fg_palette_stack below writes into scratch. */
		if (reverse_stack(&s->reversed, stack, stack_length) != 0)
			return FG_ENOMEM;
		stack = s->reversed.data;
		stack_length = s->reversed.length;
	}
	if (fg_palette_stack(o->colors, &s->scratch, &stack, &stack_length) != 0)
		return FG_ENOMEM;
	rc = fg_tree_add(s->tree, stack, stack_length, parsed.count,
			 parsed.differential ? &parsed.before : NULL);
	*fatal = rc != 0;
	return rc;
}

/* Counts an invalid line of file (reporting the first few). */
static void note_invalid(fg_graph *g, const char *file, uint64_t line_number, int code,
			 const fg_warner *warner)
{
	if (g->invalid_lines < FG_REPORT_INVALID_LINES) {
		g->first_invalid[g->invalid_lines] = line_number;
		if (file != NULL)
			g->invalid_files[g->invalid_lines] = strdup(file); /* NULL: "input" */
		fg_warn(warner, file, line_number, fg_folded_problem(code));
	}
	g->invalid_lines++;
}

static int fatal_error(int rc, const char *file, uint64_t line_number, fg_error *err)
{
	if (rc == FG_ERANGE)
		return fg_fail(err, rc, "%s:%llu: the sum of counts exceeds 2^64-1",
			       file ? file : "<input>", (unsigned long long)line_number);
	return fg_fail(err, rc, "out of memory");
}

int fg_graph_add_line(fg_graph *g, const char *line, size_t length, const char *file,
		      uint64_t line_number, const fg_warner *warner, fg_error *err)
{
	bool fatal;
	int rc = add_to_sink(&g->options, &g->sinks[0], line, length, &fatal);
	if (rc != 0 && fatal)
		return fatal_error(rc, file, line_number, err);
	if (rc != 0)
		note_invalid(g, file, line_number, rc, warner);
	return 0;
}

/* The hash of a line's partition prefix: its first `frames` frames (all
 * of them in a shorter stack, without the count). */
static uint64_t prefix_hash(const char *line, size_t length, size_t frames)
{
	const char *p = line, *end = line + length;
	for (size_t k = 0; k < frames && p < end; k++) {
		const char *semicolon = memchr(p, ';', (size_t)(end - p));
		if (semicolon == NULL) {
			const char *space = memrchr(line, ' ', length);
			p = space != NULL ? space : end;
			break;
		}
		p = semicolon + 1;
	}
	return fg_hash_bytes(line, (size_t)(p - line));
}

static int compare_hashes(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/*
 * How many leading frames the partition hashes: the fewest for which no
 * prefix holds more than half a thread's share of 256 lines sampled
 * evenly across the first block. One busy process, whose stacks all start
 * with the same frames, still spreads over the threads, while the nodes
 * above the prefixes, which several threads may each have, stay few.
 */
static size_t partition_frames(const char *text, size_t length, size_t threads)
{
	enum { SAMPLES = 256, MOST = 16 };
	const char *lines[SAMPLES];
	size_t lengths[SAMPLES], n = 0;
	for (size_t i = 0; i < SAMPLES; i++) {
		size_t at = length / SAMPLES * i;
		if (at > 0) {
			const char *newline = memchr(text + at - 1, '\n', length - at + 1);
			if (newline == NULL)
				break;
			at = (size_t)(newline + 1 - text);
		}
		if (at >= length)
			break;
		const char *newline = memchr(text + at, '\n', length - at);
		lines[n] = text + at;
		lengths[n++] = newline ? (size_t)(newline - text) - at : length - at;
	}
	for (size_t frames = 1; frames < MOST && n > 0; frames++) {
		uint64_t hashes[SAMPLES];
		for (size_t i = 0; i < n; i++)
			hashes[i] = prefix_hash(lines[i], lengths[i], frames);
		qsort(hashes, n, sizeof(*hashes), compare_hashes);
		size_t run = 1, longest = n > 0;
		for (size_t i = 1; i < n; i++) {
			run = hashes[i] == hashes[i - 1] ? run + 1 : 1;
			if (run > longest)
				longest = run;
		}
		if (longest * 2 * threads <= n)
			return frames;
	}
	return MOST;
}

/*
 * Threads. Each thread parses every line of a block whose first frames
 * (the partition prefix) hash to it, into its own tree: lines that share
 * those frames share a thread, so below them the trees are disjoint and
 * the merge at the end has almost nothing to merge, whatever the order of
 * the input (a shuffled file, concatenated runs). Each thread's lines are
 * in input order, so sorted input stays sorted in every tree and keeps the
 * fast path. Which thread parses a line changes nothing but the speed:
 * fg_tree_finish merges whatever the trees share.
 */
typedef struct share {
	const fg_graph_options *options;
	fg_graph_sink *sink;
	const char *text;
	size_t length;
	size_t index, parts;      /* this thread's lines: partition == index */
	size_t prefix_frames;     /* how many frames the partition hashes */
	pthread_t thread;
} share;

static void *parse_share(void *argument)
{
	share *job = argument;
	fg_graph_sink *s = job->sink;
	s->lines = s->invalid = 0;
	const char *p = job->text, *end = p + job->length;
	while (p < end && s->error == 0) {
		const char *newline = memchr(p, '\n', (size_t)(end - p));
		const char *stop = newline ? newline : end;
		size_t length = (size_t)(stop - p);
		s->lines++;
		if (job->parts > 1 &&
		    (prefix_hash(p, length, job->prefix_frames) >> 33) % job->parts != job->index) {
			p = stop + 1;
			continue;
		}
		bool fatal;
		int rc = add_to_sink(job->options, s, p, length, &fatal);
		if (rc != 0 && fatal) {
			s->error = rc;
			s->error_line = s->lines;
		} else if (rc != 0) {
			if (s->invalid < FG_REPORT_INVALID_LINES) {
				s->invalid_line[s->invalid] = s->lines;
				s->invalid_code[s->invalid] = rc;
			}
			s->invalid++;
		}
		p = stop + 1;
	}
	return NULL;
}

/* Below this a block is parsed by one thread: starting one costs more. */
#define PARALLEL_MINIMUM (256u << 10)
#define BLOCK_PER_THREAD (2u << 20)

/* The sums of counts (after, before) of every sink's tree. Sets *overflow
 * when they do not fit. */
static void sink_sums(const fg_graph *g, fg_count *total, fg_count *before, bool *overflow)
{
	*total = *before = (fg_count){0, 0};
	*overflow = false;
	for (size_t i = 0; i < g->sink_count; i++)
		if (fg_count_add_inline(total, g->sinks[i].tree->grand_total) != 0 ||
		    fg_count_add_inline(before, g->sinks[i].tree->grand_before) != 0)
			*overflow = true;
}

/*
 * The block line (from 1) at which the running sums, starting at total
 * and before, first exceed 2^64-1 as one thread adding the lines in input
 * order would find, or 0. Each thread sums only its own lines: the sum of
 * all of them passes 2^64-1 at a line no thread sees as fatal.
 */
static uint64_t overflow_line(const char *text, size_t length, fg_count total, fg_count before)
{
	const char *p = text, *end = text + length;
	for (uint64_t line = 1; p < end; line++) {
		const char *newline = memchr(p, '\n', (size_t)(end - p));
		const char *stop = newline ? newline : end;
		fg_folded_line parsed;
		if (!fg_is_blank(p, (size_t)(stop - p)) &&
		    fg_folded_parse(p, (size_t)(stop - p), &parsed) == 0 &&
		    (fg_count_add_inline(&total, parsed.count) != 0 ||
		     (parsed.differential && fg_count_add_inline(&before, parsed.before) != 0)))
			return line;
		p = stop + 1;
	}
	return 0;
}

/* An invalid line (block line number, code) of some thread. */
typedef struct invalid_line {
	uint64_t line;
	int code;
} invalid_line;

/*
 * Lines are read in blocks; the threads parse each block at the same time
 * (see `share`). Reports are in input order: invalid lines, then the first
 * fatal error.
 */
int fg_graph_read(fg_graph *g, fg_input *in, const fg_warner *warner, fg_error *err)
{
	const char *file = fg_input_name(in);
	size_t threads = g->sink_count;
	share shares[16];
	uint64_t line_base = 0; /* lines of this input before the block */
	const char *block;
	size_t length;
	int rc;
	while ((rc = fg_input_read_block(in, BLOCK_PER_THREAD * threads, &block, &length, err)) > 0) {
		size_t parts = length < PARALLEL_MINIMUM ? 1 : threads;
		fg_count total_before_block, before_before_block;
		bool overflow;
		sink_sums(g, &total_before_block, &before_before_block, &overflow);
		if (parts > 1 && g->prefix_frames == 0)
			g->prefix_frames = partition_frames(block, length, parts);
		for (size_t i = 0; i < parts; i++)
			shares[i] = (share){&g->options, &g->sinks[i], block, length, i, parts,
					    g->prefix_frames, 0};
		size_t started = 1;
		for (size_t i = 1; i < parts; i++, started++)
			if (pthread_create(&shares[i].thread, NULL, parse_share, &shares[i]) != 0)
				break;
		parse_share(&shares[0]);
		for (size_t i = started; i < parts; i++)
			parse_share(&shares[i]); /* threads could not start: here */
		for (size_t i = 1; i < started; i++)
			pthread_join(shares[i].thread, NULL);

		/* The first fatal error, and the invalid lines before it. */
		uint64_t fatal_line = UINT64_MAX, lines = shares[0].sink->lines, invalid = 0;
		int fatal = 0;
		invalid_line listed[16 * FG_REPORT_INVALID_LINES];
		size_t listed_count = 0;
		for (size_t i = 0; i < parts; i++) {
			const fg_graph_sink *s = shares[i].sink;
			if (s->error != 0 && s->error_line < fatal_line) {
				fatal_line = s->error_line;
				fatal = s->error;
			}
		}
		/* The sums overflow where one thread's would: maybe earlier. */
		fg_count total_after, before_after;
		sink_sums(g, &total_after, &before_after, &overflow);
		if (parts > 1 && (overflow || fatal == FG_ERANGE)) {
			uint64_t at = overflow_line(block, length, total_before_block,
						    before_before_block);
			if (at != 0 && at <= fatal_line) {
				fatal_line = at;
				fatal = FG_ERANGE;
			}
		}
		for (size_t i = 0; i < parts; i++) {
			const fg_graph_sink *s = shares[i].sink;
			uint64_t kept = s->invalid < FG_REPORT_INVALID_LINES ? s->invalid : FG_REPORT_INVALID_LINES;
			for (uint64_t k = 0; k < kept; k++)
				if (s->invalid_line[k] < fatal_line)
					listed[listed_count++] = (invalid_line){s->invalid_line[k], s->invalid_code[k]};
			invalid += s->invalid;
		}
		/* In line order (a few entries: insertion sort). */
		for (size_t i = 1; i < listed_count; i++)
			for (size_t k = i; k > 0 && listed[k - 1].line > listed[k].line; k--) {
				invalid_line swap = listed[k];
				listed[k] = listed[k - 1];
				listed[k - 1] = swap;
			}
		for (size_t k = 0; k < listed_count; k++)
			note_invalid(g, file, line_base + listed[k].line, listed[k].code, warner);
		if (fatal != 0)
			return fatal_error(fatal, file, line_base + fatal_line, err);
		g->invalid_lines += invalid - listed_count;
		line_base += lines;
	}
	return rc;
}

int fg_graph_collect(fg_graph *g, fg_error *err)
{
	for (size_t i = 1; i < g->sink_count; i++) {
		int rc = fg_tree_merge(g->tree, g->sinks[i].tree);
		if (rc != 0)
			return rc == FG_ERANGE ? fg_fail(err, rc, "the sum of counts exceeds 2^64-1")
					       : fg_fail(err, rc, "out of memory");
		fg_tree_free(g->sinks[i].tree);
		fg_buffer_free(&g->sinks[i].scratch);
		fg_buffer_free(&g->sinks[i].reversed);
		g->sinks[i].tree = NULL;
	}
	g->sink_count = 1;
	return 0;
}
