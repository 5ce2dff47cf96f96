/*
 * collapse.c - the collapse driver: big blocks in, ranges parsed by N
 * threads, private stack tables merged at the end.
 *
 * Design. The main thread reads a block of whole lines (a few MB per
 * thread) and asks the parser where records begin near evenly spaced
 * marks: that cuts the block into a few ranges per thread, which the
 * threads take in order as they become free (a thread slowed down by other
 * work on the machine then holds nobody up). Every thread owns a parser
 * state and a stack table, so parsing needs no locks; the tables are
 * merged once, when the stacks are asked for. A record that runs past the
 * end of a block stays open in the state that parsed the block's last
 * range (the "carrier"), and the next block's first range goes to that
 * same state: records are never copied or re-read, and a state never needs
 * more than the current line. When a block holds no boundary at all (one
 * huge record), it goes whole to the carrier: slower, never wrong.
 *
 * Determinism. The stacks are printed sorted and counts add exactly, so
 * the way the input was cut cannot show in the output. Warnings are kept
 * per range with range-relative line numbers and passed on after the block,
 * in range order, with the line counts of the ranges before added: stderr
 * is the same for any number of threads as well.
 *
 * The threads are started once per run and wait on a condition variable
 * between blocks; a block costs two handshakes, nothing per line.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

#define BLOCK_PER_THREAD (1u << 20) /* bytes read per block, per thread */
#define RANGES_PER_THREAD 4         /* so that a slow thread holds no one up */
#define RANGE_MIN (64u << 10)       /* smaller ranges are not worth it */
#define THREADS_MAX 256
#define RANGES_MAX (THREADS_MAX * RANGES_PER_THREAD)

struct warning {
	uint64_t line;     /* relative to the chunk */
	int key;           /* -1: an ordinary warning; -2: fg_collapse_warn_unique's;
			      else fg_collapse_warn_once's key */
	char *text;
};

struct fg_collapse_report {
	struct warning *items;
	size_t count, capacity;
	size_t kept;       /* ordinary warnings in items */
	size_t limit;      /* how many ordinary warnings to keep */
	uint64_t dropped;  /* ordinary warnings beyond the limit */
	uint32_t once;     /* keys already used in this chunk */
};

/* One range of a block: a chunk for some state to parse. */
struct range {
	fg_collapse_chunk chunk;
	fg_collapse_report report;
	int rc;
};

struct fg_collapse {
	const fg_collapse_parser *parser;
	void *config;
	fg_warner warner;
	unsigned threads;
	void **states;           /* one per thread; thread 0 is the caller */
	fg_stacks **stacks;      /* one per thread; stacks[0] is the result */
	struct range *ranges;    /* of the current block, RANGES_MAX of them */
	unsigned range_count;
	atomic_uint next_range;  /* the next range a thread may take */
	unsigned carrier;        /* the state that may hold an open record */
	unsigned next_carrier;   /* the state that takes the last range */
	bool merged;
	bool overflowed;  /* some chunk found a sum beyond 2^64 - 1: fail at the end */

	/* the current input */
	const char *name;
	size_t inputs;           /* inputs begun so far */
	bool prepared;           /* parser->prepare has seen enough */
	uint64_t lines;          /* lines of the input passed so far */
	uint64_t shown;          /* ordinary warnings passed on */
	uint64_t hidden;         /* ordinary warnings not passed on */
	uint32_t once;           /* fg_collapse_warn_once keys used in this run */
	char **unique;           /* fg_collapse_warn_unique messages passed on */
	size_t unique_count, unique_capacity;

	/* the worker threads (threads - 1 of them) */
	pthread_t *workers;
	size_t started;
	pthread_mutex_t lock;
	pthread_cond_t wake, done;
	uint64_t generation;     /* bumped for every block */
	unsigned running;        /* workers still busy with this generation */
	bool stop;
};

/* ------------------------------------------------------------ reporting */

#define UNIQUE (-2)

static void report_add(fg_collapse_report *r, uint64_t line, int key,
		       const char *format, va_list args)
{
	if (key == -1 && r->kept >= r->limit) {
		r->dropped++;
		return;
	}
	char text[512];
	vsnprintf(text, sizeof(text), format, args);
	if (key == UNIQUE)
		for (size_t i = 0; i < r->count; i++)
			if (r->items[i].key == UNIQUE && strcmp(r->items[i].text, text) == 0)
				return;
	char *copy = strdup(text);
	if (copy == NULL ||
	    fg_grow((void **)&r->items, &r->capacity, r->count + 1, sizeof(*r->items)) != 0) {
		free(copy);
		r->dropped += key == -1;
		return;
	}
	r->items[r->count].line = line;
	r->items[r->count].key = key;
	r->items[r->count].text = copy;
	r->count++;
	r->kept += key == -1;
}

void fg_collapse_warn(fg_collapse_report *r, uint64_t line, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	report_add(r, line, -1, format, args);
	va_end(args);
}

void fg_collapse_warn_once(fg_collapse_report *r, unsigned key, uint64_t line,
			   const char *format, ...)
{
	key &= 31;
	if (r->once & (1u << key))
		return;
	r->once |= 1u << key;
	va_list args;
	va_start(args, format);
	report_add(r, line, (int)key, format, args);
	va_end(args);
}

void fg_collapse_warn_unique(fg_collapse_report *r, uint64_t line, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	report_add(r, line, UNIQUE, format, args);
	va_end(args);
}

int fg_collapse_add(fg_collapse_chunk *chunk, uint64_t line, const char *stack, size_t length,
		    fg_count count)
{
	int rc = fg_stacks_add(chunk->stacks, stack, length, 0, count);
	if (rc != FG_ERANGE)
		return rc;
	chunk->overflowed = true; /* fatal at the end, the same for any -j */
	return 0;
}

static void warn(const fg_collapse *c, uint64_t line, const char *message)
{
	if (c->warner.warn != NULL)
		c->warner.warn(c->warner.context, c->name, line, message);
}

/* Passes a chunk's warnings on, with line numbers in the input. */
static void flush_report(fg_collapse *c, fg_collapse_report *r, uint64_t first_line)
{
	for (size_t i = 0; i < r->count; i++) {
		struct warning *w = &r->items[i];
		if (w->key == UNIQUE) {
			size_t u = 0;
			while (u < c->unique_count && strcmp(c->unique[u], w->text) != 0)
				u++;
			if (u == c->unique_count &&
			    fg_grow((void **)&c->unique, &c->unique_capacity, u + 1,
				    sizeof(*c->unique)) == 0) {
				c->unique[c->unique_count++] = w->text;
				warn(c, first_line + w->line, w->text);
				continue; /* the text is kept in c->unique */
			}
		} else if (w->key >= 0) {
			if (!(c->once & (1u << w->key))) {
				c->once |= 1u << w->key;
				warn(c, first_line + w->line, w->text);
			}
		} else if (c->shown < FG_COLLAPSE_WARNINGS_MAX) {
			c->shown++;
			warn(c, first_line + w->line, w->text);
		} else {
			c->hidden++;
		}
		free(w->text);
	}
	c->hidden += r->dropped;
	free(r->items);
	memset(r, 0, sizeof(*r));
}

/* -------------------------------------------------------------- threads */

static void parse_range(fg_collapse *c, unsigned state, unsigned r)
{
	struct range *range = &c->ranges[r];
	range->chunk.stacks = c->stacks[state];
	range->rc = c->parser->parse(c->states[state], &range->chunk);
}

/*
 * A thread's share of a block: range 0 if its state is the carrier (it
 * continues the open record), then ranges in order, as long as any are
 * left. Ranges 1.. start at boundaries, so any state may take them; the
 * one that takes the last range carries its open record to the next block
 * (it is the last range a thread takes: they are taken in order).
 */
static void work(fg_collapse *c, unsigned state)
{
	if (state == c->carrier)
		parse_range(c, state, 0);
	for (;;) {
		unsigned r = atomic_fetch_add(&c->next_range, 1);
		if (r >= c->range_count)
			break;
		parse_range(c, state, r);
		if (r == c->range_count - 1)
			c->next_carrier = state;
	}
}

struct worker_start {
	fg_collapse *c;
	unsigned index;
};

static void *worker_main(void *argument)
{
	fg_collapse *c = ((struct worker_start *)argument)->c;
	unsigned index = ((struct worker_start *)argument)->index;
	free(argument);
	uint64_t seen = 0;
	for (;;) {
		pthread_mutex_lock(&c->lock);
		while (!c->stop && c->generation == seen)
			pthread_cond_wait(&c->wake, &c->lock);
		if (c->stop) {
			pthread_mutex_unlock(&c->lock);
			return NULL;
		}
		seen = c->generation;
		pthread_mutex_unlock(&c->lock);

		work(c, index);

		pthread_mutex_lock(&c->lock);
		if (--c->running == 0)
			pthread_cond_signal(&c->done);
		pthread_mutex_unlock(&c->lock);
	}
}

/* Parses the ranges of a block: thread 0 here, the others on the workers. */
static void run_ranges(fg_collapse *c)
{
	atomic_store(&c->next_range, 1);
	c->next_carrier = c->carrier;
	if (c->threads > 1 && c->range_count > 1) {
		pthread_mutex_lock(&c->lock);
		c->running = c->threads - 1;
		c->generation++;
		pthread_cond_broadcast(&c->wake);
		pthread_mutex_unlock(&c->lock);
		work(c, 0);
		pthread_mutex_lock(&c->lock);
		while (c->running > 0)
			pthread_cond_wait(&c->done, &c->lock);
		pthread_mutex_unlock(&c->lock);
	} else {
		parse_range(c, c->carrier, 0);
	}
	c->carrier = c->next_carrier;
}

/* ------------------------------------------------------------ the run */

static unsigned online_cpus(void)
{
	unsigned n = fg_usable_cpus();
	return n > THREADS_MAX ? THREADS_MAX : n;
}

fg_collapse *fg_collapse_new(const fg_collapse_parser *parser, void *config,
			     unsigned threads, const fg_warner *warner, fg_error *err)
{
	if (config == NULL) {
		fg_fail(err, FG_ENOMEM, "out of memory");
		return NULL;
	}
	fg_collapse *c = calloc(1, sizeof(*c));
	if (c == NULL) {
		parser->config_free(config);
		fg_fail(err, FG_ENOMEM, "out of memory");
		return NULL;
	}
	c->parser = parser;
	c->config = config;
	if (warner != NULL)
		c->warner = *warner;
	c->threads = threads == 0 ? online_cpus() : threads > THREADS_MAX ? THREADS_MAX : threads;
	if (parser->find_boundary == NULL)
		c->threads = 1;
	c->states = calloc(c->threads, sizeof(*c->states));
	c->stacks = calloc(c->threads, sizeof(*c->stacks));
	c->ranges = calloc(RANGES_MAX, sizeof(*c->ranges));
	c->workers = calloc(c->threads, sizeof(*c->workers));
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->wake, NULL);
	pthread_cond_init(&c->done, NULL);
	if (c->states == NULL || c->stacks == NULL || c->ranges == NULL || c->workers == NULL)
		goto nomem;
	for (unsigned i = 0; i < c->threads; i++) {
		c->states[i] = parser->state_new(config);
		c->stacks[i] = fg_stacks_new();
		if (c->states[i] == NULL || c->stacks[i] == NULL)
			goto nomem;
	}
	for (unsigned i = 1; i < c->threads; i++) {
		struct worker_start *start = malloc(sizeof(*start));
		if (start == NULL)
			goto nomem;
		start->c = c;
		start->index = i;
		if (pthread_create(&c->workers[c->started], NULL, worker_main, start) != 0) {
			/* (ulimit -v, ulimit -u, a cgroup's pids.max): the
			 * threads that started do the work, as the output is the
			 * same for any number; fg-render does so too. */
			free(start);
			for (unsigned j = i; j < c->threads; j++) {
				c->parser->state_free(c->states[j]);
				fg_stacks_free(c->stacks[j]);
				c->states[j] = NULL;
				c->stacks[j] = NULL;
			}
			c->threads = i;
			break;
		}
		c->started++;
	}
	return c;
nomem:
	fg_collapse_free(c);
	fg_fail(err, FG_ENOMEM, "out of memory");
	return NULL;
}

void fg_collapse_free(fg_collapse *c)
{
	if (c == NULL)
		return;
	pthread_mutex_lock(&c->lock);
	c->stop = true;
	pthread_cond_broadcast(&c->wake);
	pthread_mutex_unlock(&c->lock);
	for (size_t i = 0; i < c->started; i++)
		pthread_join(c->workers[i], NULL);
	for (unsigned i = 0; c->states != NULL && i < c->threads; i++)
		if (c->states[i] != NULL)
			c->parser->state_free(c->states[i]);
	for (unsigned i = 0; c->stacks != NULL && i < c->threads; i++)
		fg_stacks_free(c->stacks[i]);
	c->parser->config_free(c->config);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->wake);
	pthread_cond_destroy(&c->done);
	for (size_t i = 0; i < c->unique_count; i++)
		free(c->unique[i]);
	free(c->unique);
	free(c->states);
	free(c->stacks);
	free(c->ranges);
	free(c->workers);
	free(c);
}

/* Found while parsing or while merging the threads' tables: one message,
 * so stderr does not depend on the number of threads. */
#define OVERFLOW_MESSAGE "the counts of one stack add up beyond 2^64 - 1"

static int parse_failure(const fg_collapse *c, int rc, fg_error *err)
{
	if (rc == FG_ERANGE)
		return fg_fail(err, rc, OVERFLOW_MESSAGE);
	return fg_fail(err, rc, "%s: out of memory", c->name);
}

/*
 * Cuts text into ranges that start at record boundaries, RANGES_PER_THREAD
 * per thread at most and none under RANGE_MIN bytes; returns how many,
 * with starts[0] = 0.
 */
static unsigned cut(const fg_collapse *c, const char *text, size_t length, size_t *starts)
{
	unsigned n = 1;
	starts[0] = 0;
	size_t want = (size_t)c->threads * RANGES_PER_THREAD;
	if (want > length / RANGE_MIN)
		want = length / RANGE_MIN;
	for (size_t i = 1; i < want; i++) {
		size_t target = (size_t)((unsigned __int128)length * i / want);
		if (target < starts[n - 1])
			target = starts[n - 1];
		const char *newline = memchr(text + target, '\n', length - target);
		if (newline == NULL)
			break;
		size_t line = (size_t)(newline + 1 - text);
		size_t at = line + c->parser->find_boundary(c->config, text + line, length - line);
		if (at >= length)
			break;
		if (at > starts[n - 1])
			starts[n++] = at;
	}
	return n;
}

/* Parses one block (or, with end_of_input, the end of the input). */
static int feed(fg_collapse *c, const char *text, size_t length, bool end_of_input,
		fg_error *err)
{
	size_t starts[RANGES_MAX];
	unsigned ranges = end_of_input || c->threads == 1 ? 1 : cut(c, text, length, starts);
	starts[0] = 0;
	size_t limit = FG_COLLAPSE_WARNINGS_MAX - (c->shown < FG_COLLAPSE_WARNINGS_MAX
						   ? c->shown : FG_COLLAPSE_WARNINGS_MAX);
	for (unsigned r = 0; r < ranges; r++) {
		struct range *range = &c->ranges[r];
		size_t end = r + 1 < ranges ? starts[r + 1] : length;
		memset(range, 0, sizeof(*range));
		range->chunk.text = text + starts[r];
		range->chunk.length = end - starts[r];
		range->chunk.end_of_input = end_of_input;
		/* Every range but the last ends at a boundary. */
		range->chunk.finish = end_of_input || r + 1 < ranges;
		range->chunk.report = &range->report;
		range->report.limit = limit;
	}
	c->range_count = ranges;
	run_ranges(c);
	int rc = 0;
	for (unsigned r = 0; r < ranges; r++) {
		struct range *range = &c->ranges[r];
		if (range->chunk.overflowed)
			c->overflowed = true;
		if (rc == 0 && range->rc != 0)
			rc = parse_failure(c, range->rc, err);
		flush_report(c, &range->report, c->lines);
		c->lines += range->chunk.lines;
	}
	return rc;
}

static void begin_input(fg_collapse *c, const char *name)
{
	c->name = name;
	c->lines = 0;
	c->shown = c->hidden = 0;
	if (c->parser->begin_input != NULL)
		c->parser->begin_input(c->config, c->inputs);
	c->inputs++;
	c->prepared = c->parser->prepare == NULL;
}

static int end_input(fg_collapse *c, fg_error *err)
{
	int rc = feed(c, "", 0, true, err);
	if (c->hidden > 0) {
		char message[128];
		snprintf(message, sizeof(message), "%llu more warnings not shown",
			 (unsigned long long)c->hidden);
		warn(c, 0, message);
	}
	return rc;
}

static int feed_block(fg_collapse *c, const char *block, size_t length, fg_error *err)
{
	if (!c->prepared)
		c->prepared = c->parser->prepare(c->config, block, length);
	return feed(c, block, length, false, err);
}

int fg_collapse_read(fg_collapse *c, fg_input *in, fg_error *err)
{
	begin_input(c, fg_input_name(in));
	size_t want = (size_t)BLOCK_PER_THREAD * c->threads;
	for (;;) {
		const char *block;
		size_t length;
		int rc = fg_input_read_block(in, want, &block, &length, err);
		if (rc < 0) {
			end_input(c, NULL);
			return rc;
		}
		if (rc == 0)
			break;
		rc = feed_block(c, block, length, err);
		if (rc != 0)
			return rc;
	}
	return end_input(c, err);
}

int fg_collapse_text(fg_collapse *c, const char *text, size_t length, const char *name,
		     fg_error *err)
{
	begin_input(c, name);
	int rc = length > 0 ? feed_block(c, text, length, err) : 0;
	if (rc != 0)
		return rc;
	return end_input(c, err);
}

fg_stacks *fg_collapse_stacks(fg_collapse *c, fg_error *err)
{
	if (c->merged)
		return c->stacks[0];
	if (c->overflowed) {
		fg_fail(err, FG_ERANGE, OVERFLOW_MESSAGE);
		return NULL;
	}
	fg_stacks *into = c->stacks[0];
	if (c->parser->collect != NULL) {
		into = fg_stacks_new();
		if (into == NULL) {
			fg_fail(err, FG_ENOMEM, "out of memory");
			return NULL;
		}
	}
	for (unsigned i = 0; i < c->threads; i++) {
		int rc = 0;
		if (c->parser->collect != NULL)
			rc = c->parser->collect(c->states[i], c->stacks[i], into);
		else if (i > 0)
			rc = fg_stacks_merge(into, c->stacks[i]);
		if (rc != 0) {
			if (into != c->stacks[0])
				fg_stacks_free(into);
			fg_fail(err, rc, rc == FG_ERANGE ? OVERFLOW_MESSAGE : "out of memory");
			return NULL;
		}
		/* Each table goes as soon as it is merged: the peak stays low. */
		if (c->stacks[i] != into) {
			fg_stacks_free(c->stacks[i]);
			c->stacks[i] = NULL;
		}
	}
	c->stacks[0] = into;
	c->merged = true;
	return into;
}

int fg_collapse_write(fg_collapse *c, const char *output, fg_error *err)
{
	fg_stacks *stacks = fg_collapse_stacks(c, err);
	if (stacks == NULL)
		return err != NULL && err->code != 0 ? err->code : FG_ENOMEM;
	/* No stack: nothing is written either (a cron job keeps its old file). */
	if (fg_stacks_size(stacks) == 0)
		return fg_fail(err, FG_EEMPTY, "no stacks found in the input");
	return fg_stacks_save(stacks, 1, output, err);
}

int fg_collapse_run(fg_collapse *c, const char *const *paths, size_t count, const char *output,
		    fg_error *err)
{
	static const char *const standard_input[] = {"-"};
	if (count == 0) {
		paths = standard_input;
		count = 1;
	}
	int rc = 0;
	for (size_t i = 0; i < count && rc == 0; i++) {
		fg_input *in = fg_input_open(paths[i], err);
		rc = in != NULL ? fg_collapse_read(c, in, err) : FG_EIO;
		fg_input_close(in);
	}
	/* On failure nothing is written: an -o FILE keeps its old contents. */
	return rc == 0 ? fg_collapse_write(c, output, err) : rc;
}
