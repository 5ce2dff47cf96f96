/*
 * graph_read.c - fg_graph_read: an input's lines into the graph's trees,
 * in blocks, by the graph's threads.
 *
 * Each thread parses, of every block, the lines whose first frames (the
 * partition prefix) hash to it, into a tree of its own: lines that share
 * those frames share a thread, so below them the trees are disjoint and
 * the merge at the end has almost nothing to merge, whatever the order of
 * the input (a shuffled file, concatenated runs). Each thread's lines are
 * in input order, so sorted input stays sorted in every tree and keeps the
 * fast path. Which thread parses a line changes nothing but the speed:
 * each tree is finished on its own thread, and fg_tree_merge then joins
 * whatever they share (graph.c: fg_graph_collect).
 *
 * The main thread reads blocks of whole lines and publishes each to all
 * the threads in a ring of RING buffers (the input's buffer that holds the
 * block is traded for the ring's free one: no copy), with the list of each
 * thread's lines: it finds them while the block it has just read is in its
 * cache, so that a thread reads its own lines only, not every line of the
 * input.
 * They take the blocks in order, each at its own pace: one held up (a
 * table rebuild, the machine's other work) catches up later instead of
 * holding up the others, and reading overlaps parsing. Once every thread
 * is done with a block, the main thread reports it, in input order: its
 * invalid lines, then the first fatal error, as one thread would have met
 * them. Its buffer then takes a new block.
 *
 * No thread starts for a small input: blocks are parsed on the main thread
 * until one is PARALLEL_MINIMUM long. A block far longer than asked for (a
 * huge line) is parsed there too, once the ring is empty, rather than
 * kept in the ring.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

#include "graph.h"
#include "tree.h"

/* Below this a block is parsed by one thread: starting one costs more. */
#define PARALLEL_MINIMUM (256u << 10)
/* A block is read for the threads to share: BLOCK_SHARE bytes each, for
 * up to BLOCK_SHARED of them. More threads share that much: the ring's
 * buffers (RING blocks, and the input's) would otherwise grow with -j, a
 * large part of the memory at -j4 (8 of 52 MB on the wide shape) and most
 * of it at -j16, and a smaller share costs a thread no more than waking
 * up once more per MiB. */
#define BLOCK_SHARE (1u << 19)
#define BLOCK_SHARED 2
#define RING 4
/* Blocks longer than this are parsed on the main thread (a ring of such
 * buffers would keep them all). */
#define COPY_MOST(block) (4 * (block))
/* Input buffers larger than this (twice a block: as large as reading a
 * block makes them) grew for a long line: a block read into one is copied
 * into the ring, rather than the buffer traded for the ring's
 * (fg_input_trade_buffer), which would keep it, and give the input one as
 * large. */
#define TRADE_MOST(block) (2 * (block))

/* The length of the blocks read for `threads` threads. */
static size_t block_length(size_t threads)
{
	return BLOCK_SHARE * (threads < BLOCK_SHARED ? threads : BLOCK_SHARED);
}

/* The hash of a line's partition prefix: its first `frames` frames (all
 * of them in a shorter stack, without the count). *ended: the prefix's
 * length when it is `frames` whole frames and their ';' (a line that
 * starts with those bytes has the same prefix), else 0. */
static uint64_t prefix_hash(const char *line, size_t length, size_t frames, size_t *ended)
{
	const char *p = line, *end = line + length;
	*ended = 0;
	for (size_t k = 0; k < frames && p < end; k++) {
		const char *semicolon = memchr(p, ';', (size_t)(end - p));
		if (semicolon == NULL) {
			const char *space = memrchr(line, ' ', length);
			p = space != NULL ? space : end;
			break;
		}
		p = semicolon + 1;
		if (k + 1 == frames)
			*ended = (size_t)(p - line);
	}
	return fg_hash_bytes(line, (size_t)(p - line));
}

/*
 * The last line's partition prefix and thread, when the prefix is whole
 * frames: in sorted input most lines begin with the line before's, and
 * comparing its bytes costs less than finding the frames and hashing
 * them again.
 */
typedef struct last_prefix {
	const char *bytes; /* NULL: none (a new block, a short stack) */
	size_t length, part;
} last_prefix;

/* The thread (of `parts`) whose tree takes this line: by its prefix. */
static size_t line_part(const fg_graph *g, const char *line, size_t length, size_t parts,
			last_prefix *last)
{
	if (last->bytes != NULL && length >= last->length && memcmp(line, last->bytes, last->length) == 0)
		return last->part;
	size_t ended;
	size_t part = (size_t)((prefix_hash(line, length, g->prefix_frames, &ended) >> 33) % parts);
	*last = (last_prefix){ended ? line : NULL, ended, part};
	return part;
}

/* Where the line at p ends: its '\n', or the block's end. */
static const char *line_end(const char *p, const char *end)
{
	const char *newline = memchr(p, '\n', (size_t)(end - p));
	return newline != NULL ? newline : end;
}

static int compare_hashes(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/*
 * How many leading frames the partition hashes, judged on the lines at 256
 * places spread evenly across the first block: the fewest for which no
 * prefix holds more than half a thread's share of them, and they have at
 * least SPREAD distinct prefixes a thread (or half as many as lines, or
 * as many as they have at all). One busy process, whose stacks all start
 * with the same frames, still spreads over the threads, while the nodes
 * above the prefixes, which several threads may each have, stay few. And
 * a hundred processes do not make four threads' trees differ by a third
 * (a hundred prefixes hashed to four threads: a share's spread is 17%,
 * and the largest tree takes more memory, and time, than the others):
 * their second frames spread them further.
 */
#define SPREAD 32
size_t fg_graph_partition_frames(const char *text, size_t length, size_t threads)
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
		if (n > 0 && lines[n - 1] == text + at)
			continue; /* a long line: counted once */
		const char *newline = memchr(text + at, '\n', length - at);
		lines[n] = text + at;
		lengths[n++] = newline ? (size_t)(newline - text) - at : length - at;
	}
	/* Past the deepest sampled stack, more frames change no prefix. */
	size_t deepest = 1;
	for (size_t i = 0; i < n; i++) {
		size_t frames = 1;
		for (const char *p = lines[i], *end = p + lengths[i];
		     (p = memchr(p, ';', (size_t)(end - p))) != NULL; p++)
			frames++;
		if (frames > deepest)
			deepest = frames;
	}
	if (n == 0)
		return MOST;
	size_t last = deepest < MOST - 1 ? deepest : MOST - 1, longest[MOST], distinct[MOST];
	for (size_t frames = 1; frames <= last; frames++) {
		uint64_t hashes[SAMPLES];
		size_t ended, run = 1;
		for (size_t i = 0; i < n; i++)
			hashes[i] = prefix_hash(lines[i], lengths[i], frames, &ended);
		qsort(hashes, n, sizeof(*hashes), compare_hashes);
		longest[frames] = distinct[frames] = 1;
		for (size_t i = 1; i < n; i++) {
			run = hashes[i] == hashes[i - 1] ? run + 1 : 1;
			if (run > longest[frames])
				longest[frames] = run;
			distinct[frames] += run == 1;
		}
	}
	/* (More frames never make fewer distinct prefixes.) */
	size_t enough = SPREAD * threads < n / 2 ? SPREAD * threads : n / 2;
	if (enough > distinct[last])
		enough = distinct[last];
	for (size_t frames = 1; frames <= last; frames++)
		if (longest[frames] * 2 * threads <= n && distinct[frames] >= enough)
			return frames;
	return MOST;
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
		const char *stop = line_end(p, end);
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

/* What one thread met in one block, with line numbers counted from the
 * block's start. */
typedef struct part {
	uint64_t lines;            /* lines looked at: all of them, unless it failed */
	uint64_t invalid;          /* invalid lines among its own */
	uint64_t invalid_line[FG_REPORT_INVALID_LINES];
	int invalid_code[FG_REPORT_INVALID_LINES];
	int error;                 /* fatal (FG_ERANGE, FG_ENOMEM), and where */
	uint64_t error_line;
	fg_count total, before;    /* its tree's grand totals before the block */
	fg_count total_after, before_after;
} part;

/* A line of a block, found by the main thread for the thread it goes to. */
typedef struct own_line {
	uint32_t start;            /* in the block's text */
	uint32_t length;           /* without its '\n' */
	uint32_t number;           /* in the block, from 1 */
} own_line;

typedef struct block {
	const char *text;          /* its lines: in `copy`, or the input's */
	size_t length;
	char *copy;
	size_t capacity;
	size_t parts;              /* threads its lines are split between (1: all
				      to the first) */
	size_t done;               /* threads done with it */
	/* Published blocks: each thread's lines (split_lines), when `split`;
	 * else each thread finds its own. */
	own_line *lines[FG_GRAPH_THREADS_MAX];
	size_t line_count[FG_GRAPH_THREADS_MAX], line_capacity[FG_GRAPH_THREADS_MAX];
	bool split;
	part part[FG_GRAPH_THREADS_MAX];
} block;

typedef struct reader reader;

typedef struct worker {
	reader *r;
	size_t index;
	pthread_t thread;
} worker;

struct reader {
	fg_graph *g;
	const char *file;
	const fg_warner *warner;
	fg_error *err;
	uint64_t line_base;        /* lines of this input before the next report */
	pthread_mutex_t lock;
	pthread_cond_t published_one, finished_one;
	block ring[RING];
	uint64_t published, reported; /* blocks of the ring, so far */
	bool closing;              /* no more blocks will come */
	bool stopping;             /* the rest need not be parsed (a fatal error) */
	size_t started;            /* threads running */
	bool synchronized;         /* the lock and conditions exist */
	bool unthreaded;           /* threads could not start: all on this one */
	bool short_lines;          /* each thread finds its own lines (split_lines) */
	worker workers[FG_GRAPH_THREADS_MAX];
};

/* One line of thread `index`'s, numbered `number` in its block, into sink
 * s: its invalid line or fatal error noted in out. */
static void parse_own(const fg_graph *g, fg_graph_sink *s, const char *line, size_t length,
		      uint64_t number, part *out)
{
	bool fatal;
	int rc = fg_graph_parse_line(&g->options, s, line, length, &fatal);
	if (rc != 0 && fatal) {
		out->error = rc;
		out->error_line = number;
		s->failed = true;
	} else if (rc != 0) {
		if (out->invalid < FG_REPORT_INVALID_LINES) {
			out->invalid_line[out->invalid] = number;
			out->invalid_code[out->invalid] = rc;
		}
		out->invalid++;
	}
}

/* Thread `index`'s lines of block b, into sink s. */
static void parse_part(const fg_graph *g, fg_graph_sink *s, const block *b, size_t index,
		       part *out)
{
	memset(out, 0, offsetof(part, total));
	out->total = s->tree->grand_total;
	out->before = s->tree->grand_before;
	const char *p = b->text, *end = p + b->length;
	if (b->split) {
		/* (lines: all of the block's, every thread's; a failure is
		 * reported before they are counted on) */
		for (size_t k = 0; k < b->parts; k++)
			out->lines += b->line_count[k];
		for (size_t i = 0; i < b->line_count[index] && !s->failed; i++) {
			const own_line *l = &b->lines[index][i];
			parse_own(g, s, p + l->start, l->length, l->number, out);
		}
	} else {
		last_prefix last = {NULL, 0, 0};
		while (p < end && !s->failed && index < b->parts) {
			const char *stop = line_end(p, end);
			size_t length = (size_t)(stop - p);
			out->lines++;
			if (b->parts == 1 || line_part(g, p, length, b->parts, &last) == index)
				parse_own(g, s, p, length, out->lines, out);
			p = stop + 1;
		}
	}
	out->total_after = s->tree->grand_total;
	out->before_after = s->tree->grand_before;
}

/* An invalid line (block line number, code) of some thread. */
typedef struct invalid_line {
	uint64_t line;
	int code;
} invalid_line;

/* Reports block b (every thread done with it): 0, or its first fatal
 * error. */
static int report(reader *r, const block *b)
{
	fg_graph *g = r->g;
	size_t threads = g->sink_count;
	uint64_t fatal_line = UINT64_MAX, invalid = 0;
	int fatal = 0;
	for (size_t i = 0; i < threads; i++)
		if (b->part[i].error != 0 && b->part[i].error_line < fatal_line) {
			fatal_line = b->part[i].error_line;
			fatal = b->part[i].error;
		}
	/* The sums overflow where one thread's would: maybe earlier. */
	if (threads > 1) {
		fg_count total = {0, 0}, before = {0, 0}, total_after = {0, 0}, before_after = {0, 0};
		bool overflow = false;
		for (size_t i = 0; i < threads; i++) {
			const part *p = &b->part[i];
			fg_count_add_inline(&total, p->total); /* (below 2^64: summed before) */
			fg_count_add_inline(&before, p->before);
			if (fg_count_add_inline(&total_after, p->total_after) != 0 ||
			    fg_count_add_inline(&before_after, p->before_after) != 0)
				overflow = true;
		}
		if (overflow || fatal == FG_ERANGE) {
			uint64_t at = overflow_line(b->text, b->length, total, before);
			if (at != 0 && at <= fatal_line) {
				fatal_line = at;
				fatal = FG_ERANGE;
			}
		}
	}
	/* The invalid lines before it, in line order (a few: insertion sort). */
	invalid_line listed[FG_GRAPH_THREADS_MAX * FG_REPORT_INVALID_LINES];
	size_t listed_count = 0;
	for (size_t i = 0; i < threads; i++) {
		const part *p = &b->part[i];
		uint64_t kept = p->invalid < FG_REPORT_INVALID_LINES ? p->invalid : FG_REPORT_INVALID_LINES;
		for (uint64_t k = 0; k < kept; k++)
			if (p->invalid_line[k] < fatal_line)
				listed[listed_count++] = (invalid_line){p->invalid_line[k], p->invalid_code[k]};
		invalid += p->invalid;
	}
	for (size_t i = 1; i < listed_count; i++)
		for (size_t k = i; k > 0 && listed[k - 1].line > listed[k].line; k--) {
			invalid_line swap = listed[k];
			listed[k] = listed[k - 1];
			listed[k - 1] = swap;
		}
	for (size_t k = 0; k < listed_count; k++)
		fg_graph_note_invalid(g, r->file, r->line_base + listed[k].line, listed[k].code,
				      r->warner);
	if (fatal != 0)
		return fg_graph_fatal(fatal, r->file, r->line_base + fatal_line, r->err);
	g->invalid_lines += invalid - listed_count;
	r->line_base += b->part[0].lines;
	return 0;
}

/* A thread: every block of the ring in turn, until closing. */
static void *work(void *argument)
{
	worker *w = argument;
	reader *r = w->r;
	fg_graph_sink *s = &r->g->sinks[w->index];
	for (uint64_t next = 0;; next++) {
		pthread_mutex_lock(&r->lock);
		while (r->published <= next && !r->closing)
			pthread_cond_wait(&r->published_one, &r->lock);
		bool have = r->published > next, parse = !r->stopping;
		pthread_mutex_unlock(&r->lock);
		if (!have)
			return NULL;
		block *b = &r->ring[next % RING];
		if (parse)
			parse_part(r->g, s, b, w->index, &b->part[w->index]);
		pthread_mutex_lock(&r->lock);
		if (++b->done == r->g->sink_count)
			pthread_cond_signal(&r->finished_one);
		pthread_mutex_unlock(&r->lock);
	}
}

/* Starts the threads: false when they cannot all start (stop then ends
 * those that did). */
static bool start(reader *r)
{
	if (pthread_mutex_init(&r->lock, NULL) != 0)
		return false;
	if (pthread_cond_init(&r->published_one, NULL) != 0) {
		pthread_mutex_destroy(&r->lock);
		return false;
	}
	if (pthread_cond_init(&r->finished_one, NULL) != 0) {
		pthread_cond_destroy(&r->published_one);
		pthread_mutex_destroy(&r->lock);
		return false;
	}
	r->synchronized = true;
	for (size_t i = 0; i < r->g->sink_count; i++) {
		r->workers[i] = (worker){r, i, 0};
		if (pthread_create(&r->workers[i].thread, NULL, work, &r->workers[i]) != 0)
			return false;
		r->started++;
	}
	return true;
}

/* Ends the threads, once they are done with the blocks published. */
static void stop(reader *r)
{
	if (!r->synchronized)
		return;
	pthread_mutex_lock(&r->lock);
	r->closing = true;
	pthread_cond_broadcast(&r->published_one);
	pthread_mutex_unlock(&r->lock);
	for (size_t i = 0; i < r->started; i++)
		pthread_join(r->workers[i].thread, NULL);
	pthread_cond_destroy(&r->finished_one);
	pthread_cond_destroy(&r->published_one);
	pthread_mutex_destroy(&r->lock);
	r->started = 0;
	r->synchronized = false;
}

/* Waits for the oldest block of the ring not yet reported, and reports
 * it. */
static int report_next(reader *r)
{
	block *b = &r->ring[r->reported % RING];
	pthread_mutex_lock(&r->lock);
	while (b->done < r->g->sink_count)
		pthread_cond_wait(&r->finished_one, &r->lock);
	pthread_mutex_unlock(&r->lock);
	r->reported++;
	int rc = report(r, b);
	if (rc != 0) {
		pthread_mutex_lock(&r->lock);
		r->stopping = true;
		pthread_mutex_unlock(&r->lock);
	}
	return rc;
}

/* Reports every block of the ring: 0, or the first fatal error. */
static int drain(reader *r)
{
	while (r->reported < r->published) {
		int rc = report_next(r);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Parses block b on this thread, every thread's part in turn, and
 * reports it. */
static int parse_here(reader *r, block *b)
{
	for (size_t i = 0; i < r->g->sink_count; i++)
		parse_part(r->g, &r->g->sinks[i], b, i, &b->part[i]);
	return report(r, b);
}

/*
 * Which thread each line of block b goes to, found here, on the thread
 * that has just copied the block (its bytes still in this core's cache),
 * so that each thread reads only its own lines instead of every line of
 * every block. 0 or FG_ENOMEM. Not for short lines (SHORT_LINE bytes or
 * fewer on average), whose lists would take more room than reading every
 * line takes time; once a block has them (*short_lines), for no more
 * blocks. A block of 4 GiB or more (not published: COPY_MOST) would not
 * fit the lists' offsets either.
 */
#define SHORT_LINE 48
static int split_lines(const fg_graph *g, block *b, bool *short_lines)
{
	b->split = false;
	if (b->parts < 2 || b->length >= UINT32_MAX || *short_lines)
		return 0;
	for (size_t i = 0; i < b->parts; i++)
		b->line_count[i] = 0;
	const char *p = b->text, *end = p + b->length;
	uint32_t number = 0, most = (uint32_t)(b->length / SHORT_LINE) + 1;
	last_prefix last = {NULL, 0, 0};
	while (p < end) {
		if (number == most) {
			*short_lines = true;
			return 0;
		}
		const char *stop = line_end(p, end);
		size_t to = line_part(g, p, (size_t)(stop - p), b->parts, &last);
		if (fg_grow((void **)&b->lines[to], &b->line_capacity[to], b->line_count[to] + 1,
			    sizeof(*b->lines[to])) != 0)
			return FG_ENOMEM;
		b->lines[to][b->line_count[to]++] =
			(own_line){(uint32_t)(p - b->text), (uint32_t)(stop - p), ++number};
		p = stop + 1;
	}
	b->split = true;
	return 0;
}

/* Hands a block to the threads, in a buffer of the ring: the input's, which
 * takes the ring's in its place. */
static int publish(reader *r, fg_input *in, const char *text, size_t length, size_t parts)
{
	while (r->published - r->reported >= RING) {
		int rc = report_next(r);
		if (rc != 0)
			return rc;
	}
	block *b = &r->ring[r->published % RING];
	int traded = fg_input_trade_buffer(in, TRADE_MOST(block_length(r->g->sink_count)), &b->copy,
					  &b->capacity);
	if (traded < 0)
		return fg_fail(r->err, FG_ENOMEM, "out of memory");
	if (traded == 1) { /* (a long line grew the input's: copied) */
		if (b->capacity < length) {
			char *copy = realloc(b->copy, length);
			if (copy == NULL)
				return fg_fail(r->err, FG_ENOMEM, "out of memory");
			b->copy = copy;
			b->capacity = length;
		}
		memcpy(b->copy, text, length);
		text = b->copy;
	}
	b->text = text;
	b->length = length;
	b->parts = parts;
	b->done = 0;
	if (split_lines(r->g, b, &r->short_lines) != 0)
		return fg_fail(r->err, FG_ENOMEM, "out of memory");
	pthread_mutex_lock(&r->lock);
	r->published++;
	pthread_cond_broadcast(&r->published_one);
	pthread_mutex_unlock(&r->lock);
	return 0;
}

int fg_graph_read(fg_graph *g, fg_input *in, const fg_warner *warner, fg_error *err)
{
	if (fg_graph_check_open(g, err) != 0)
		return FG_EINVAL;
	reader *r = calloc(1, sizeof(*r));
	if (r == NULL)
		return fg_fail(err, FG_ENOMEM, "out of memory");
	r->g = g;
	r->file = fg_input_name(in);
	r->warner = warner;
	r->err = err;
	size_t threads = g->sink_count;
	const char *text;
	size_t length;
	int rc, report_rc = 0;
	while ((rc = fg_input_read_block(in, block_length(threads), &text, &length, err)) > 0) {
		size_t parts = length < PARALLEL_MINIMUM ? 1 : threads;
		if (parts > 1 && g->prefix_frames == 0)
			g->prefix_frames = fg_graph_partition_frames(text, length, threads);
		bool here = threads == 1 || r->unthreaded || (r->started == 0 && parts == 1) ||
			    length > COPY_MOST(block_length(threads));
		if (!here && r->started == 0 && !start(r)) {
			stop(r); /* (the threads that did start) */
			r->unthreaded = here = true;
		}
		if (here) {
			block b = {.text = text, .length = length, .parts = parts};
			if ((report_rc = drain(r)) != 0 || (report_rc = parse_here(r, &b)) != 0)
				break;
		} else if ((report_rc = publish(r, in, text, length, parts)) != 0) {
			break;
		}
	}
	/* The blocks read before the end (or a read error) are reported first. */
	if (report_rc == 0 && r->synchronized)
		report_rc = drain(r);
	stop(r);
	for (size_t i = 0; i < RING; i++) {
		free(r->ring[i].copy);
		for (size_t k = 0; k < FG_GRAPH_THREADS_MAX; k++)
			free(r->ring[i].lines[k]);
	}
	free(r);
	return report_rc != 0 ? report_rc : rc;
}
