/*
 * color.h - frame colours: flamegraph.pl's palettes, reproduced exactly.
 * Internal to libfolded.
 */
#ifndef FG_COLOR_H
#define FG_COLOR_H

#include "internal.h"

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

#endif
