/*
 * render.c - fg_graph_write_svg: the steps from a built graph to an SVG,
 * in order. The graph is finished and measured (finish.c); the files that
 * go with the drawing are read here (--cp's palette.map, --nameattr) and
 * palette.map written back after it, so the writer (svg.c) touches no file
 * but its output; colours come from color.c.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "svg.h"

/* The empty graph: flamegraph.pl's "no valid input" SVG, and FG_EEMPTY. */
static int write_empty(const fg_graph_options *o, fg_output *out, const fg_warner *warner,
		       fg_error *err)
{
	fg_warn(warner, NULL, 0, "ERROR: No stack counts found");
	int rc = fg_svg_write_empty(o, out);
	if (rc != 0)
		return fg_output_check(out, err) != 0 ? err->code : fg_fail(err, rc, "out of memory");
	return fg_fail(err, FG_EEMPTY, "no valid input");
}

int fg_graph_write_svg(fg_graph *g, fg_output *out, const fg_warner *warner, fg_error *err)
{
	const fg_graph_options *o = &g->options;
	if (g->written)
		return fg_fail(err, FG_EINVAL, "fg_graph_write_svg called twice");
	g->written = true;
	fg_drawing d;
	int rc = fg_drawing_prepare(&d, g, warner, err);
	if (rc != 0)
		return rc;
	if (fg_count_is_zero(d.total)) {
		fg_drawing_free(&d);
		return write_empty(o, out, warner, err);
	}
	fg_name_table *palette_map = NULL, *attributes = NULL;
	if (o->consistent_palette) {
		if ((palette_map = fg_name_table_new()) == NULL) {
			rc = fg_fail(err, FG_ENOMEM, "out of memory");
			goto done;
		}
		if ((rc = fg_palette_map_read(palette_map, o->palette_map_path, err)) != 0)
			goto done;
	}
	if (o->name_attr_path != NULL) {
		if ((attributes = fg_name_table_new()) == NULL) {
			rc = fg_fail(err, FG_ENOMEM, "out of memory");
			goto done;
		}
		if ((rc = fg_name_attributes_read(attributes, o->name_attr_path, warner, err)) != 0)
			goto done;
	}
	/* --random: a seed that differs between runs and between graphs. */
	uint64_t seed = (uint64_t)time(NULL) << 16 ^ (uint64_t)getpid() ^ (uint64_t)(uintptr_t)g;
	fg_frame_colors colors;
	fg_frame_colors_init(&colors, o, palette_map, seed);
	rc = fg_svg_write(&d, &colors, attributes, out, err);
	fg_frame_colors_free(&colors);
	if (rc == 0 && palette_map != NULL)
		rc = fg_palette_map_write(palette_map, o->palette_map_path, err);
done:
	fg_name_table_free(palette_map);
	fg_name_table_free(attributes);
	fg_drawing_free(&d);
	return rc;
}
