/*
 * graph.h - the inside of an fg_graph, shared by graph.c (building) and
 * svg.c (drawing). Internal to libfolded.
 */
#ifndef FG_GRAPH_H
#define FG_GRAPH_H

#include "internal.h"
#include "text.h"

/* How many invalid lines are reported one by one before only counting. */
#define FG_REPORT_INVALID_LINES 5

struct fg_graph {
	fg_graph_options options;  /* strings are the caller's */
	fg_tree *tree;
	uint64_t invalid_lines;
	uint64_t first_invalid[FG_REPORT_INVALID_LINES]; /* their line numbers */
	char *invalid_file;        /* the file of the first invalid line (a copy) */
	fg_buffer scratch;         /* a rewritten stack (--reverse, chain) */
	bool written;
};

#endif
