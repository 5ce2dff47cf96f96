/*
 * svg.c - the frame tree drawn as an SVG flame graph.
 *
 * Geometry is flamegraph.pl's, to 0.1 px (docs/svg-contract.md); the markup is
 * ours and compact (docs/svg-contract.md): shared attributes live in CSS,
 * frames of one colour share a <g fill>, the " samples, " of every tooltip
 * is an XML entity, numbers are written with the fewest digits, and empty
 * labels are left out. Everything taken from the input is cleaned to valid
 * UTF-8 and escaped, so the output is well-formed whatever bytes came in.
 *
 * Two passes over the tree, both iterative: the first finds the deepest
 * frame wide enough to draw (the image height depends on it), the second
 * lays out and collects the frames; they are then written grouped by colour.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "color.h"
#include "graph.h"
#include "names.h"
#include "tree.h"
#include "viewdata.h"

extern const char fg_viewer_css[], fg_viewer_js[];
extern const unsigned long fg_viewer_css_length, fg_viewer_js_length;

#define XPAD 10

typedef struct frame {
	fg_node_id node;
	uint32_t depth;
	uint32_t color;   /* 0xRRGGBB, or an index into palette-map values | 1<<31 */
	uint32_t order;   /* position in layout order, for a stable sort */
	double start;     /* in counts */
	const char *name; /* the node's name, looked up once (frames are written */
	size_t name_length; /* grouped by colour, far from the tree's order) */
} frame;

typedef struct writer {
	const fg_graph_options *o;
	const fg_tree *tree;
	fg_output *out;
	fg_buffer line;        /* the frame being written */
	fg_buffer clean;       /* a cleaned name */
	double total, time_max, width_per_time, image_height;
	fg_count root_count;   /* the sum, or --total when larger */
	double factor_total;   /* time_max * factor, the % denominator */
	double ypad1, ypad2, ypad3;
	int depth_max;
	double *self_delta;    /* differential: per node */
	fg_count *widths;      /* --diff-union: per node, max(BEFORE, AFTER) summed up */
	double max_delta;
	fg_palette palette;
	fg_color_mode mode;
	uint64_t random_state;
	fg_name_table *palette_map;
	fg_name_table *attributes;
	fg_stacks *dictionary; /* shown name -> [0] uses, [1] entity number + 1 */
	fg_buffer dtd;         /* the entity declarations of the dictionary */
	char **palette_values; /* palette-map colours by index (borrowed) */
	size_t palette_values_count, palette_values_capacity;
	bool nomem;           /* an append failed: the SVG is incomplete */
} writer;

/* ------------------------------------------------------------ formatting */

/* v rounded to 0.1 in the fewest characters: "10", "913.6", "-2". */
static size_t format_tenths(char *p, double v)
{
	long long tenths = llrint(v * 10.0);
	char *start = p;
	if (tenths < 0) {
		*p++ = '-';
		tenths = -tenths;
	}
	long long whole = tenths / 10;
	int digit = (int)(tenths % 10);
	char digits[24];
	int n = 0;
	do {
		digits[n++] = (char)('0' + whole % 10);
		whole /= 10;
	} while (whole);
	while (n)
		*p++ = digits[--n];
	if (digit) {
		*p++ = '.';
		*p++ = (char)('0' + digit);
	}
	*p = '\0';
	return (size_t)(p - start);
}

/* An integer with thousands separators: 1234567 -> "1,234,567". */
static size_t format_thousands(char *p, uint64_t v)
{
	char digits[32];
	int n = 0;
	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	char *start = p;
	while (n) {
		*p++ = digits[--n];
		if (n && n % 3 == 0)
			*p++ = ',';
	}
	*p = '\0';
	return (size_t)(p - start);
}

/*
 * The displayed count: width * factor rounded half to even, as Perl's
 * sprintf("%.0f"). Exact for plain counts (no --factor).
 */
static uint64_t displayed_count(fg_count c, double factor)
{
	if (factor == 1.0) {
		const uint64_t half = FG_COUNT_FRAC_ONE / 2;
		uint64_t n = c.whole;
		if (c.frac > half || (c.frac == half && (n & 1)))
			n++;
		return n;
	}
	double v = nearbyint(fg_count_to_double(c) * factor);
	return v <= 0 ? 0 : v >= 1.8e19 ? UINT64_MAX : (uint64_t)v;
}

/* Appends that fail (out of memory) make the writer fail at the next
 * flush, rather than write a graph with a hole in it. */
#define CHECKED(w, call) do { if ((call) != 0) (w)->nomem = true; } while (0)
static void put(writer *w, const char *s) { CHECKED(w, fg_buffer_append_str(&w->line, s)); }
static void put_bytes(writer *w, const char *s, size_t n) { CHECKED(w, fg_buffer_append(&w->line, s, n)); }

static void put_tenths(writer *w, double v)
{
	char number[32];
	put_bytes(w, number, format_tenths(number, v));
}

/* Untrusted text (names, options) cleaned and escaped. */
static void put_text(writer *w, const char *bytes, size_t length)
{
	if (fg_text_is_clean(bytes, length)) {
		CHECKED(w, fg_text_escape(&w->line, bytes, length));
		return;
	}
	w->clean.length = 0;
	CHECKED(w, fg_text_clean(&w->clean, bytes, length));
	CHECKED(w, fg_text_escape(&w->line, w->clean.data, w->clean.length));
}

static void put_str_text(writer *w, const char *s) { put_text(w, s, strlen(s)); }

static int flush_line(writer *w)
{
	if (w->nomem)
		return FG_ENOMEM;
	int rc = fg_output_write(w->out, w->line.data, w->line.length);
	w->line.length = 0;
	return rc;
}

/* ---------------------------------------------------------------- layout */

/* The count a node's box spans: its total, or its --diff-union width. */
static fg_count node_count(const writer *w, fg_node_id n)
{
	return w->widths != NULL ? w->widths[n] : tree_total(w->tree, n);
}

static double node_width(const writer *w, fg_node_id n)
{
	if (n == 0)
		return w->time_max;
	fg_count c = node_count(w, n);
	return (double)c.whole + (double)c.frac / 1e18;
}

/*
 * Where a node's first child starts, relative to the node: after the
 * node's own samples (the stacks that end at it), which sit at its left
 * edge as in flamegraph.pl, whose sorted input puts `a;b 5` before
 * `a;b;c 3`. The root likewise: empty stacks come first, and a --total
 * larger than the sum leaves its extra room at the right.
 */
static double own_width(const writer *w, fg_node_id n)
{
	fg_count children = {0, 0};
	for (fg_node_id c = tree_first_child(w->tree, n); c != FG_NODE_NONE;
	     c = tree_next_sibling(w->tree, c))
		fg_count_add_inline(&children, node_count(w, c));
	return fg_count_to_double(fg_count_sub_floor(node_count(w, n), children));
}

typedef struct pending {
	fg_node_id node;
	uint32_t depth;
	double start;
} pending;

/*
 * Visits the frames at least `threshold` wide, parents before children,
 * with each one's depth and start. Returns them when collect is set, else
 * only measures depth_max.
 */
static int layout(writer *w, double threshold, frame **frames, size_t *count)
{
	pending *stack = NULL;
	size_t used = 0, capacity = 0;
	frame *list = NULL;
	size_t list_used = 0, list_capacity = 0;
	int depth_max = 0;
	if (node_width(w, 0) < threshold) {
		*frames = NULL;
		*count = 0;
		w->depth_max = 0;
		return 0;
	}
	if (fg_grow((void **)&stack, &capacity, 1, sizeof(*stack)) != 0)
		return FG_ENOMEM;
	stack[used++] = (pending){0, 0, 0};
	while (used > 0) {
		pending p = stack[--used];
		if ((int)p.depth > depth_max)
			depth_max = (int)p.depth;
		if (fg_grow((void **)&list, &list_capacity, list_used + 1, sizeof(*list)) != 0)
			goto oom;
		list[list_used] = (frame){p.node, p.depth, 0, (uint32_t)list_used, p.start, NULL, 0};
		list[list_used].name = fg_tree_name(w->tree, p.node, &list[list_used].name_length);
		list_used++;
		double start = w->o->flamechart ? p.start : p.start + own_width(w, p.node);
		for (fg_node_id c = tree_first_child(w->tree, p.node); c != FG_NODE_NONE;
		     c = tree_next_sibling(w->tree, c)) {
			double width = node_width(w, c);
			if (!(width < threshold)) {
				if (fg_grow((void **)&stack, &capacity, used + 1, sizeof(*stack)) != 0)
					goto oom;
				double at = w->o->flamechart
						    ? fg_count_to_double(fg_tree_start(w->tree, c)) : start;
				stack[used++] = (pending){c, p.depth + 1, at};
			}
			start += width;
		}
	}
	free(stack);
	w->depth_max = depth_max;
	*frames = list;
	*count = list_used;
	return 0;
oom:
	free(stack);
	free(list);
	return FG_ENOMEM;
}

/* The own (self) part of a node's inclusive count. */
/*
 * Differential input: each node's own AFTER - BEFORE (changes below the
 * noise threshold count as none) and the largest |change|; with
 * --diff-union also each node's width, max(own BEFORE, own AFTER) plus its
 * children's widths, so frames that vanished keep their place.
 */
static int compute_deltas(writer *w)
{
	const fg_tree *t = w->tree;
	size_t size = fg_tree_size(t);
	w->self_delta = calloc(size, sizeof(double));
	if (w->self_delta == NULL)
		return FG_ENOMEM;
	if (w->o->diff_union && (w->widths = calloc(size, sizeof(fg_count))) == NULL)
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
			if (w->widths != NULL && fg_count_add_inline(&children_width, w->widths[c]) != 0)
				return FG_ERANGE;
		}
		after = fg_count_sub_floor(fg_tree_total(t, n), after);
		before = fg_count_sub_floor(fg_tree_total_before(t, n), before);
		w->self_delta[n] = fg_count_to_double(after) - fg_count_to_double(before);
		if (w->widths != NULL) {
			fg_count width = fg_count_compare(after, before) >= 0 ? after : before;
			if (fg_count_add_inline(&width, children_width) != 0)
				return FG_ERANGE;
			w->widths[n] = width;
		}
	}
	double total = fg_count_to_double(w->widths ? w->widths[0] : fg_tree_total(t, 0));
	double noise = total * w->o->diff_threshold / 100;
	w->max_delta = 1;
	for (size_t n = 0; n < size; n++) { /* the root too: empty stacks are its own */
		if (fabs(w->self_delta[n]) < noise)
			w->self_delta[n] = 0;
		double d = fabs(w->self_delta[n]);
		if (d > w->max_delta)
			w->max_delta = d;
	}
	return 0;
}

/* --diff-union: frames that exist on one side only. */
#define COLOR_ONLY_BEFORE 0xb4b4d2 /* grey-lavender: vanished */
#define COLOR_ONLY_AFTER 0xd2c8a0  /* grey-sand: new */

static uint32_t pack(fg_rgb c) { return (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b; }

#define COLOR_FROM_MAP 0x80000000u

static int color_of(writer *w, const frame *f, uint32_t *color)
{
	fg_node_id n = f->node;
	size_t length = f->name_length;
	const char *name = f->name;
	if (n != 0 && length == 2 && memcmp(name, "--", 2) == 0) {
		*color = 0xa0a0a0;
		return 0;
	}
	if (n != 0 && length == 1 && name[0] == '-') {
		*color = 0xc8c8c8;
		return 0;
	}
	if (w->self_delta != NULL) {
		if (w->widths != NULL && n != 0) {
			bool before = !fg_count_is_zero(fg_tree_total_before(w->tree, n));
			bool after = !fg_count_is_zero(fg_tree_total(w->tree, n));
			if (before != after) {
				*color = before ? COLOR_ONLY_BEFORE : COLOR_ONLY_AFTER;
				return 0;
			}
		}
		double d = w->o->negate ? -w->self_delta[n] : w->self_delta[n];
		*color = pack(fg_color_of_delta(d, w->max_delta));
		return 0;
	}
	if (w->palette_map != NULL) {
		const char *known = fg_name_table_get(w->palette_map, name, length);
		if (known == NULL) {
			fg_rgb c = fg_color_of(w->palette, w->mode, name, length, &w->random_state);
			char text[32];
			snprintf(text, sizeof(text), "rgb(%d,%d,%d)", c.r, c.g, c.b);
			if (fg_name_table_put(w->palette_map, name, length, text) != 0)
				return FG_ENOMEM;
			known = fg_name_table_get(w->palette_map, name, length);
		}
		/* Colours from the map are text: remember each distinct one. */
		for (size_t i = 0; i < w->palette_values_count; i++)
			if (strcmp(w->palette_values[i], known) == 0) {
				*color = COLOR_FROM_MAP | (uint32_t)i;
				return 0;
			}
		if (fg_grow((void **)&w->palette_values, &w->palette_values_capacity,
			    w->palette_values_count + 1, sizeof(char *)) != 0)
			return FG_ENOMEM;
		w->palette_values[w->palette_values_count] = (char *)known;
		*color = COLOR_FROM_MAP | (uint32_t)w->palette_values_count++;
		return 0;
	}
	*color = pack(fg_color_of(w->palette, w->mode, name, length, &w->random_state));
	return 0;
}

static int compare_frames(const void *a, const void *b)
{
	const frame *x = a, *y = b;
	if (x->color != y->color)
		return x->color < y->color ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* ------------------------------------------------------------ dictionary */

/*
 * Names that several frames share are declared once as XML entities
 * (<!ENTITY a "name">) and written as &a; in titles and labels: a standard
 * XML mechanism that every parser and browser expands, and most of the
 * size of a large graph. Only names that save bytes get an entity.
 */

static const char entity_first[] = "abcdefghijklmnopqrtuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"; /* no 's' */
static const char entity_rest[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/* The name of entity number n ("a", "b", ..., "aa"...), skipping the names
 * XML predefines. Returns its length. */
static size_t entity_name(uint64_t n, char *out)
{
	const uint64_t first = sizeof(entity_first) - 1, rest = sizeof(entity_rest) - 1;
	size_t length = 1;
	uint64_t block = first;
	while (n >= block) {
		n -= block;
		block *= rest;
		length++;
	}
	out[0] = entity_first[n % first];
	n /= first;
	for (size_t i = 1; i < length; i++) {
		out[i] = entity_rest[n % rest];
		n /= rest;
	}
	out[length] = '\0';
	return length;
}

static bool reserved_entity(const char *name)
{
	return strcmp(name, "lt") == 0 || strcmp(name, "gt") == 0 || strcmp(name, "amp") == 0 ||
	       strcmp(name, "quot") == 0 || strcmp(name, "apos") == 0;
}

static int compare_uses(const void *a, const void *b)
{
	const fg_stack_entry *x = *(const fg_stack_entry *const *)a;
	const fg_stack_entry *y = *(const fg_stack_entry *const *)b;
	if (x->count[0].whole != y->count[0].whole)
		return x->count[0].whole > y->count[0].whole ? -1 : 1;
	size_t n = x->stack_length < y->stack_length ? x->stack_length : y->stack_length;
	int c = memcmp(x->stack, y->stack, n);
	return c ? c : (x->stack_length > y->stack_length) - (x->stack_length < y->stack_length);
}

/* Appends a name to an entity value: escaped, with % as a character
 * reference (a raw % would start a parameter entity). */
static int put_entity_text(fg_buffer *out, fg_buffer *scratch, const char *bytes, size_t length)
{
	scratch->length = 0;
	int failed = fg_text_clean(scratch, bytes, length);
	size_t run = 0;
	for (size_t i = 0; i < scratch->length; i++) {
		if (scratch->data[i] != '%')
			continue;
		failed |= fg_text_escape(out, scratch->data + run, i - run);
		failed |= fg_buffer_append_str(out, "&#37;");
		run = i + 1;
	}
	failed |= fg_text_escape(out, scratch->data + run, scratch->length - run);
	return failed ? FG_ENOMEM : 0;
}

static int build_dictionary(writer *w, const frame *frames, size_t count)
{
	w->dictionary = fg_stacks_new();
	if (w->dictionary == NULL)
		return FG_ENOMEM;
	for (size_t i = 0; i < count; i++) {
		if (frames[i].node == 0)
			continue;
		const char *name = frames[i].name;
		size_t length = fg_name_without_annotation(name, frames[i].name_length);
		if (length > 2 && fg_stacks_add(w->dictionary, name, length, 0, fg_count_of(1)) != 0)
			return FG_ENOMEM;
	}
	const fg_stack_entry **sorted = fg_stacks_sorted(w->dictionary);
	if (sorted == NULL)
		return FG_ENOMEM;
	size_t size = fg_stacks_size(w->dictionary);
	qsort(sorted, size, sizeof(*sorted), compare_uses);
	uint64_t next = 0;
	fg_buffer value = {0, 0, 0};
	for (size_t i = 0; i < size; i++) {
		fg_stack_entry *e = (fg_stack_entry *)sorted[i];
		uint64_t uses = e->count[0].whole;
		if (uses < 2)
			break;
		char id[16];
		size_t id_length;
		id_length = entity_name(next, id);
		while (reserved_entity(id))
			id_length = entity_name(++next, id);
		value.length = 0;
		CHECKED(w, put_entity_text(&value, &w->clean, e->stack, e->stack_length));
		/* Written out: uses * value; as an entity: the declaration
		 * <!ENTITY id "value">\n plus uses * &id; */
		size_t declaration = 13 + id_length + value.length;
		if (uses * value.length <= declaration + uses * (id_length + 2))
			continue;
		next++;
		e->count[1] = fg_count_of(next); /* entity number + 1 */
		CHECKED(w, fg_buffer_append_str(&w->dtd, "<!ENTITY "));
		CHECKED(w, fg_buffer_append_str(&w->dtd, id));
		CHECKED(w, fg_buffer_append_str(&w->dtd, " \""));
		CHECKED(w, fg_buffer_append(&w->dtd, value.data, value.length));
		CHECKED(w, fg_buffer_append_str(&w->dtd, "\">\n"));
	}
	fg_buffer_free(&value);
	free(sorted);
	return 0;
}

/* Writes &id; for a name with an entity and returns true, else false. */
static bool put_entity(writer *w, const char *name, size_t length)
{
	if (w->dictionary == NULL || length <= 2)
		return false;
	const fg_stack_entry *e = fg_stacks_find(w->dictionary, name, length);
	if (e == NULL || e->count[1].whole == 0)
		return false;
	char id[16];
	size_t id_length = entity_name(e->count[1].whole - 1, id);
	put(w, "&");
	put_bytes(w, id, id_length);
	put(w, ";");
	return true;
}

/* The view data's names: an entity reference where the frames have one. */
static bool view_data_entity(void *context, fg_buffer *out, const char *name, size_t length)
{
	writer *w = context;
	return out == &w->line && put_entity(w, name, length);
}

/* ---------------------------------------------------------------- frames */

static void put_fill(writer *w, uint32_t color)
{
	put(w, "<g fill=\"");
	if (color & COLOR_FROM_MAP) {
		put_str_text(w, w->palette_values[color & ~COLOR_FROM_MAP]);
	} else {
		static const char hex[] = "0123456789abcdef";
		char text[8] = {'#'};
		for (int i = 0; i < 6; i++)
			text[1 + i] = hex[(color >> (20 - 4 * i)) & 15];
		put_bytes(w, text, 7);
	}
	put(w, "\">\n");
}

static void put_percent(writer *w, double value)
{
	char text[48];
	int n = snprintf(text, sizeof(text), "%.2f", value);
	put_bytes(w, text, (size_t)n);
}

static void put_frame(writer *w, const frame *f)
{
	const fg_graph_options *o = w->o;
	size_t length = f->name_length;
	const char *name = f->name;
	const char *tag = "g", *title_override = NULL;
	bool opened = false;
	if (w->attributes != NULL && f->node != 0) {
		const char *rendered = fg_name_table_get(w->attributes, name, length);
		/* "TAG\tOPEN\tTITLE" (names.h) */
		const char *open = rendered ? strchr(rendered, '\t') : NULL;
		const char *title = open ? strchr(++open, '\t') : NULL;
		if (title != NULL) {
			tag = rendered[0] == 'a' ? "a" : "g";
			put_bytes(w, open, (size_t)(title - open));
			opened = true;
			if (title[1] != '\0')
				title_override = title + 1;
		}
	}
	if (!opened)
		put(w, "<g>");
	put(w, "<title>");
	size_t shown = f->node == 0 ? 0 : fg_name_without_annotation(name, length);
	fg_count width = f->node == 0 ? fg_count_of(0)
			 : w->widths != NULL ? w->widths[f->node] : fg_tree_total(w->tree, f->node);
	char number[48];
	if (title_override != NULL) {
		put(w, title_override);
	} else if (f->node == 0) {
		/* The root spans time_max (so --total shows the override). */
		uint64_t n = displayed_count(w->root_count, o->factor);
		put(w, "all (");
		put_bytes(w, number, format_thousands(number, n));
		put(w, "&s;100%)");
	} else {
		uint64_t n = displayed_count(width, o->factor);
		if (!put_entity(w, name, shown))
			put_text(w, name, shown);
		put(w, " (");
		put_bytes(w, number, format_thousands(number, n));
		put(w, "&s;");
		put_percent(w, 100.0 * (double)n / w->factor_total);
		put(w, "%");
		if (w->widths != NULL) {
			fg_count before = fg_tree_total_before(w->tree, f->node);
			fg_count after = fg_tree_total(w->tree, f->node);
			put(w, "; before ");
			put_bytes(w, number, format_thousands(number, displayed_count(before, o->factor)));
			put(w, ", after ");
			put_bytes(w, number, format_thousands(number, displayed_count(after, o->factor)));
			if (fg_count_is_zero(after))
				put(w, ", only before");
			else if (fg_count_is_zero(before))
				put(w, ", only after");
		}
		if (w->self_delta != NULL) {
			double d = o->negate ? -w->self_delta[f->node] : w->self_delta[f->node];
			double pct = 100.0 * d * o->factor / w->factor_total;
			put(w, pct > 0 ? "; +" : "; ");
			put_percent(w, pct == 0 ? 0.0 : pct);
			put(w, "%");
		}
		put(w, ")");
	}
	put(w, "</title>");

	double x1 = XPAD + f->start * w->width_per_time;
	double x2 = XPAD + (f->start + node_width(w, f->node)) * w->width_per_time;
	double y1 = o->inverted ? w->ypad1 + f->depth * o->frame_height
				: w->image_height - w->ypad2 - (f->depth + 1.0) * o->frame_height + 1;
	/* As the original: width is the difference of the rounded x values. */
	double rx1 = llrint(x1 * 10.0) / 10.0, rx2 = llrint(x2 * 10.0) / 10.0;
	put(w, "<rect x=\"");
	put_tenths(w, x1);
	put(w, "\" y=\"");
	put_tenths(w, y1);
	put(w, "\" width=\"");
	put_tenths(w, rx2 - rx1);
	put(w, "\"/>");

	double chars_f = (x2 - x1) / (o->font_size * o->font_width);
	if (f->node != 0 && chars_f >= 3) {
		size_t chars = (size_t)chars_f;
		const char *label = name;
		size_t label_length = shown;
		if (!fg_text_is_clean(name, shown)) {
			w->clean.length = 0;
			CHECKED(w, fg_text_clean(&w->clean, name, shown));
			label = w->clean.data;
			label_length = w->clean.length;
		}
		size_t total_chars = fg_text_characters(label, label_length);
		put(w, "<text x=\"");
		put_tenths(w, x1 + 3);
		put(w, "\" y=\"");
		put_tenths(w, y1 + (o->frame_height - 1) / 2.0 + 3);
		put(w, "\">");
		if (total_chars <= chars) {
			if (!put_entity(w, name, shown))
				CHECKED(w, fg_text_escape(&w->line, label, label_length));
		} else {
			size_t keep = fg_text_prefix_bytes(label, label_length, chars - 2);
			CHECKED(w, fg_text_escape(&w->line, label, keep));
			put(w, "..");
		}
		put(w, "</text>");
	}
	put(w, "</");
	put(w, tag);
	put(w, ">\n");
}

/* ---------------------------------------------------------------- header */

/* Only characters that cannot end a CSS declaration, a comment or open a
 * string (no quotes: an unclosed one would swallow the rest of the style
 * sheet), on the cleaned text so that UTF-8 names stay whole. */
static void put_css_value(writer *w, const char *s)
{
	w->clean.length = 0;
	CHECKED(w, fg_text_clean(&w->clean, s, strlen(s)));
	for (size_t i = 0; i < w->clean.length; i++) {
		unsigned char c = (unsigned char)w->clean.data[i];
		if (isalnum(c) || c == ' ' || c == ',' || c == '-' || c == '_' || c == '.' || c >= 0x80)
			put_bytes(w, w->clean.data + i, 1);
	}
}

/* A number as the shortest text that reads back the same ("12", "0.59"). */
static void put_number(writer *w, double v)
{
	char text[400];
	for (int decimals = 0; decimals <= 9; decimals++) {
		snprintf(text, sizeof(text), "%.*f", decimals, v);
		if (strtod(text, NULL) == v)
			break;
	}
	put(w, text);
}

/* The text of a DTD entity value: & < > " % must not appear raw. */
static void put_entity_value(writer *w, const char *s)
{
	CHECKED(w, put_entity_text(&w->line, &w->clean, s, strlen(s)));
}

static void put_header(writer *w, double image_height, bool empty)
{
	const fg_graph_options *o = w->o;
	double fs = o->font_size;
	put(w, "<?xml version=\"1.0\"");
	if (o->encoding != NULL) {
		put(w, " encoding=\"");
		put_css_value(w, o->encoding);
		put(w, "\"");
	}
	put(w, " standalone=\"no\"?>\n<!DOCTYPE svg [<!ENTITY s \" ");
	put_entity_value(w, o->count_name);
	put(w, ", \">\n");
	put_bytes(w, w->dtd.data, w->dtd.length);
	put(w, "]>\n<svg version=\"1.1\" width=\"");
	put_number(w, o->width);
	put(w, "\" height=\"");
	put_number(w, image_height);
	put(w, "\" viewBox=\"0 0 ");
	put_number(w, o->width);
	put(w, " ");
	put_number(w, image_height);
	put(w, "\" xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"");
	if (!empty) {
		put(w, " data-nametype=\"");
		put_str_text(w, o->name_type);
		put(w, "\" data-fontsize=\"");
		put_number(w, fs);
		put(w, "\" data-fontwidth=\"");
		put_number(w, o->font_width);
		put(w, "\" data-inverted=\"");
		put(w, o->inverted ? "1" : "0");
		put(w, "\" data-countname=\"");
		put_str_text(w, o->count_name);
		put(w, "\" data-xpad=\"");
		put_number(w, XPAD);
		put(w, "\" data-frameheight=\"");
		put_number(w, o->frame_height);
		put(w, "\"");
		if (w->self_delta != NULL)
			put(w, w->widths != NULL ? " data-diff=\"union\"" : " data-diff=\"1\"");
	}
	put(w, ">\n");
	if (o->notes != NULL) {
		/* A comment may not contain "--"; break every pair. */
		put(w, "<!-- NOTES: ");
		w->clean.length = 0;
		CHECKED(w, fg_text_clean(&w->clean, o->notes, strlen(o->notes)));
		fg_buffer notes = w->clean;
		w->clean = (fg_buffer){0, 0, 0};
		for (size_t i = 0; i < notes.length; i++) {
			put_bytes(w, notes.data + i, 1);
			if (notes.data[i] == '-' && (i + 1 == notes.length || notes.data[i + 1] == '-'))
				put(w, " ");
		}
		fg_buffer_free(&notes);
		put(w, " -->\n");
	}
	put(w, "<style>\n");
	put_bytes(w, fg_viewer_css, fg_viewer_css_length);
	put(w, "text{font-family:");
	put_css_value(w, o->font_type);
	if (strchr(o->font_type, ',') == NULL)
		put(w, ",sans-serif"); /* when the named font is missing (Verdana on Linux) */
	put(w, ";font-size:");
	put_number(w, fs);
	put(w, "px}\n#title{font-size:");
	put_number(w, fs + 5);
	put(w, "px}\n#frames rect{height:");
	put_number(w, o->frame_height - 1);
	put(w, "px}\n</style>\n");
}

static void put_text_element(writer *w, const char *id, double x, double y, const char *text,
			     const char *extra)
{
	put(w, "<text id=\"");
	put(w, id);
	put(w, "\" x=\"");
	put_tenths(w, x);
	put(w, "\" y=\"");
	put_tenths(w, y);
	put(w, "\"");
	if (extra != NULL)
		put(w, extra);
	put(w, ">");
	put_str_text(w, text);
	put(w, "</text>\n");
}

static int write_empty(writer *w)
{
	const fg_graph_options *o = w->o;
	double height = o->font_size * 5;
	put_header(w, height, true);
	put_text_element(w, "title", (int)(o->width / 2), o->font_size * 2,
			 "ERROR: No valid input provided to fg-render.", NULL);
	put(w, "</svg>\n");
	return flush_line(w);
}


static int write_graph(writer *w, const fg_warner *warner, fg_error *err)
{
	const fg_graph_options *o = w->o;
	int rc;
	w->width_per_time = (o->width - 2.0 * XPAD) / w->time_max;
	double threshold = o->min_width_percent ? w->time_max * o->min_width / 100
						: o->min_width / w->width_per_time;
	frame *frames;
	size_t count;
	if ((rc = layout(w, threshold, &frames, &count)) != 0)
		return fg_fail(err, rc, "out of memory");
	double fs = o->font_size;
	w->ypad1 = fs * 3;
	w->ypad2 = fs * 2 + 10;
	w->ypad3 = o->subtitle != NULL ? fs * 2 : 0;
	w->image_height = (w->depth_max + 1.0) * o->frame_height + w->ypad1 + w->ypad2 + w->ypad3;
	w->factor_total = w->time_max * o->factor;
	for (size_t i = 0; i < count; i++)
		if ((rc = color_of(w, &frames[i], &frames[i].color)) != 0) {
			free(frames);
			return fg_fail(err, rc, "out of memory");
		}
	if (count > 0) /* every frame can be narrower than --minwidth */
		qsort(frames, count, sizeof(*frames), compare_frames);
	if ((rc = build_dictionary(w, frames, count)) != 0) {
		free(frames);
		return fg_fail(err, rc, "out of memory");
	}

	double W = o->width, H = w->image_height;
	put_header(w, H, false);
	const char *top, *bottom;
	char custom[8];
	const char *bg = o->bg_colors ? o->bg_colors : fg_palette_background(w->palette);
	if (!fg_background_stops(bg, &top, &bottom, custom))
		fg_background_stops("yellow", &top, &bottom, custom);
	put(w, "<defs><linearGradient id=\"bg\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\"><stop stop-color=\"");
	put(w, top);
	put(w, "\" offset=\"5%\"/><stop stop-color=\"");
	put(w, bottom);
	put(w, "\" offset=\"95%\"/></linearGradient></defs>\n"
	       "<rect id=\"background\" width=\"100%\" height=\"100%\" fill=\"url(#bg)\"/>\n");
	const char *title = o->title;
	if (title == NULL)
		title = o->flamechart ? "Flame Chart" : o->inverted ? "Icicle Graph" : "Flame Graph";
	put_text_element(w, "title", (int)(W / 2), fs * 2, title, NULL);
	if (o->subtitle != NULL)
		put_text_element(w, "subtitle", (int)(W / 2), fs * 4, o->subtitle, NULL);
	put_text_element(w, "details", XPAD, H - w->ypad2 / 2, " ", NULL);
	put_text_element(w, "unzoom", XPAD, fs * 2, "Reset Zoom", " class=\"hide\"");
	put_text_element(w, "search", W - XPAD - 100, fs * 2, "Search", NULL);
	put_text_element(w, "ignorecase", W - XPAD - 16, fs * 2, "ic", NULL);
	put_text_element(w, "matched", W - XPAD - 100, H - w->ypad2 / 2, " ", NULL);
	put(w, "<g id=\"frames\">\n");
	rc = flush_line(w);
	for (size_t i = 0; i < count && rc == 0; i++) {
		if (i == 0 || frames[i].color != frames[i - 1].color) {
			if (i > 0)
				put(w, "</g>\n");
			put_fill(w, frames[i].color);
		}
		put_frame(w, &frames[i]);
		if (w->line.length > 65536)
			rc = flush_line(w);
	}
	free(frames);
	if (count > 0)
		put(w, "</g>\n");
	put(w, "</g>\n");
	if (o->view_nodes > 0 && w->self_delta == NULL && !o->flamechart) {
		put(w, "<metadata id=\"fg-data\">");
		/* Names of frames 0.1 px wide or more (their order on screen is
		 * certain) come from the frames, unless --nameattr retitles them. */
		double named = w->attributes != NULL ? NAN : fmax(threshold, 0.1 / w->width_per_time);
		if (fg_view_data_write(&w->line, w->tree, (size_t)o->view_nodes, w->root_count,
				       threshold, named, o->factor, view_data_entity, w) != 0)
			return fg_fail(err, FG_ENOMEM, "out of memory");
		put(w, "</metadata>\n");
	}
	put(w, "<script><![CDATA[\n");
	put_bytes(w, fg_viewer_js, fg_viewer_js_length);
	put(w, "]]></script>\n</svg>\n");
	if (rc == 0)
		rc = flush_line(w);
	if (rc != 0)
		return fg_output_check(w->out, err) != 0 ? err->code : fg_fail(err, rc, "out of memory");
	return 0;
}

int fg_graph_write_svg(fg_graph *g, fg_output *out, const fg_warner *warner, fg_error *err)
{
	const fg_graph_options *o = &g->options;
	if (g->written)
		return fg_fail(err, FG_EINVAL, "fg_graph_write_svg called twice");
	g->written = true;
	int collected = fg_graph_collect(g, err);
	if (collected != 0)
		return collected;
	if (fg_tree_finish(g->tree) != 0)
		return fg_fail(err, FG_ENOMEM, "out of memory");
	writer w = {.o = o, .tree = g->tree, .out = out};
	w.palette = fg_palette_by_name(o->colors);
	w.mode = o->hash ? FG_COLOR_HASH : o->random ? FG_COLOR_RANDOM : FG_COLOR_NAME_SEEDED;
	w.random_state = ((uint64_t)time(NULL) << 16 ^ (uint64_t)getpid() ^ (uint64_t)(uintptr_t)g) &
			 0xffffffffffffull;
	int rc;
	if (fg_tree_is_differential(g->tree) && (rc = compute_deltas(&w)) != 0) {
		free(w.self_delta);
		free(w.widths);
		return fg_fail(err, rc, rc == FG_ERANGE ? "the sum of counts exceeds 2^64-1"
							: "out of memory");
	}
	fg_count total = w.widths != NULL ? w.widths[0] : fg_tree_total(g->tree, 0);
	w.total = fg_count_to_double(total);
	char message[512], number[FG_COUNT_TEXT_MAX];

	if (w.total < 100 && strcmp(o->count_name, "samples") == 0) {
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
			if (previous == NULL || strcmp(previous, file) != 0)
				n += snprintf(message + n, sizeof(message) - (size_t)n, "%s%.60s line ",
					      i ? ", " : "", file);
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
	if (fg_count_is_zero(total)) {
		fg_warn(warner, NULL, 0, "ERROR: No stack counts found");
		rc = write_empty(&w);
		free(w.self_delta);
		free(w.widths);
		fg_buffer_free(&w.line);
		fg_buffer_free(&w.clean);
		if (rc != 0)
			return fg_output_check(out, err) != 0 ? err->code
							      : fg_fail(err, rc, "out of memory");
		return fg_fail(err, FG_EEMPTY, "no valid input");
	}
	w.time_max = w.total;
	w.root_count = total;
	if (!fg_count_is_zero(o->total)) {
		double t = fg_count_to_double(o->total);
		if (fg_count_compare(o->total, total) >= 0) {
			w.time_max = t;
			w.root_count = o->total;
		} else if (t / w.total > 0.02) {
			fg_count_format(o->total, number);
			char actual[FG_COUNT_TEXT_MAX];
			fg_count_format(total, actual);
			snprintf(message, sizeof(message),
				 "Specified --total %s is less than actual total %s, so ignored", number,
				 actual);
			fg_warn(warner, NULL, 0, message);
		}
	}
	if (o->consistent_palette) {
		w.palette_map = fg_name_table_new();
		if (w.palette_map == NULL)
			return fg_fail(err, FG_ENOMEM, "out of memory");
		if ((rc = fg_palette_map_read(w.palette_map, o->palette_map_path, err)) != 0)
			goto done;
	}
	if (o->name_attr_path != NULL) {
		w.attributes = fg_name_table_new();
		if (w.attributes == NULL) {
			rc = fg_fail(err, FG_ENOMEM, "out of memory");
			goto done;
		}
		if ((rc = fg_name_attributes_read(w.attributes, o->name_attr_path, warner, err)) != 0)
			goto done;
	}
	rc = write_graph(&w, warner, err);
	if (rc == 0 && w.palette_map != NULL)
		rc = fg_palette_map_write(w.palette_map, o->palette_map_path, err);
done:
	fg_name_table_free(w.palette_map);
	fg_name_table_free(w.attributes);
	free(w.palette_values);
	free(w.self_delta);
	free(w.widths);
	fg_stacks_free(w.dictionary);
	fg_buffer_free(&w.dtd);
	fg_buffer_free(&w.line);
	fg_buffer_free(&w.clean);
	return rc;
}
