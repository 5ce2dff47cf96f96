/*
 * color.h - frame colours: flamegraph.pl's palettes, reproduced exactly,
 * and the whole colour policy of a graph (which rule colours which frame:
 * the grey separators, differential hues, palette.map, the palette). A new
 * palette is added in color.c alone (and in fg-render's usage text and
 * man page). Internal to libfolded.
 */
#ifndef FG_COLOR_H
#define FG_COLOR_H

#include "internal.h"
#include "names.h"
#include "strmap.h"

typedef struct fg_rgb {
	uint8_t r, g, b;
} fg_rgb;

typedef enum fg_palette {
	FG_PALETTE_UNKNOWN, /* an unknown name: black, as flamegraph.pl */
	FG_PALETTE_HOT, FG_PALETTE_MEM, FG_PALETTE_IO, FG_PALETTE_WAKEUP,
	FG_PALETTE_CHAIN, FG_PALETTE_JAVA, FG_PALETTE_JS, FG_PALETTE_PERL,
	FG_PALETTE_RED, FG_PALETTE_GREEN, FG_PALETTE_BLUE, FG_PALETTE_AQUA,
	FG_PALETTE_YELLOW, FG_PALETTE_PURPLE, FG_PALETTE_ORANGE,
} fg_palette;

/* The palette called name (case-sensitive, as the original). */
fg_palette fg_palette_by_name(const char *name);

/* How the three random variables are drawn: from the name (default), by
 * the name-shape hash of flamegraph.pl's --hash, or truly at random. */
typedef enum fg_color_mode {
	FG_COLOR_NAME_SEEDED, /* default: deterministic per name */
	FG_COLOR_HASH,        /* --hash */
	FG_COLOR_RANDOM,      /* --random */
} fg_color_mode;

/*
 * The colour of a frame called name (annotation included). random_state
 * is the caller's generator state for FG_COLOR_RANDOM (a 48-bit LCG).
 */
fg_rgb fg_color_of(fg_palette palette, fg_color_mode mode, const char *name,
		   size_t length, uint64_t *random_state);

/* The default background gradient of a palette: "yellow", "blue"... */
const char *fg_palette_background(fg_palette palette);

/* The two gradient stops of a --bgcolors value; false if invalid. A
 * "#rrggbb"-style value (any 6 characters) gives a flat background. */
bool fg_background_stops(const char *name, const char **top, const char **bottom,
			 char custom[8]);

/* The colour of a differential frame: white to red (delta > 0) or to blue
 * (delta < 0), scaled by max_delta (>= 1). */
fg_rgb fg_color_of_delta(double delta, double max_delta);

/*
 * The stack a palette draws: the chain palette rewrites every stack (see
 * color.c); the others keep it. When it rewrites, the new stack is built
 * in scratch and *stack, *length point at it. 0 or FG_ENOMEM.
 */
int fg_palette_stack(const char *colors, fg_buffer *scratch, const char **stack,
		     size_t *length);

/* ------------------------------------------------- the colour of a frame */

/* A frame colour is 0xRRGGBB, or this bit | the index of a palette.map
 * value (fg_frame_color_text): colours from the map are text. */
#define FG_COLOR_FROM_MAP 0x80000000u

/* A differential graph's frame: its own change and the graph's largest. */
typedef struct fg_frame_change {
	double delta;      /* own AFTER - BEFORE, negated by --negate */
	double max_delta;  /* the largest |delta| of the graph, >= 1 */
	int only;          /* --diff-union: -1 only BEFORE has it, 1 only AFTER, else 0 */
} fg_frame_change;

/* The colours of one graph's frames: the options' palette and mode, and
 * --cp's table (borrowed), which learns the colour of every new name. */
typedef struct fg_frame_colors {
	fg_palette palette;
	fg_color_mode mode;
	uint64_t random_state;     /* --random: a 48-bit LCG */
	fg_name_table *palette_map; /* --cp, or NULL */
	const char **map_values;   /* distinct palette.map values (the table's,
				      NUL-terminated), numbered as in: */
	size_t map_value_capacity;
	fg_string_map *map_value_index; /* those values, found by their text (a
					   list searched per name was quadratic:
					   --cp --random, 100,000 names, 10 s) */
} fg_frame_colors;

/* Sets up c for a graph drawn with options o; seed starts --random. */
void fg_frame_colors_init(fg_frame_colors *c, const fg_graph_options *o,
			  fg_name_table *palette_map, uint64_t seed);
void fg_frame_colors_free(fg_frame_colors *c);

/*
 * The colour of a frame called name (annotation included; root: the
 * "all" frame), change NULL unless the graph is differential. In order:
 * the separators "--" and "-" are grey, a differential frame is coloured
 * by its change, a --cp frame by palette.map (new names get the palette's
 * colour, added to the map), any other by the palette. 0 or FG_ENOMEM.
 */
int fg_frame_color(fg_frame_colors *c, const char *name, size_t length, bool root,
		   const fg_frame_change *change, uint32_t *color);

/* The text of a colour for a fill attribute (not escaped): "#rrggbb" in
 * hex, or the palette.map value. */
const char *fg_frame_color_text(const fg_frame_colors *c, uint32_t color, char hex[8]);

#endif
