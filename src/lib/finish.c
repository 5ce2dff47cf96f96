/*
 * finish.c - a graph made ready to draw (fg_drawing, svg.h): the threads'
 * trees merged and ordered, the counts the drawing is scaled by (the sum,
 * --total), for differential input each node's own change and the
 * --diff-union widths, and the warnings flamegraph.pl gives about its
 * input. Everything here is arithmetic on the tree; nothing is drawn.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "svg.h"
#include "tree.h"

/*
 * Differential input: each node's own AFTER - BEFORE (changes below the
 * noise threshold count as none) and the largest |change|; with
 * --diff-union also each node's width, max(own BEFORE, own AFTER) plus its
 * children's widths, so frames that vanished keep their place.
 */
static int compute_deltas(fg_drawing *d)
{
	const fg_tree *t = d->tree;
	size_t size = fg_tree_size(t);
	d->self_delta = calloc(size, sizeof(double));
	if (d->self_delta == NULL)
		return FG_ENOMEM;
	if (d->o->diff_union && (d->widths = calloc(size, sizeof(fg_count))) == NULL)
		return FG_ENOMEM;
	for (size_t i = size; i-- > 0;) {
		fg_node_id n = (fg_node_id)i;
		if (n != 0 && fg_tree_parent(t, n) == FG_NODE_NONE)
			continue; /* merged into a sibling */
		/* One walk of the children: their totals on both sides and (children
		 * have higher ids, so they are done) their union widths. */
		fg_count after = {0, 0}, before = {0, 0}, children_width = {0, 0};
		for (fg_node_id c = fg_tree_first_child(t, n); c != FG_NODE_NONE;
		     c = fg_tree_next_sibling(t, c)) {
			fg_count_add_inline(&after, fg_tree_total(t, c));
			fg_count_add_inline(&before, fg_tree_total_before(t, c));
			if (d->widths != NULL && fg_count_add_inline(&children_width, d->widths[c]) != 0)
				return FG_ERANGE;
		}
		after = fg_count_sub_floor(fg_tree_total(t, n), after);
		before = fg_count_sub_floor(fg_tree_total_before(t, n), before);
		/* Whole counts are subtracted exactly (as doubles, a change of
		 * 1 past 2^53 is lost); decimals as doubles, as flamegraph.pl
		 * does, so that the colours stay its own to the last unit. */
		if (after.frac == 0 && before.frac == 0)
			d->self_delta[n] = after.whole >= before.whole
						   ? (double)(after.whole - before.whole)
						   : -(double)(before.whole - after.whole);
		else
			d->self_delta[n] = fg_count_to_double(after) - fg_count_to_double(before);
		if (d->widths != NULL) {
			fg_count width = fg_count_compare(after, before) >= 0 ? after : before;
			if (fg_count_add_inline(&width, children_width) != 0)
				return FG_ERANGE;
			d->widths[n] = width;
		}
	}
	double total = fg_count_to_double(d->widths ? d->widths[0] : fg_tree_total(t, 0));
	double noise = total * d->o->diff_threshold / 100;
	d->max_delta = 1;
	for (size_t n = 0; n < size; n++) { /* the root too: empty stacks are its own */
		if (fabs(d->self_delta[n]) < noise)
			d->self_delta[n] = 0;
		double change = fabs(d->self_delta[n]);
		if (change > d->max_delta)
			d->max_delta = change;
	}
	return 0;
}

/* flamegraph.pl's warnings about the input: a low count, invalid lines. */
static void warn_input(const fg_graph *g, fg_count total, const fg_warner *warner)
{
	const fg_graph_options *o = &g->options;
	char message[512], number[FG_COUNT_TEXT_MAX];
	if (fg_count_to_double(total) < 100 && strcmp(o->count_name, "samples") == 0) {
		fg_count_format(total, number);
		snprintf(message, sizeof(message), "Stack count is low (%s). Did something go wrong?",
			 number);
		fg_warn(warner, NULL, 0, message);
	}
	if (g->invalid_lines > 0) {
		/* "(a line 2, 5, b line 3)": each line number after its own file. */
		int n = snprintf(message, sizeof(message), "ignored %llu lines with invalid format (",
				 (unsigned long long)g->invalid_lines);
		const char *previous = NULL;
		for (uint64_t i = 0; i < g->invalid_lines && i < FG_REPORT_INVALID_LINES && n > 0 &&
				     (size_t)n < sizeof(message) - 32;
		     i++) {
			const char *file = g->invalid_files[i] ? g->invalid_files[i] : "input";
			/* (a long path keeps its end, the part that tells files
			 * apart, cut between UTF-8 characters) */
			size_t length = strlen(file), from = length > 60 ? length - 58 : 0;
			while (from > 0 && from < length && ((unsigned char)file[from] & 0xC0) == 0x80)
				from++;
			if (previous == NULL || strcmp(previous, file) != 0)
				n += snprintf(message + n, sizeof(message) - (size_t)n, "%s%s%s line ",
					      i ? ", " : "", from > 0 ? ".." : "", file + from);
			else
				n += snprintf(message + n, sizeof(message) - (size_t)n, ", ");
			n += snprintf(message + n, sizeof(message) - (size_t)n, "%llu",
				      (unsigned long long)g->first_invalid[i]);
			previous = file;
		}
		snprintf(message + n, sizeof(message) - (size_t)n, "%s)",
			 g->invalid_lines > FG_REPORT_INVALID_LINES ? ", ..." : "");
		fg_warn(warner, NULL, 0, message);
	}
}

/* The x axis: the total, or a larger --total (a smaller one is ignored,
 * with a warning unless it is within 2%). */
static void scale(fg_drawing *d, const fg_warner *warner)
{
	const fg_graph_options *o = d->o;
	double total = fg_count_to_double(d->total);
	d->time_max = total;
	d->root_count = d->total;
	if (fg_count_is_zero(o->total))
		return;
	double t = fg_count_to_double(o->total);
	if (fg_count_compare(o->total, d->total) >= 0) {
		d->time_max = t;
		d->root_count = o->total;
	} else if (t / total > 0.02) {
		char message[512], number[FG_COUNT_TEXT_MAX], actual[FG_COUNT_TEXT_MAX];
		fg_count_format(o->total, number);
		fg_count_format(d->total, actual);
		snprintf(message, sizeof(message),
			 "Specified --total %s is less than actual total %s, so ignored", number,
			 actual);
		fg_warn(warner, NULL, 0, message);
	}
}

int fg_drawing_prepare(fg_drawing *d, fg_graph *g, const fg_warner *warner, fg_error *err)
{
	memset(d, 0, sizeof(*d));
	d->o = &g->options;
	int rc = fg_graph_collect(g, err); /* (finishes the tree) */
	if (rc != 0)
		return rc;
	d->tree = g->tree;
	if (fg_tree_is_differential(g->tree) && (rc = compute_deltas(d)) != 0) {
		fg_drawing_free(d);
		return fg_fail(err, rc, rc == FG_ERANGE ? "the sum of counts exceeds 2^64-1"
							: "out of memory");
	}
	d->total = d->widths != NULL ? d->widths[0] : fg_tree_total(g->tree, 0);
	warn_input(g, d->total, warner);
	scale(d, warner);
	return 0;
}

void fg_drawing_free(fg_drawing *d)
{
	free(d->self_delta);
	free(d->widths);
	d->self_delta = NULL;
	d->widths = NULL;
}
