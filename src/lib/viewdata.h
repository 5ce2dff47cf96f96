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

/*
 * The same in steps, for a writer that works out the view data on another
 * thread while it lays out the frames and chooses the entities:
 * fg_view_data_prepare (the kept nodes and the numbered names; reads the
 * tree only), fg_view_data_put_tree (the TREE line; the same), then
 * fg_view_data_put_names (the first line and the names: the entities are
 * needed only there). fg_view_data_write's output is put_names' followed
 * by put_tree's. Each returns 0 or FG_ENOMEM. A prepared view data reads
 * the tree until fg_view_data_free (NULL: nothing) frees it.
 */
typedef struct fg_view_data fg_view_data;
int fg_view_data_prepare(fg_view_data **prepared, const fg_tree *tree, size_t budget,
			 double threshold, double named);
int fg_view_data_put_tree(fg_buffer *out, const fg_view_data *v);
int fg_view_data_put_names(fg_buffer *out, const fg_view_data *v, fg_count total,
			   double threshold, double factor, fg_view_data_entity entity,
			   void *entity_context);
void fg_view_data_free(fg_view_data *v);

#endif
