/*
 * graph.h - the inside of an fg_graph, shared by graph.c (building it),
 * finish.c (finishing it) and render.c (its steps). Internal to libfolded.
 */
#ifndef FG_GRAPH_H
#define FG_GRAPH_H

#include "internal.h"
#include "text.h"


/*
 * Where the lines one thread parses go: its own tree and buffers, and what
 * it met, with line numbers counted from the start of its text.
 */
typedef struct fg_graph_sink {
	fg_tree *tree;
	fg_buffer reversed;        /* the stack reversed (--reverse) */
	fg_buffer scratch;         /* the stack rewritten for the chain palette */
	uint64_t lines;            /* lines parsed */
	uint64_t invalid;          /* invalid lines among them */
	uint64_t invalid_line[FG_REPORT_INVALID_LINES];
	int invalid_code[FG_REPORT_INVALID_LINES];
	int error;                 /* fatal (FG_ERANGE, FG_ENOMEM), and where */
	uint64_t error_line;
} fg_graph_sink;

struct fg_graph {
	fg_graph_options options;  /* strings are the caller's */
	fg_tree *tree;             /* sinks[0].tree: the one svg.c draws */
	fg_graph_sink *sinks;      /* one per thread */
	size_t sink_count;
	size_t prefix_frames;      /* frames a line's thread is chosen by (graph.c) */
	uint64_t invalid_lines;
	uint64_t first_invalid[FG_REPORT_INVALID_LINES]; /* their line numbers */
	char *invalid_files[FG_REPORT_INVALID_LINES]; /* and their files (copies) */
	bool written;
};

/* Merges the threads' trees into g->tree (before drawing). */
int fg_graph_collect(fg_graph *g, fg_error *err);

/* How many threads the options ask for: options->threads, or one per CPU
 * (0), at most 16; one for a flame chart (its x axis is input order). */
size_t fg_graph_thread_count(const fg_graph_options *o);

#endif
