/*
 * render.c - fg-render's steps, in order, as library calls: the options
 * checked (fg_graph_options_check), the inputs read and the SVG written
 * (fg_graph_run), and fg_graph_write_svg: the graph finished and measured
 * (finish.c), the files that go with the drawing read (--cp's palette.map,
 * --nameattr) and palette.map written back after it (by fg_graph_run only
 * once the SVG is committed), so the writer
 * (svg.c) touches no file but its output; colours come from color.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "svg.h"

int fg_graph_options_check(const fg_graph_options *o, fg_error *err)
{
	const struct {
		const char *name; /* as fg-render spells the option */
		double value, low, high;
	} ranges[] = {
		{"--width", o->width, 21, 1000000},
		{"--height", o->frame_height, 2, 10000},
		{"--fontsize", o->font_size, 0.1, 1000},
		{"--fontwidth", o->font_width, 0.01, 10},
		{"--factor", o->factor, 1e-9, 1e9},
		{"--diff-threshold", o->diff_threshold, 0, 100},
		{"--minwidth", o->min_width, 0, o->min_width_percent ? 100 : 1000000},
		{"-j", o->threads, 0, 1024},
		{"--view-nodes", o->view_nodes, 0, 100000000},
	};
	/* The SVG is UTF-8, the one encoding its declaration may name (any
	 * other name, or none, would be a lie or malformed XML). */
	if (o->encoding != NULL && strcasecmp(o->encoding, "UTF-8") != 0)
		return fg_fail(err, FG_EINVAL, "invalid --encoding '%s': the SVG is UTF-8, the "
			       "only encoding it can declare", o->encoding);
	for (size_t i = 0; i < FG_ARRAY_LENGTH(ranges); i++) {
		/* (A NaN is in no range.) */
		if (ranges[i].value >= ranges[i].low && ranges[i].value <= ranges[i].high)
			continue;
		char low[32], high[32];
		snprintf(low, sizeof(low), "%.15g", ranges[i].low); /* 1000000, not 1e+06 */
		snprintf(high, sizeof(high), "%.15g", ranges[i].high);
		return fg_fail(err, FG_EINVAL, "%s must be between %s and %s%s", ranges[i].name, low,
			       high, strcmp(ranges[i].name, "--minwidth") == 0 && o->min_width_percent ? "%" : "");
	}
	return 0;
}

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

/* The --nameattr file could not be read: err says so, naming the option
 * (its message names only the file, as for an input). */
static void name_attr_failed(fg_error *err)
{
	char message[sizeof(err->message) + 16];
	snprintf(message, sizeof(message), "--nameattr %s", err->message);
	size_t length = strlen(message);
	if (length >= sizeof(err->message))
		length = sizeof(err->message) - 1;
	memcpy(err->message, message, length);
	err->message[length] = '\0';
}

/* Whether the --nameattr file can be read, found out before the inputs
 * are (a mistyped name would otherwise end the run only once they all
 * are): FG_EIO if not, err naming it. Nothing is read: a pipe or a FIFO
 * (<(...), /dev/stdin) gives its bytes once, to the real read; only a
 * regular file is opened, other files' permissions are asked, and a
 * directory or a socket refused. */
static int name_attr_readable(const char *path, fg_error *err)
{
	struct stat st;
	int rc = stat(path, &st);
	if (rc == 0 && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		rc = -1;
	} else if (rc == 0 && S_ISSOCK(st.st_mode)) {
		errno = ENXIO; /* (as open says of one) */
		rc = -1;
	} else if (rc == 0 && S_ISREG(st.st_mode)) {
		int fd = open(path, O_RDONLY);
		rc = fd < 0 ? -1 : close(fd);
	} else if (rc == 0) {
		rc = access(path, R_OK); /* (a FIFO, a device: not opened) */
	}
	if (rc != 0) {
		fg_fail(err, FG_EIO, "%s: %s", path, strerror(errno));
		name_attr_failed(err);
		return FG_EIO;
	}
	return 0;
}

/* What palette.map's writing met (e; nothing when its code is 0), as this
 * run's result: a file that could not be written is a warning, not an
 * error, as the SVG it goes with is delivered (flamegraph.pl does not even
 * check); the next run with --cp picks colours for the new names again.
 * But out of memory is this run's failure, not the file's: an error
 * (err set). Returns 0 or FG_ENOMEM. */
static int map_failed(const fg_warner *warner, const fg_error *e, fg_error *err)
{
	if (e->code == FG_ENOMEM) {
		*err = *e;
		return FG_ENOMEM;
	}
	if (e->code != 0) {
		char message[sizeof(e->message) + 64];
		snprintf(message, sizeof(message), "%s; palette.map is not updated", e->message);
		fg_warn(warner, NULL, 0, message);
	}
	return 0;
}

/* fg_graph_write_svg; with `later` not NULL, palette.map is not written
 * but handed back (*later, NULL when there is none) for the caller to
 * write once the SVG is in place. */
static int write_svg(fg_graph *g, fg_output *out, const fg_warner *warner, fg_error *err,
		     fg_name_table **later)
{
	const fg_graph_options *o = &g->options;
	if (g->written)
		return fg_fail(err, FG_EINVAL, "fg_graph_write_svg called twice");
	g->written = true;
	int rc = fg_graph_options_check(o, err);
	if (rc != 0)
		return rc;
	fg_drawing d;
	if ((rc = fg_drawing_prepare(&d, g, warner, err)) != 0)
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
		if ((rc = fg_palette_map_read(palette_map, o->palette_map_path, warner, err)) != 0)
			goto done;
	}
	if (o->name_attr_path != NULL) {
		if ((attributes = fg_name_table_new()) == NULL) {
			rc = fg_fail(err, FG_ENOMEM, "out of memory");
			goto done;
		}
		if ((rc = fg_name_attributes_read(attributes, o->name_attr_path, warner, err)) != 0) {
			name_attr_failed(err);
			goto done;
		}
	}
	/* --random: a seed that differs between runs and between graphs. */
	uint64_t seed = (uint64_t)time(NULL) << 16 ^ (uint64_t)getpid() ^ (uint64_t)(uintptr_t)g;
	fg_frame_colors colors;
	fg_frame_colors_init(&colors, o, palette_map, seed);
	rc = fg_svg_write(&d, &colors, attributes, out, err);
	fg_frame_colors_free(&colors);
	if (rc == 0 && palette_map != NULL && later != NULL) {
		*later = palette_map;
		palette_map = NULL;
	} else if (rc == 0 && palette_map != NULL) {
		fg_error map_err = {0};
		fg_palette_map_write(palette_map, o->palette_map_path, &map_err);
		rc = map_failed(warner, &map_err, err);
	}
done:
	fg_name_table_free(palette_map);
	fg_name_table_free(attributes);
	fg_drawing_free(&d);
	return rc;
}

int fg_graph_write_svg(fg_graph *g, fg_output *out, const fg_warner *warner, fg_error *err)
{
	return write_svg(g, out, warner, err, NULL);
}

int fg_graph_run(fg_graph *g, const char *const *paths, size_t count, const char *output,
		 const fg_warner *warner, fg_error *err)
{
	static const char *const standard_input[] = {"-"};
	fg_error local = {0};
	if (err == NULL)
		err = &local;
	if (count == 0) {
		paths = standard_input;
		count = 1;
	}
	if (fg_graph_check_open(g, err) != 0)
		return FG_EINVAL;
	if (g->options.name_attr_path != NULL && name_attr_readable(g->options.name_attr_path, err) != 0)
		return err->code;
	for (size_t i = 0; i < count; i++) {
		fg_input *in = fg_input_open(paths[i], err);
		int rc = in != NULL ? fg_graph_read(g, in, warner, err) : err->code;
		fg_input_close(in);
		if (rc != 0)
			return rc;
	}
	fg_output *out = fg_output_open(output, err);
	if (out == NULL)
		return err->code;
	fg_name_table *palette_map = NULL;
	int rc = write_svg(g, out, warner, err, &palette_map);
	/* No valid input: the error SVG goes to stdout, as flamegraph.pl does,
	 * but an output file keeps its old contents. */
	bool to_file = output != NULL && strcmp(output, "-") != 0;
	if (rc != 0 && (rc != FG_EEMPTY || to_file)) {
		fg_output_abort(out);
		fg_name_table_free(palette_map);
		return rc;
	}
	/* palette.map is written beside the SVG and put in place after it:
	 * a run that fails (short of the last rename) changes neither. One
	 * that cannot write it still delivers the SVG (map_failed). */
	fg_output *map_out = NULL;
	fg_error map_err = {0};
	if (rc == 0 && palette_map != NULL)
		map_out = fg_palette_map_prepare(palette_map, g->options.palette_map_path, &map_err);
	fg_name_table_free(palette_map);
	if (map_err.code == FG_ENOMEM) {
		/* The SVG is whole: a stream, which may have had its first
		 * bytes already, gets the rest rather than a cut graph; a file
		 * keeps its old contents. Either way the run failed. */
		if (fg_output_streams(out))
			fg_output_commit(out, NULL);
		else
			fg_output_abort(out);
		return map_failed(warner, &map_err, err);
	}
	fg_error commit_err = {0};
	if (fg_output_commit(out, &commit_err) != 0) {
		*err = commit_err;
		fg_output_abort(map_out);
		return commit_err.code;
	}
	if (map_out != NULL)
		fg_output_commit(map_out, &map_err);
	int map_rc = map_failed(warner, &map_err, err); /* (the SVG is in place) */
	return map_rc != 0 ? map_rc : rc;
}
