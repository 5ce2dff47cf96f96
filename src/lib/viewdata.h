/*
 * viewdata.h - the view data of an SVG: the whole frame tree, exact to the
 * sample, in the compact text form that the viewer's function table,
 * function view, hide/recursion toggles, weight order and zoom-reveal read
 * (docs/svg-contract.md, "View data"). Internal to libfolded.
 */
#ifndef FG_VIEWDATA_H
#define FG_VIEWDATA_H

#include "internal.h"
#include "text.h"

/* The default node budget (fg_graph_options.view_nodes; bench/viewdata.sh). */
#define FG_VIEW_NODES_DEFAULT 100000

/*
 * Writes a name as a reference to an entity of the SVG's DTD and returns
 * true, or returns false when the name has none (it is then written out).
 */
typedef bool (*fg_view_data_entity)(void *context, fg_buffer *out, const char *name,
				     size_t length);

/*
 * Appends the view data of a finished, non-differential tree to out: the
 * XML text that goes inside <metadata id="fg-data">. At most
 * `budget` nodes (the root counts; at least the root is kept): past it the
 * lightest nodes are left out and their counts are written as their
 * parent's exact "other" remainder. `total` is what the root spans (the
 * sum, or a larger --total); `threshold` the narrowest drawn frame in
 * counts (--minwidth); nodes at least `named` wide (in counts; NAN: none)
 * have their name left out, for the viewer to read it from the drawn
 * frame. Names that have an entity (entity, when not NULL)
 * are written as references to it. Returns 0 or FG_ENOMEM.
 */
int fg_view_data_write(fg_buffer *out, const fg_tree *tree, size_t budget, fg_count total,
		       double threshold, double named, double factor, fg_view_data_entity entity,
		       void *entity_context);

#endif
