/*
 * svg.h - what the SVG writer draws, and the writer. finish.c makes an
 * fg_drawing of a graph; render.c (fg_graph_write_svg) hands it, with the
 * colours and the --nameattr table, to svg.c. Internal to libfolded.
 */
#ifndef FG_SVG_H
#define FG_SVG_H

#include "color.h"
#include "graph.h"
#include "names.h"

/*
 * A finished graph, measured: the tree merged and ordered, the counts the
 * drawing is scaled by, and for differential input each node's own change.
 * Arrays are indexed by node id and owned (fg_drawing_free).
 */
typedef struct fg_drawing {
	const fg_graph_options *o;
	const fg_tree *tree;
	fg_count total;        /* the sum of counts (--diff-union: of the widths) */
	fg_count root_count;   /* total, or --total when larger */
	double time_max;       /* root_count as a double: the x axis */
	double *self_delta;    /* differential: own AFTER - BEFORE per node, noise as 0 */
	fg_count *widths;      /* --diff-union: per node, max(BEFORE, AFTER) summed up */
	double max_delta;      /* the largest |self_delta|, >= 1 */
} fg_drawing;

/*
 * Finishes g (merges the threads' trees, orders the tree) and measures it
 * into d, passing flamegraph.pl's warnings (low count, invalid lines,
 * --total ignored) to warner. Returns 0 or an error in err (nothing to
 * free then). May be called once per graph.
 */
int fg_drawing_prepare(fg_drawing *d, fg_graph *g, const fg_warner *warner, fg_error *err);
void fg_drawing_free(fg_drawing *d);

/*
 * Writes the SVG of d (total not zero) into out, coloured by colors,
 * frames retitled and linked by attributes (--nameattr, may be NULL).
 * Returns 0, or FG_ENOMEM / an output error in err.
 */
int fg_svg_write(const fg_drawing *d, fg_frame_colors *colors,
		 const fg_name_table *attributes, fg_output *out, fg_error *err);

/* Writes flamegraph.pl's small "no valid input" SVG. 0 or an error code
 * (FG_ENOMEM, or the output's, without a message). */
int fg_svg_write_empty(const fg_graph_options *o, fg_output *out);

#endif
