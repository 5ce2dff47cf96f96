/*
 * color.c - every colour rule: flamegraph.pl's palettes, as fg-render(1)
 * lists them, the chain palette's rewriting of stacks, and which rule
 * colours which frame (fg_frame_color). Adding a palette touches this file
 * (and fg-render's usage text and man page) only.
 *
 * A frame's colour comes from three variables v1, v2, v3 in [0, 1). By
 * default they are one value seeded from the name (so a function keeps its
 * colour across runs and graphs): Perl's srand(Σ code points) followed by
 * rand(), which on Perl >= 5.20 is drand48. --hash uses the original's
 * name-shape hash instead, --random a true random draw.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "text.h"

static const struct {
	const char *name;
	fg_palette palette;
} palettes[] = {
	{"hot", FG_PALETTE_HOT}, {"mem", FG_PALETTE_MEM}, {"io", FG_PALETTE_IO},
	{"wakeup", FG_PALETTE_WAKEUP}, {"chain", FG_PALETTE_CHAIN},
	{"java", FG_PALETTE_JAVA}, {"js", FG_PALETTE_JS}, {"perl", FG_PALETTE_PERL},
	{"red", FG_PALETTE_RED}, {"green", FG_PALETTE_GREEN}, {"blue", FG_PALETTE_BLUE},
	{"aqua", FG_PALETTE_AQUA}, {"yellow", FG_PALETTE_YELLOW},
	{"purple", FG_PALETTE_PURPLE}, {"orange", FG_PALETTE_ORANGE},
};

fg_palette fg_palette_by_name(const char *name)
{
	for (size_t i = 0; i < FG_ARRAY_LENGTH(palettes); i++)
		if (strcmp(palettes[i].name, name) == 0)
			return palettes[i].palette;
	return FG_PALETTE_UNKNOWN;
}

const char *fg_palette_background(fg_palette palette)
{
	switch (palette) {
	case FG_PALETTE_MEM: return "green";
	case FG_PALETTE_IO: case FG_PALETTE_WAKEUP: case FG_PALETTE_CHAIN: return "blue";
	case FG_PALETTE_RED: case FG_PALETTE_GREEN: case FG_PALETTE_BLUE: case FG_PALETTE_AQUA:
	case FG_PALETTE_YELLOW: case FG_PALETTE_PURPLE: case FG_PALETTE_ORANGE: return "grey";
	default: return "yellow";
	}
}

bool fg_background_stops(const char *name, const char **top, const char **bottom,
			 char custom[8])
{
	static const struct { const char *name, *top, *bottom; } stops[] = {
		{"yellow", "#eeeeee", "#eeeeb0"}, {"blue", "#eeeeee", "#e0e0ff"},
		{"green", "#eef2ee", "#e0ffe0"}, {"grey", "#f8f8f8", "#e8e8e8"},
	};
	for (size_t i = 0; i < FG_ARRAY_LENGTH(stops); i++)
		if (strcmp(name, stops[i].name) == 0) {
			*top = stops[i].top;
			*bottom = stops[i].bottom;
			return true;
		}
	/* "#" and exactly six characters; unlike the original only hex
	 * digits, so nothing but a colour can reach the SVG. */
	if (name[0] == '#' && strlen(name) == 7 && strspn(name + 1, "0123456789abcdefABCDEF") == 6) {
		memcpy(custom, name, 8);
		*top = *bottom = custom;
		return true;
	}
	return false;
}

/* drand48 after srand48(seed): Perl's srand(seed); rand(). */
static double seeded_random(uint32_t seed)
{
	uint64_t state = ((uint64_t)seed << 16) | 0x330e;
	state = (0x5deece66dull * state + 0xb) & 0xffffffffffffull;
	return (double)state / 281474976710656.0; /* 2^48 */
}

static double next_random(uint64_t *state)
{
	*state = (0x5deece66dull * *state + 0xb) & 0xffffffffffffull;
	return (double)*state / 281474976710656.0;
}

/*
 * The original's name hash: skip a "module`" prefix, then weigh the first
 * three characters with moduli 10, 11, 12 and weights 1, 0.7, 0.49.
 * reversed: hash the characters from last to first.
 */
static double name_hash(const char *name, size_t length, bool reversed)
{
	uint32_t cps[3];
	size_t count = 0;
	if (!reversed) {
		size_t at = 0;
		/* s/.(.*?)`//: from the first character through the first
		 * backquote after it. */
		const char *tick = length > 1 ? memchr(name + 1, '`', length - 1) : NULL;
		if (tick != NULL)
			at = (size_t)(tick - name) + 1;
		while (at < length && count < 3)
			cps[count++] = fg_text_next_code_point(name, length, &at);
	} else {
		/* reverse(name), then the same prefix rule on the reversed string. */
		/* The reversed string's first backquote after its first character
		 * is the name's last backquote before its last character. */
		size_t at = 0, total = 0;
		uint32_t ring[4] = {0};
		size_t last_tick = SIZE_MAX; /* character index of that backquote */
		size_t index = 0;
		while (at < length) {
			uint32_t cp = fg_text_next_code_point(name, length, &at);
			ring[total % 4] = cp;
			total++;
			if (cp == '`' && at < length)
				last_tick = index;
			index++;
		}
		/* Reversed: characters total-1, total-2, ...; with a backquote at
		 * character index t (< total-1), the prefix rule drops reversed
		 * characters up to that backquote, leaving characters t-1, t-2... */
		size_t start = total; /* one past the first reversed character */
		if (last_tick != SIZE_MAX)
			start = last_tick;
		if (start == total) {
			for (size_t k = 0; k < 3 && k < total; k++)
				cps[count++] = ring[(total - 1 - k) % 4];
		} else {
			/* Rare (a backquote in the name): decode again. */
			size_t i = 0;
			uint32_t window[3];
			at = 0;
			while (at < length && i < start) {
				uint32_t cp = fg_text_next_code_point(name, length, &at);
				window[i % 3] = cp;
				i++;
			}
			for (size_t k = 0; k < 3 && k < start; k++)
				cps[count++] = window[(start - 1 - k) % 3];
		}
	}
	double vector = 0, weight = 1, max = 1;
	for (size_t i = 0; i < count; i++) {
		uint32_t mod = 10 + (uint32_t)i;
		vector += ((double)(cps[i] % mod) / (double)(mod - 1)) * weight;
		max += weight;
		weight *= 0.70;
	}
	return 1 - vector / max;
}


/* The java, js, perl, wakeup and chain palettes pick a base palette by name. */
static fg_palette base_palette(fg_palette palette, const char *name, size_t length)
{
	switch (palette) {
	case FG_PALETTE_JAVA: {
		if (fg_has_suffix(name, length, "_[j]"))
			return FG_PALETTE_GREEN;
		if (fg_has_suffix(name, length, "_[i]"))
			return FG_PALETTE_AQUA;
		static const char *const packages[] = {"java/", "javax/", "jdk/", "net/",
						       "org/", "com/", "io/", "sun/"};
		const char *n = name;
		size_t l = length;
		if (l > 0 && n[0] == 'L') {
			n++;
			l--;
		}
		for (size_t i = 0; i < FG_ARRAY_LENGTH(packages); i++)
			if (fg_has_prefix(n, l, packages[i]))
				return FG_PALETTE_GREEN;
		if (fg_contains(name, length, ":::"))
			return FG_PALETTE_GREEN;
		if (fg_contains(name, length, "::"))
			return FG_PALETTE_YELLOW;
		if (fg_has_suffix(name, length, "_[k]"))
			return FG_PALETTE_ORANGE;
		return FG_PALETTE_RED;
	}
	case FG_PALETTE_PERL:
		if (fg_contains(name, length, "::"))
			return FG_PALETTE_YELLOW;
		if (fg_contains(name, length, "Perl") || fg_contains(name, length, ".pl"))
			return FG_PALETTE_GREEN;
		if (fg_has_suffix(name, length, "_[k]"))
			return FG_PALETTE_ORANGE;
		return FG_PALETTE_RED;
	case FG_PALETTE_JS:
		if (fg_has_suffix(name, length, "_[j]"))
			return fg_contains(name, length, "/") ? FG_PALETTE_GREEN : FG_PALETTE_AQUA;
		if (fg_contains(name, length, "::"))
			return FG_PALETTE_YELLOW;
		/* m:/.*\.js: a source path: ".js" after a '/' ("foo.json" is no
		 * path). */
		const char *slash = memchr(name, '/', length);
		if (slash != NULL && fg_contains(slash, length - (size_t)(slash - name), ".js"))
			return FG_PALETTE_GREEN;
		if (fg_contains(name, length, ":"))
			return FG_PALETTE_AQUA;
		if (length == 1 && name[0] == ' ')
			return FG_PALETTE_GREEN;
		if (fg_contains(name, length, "_[k]"))
			return FG_PALETTE_ORANGE;
		return FG_PALETTE_RED;
	case FG_PALETTE_WAKEUP:
		return FG_PALETTE_AQUA;
	case FG_PALETTE_CHAIN:
		return fg_contains(name, length, "_[w]") ? FG_PALETTE_AQUA : FG_PALETTE_BLUE;
	default:
		return palette;
	}
}

fg_rgb fg_color_of(fg_palette palette, fg_color_mode mode, const char *name,
		   size_t length, uint64_t *random_state)
{
	double v1, v2, v3;
	switch (mode) {
	case FG_COLOR_HASH:
		v1 = name_hash(name, length, false);
		v2 = v3 = name_hash(name, length, true);
		break;
	case FG_COLOR_RANDOM:
		v1 = next_random(random_state);
		v2 = next_random(random_state);
		v3 = next_random(random_state);
		break;
	default: {
		uint32_t sum = 0;
		for (size_t at = 0; at < length;)
			sum += fg_text_next_code_point(name, length, &at);
		v1 = v2 = v3 = seeded_random(sum);
	}
	}
	fg_rgb c = {0, 0, 0};
	switch (base_palette(palette, name, length)) {
	case FG_PALETTE_HOT:
		c.r = (uint8_t)(205 + (int)(50 * v3)); c.g = (uint8_t)(230 * v1); c.b = (uint8_t)(55 * v2);
		break;
	case FG_PALETTE_MEM:
		c.r = 0; c.g = (uint8_t)(190 + (int)(50 * v2)); c.b = (uint8_t)(210 * v1);
		break;
	case FG_PALETTE_IO:
		c.r = c.g = (uint8_t)(80 + (int)(60 * v1)); c.b = (uint8_t)(190 + (int)(55 * v2));
		break;
	case FG_PALETTE_RED:
		c.r = (uint8_t)(200 + (int)(55 * v1)); c.g = c.b = (uint8_t)(50 + (int)(80 * v1));
		break;
	case FG_PALETTE_GREEN:
		c.r = c.b = (uint8_t)(50 + (int)(60 * v1)); c.g = (uint8_t)(200 + (int)(55 * v1));
		break;
	case FG_PALETTE_BLUE:
		c.r = c.g = (uint8_t)(80 + (int)(60 * v1)); c.b = (uint8_t)(205 + (int)(50 * v1));
		break;
	case FG_PALETTE_YELLOW:
		c.r = c.g = (uint8_t)(175 + (int)(55 * v1)); c.b = (uint8_t)(50 + (int)(20 * v1));
		break;
	case FG_PALETTE_PURPLE:
		c.r = c.b = (uint8_t)(190 + (int)(65 * v1)); c.g = (uint8_t)(80 + (int)(60 * v1));
		break;
	case FG_PALETTE_AQUA:
		c.r = (uint8_t)(50 + (int)(60 * v1)); c.g = c.b = (uint8_t)(165 + (int)(55 * v1));
		break;
	case FG_PALETTE_ORANGE:
		c.r = (uint8_t)(190 + (int)(65 * v1)); c.g = (uint8_t)(90 + (int)(65 * v1)); c.b = 0;
		break;
	default:
		break;
	}
	return c;
}

fg_rgb fg_color_of_delta(double delta, double max_delta)
{
	fg_rgb c = {255, 255, 255};
	if (delta > max_delta)
		delta = max_delta;
	if (delta < -max_delta)
		delta = -max_delta;
	if (delta > 0) {
		c.g = c.b = (uint8_t)floor(210 * (max_delta - delta) / max_delta);
	} else if (delta < 0) {
		c.r = c.g = (uint8_t)floor(210 * (max_delta + delta) / max_delta);
	}
	return c;
}

bool fg_palette_is_valid(const char *name)
{
	return fg_palette_by_name(name) != FG_PALETTE_UNKNOWN;
}

bool fg_background_is_valid(const char *name)
{
	const char *top, *bottom;
	char custom[8];
	return fg_background_stops(name, &top, &bottom, custom);
}

/* ------------------------------------------------------------ chain stacks */

/*
 * The chain palette (waker stacks joined by "--"): every frame after the
 * first ";--;" gets a "_[w]" annotation. A stack with no ";--;" stays as
 * it is: the original gives it one at its end, an extra grey "--" frame on
 * top of every such stack (ORIGINAL.md calls it a bug). Not called for an
 * empty stack, which stays the root's own samples.
 */
static int chain_stack(fg_buffer *out, const char *stack, size_t length)
{
	out->length = 0;
	const char *mark = memmem(stack, length, ";--;", 4);
	if (mark == NULL)
		return fg_buffer_append(out, stack, length) != 0 ? FG_ENOMEM : 0;
	size_t head = (size_t)(mark - stack);
	if (fg_buffer_append(out, stack, head) != 0)
		return FG_ENOMEM;
	const char *p = mark + 4, *end = stack + length;
	if (fg_buffer_append(out, ";--", 3) != 0)
		return FG_ENOMEM;
	while (p <= end) {
		const char *next = memmem(p, (size_t)(end - p), ";--;", 4);
		const char *part_end = next ? next : end;
		/* Each frame of this part gets _[w]. */
		const char *f = p;
		while (f <= part_end) {
			const char *semi = memchr(f, ';', (size_t)(part_end - f));
			const char *frame_end = semi ? semi : part_end;
			if (fg_buffer_append(out, ";", 1) != 0 ||
			    fg_buffer_append(out, f, (size_t)(frame_end - f)) != 0 ||
			    fg_buffer_append(out, "_[w]", 4) != 0)
				return FG_ENOMEM;
			if (semi == NULL)
				break;
			f = semi + 1;
		}
		if (next == NULL)
			break;
		if (fg_buffer_append(out, ";--", 3) != 0)
			return FG_ENOMEM;
		p = next + 4;
	}
	return 0;
}

int fg_palette_stack(const char *colors, fg_buffer *scratch, const char **stack,
		     size_t *length)
{
	if (*length == 0 || colors[0] != 'c' || strcmp(colors, "chain") != 0)
		return 0;
	if (chain_stack(scratch, *stack, *length) != 0)
		return FG_ENOMEM;
	*stack = scratch->data;
	*length = scratch->length;
	return 0;
}

/* ---------------------------------------------------- the colour of a frame */

/* --diff-union: frames that exist on one side only. */
#define COLOR_ONLY_BEFORE 0xb4b4d2 /* grey-lavender: vanished */
#define COLOR_ONLY_AFTER 0xd2c8a0  /* grey-sand: new */

static uint32_t pack(fg_rgb c) { return (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b; }

void fg_frame_colors_init(fg_frame_colors *c, const fg_graph_options *o,
			  fg_name_table *palette_map, uint64_t seed)
{
	memset(c, 0, sizeof(*c));
	c->palette = fg_palette_by_name(o->colors);
	c->mode = o->hash ? FG_COLOR_HASH : o->random ? FG_COLOR_RANDOM : FG_COLOR_NAME_SEEDED;
	c->random_state = seed & 0xffffffffffffull;
	c->palette_map = palette_map;
}

void fg_frame_colors_free(fg_frame_colors *c)
{
	free(c->map_values);
	c->map_values = NULL;
	fg_string_map_free(c->map_value_index);
	c->map_value_index = NULL;
	c->map_value_capacity = 0;
}

/* A --cp frame: its palette.map value, the palette's colour for a new name. */
static int mapped_color(fg_frame_colors *c, const char *name, size_t length, uint32_t *color)
{
	const char *known = fg_name_table_get(c->palette_map, name, length);
	if (known == NULL) {
		fg_rgb rgb = fg_color_of(c->palette, c->mode, name, length, &c->random_state);
		char text[32];
		snprintf(text, sizeof(text), "rgb(%d,%d,%d)", rgb.r, rgb.g, rgb.b);
		if (fg_name_table_put(c->palette_map, name, length, text) != 0)
			return FG_ENOMEM;
		known = fg_name_table_get(c->palette_map, name, length);
	}
	/* Colours from the map are text: remember each distinct one, found
	 * again by its text; its number is its entry's in the map. */
	if (c->map_value_index == NULL && (c->map_value_index = fg_string_map_new()) == NULL)
		return FG_ENOMEM;
	size_t length_known = strlen(known);
	const fg_string_entry *seen = fg_string_map_find(c->map_value_index, known, length_known);
	if (seen != NULL) {
		*color = FG_COLOR_FROM_MAP | (uint32_t)fg_string_map_index(c->map_value_index, seen);
		return 0;
	}
	size_t count = fg_string_map_size(c->map_value_index);
	if (count >= FG_COLOR_FROM_MAP - 1 ||
	    fg_grow((void **)&c->map_values, &c->map_value_capacity, count + 1, sizeof(*c->map_values)) != 0 ||
	    fg_string_map_add(c->map_value_index, known, length_known, NULL) == NULL)
		return FG_ENOMEM;
	c->map_values[count] = known;
	*color = FG_COLOR_FROM_MAP | (uint32_t)count;
	return 0;
}

int fg_frame_color(fg_frame_colors *c, const char *name, size_t length, bool root,
		   const fg_frame_change *change, uint32_t *color)
{
	if (!root && length == 2 && memcmp(name, "--", 2) == 0) {
		*color = 0xa0a0a0;
		return 0;
	}
	if (!root && length == 1 && name[0] == '-') {
		*color = 0xc8c8c8;
		return 0;
	}
	if (change != NULL) {
		if (change->only != 0)
			*color = change->only < 0 ? COLOR_ONLY_BEFORE : COLOR_ONLY_AFTER;
		else
			*color = pack(fg_color_of_delta(change->delta, change->max_delta));
		return 0;
	}
	if (c->palette_map != NULL)
		return mapped_color(c, name, length, color);
	*color = pack(fg_color_of(c->palette, c->mode, name, length, &c->random_state));
	return 0;
}

const char *fg_frame_color_text(const fg_frame_colors *c, uint32_t color, char hex[8])
{
	if (color & FG_COLOR_FROM_MAP)
		return c->map_values[color & ~FG_COLOR_FROM_MAP];
	static const char digits[] = "0123456789abcdef";
	hex[0] = '#';
	for (int i = 0; i < 6; i++)
		hex[1 + i] = digits[(color >> (20 - 4 * i)) & 15];
	hex[7] = '\0';
	return hex;
}
