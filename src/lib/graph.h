/*
 * graph.h - the inside of an fg_graph, shared by graph.c (building it),
 * finish.c (finishing it) and render.c (its steps). Internal to libfolded.
 */
#ifndef FG_GRAPH_H
#define FG_GRAPH_H

#include "internal.h"
#include "text.h"


/* Where the lines one thread parses go: its own tree and buffers. */
typedef struct fg_graph_sink {
	fg_tree *tree;
	fg_buffer reversed;        /* the stack reversed (--reverse) */
	fg_buffer scratch;         /* the stack rewritten for the chain palette */
	bool failed;               /* a fatal error: it takes no more lines */
} fg_graph_sink;

/* At most this many threads (sinks). */
#define FG_GRAPH_THREADS_MAX 16

struct fg_graph {
	fg_graph_options options;  /* strings are the caller's */
	fg_tree *tree;             /* sinks[0].tree: the one svg.c draws */
	fg_graph_sink *sinks;      /* one per thread */
	size_t sink_count;
	size_t prefix_frames;      /* frames a line's thread is chosen by (graph.c) */
	uint64_t invalid_lines;
	uint64_t first_invalid[FG_REPORT_INVALID_LINES]; /* their line numbers */
	char *invalid_files[FG_REPORT_INVALID_LINES]; /* and their files (copies) */
	bool written;              /* by fg_graph_write_svg: it takes no more lines */
};

/* FG_EINVAL when g was written (its trees are merged and finished): it
 * takes no more lines (graph.c). */
int fg_graph_check_open(const fg_graph *g, fg_error *err);

/*
 * Parses one line into sink s (graph.c). Returns 0 (added, or blank),
 * FG_EINVAL or FG_ERANGE for an invalid line (the caller counts it), or a
 * fatal error with *fatal set (out of memory, or the sum of counts would
 * overflow).
 */
int fg_graph_parse_line(const fg_graph_options *o, fg_graph_sink *s, const char *line,
			size_t length, bool *fatal);

/* Counts an invalid line of file (reporting the first few). */
void fg_graph_note_invalid(fg_graph *g, const char *file, uint64_t line_number, int code,
			   const fg_warner *warner);

/* Fails err with a fatal error rc met at a line of file; returns rc. */
int fg_graph_fatal(int rc, const char *file, uint64_t line_number, fg_error *err);

/* Merges the threads' trees into g->tree (before drawing). */
int fg_graph_collect(fg_graph *g, fg_error *err);

/* How many leading frames of a line choose the thread that parses it,
 * judged on a first block of `threads` threads' lines (graph_read.c). */
size_t fg_graph_partition_frames(const char *text, size_t length, size_t threads);

/* How many threads the options ask for: options->threads, or one per CPU
 * (0), at most 16; one for a flame chart (its x axis is input order). */
size_t fg_graph_thread_count(const fg_graph_options *o);

#endif
