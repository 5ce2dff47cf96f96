/*
 * svg.c - the SVG writer: a finished, measured graph (fg_drawing, svg.h)
 * laid out and written as markup, with the viewer embedded.
 *
 * Geometry is flamegraph.pl's, to 0.1 px (docs/svg-contract.md); the markup is
 * ours and compact (docs/svg-contract.md): shared attributes live in CSS,
 * frames of one colour share a <g fill>, the " samples, " of every tooltip
 * is an XML entity, numbers are written with the fewest digits, and empty
 * labels are left out. Everything taken from the input is cleaned to valid
 * UTF-8 and escaped, so the output is well-formed whatever bytes came in.
 * What it does not decide: colours (color.c), which names become entities
 * (entities.c), the totals and differential changes (finish.c), and which
 * files are read or written (render.c); it writes only to its output.
 *
 * One pass over the tree, iterative: the frames wide enough to draw are
 * found breadth first with their depths (the deepest sets the image
 * height), then put in the order of a walk with a stack, in place
 * (layout); they are then written grouped by colour.
 */
#include <ctype.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "entities.h"
#include "strsort.h"
#include "svg.h"
#include "text.h"
#include "tree.h"
#include "viewdata.h"

extern const char fg_viewer_css[], fg_viewer_js[];
extern const unsigned long fg_viewer_css_length, fg_viewer_js_length;

#define XPAD 10

typedef struct frame {
	fg_node_id node;
	uint32_t depth;
	uint32_t color;   /* 0xRRGGBB, or FG_COLOR_FROM_MAP | a palette.map value's index */
	uint32_t entry;   /* its shown name's in the entity dictionary (entities.h) */
	uint32_t name_id; /* its name's in the tree's table (fg_node_name_id) */
	double start;     /* in counts */
	const char *name; /* the node's name, looked up once (frames are written */
	size_t name_length; /* grouped by colour, far from the tree's order) */
} frame;

typedef struct writer {
	const fg_graph_options *o;
	const fg_drawing *d;   /* what is drawn (NULL for the empty SVG) */
	const fg_tree *tree;
	fg_output *out;
	fg_buffer line;        /* the frame being written */
	fg_buffer clean;       /* a cleaned name */
	double time_max, width_per_time, image_height;
	double factor_total;   /* time_max * factor, the % denominator */
	double ypad1, ypad2, ypad3;
	int depth_max;
	const double *self_delta; /* the drawing's: differential, per node */
	const fg_count *widths;   /* the drawing's: --diff-union, per node */
	fg_frame_colors *colors;
	const fg_name_table *attributes;
	fg_entities *entities; /* shown names that have an XML entity */
	fg_buffer dtd;         /* their declarations */
	bool nomem;           /* an append failed: the SVG is incomplete */
} writer;

/*
 * The frames are written in chunks of FRAME_CHUNK, taken in order by this
 * thread and, once its own work is done, the view data's. This one writes
 * its chunk straight out when it is the next to go, else into a buffer
 * aside, as the helper always does; it writes the buffers out in turn. No
 * more than WINDOW chunks are taken past the next one to go, so that the
 * buffers stay few. The markup is the same whoever writes a chunk: a frame
 * depends on no other but the one before it (whose colour group it may
 * close).
 */
#define FRAME_CHUNK 1024
#define WINDOW 4

typedef struct frame_work {
	writer *w;            /* this thread's */
	writer aside;         /* a copy for chunks written aside, but for its buffers */
	const frame *frames;
	size_t count, chunks;
	/* Under the view job's lock: */
	size_t next;          /* the next chunk to take */
	size_t gone;          /* chunks written out, in order */
	size_t helping;       /* chunks the helper is writing */
	bool failed;          /* a chunk written aside ran out of memory */
	fg_buffer *written;   /* chunks written aside, by index; NULL: no helper */
	bool *done;           /* whether each one is */
} frame_work;

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
	int digit = (int)(tenths % 10);
	p += fg_format_decimal(p, (unsigned long long)(tenths / 10));
	if (digit) {
		*p++ = '.';
		*p++ = (char)('0' + digit);
	}
	*p = '\0';
	return (size_t)(p - start);
}

/*
 * The displayed count: width * factor rounded half to even, as Perl's
 * sprintf("%.0f"), with thousands separators ("1,234,567") into p (room
 * for DISPLAYED bytes); returns its length, and *value the count (for the
 * percentage). Exact for plain counts (no --factor), up to 2^64 itself
 * (2^64 - 1 and a half rounds up); with --factor, the decimal digits of
 * the double, as Perl prints it (2e19 whole, not cut at 2^64 - 1).
 */
#define DISPLAYED 48
static size_t format_displayed(char *p, fg_count c, double factor, double *value)
{
	char digits[DISPLAYED];
	size_t n;
	if (factor == 1.0) {
		const uint64_t half = FG_COUNT_FRAC_ONE / 2;
		uint64_t whole = c.whole;
		bool up = c.frac > half || (c.frac == half && (whole & 1));
		if (up && whole == UINT64_MAX) {
			*value = 18446744073709551616.0;
			memcpy(digits, "18446744073709551616", 21);
			n = 20;
		} else {
			*value = (double)(whole + up);
			n = fg_format_decimal(digits, whole + up);
		}
	} else {
		/* (At most 2^64 * 1e9, --factor's top: 29 digits.) */
		double v = nearbyint(fg_count_to_double(c) * factor);
		*value = v;
		int printed = snprintf(digits, sizeof(digits), "%.0f", v > 0 ? v : 0.0);
		n = printed > 0 && (size_t)printed < sizeof(digits) ? (size_t)printed : 0;
	}
	char *start = p;
	for (size_t i = 0; i < n; i++) {
		*p++ = digits[i];
		if (n - 1 - i > 0 && (n - 1 - i) % 3 == 0)
			*p++ = ',';
	}
	*p = '\0';
	return (size_t)(p - start);
}

/* Appends that fail (out of memory) make the writer fail at the next
 * flush, rather than write a graph with a hole in it: every append goes
 * through CHECKED, and flush_line is the only way out to the output. */
#define CHECKED(w, call) do { if ((call) != 0) (w)->nomem = true; } while (0)
static void put(writer *w, const char *s) { CHECKED(w, fg_buffer_append_str(&w->line, s)); }
static void put_bytes(writer *w, const char *s, size_t n) { CHECKED(w, fg_buffer_append(&w->line, s, n)); }

static void put_tenths(writer *w, double v)
{
	char number[32];
	put_bytes(w, number, format_tenths(number, v));
}

/* Untrusted text (names, options) cleaned and escaped; in an attribute
 * value a tab too, as &#9; (a parser reads a raw one as a space). */
static void put_cleaned(writer *w, const char *bytes, size_t length, bool attribute)
{
	int (*escape)(fg_buffer *, const char *, size_t) =
		attribute ? fg_text_escape_attribute : fg_text_escape;
	if (fg_text_is_clean(bytes, length)) {
		CHECKED(w, escape(&w->line, bytes, length));
		return;
	}
	w->clean.length = 0;
	CHECKED(w, fg_text_clean(&w->clean, bytes, length));
	CHECKED(w, escape(&w->line, w->clean.data, w->clean.length));
}

static void put_text(writer *w, const char *bytes, size_t length)
{
	put_cleaned(w, bytes, length, false);
}

static void put_str_text(writer *w, const char *s) { put_text(w, s, strlen(s)); }

static void put_attribute_text(writer *w, const char *s) { put_cleaned(w, s, strlen(s), true); }

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
	return w->widths != NULL ? w->widths[n] : fg_node_total(w->tree, n);
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
	for (fg_node_id c = fg_node_first_child(w->tree, n); c != FG_NODE_NONE;
	     c = fg_node_next_sibling(w->tree, c))
		fg_count_add_inline(&children, node_count(w, c));
	return fg_count_to_double(fg_count_sub_floor(node_count(w, n), children));
}

/*
 * The layout finds the frames at least `threshold` wide breadth first, so
 * that the lists of many frames' children are loaded side by side
 * (fg_tree_warm_queue), not one after another down each path as a walk
 * with a stack must: the drawn part of a profile is mostly chains (in
 * bench/'s wide shape, 58k frames have 118k children). It then puts them
 * in the order such a walk gives (order_frames), in place. Until then, a
 * frame's drawn children follow each other, and two fields it does not
 * use yet say where: `color` how many, `entry` the first one's place.
 */
#define CHILDREN color
#define FIRST entry

/* The frames under the root breadth first into *frames (*count of them),
 * each with its node, depth, start and name id. 0 or FG_ENOMEM. */
static int place(writer *w, double threshold, frame **frames, size_t *count)
{
	frame *q = NULL;
	size_t used = 0, capacity = 0, warmed = 0;
	if (fg_grow((void **)&q, &capacity, 1, sizeof(*q)) != 0)
		return FG_ENOMEM;
	q[used++] = (frame){.node = 0};
	for (size_t i = 0; i < used; i++) {
		if (i == warmed)
			warmed = fg_tree_warm_queue(w->tree, q, used, sizeof(*q), offsetof(frame, node), i);
		frame p = q[i];
		double start = w->o->flamechart ? p.start : p.start + own_width(w, p.node);
		/* A flame chart's children start where the input put them; with
		 * --diff-union the boxes are wider than those times (AFTER), so
		 * each keeps the gap of own samples before it, in AFTER time,
		 * after its elder siblings' union widths (the own samples'
		 * excess is left at the right), never overlapping them. */
		bool chart_union = w->o->flamechart && w->widths != NULL;
		double after_end = chart_union && p.node != 0
					   ? fg_count_to_double(fg_tree_start(w->tree, p.node)) : 0;
		size_t first = used;
		for (fg_node_id c = fg_node_first_child(w->tree, p.node); c != FG_NODE_NONE;
		     c = fg_node_next_sibling(w->tree, c)) {
			double width = node_width(w, c);
			double at = start;
			if (chart_union) {
				double began = fg_count_to_double(fg_tree_start(w->tree, c));
				if (began > after_end)
					start += began - after_end;
				at = start;
				after_end = began + fg_count_to_double(fg_node_total(w->tree, c));
			} else if (w->o->flamechart) {
				at = fg_count_to_double(fg_tree_start(w->tree, c));
			}
			if (!(width < threshold)) {
				if (fg_grow((void **)&q, &capacity, used + 1, sizeof(*q)) != 0) {
					free(q);
					return FG_ENOMEM;
				}
				q[used++] = (frame){.node = c, .depth = p.depth + 1, .start = at};
				fg_node_prefetch_name_id(w->tree, c); /* (read when its turn comes) */
			}
			start += width;
		}
		/* (Fewer frames than nodes, fewer nodes than FG_NODE_NONE.) */
		q[i].FIRST = (uint32_t)first;
		q[i].CHILDREN = (uint32_t)(used - first);
		q[i].name_id = fg_node_name_id(w->tree, p.node);
	}
	*frames = q;
	*count = used;
	return 0;
}

/*
 * Frames found breadth first (place) put, in place, in the order of a
 * walk with a stack: a frame, then its children's subtrees from the last
 * child to the first (the order in which the SVG lists them within a
 * colour). `name_length`, not set yet, holds each one's subtree size,
 * then its place; swaps then move each to its place, one for good at
 * every swap.
 */
static void order_frames(frame *f, size_t count)
{
	for (size_t i = count; i-- > 0;) {
		size_t size = 1;
		for (uint32_t k = 0; k < f[i].CHILDREN; k++)
			size += f[f[i].FIRST + k].name_length;
		f[i].name_length = size;
	}
	f[0].name_length = 0;
	for (size_t i = 0; i < count; i++) {
		size_t at = f[i].name_length + 1;
		for (uint32_t k = f[i].CHILDREN; k-- > 0;) {
			frame *child = &f[f[i].FIRST + k];
			size_t size = child->name_length;
			child->name_length = at;
			at += size;
		}
	}
	for (size_t i = 0; i < count; i++)
		while (f[i].name_length != i) {
			frame swap = f[f[i].name_length];
			f[f[i].name_length] = f[i];
			f[i] = swap;
		}
}

#undef CHILDREN
#undef FIRST

/* Names are looked up this many frames after their entries were
 * prefetched. */
#define NAME_AHEAD 16

/* The frames at least `threshold` wide, parents before children, each
 * with its depth, start and name (order_frames gives the order). */
static int layout(writer *w, double threshold, frame **frames, size_t *count)
{
	*frames = NULL;
	*count = 0;
	w->depth_max = 0;
	/* The root is drawn across time_max (a larger --total included) but,
	 * as in flamegraph.pl, kept only when its own samples are at least
	 * the threshold wide: a profile too small to show at that scale
	 * draws no frame at all, not a lone "all" bar. */
	if (fg_count_to_double(node_count(w, 0)) < threshold)
		return 0;
	frame *list;
	size_t listed;
	if (place(w, threshold, &list, &listed) != 0)
		return FG_ENOMEM;
	order_frames(list, listed);
	uint32_t depth_max = 0;
	for (size_t i = 0; i < listed; i++) {
		frame *f = &list[i];
		if (i + NAME_AHEAD < listed)
			fg_tree_prefetch_name(w->tree, list[i + NAME_AHEAD].name_id);
		if (f->depth > depth_max)
			depth_max = f->depth;
		f->color = f->entry = 0;
		f->name = fg_tree_name_bytes(w->tree, f->name_id, &f->name_length);
	}
	w->depth_max = (int)depth_max;
	*frames = list;
	*count = listed;
	return 0;
}

/* A frame's colour, by the colour policy (color.c). */
static int frame_color(writer *w, frame *f)
{
	fg_node_id n = f->node;
	fg_frame_change change, *changed = NULL;
	if (w->self_delta != NULL) {
		change.delta = w->o->negate ? -w->self_delta[n] : w->self_delta[n];
		change.max_delta = w->d->max_delta;
		change.only = 0;
		if (w->widths != NULL && n != 0) {
			bool before = !fg_count_is_zero(fg_tree_total_before(w->tree, n));
			bool after = !fg_count_is_zero(fg_tree_total(w->tree, n));
			if (before != after)
				change.only = before ? -1 : 1;
		}
		changed = &change;
	}
	return fg_frame_color(w->colors, f->name, f->name_length, n == 0, changed, &f->color);
}

/* A name's colour and entity entry (+ 1; 0: the name not met yet). */
typedef struct name_facts {
	uint32_t color, entry;
} name_facts;

/* Names few enough for a table of name_facts by name id (8 MB at most). */
#define FACTS_MOST (1u << 20)

/*
 * The frames' colours, and their shown names' uses in the entity
 * dictionary (entities.c). Frames of one name are many (58k frames of 31k
 * names in bench/'s wide shape): where the name ids are few enough, each
 * name's entry is found once, by its id, and its colour too where it
 * depends on the name alone (not --random, not a differential graph).
 * Colours are worked out in the frames' order (--random, --cp). 0 or
 * FG_ENOMEM.
 */
static int colors_and_uses(writer *w, frame *frames, size_t count)
{
	if ((w->entities = fg_entities_new()) == NULL)
		return FG_ENOMEM;
	size_t names = fg_tree_name_count(w->tree);
	name_facts *facts = names <= FACTS_MOST ? calloc(names + 1, sizeof(*facts)) : NULL;
	bool by_name = !w->o->random && w->self_delta == NULL;
	int rc = 0;
	for (size_t i = 0; i < count && rc == 0; i++) {
		frame *f = &frames[i];
		name_facts *known = facts != NULL && f->node != 0 ? &facts[f->name_id] : NULL;
		if (known != NULL && known->entry != 0) {
			if (by_name)
				f->color = known->color;
			else
				rc = frame_color(w, f);
			f->entry = known->entry - 1;
			fg_entities_use_entry(w->entities, f->entry);
			continue;
		}
		if ((rc = frame_color(w, f)) != 0 || f->node == 0)
			continue;
		size_t length = fg_name_without_annotation(f->name, f->name_length);
		if ((rc = fg_entities_use(w->entities, f->name, length, &f->entry)) == 0 && known != NULL)
			*known = (name_facts){f->color, f->entry + 1};
	}
	free(facts);
	return rc;
}

/*
 * Frames grouped by colour (each group one <g fill>), in layout order
 * within a group (a stable sort on the colour, strsort.c). Returns 0 or
 * FG_ENOMEM (frames as they were).
 */
static int by_color(frame *frames, size_t count)
{
	uint32_t *colors = malloc((count ? count : 1) * sizeof(*colors));
	if (colors == NULL)
		return FG_ENOMEM;
	for (size_t i = 0; i < count; i++)
		colors[i] = frames[i].color;
	int rc = fg_sort_records_by_key(frames, count, sizeof(*frames), colors);
	free(colors);
	return rc;
}

/* Writes &id; for a frame whose name has an entity and returns true, else
 * false. */
static bool put_entity(writer *w, const frame *f)
{
	return fg_entities_ref_entry(w->entities, &w->line, f->entry, &w->nomem);
}

/*
 * The view data (viewdata.c). With more than one thread
 * (fg_graph_options.threads), a second one chooses its nodes and names
 * and writes its tree line into a buffer of its own while this one lays
 * out the frames; then, once this one has chosen the entities (which the
 * names use), the first line and the names, while this one writes the
 * frames; then it helps with the frames (frame_work). Both threads only
 * read the tree and the entities, and the output is the same either way.
 */
typedef struct view_job {
	const fg_tree *tree;
	size_t budget;
	double threshold, named, factor;
	fg_count total;
	fg_view_data *prepared;
	fg_buffer head, tree_line; /* the first line and the names; the tree */
	int rc;
	bool threaded;
	pthread_t thread;
	/* Set (under lock, then signalled) when the entities are chosen, or
	 * when the writer gave up before: the names are written then. */
	pthread_mutex_t lock;
	pthread_cond_t changed;
	bool decided;
	const fg_entities *entities; /* NULL: the writer gave up */
	bool nomem;                  /* an entity reference could not be added */
	struct frame_work *frames;   /* the frames' chunks to help write, once
					decided (NULL: none) */
	pthread_cond_t helped;       /* a chunk of frames written */
} view_job;

static void help_write_frames(view_job *job);

/* The view data's names: an entity reference where the frames have one. */
static bool view_data_entity(void *context, fg_buffer *out, const char *name, size_t length)
{
	view_job *job = context;
	return fg_entities_ref(job->entities, out, name, length, &job->nomem);
}

/* The first line and the names, into job->head (entities chosen). */
static void put_view_names(view_job *job)
{
	job->rc = fg_view_data_put_names(&job->head, job->prepared, job->total, job->threshold,
					 job->factor, view_data_entity, job);
	if (job->rc == 0 && job->nomem)
		job->rc = FG_ENOMEM;
}

static void *prepare_view_data(void *argument)
{
	view_job *job = argument;
	job->rc = fg_view_data_prepare(&job->prepared, job->tree, job->budget, job->threshold,
				       job->named);
	if (job->rc == 0)
		job->rc = fg_view_data_put_tree(&job->tree_line, job->prepared);
	if (!job->threaded)
		return NULL;
	pthread_mutex_lock(&job->lock);
	while (!job->decided)
		pthread_cond_wait(&job->changed, &job->lock);
	pthread_mutex_unlock(&job->lock);
	if (job->rc == 0 && job->entities != NULL)
		put_view_names(job);
	help_write_frames(job);
	return NULL;
}

/* Starts the view data's thread (job->threaded), if it can: else the
 * view data is made on this one, after the frames. */
static void start_view_thread(view_job *job)
{
	if (pthread_mutex_init(&job->lock, NULL) != 0)
		return;
	if (pthread_cond_init(&job->changed, NULL) == 0) {
		if (pthread_cond_init(&job->helped, NULL) == 0) {
			job->threaded = true; /* (before the thread reads it) */
			if (pthread_create(&job->thread, NULL, prepare_view_data, job) == 0)
				return;
			job->threaded = false;
			pthread_cond_destroy(&job->helped);
		}
		pthread_cond_destroy(&job->changed);
	}
	pthread_mutex_destroy(&job->lock);
}

/* Tells the view data's thread that the entities are chosen (entities),
 * with the frames it may help write, or that the writer gave up (NULL),
 * once. */
static void entities_decided(view_job *job, const fg_entities *entities,
			     struct frame_work *frames)
{
	if (!job->threaded)
		return;
	pthread_mutex_lock(&job->lock);
	if (!job->decided) { /* (the first word stands) */
		job->decided = true;
		job->entities = entities;
		job->frames = entities != NULL ? frames : NULL;
		pthread_cond_signal(&job->changed);
	}
	pthread_mutex_unlock(&job->lock);
}

/* Writes the view data (after joining the job's thread) into w's output,
 * unless `write` is false (only the job's memory is freed then); 0 or an
 * error of fg_output_write's or FG_ENOMEM. */
static int put_view_data(writer *w, view_job *job, bool write)
{
	if (job->threaded) {
		entities_decided(job, write ? w->entities : NULL, NULL); /* (if not yet) */
		pthread_join(job->thread, NULL);
		pthread_cond_destroy(&job->helped);
		pthread_cond_destroy(&job->changed);
		pthread_mutex_destroy(&job->lock);
	} else if (write) {
		prepare_view_data(job);
		job->entities = w->entities;
		if (job->rc == 0)
			put_view_names(job);
	}
	fg_buffer head = job->head;
	job->head = (fg_buffer){0, 0, 0};
	if (!write) {
		fg_buffer_free(&head);
		fg_buffer_free(&job->tree_line);
		fg_view_data_free(job->prepared);
		return 0;
	}
	int rc = job->rc;
	if (rc == 0) {
		put(w, "<metadata id=\"fg-data\">");
		rc = flush_line(w);
	}
	if (rc == 0)
		rc = fg_output_write(w->out, head.data, head.length);
	if (rc == 0)
		rc = fg_output_write(w->out, job->tree_line.data, job->tree_line.length);
	put(w, "</metadata>\n");
	fg_buffer_free(&head);
	fg_buffer_free(&job->tree_line);
	fg_view_data_free(job->prepared);
	return rc;
}


/* ---------------------------------------------------------------- frames */

static void put_fill(writer *w, uint32_t color)
{
	char hex[8];
	put(w, "<g fill=\"");
	if (color & FG_COLOR_FROM_MAP)
		put_attribute_text(w, fg_frame_color_text(w->colors, color, hex));
	else
		put(w, fg_frame_color_text(w->colors, color, hex));
	put(w, "\">\n");
}

static void put_percent(writer *w, double value)
{
	char text[FG_FIXED2_MAX];
	put_bytes(w, text, fg_format_fixed2(text, value));
}

/* The differential part of node id's title: "; before B, after A" (and
 * ", only before"/", only after") with --diff-union, then "; +D%", the
 * change of its own samples, in any differential graph. */
static void put_diff_info(writer *w, fg_node_id id)
{
	const fg_graph_options *o = w->o;
	char number[DISPLAYED];
	double value;
	if (w->widths != NULL) {
		fg_count before = fg_tree_total_before(w->tree, id);
		fg_count after = fg_tree_total(w->tree, id);
		put(w, "; before ");
		put_bytes(w, number, format_displayed(number, before, o->factor, &value));
		put(w, ", after ");
		put_bytes(w, number, format_displayed(number, after, o->factor, &value));
		if (fg_count_is_zero(after))
			put(w, ", only before");
		else if (fg_count_is_zero(before))
			put(w, ", only after");
	}
	if (w->self_delta != NULL) {
		double d = o->negate ? -w->self_delta[id] : w->self_delta[id];
		double pct = 100.0 * d * o->factor / w->factor_total;
		put(w, pct > 0 ? "; +" : "; ");
		put_percent(w, pct == 0 ? 0.0 : pct);
		put(w, "%");
	}
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
	char number[DISPLAYED];
	double n;
	if (title_override != NULL) {
		put(w, title_override);
	} else if (f->node == 0) {
		/* The root spans time_max (so --total shows the override). */
		put(w, "all (");
		put_bytes(w, number, format_displayed(number, w->d->root_count, o->factor, &n));
		put(w, "&s;100%");
		/* --diff-union: the root says before and after as every frame
		 * does; a plain differential root stays flamegraph.pl's. */
		if (w->widths != NULL)
			put_diff_info(w, 0);
		put(w, ")");
	} else {
		if (!put_entity(w, f))
			put_text(w, name, shown);
		put(w, " (");
		put_bytes(w, number, format_displayed(number, width, o->factor, &n));
		put(w, "&s;");
		put_percent(w, 100.0 * n / w->factor_total);
		put(w, "%");
		put_diff_info(w, f->node);
		put(w, ")");
	}
	put(w, "</title>");

	double x1 = XPAD + f->start * w->width_per_time;
	double x2 = XPAD + (f->start + node_width(w, f->node)) * w->width_per_time;
	/* (Inverted, the frames start below a subtitle: flamegraph.pl draws
	 * them over it.) */
	double y1 = o->inverted ? w->ypad1 + w->ypad3 + f->depth * o->frame_height
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
			if (!put_entity(w, f))
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

/*
 * Frames are written grouped by colour, far from the tree's order: each
 * one's count (and name) is a cache miss unless loaded a few frames ahead,
 * while the frames before it are formatted.
 */
#define WRITE_AHEAD 8
static void prefetch_frame(const writer *w, const frame *f)
{
	if (w->widths != NULL)
		__builtin_prefetch(&w->widths[f->node]);
	else
		fg_node_prefetch_total(w->tree, f->node);
	__builtin_prefetch(f->name);
}

/* Frames [from, to) into w->line, flushed to the output when `flush`
 * (else w->line grows). 0 or an error of flush_line's. */
static int put_frames(writer *w, const frame *frames, size_t count, size_t from, size_t to,
		      bool flush)
{
	int rc = 0;
	for (size_t i = from; i < to && rc == 0; i++) {
		if (i + WRITE_AHEAD < count)
			prefetch_frame(w, &frames[i + WRITE_AHEAD]);
		if (i == 0 || frames[i].color != frames[i - 1].color) {
			if (i > 0)
				put(w, "</g>\n");
			put_fill(w, frames[i].color);
		}
		put_frame(w, &frames[i]);
		if (flush && w->line.length > 65536)
			rc = flush_line(w);
	}
	return rc;
}

/* Chunk i of the frames into w->line (put_frames). */
static int put_chunk(writer *w, const frame_work *work, size_t i, bool flush)
{
	size_t from = i * FRAME_CHUNK;
	size_t to = work->count - from > FRAME_CHUNK ? from + FRAME_CHUNK : work->count;
	return put_frames(w, work->frames, work->count, from, to, flush);
}

/* Chunk i of the frames into written[i], with a writer of its own (under
 * the lock when called, and after). */
static void write_aside(view_job *job, frame_work *work, size_t i)
{
	pthread_mutex_unlock(&job->lock);
	writer aside = work->aside;
	put_chunk(&aside, work, i, false);
	fg_buffer_free(&aside.clean);
	pthread_mutex_lock(&job->lock);
	work->written[i] = aside.line;
	work->done[i] = true;
	work->failed |= aside.nomem;
	pthread_cond_broadcast(&job->helped);
}

/* Whether a chunk may be taken now. */
static bool may_take(const frame_work *work)
{
	return work->next < work->chunks && work->next - work->gone < WINDOW && !work->failed;
}

/* The view data's thread: chunks of frames, while some are left (waiting
 * while the window is full). */
static void help_write_frames(view_job *job)
{
	pthread_mutex_lock(&job->lock);
	frame_work *work = job->frames;
	while (work != NULL && work->next < work->chunks && !work->failed) {
		if (!may_take(work)) {
			pthread_cond_wait(&job->helped, &job->lock);
			continue;
		}
		size_t i = work->next++;
		work->helping++;
		write_aside(job, work, i);
		work->helping--;
		pthread_cond_broadcast(&job->helped);
	}
	pthread_mutex_unlock(&job->lock);
}

/* Writes the frames out, with the view data's thread's help if it has
 * one (job, and work->written; NULL: none), unless rc (an earlier error,
 * returned) says not to; then the helper is done with them. 0 or an
 * error of fg_output_write's or FG_ENOMEM. */
static int write_frames(frame_work *work, view_job *job, int rc)
{
	writer *w = work->w;
	if (work->written == NULL) { /* (no helper) */
		if (rc == 0)
			rc = put_frames(w, work->frames, work->count, 0, work->count, true);
		return rc;
	}
	pthread_mutex_lock(&job->lock);
	while (rc == 0 && work->gone < work->chunks) {
		size_t i = work->gone;
		if (work->done[i]) { /* (written aside: out, in turn) */
			fg_buffer chunk = work->written[i];
			work->written[i] = (fg_buffer){0, 0, 0};
			work->gone++;
			pthread_cond_broadcast(&job->helped);
			pthread_mutex_unlock(&job->lock);
			rc = flush_line(w);
			if (rc == 0)
				rc = fg_output_write(w->out, chunk.data, chunk.length);
			fg_buffer_free(&chunk);
			pthread_mutex_lock(&job->lock);
		} else if (work->next == i) { /* (the next to go: straight out) */
			work->next++;
			pthread_mutex_unlock(&job->lock);
			rc = put_chunk(w, work, i, true);
			pthread_mutex_lock(&job->lock);
			work->gone++;
			pthread_cond_broadcast(&job->helped);
		} else if (may_take(work)) { /* (the helper writes the next to go) */
			write_aside(job, work, work->next++);
		} else {
			pthread_cond_wait(&job->helped, &job->lock);
		}
		if (work->failed && rc == 0)
			rc = FG_ENOMEM;
	}
	work->next = work->chunks; /* (the helper takes no more) */
	pthread_cond_broadcast(&job->helped);
	while (work->helping > 0)
		pthread_cond_wait(&job->helped, &job->lock);
	pthread_mutex_unlock(&job->lock);
	for (size_t i = 0; i < work->chunks; i++)
		fg_buffer_free(&work->written[i]);
	free(work->written);
	free(work->done);
	work->written = NULL;
	work->done = NULL;
	return rc;
}

/* ---------------------------------------------------------------- header */

/* The bytes an option may bring into CSS or the XML declaration: letters
 * (any script), digits, space and ",-_." (no quote, no CSS punctuation). */
static bool css_byte(unsigned char c)
{
	return isalnum(c) || c == ' ' || c == ',' || c == '-' || c == '_' || c == '.' || c >= 0x80;
}

/* Only characters that cannot end a CSS declaration, a comment or open a
 * string (no quotes: an unclosed one would swallow the rest of the style
 * sheet), on the cleaned text so that UTF-8 names stay whole. */
static void put_css_value(writer *w, const char *s)
{
	w->clean.length = 0;
	CHECKED(w, fg_text_clean(&w->clean, s, strlen(s)));
	for (size_t i = 0; i < w->clean.length; i++)
		if (css_byte((unsigned char)w->clean.data[i]))
			put_bytes(w, w->clean.data + i, 1);
}

/* Whether the word at name (up to a space or end) is a CSS-wide keyword,
 * which no font name may hold unquoted, not even among other words. */
static bool css_keyword(const char *name, const char *end)
{
	static const char *const keywords[] = {"inherit", "initial", "unset", "revert",
					       "revert-layer", "default"};
	const char *space = memchr(name, ' ', (size_t)(end - name));
	size_t length = (size_t)((space != NULL ? space : end) - name);
	for (size_t i = 0; i < FG_ARRAY_LENGTH(keywords); i++)
		if (strlen(keywords[i]) == length && strncasecmp(keywords[i], name, length) == 0)
			return true;
	return false;
}

/* Whether a font name must be quoted in CSS: unquoted, it is a sequence of
 * identifiers ("Times New Roman", "-apple-system"), none of them a CSS-wide keyword;
 * anything else ("3D", "Font 1.0", "Initial Sans") would void the whole rule. */
static bool needs_quotes(const char *name, size_t length)
{
	bool word_start = true;
	for (size_t i = 0; i < length; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c == ' ') {
			word_start = true;
			continue;
		}
		if (word_start && css_keyword(name + i, name + length))
			return true;
		bool letter = isalpha(c) || c == '_' || c >= 0x80;
		/* (an identifier may start with '-' before a letter or '-':
		 * "-apple-system") */
		unsigned char next = i + 1 < length ? (unsigned char)name[i + 1] : 0;
		bool dash = c == '-' && (isalpha(next) || next == '_' || next == '-' || next >= 0x80);
		if (word_start ? !(letter || dash) : !(letter || isdigit(c) || c == '-'))
			return true;
		word_start = false;
	}
	return false;
}

/*
 * --fonttype as a font-family value: its comma-separated names (only
 * css_byte's kept, spaces trimmed, empty names dropped),
 * then sans-serif when it names one font only, for when that font is
 * missing (Verdana on Linux), or names none ("" or "\"").
 */
static void put_font_families(writer *w, const char *font_type)
{
	w->clean.length = 0;
	CHECKED(w, fg_text_clean(&w->clean, font_type, strlen(font_type)));
	fg_buffer kept = {0, 0, 0};
	for (size_t i = 0; i < w->clean.length; i++)
		if (css_byte((unsigned char)w->clean.data[i]))
			CHECKED(w, fg_buffer_append(&kept, w->clean.data + i, 1));
	size_t names = 0;
	for (size_t start = 0; start <= kept.length && kept.data != NULL;) {
		const char *comma = memchr(kept.data + start, ',', kept.length - start);
		size_t end = comma != NULL ? (size_t)(comma - kept.data) : kept.length, from = start;
		start = end + 1;
		while (from < end && kept.data[from] == ' ')
			from++;
		while (end > from && kept.data[end - 1] == ' ')
			end--;
		if (end == from)
			continue;
		if (names++ > 0)
			put(w, ",");
		bool quoted = needs_quotes(kept.data + from, end - from);
		if (quoted)
			put(w, "\"");
		put_bytes(w, kept.data + from, end - from);
		if (quoted)
			put(w, "\"");
	}
	if (names < 2)
		put(w, names ? ",sans-serif" : "sans-serif");
	fg_buffer_free(&kept);
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
	CHECKED(w, fg_entity_value(&w->line, &w->clean, s, strlen(s)));
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
		put_attribute_text(w, o->name_type);
		put(w, "\" data-fontsize=\"");
		put_number(w, fs);
		put(w, "\" data-fontwidth=\"");
		put_number(w, o->font_width);
		put(w, "\" data-inverted=\"");
		put(w, o->inverted ? "1" : "0");
		put(w, "\" data-countname=\"");
		put_attribute_text(w, o->count_name);
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
	put_font_families(w, o->font_type);
	put(w, ";font-size:");
	put_number(w, fs);
	put(w, "px}\n#title{font-size:");
	put_number(w, fs + 5);
	put(w, "px}\n#frames rect{height:");
	put_number(w, o->frame_height - 1);
	put(w, "px;rx:2px;ry:2px}\n</style>\n"); /* (flamegraph.pl's rx="2" ry="2") */
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


static int write_graph(writer *w, fg_error *err)
{
	const fg_graph_options *o = w->o;
	int rc;
	w->width_per_time = (o->width - 2.0 * XPAD) / w->time_max;
	double threshold = o->min_width_percent ? w->time_max * o->min_width / 100
						: o->min_width / w->width_per_time;
	view_job view = {.tree = w->tree, .budget = (size_t)o->view_nodes, .threshold = threshold,
			 .factor = o->factor, .total = w->d->root_count};
	bool view_data = o->view_nodes > 0 && w->self_delta == NULL && !o->flamechart;
	if (view_data) {
		/* Names of frames 0.1 px wide or more (their order on screen is
		 * certain) come from the frames, unless --nameattr retitles them. */
		view.named = w->attributes != NULL ? NAN : fmax(threshold, 0.1 / w->width_per_time);
		if (fg_graph_thread_count(o) > 1)
			start_view_thread(&view);
	}
	frame *frames = NULL;
	size_t count = 0;
	if ((rc = layout(w, threshold, &frames, &count)) != 0)
		goto fail;
	double fs = o->font_size;
	w->ypad1 = fs * 3;
	w->ypad2 = fs * 2 + 10;
	/* An empty --title or --subtitle is none, as in flamegraph.pl (a script
	 * passing --title "$T" with T unset gets the usual graph). */
	bool subtitle = o->subtitle != NULL && o->subtitle[0] != '\0';
	w->ypad3 = subtitle ? fs * 2 : 0;
	w->image_height = (w->depth_max + 1.0) * o->frame_height + w->ypad1 + w->ypad2 + w->ypad3;
	w->factor_total = w->time_max * o->factor;
	if ((rc = colors_and_uses(w, frames, count)) != 0 || (rc = by_color(frames, count)) != 0 ||
	    (rc = fg_entities_choose(w->entities, &w->dtd)) != 0)
		goto fail;
	frame_work work = {.w = w, .frames = frames, .count = count,
			   .chunks = (count + FRAME_CHUNK - 1) / FRAME_CHUNK};
	work.aside = *w;
	work.aside.line = work.aside.clean = (fg_buffer){0, 0, 0};
	work.aside.nomem = false;
	if (view_data && view.threaded) {
		work.written = calloc(work.chunks ? work.chunks : 1, sizeof(*work.written));
		work.done = calloc(work.chunks ? work.chunks : 1, sizeof(*work.done));
		if (work.written == NULL || work.done == NULL) {
			free(work.written);
			free(work.done);
			rc = FG_ENOMEM;
			goto fail;
		}
	}
	if (view_data)
		entities_decided(&view, w->entities, &work);

	double W = o->width, H = w->image_height;
	put_header(w, H, false);
	const char *top, *bottom;
	char custom[8];
	const char *bg = o->bg_colors ? o->bg_colors : fg_palette_background(w->colors->palette);
	if (!fg_background_stops(bg, &top, &bottom, custom))
		fg_background_stops("yellow", &top, &bottom, custom);
	put(w, "<defs><linearGradient id=\"bg\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\"><stop stop-color=\"");
	put(w, top);
	put(w, "\" offset=\"5%\"/><stop stop-color=\"");
	put(w, bottom);
	put(w, "\" offset=\"95%\"/></linearGradient></defs>\n"
	       "<rect id=\"background\" width=\"100%\" height=\"100%\" fill=\"url(#bg)\"/>\n");
	const char *title = o->title;
	if (title == NULL || title[0] == '\0')
		title = o->flamechart ? "Flame Chart" : o->inverted ? "Icicle Graph" : "Flame Graph";
	put_text_element(w, "title", (int)(W / 2), fs * 2, title, NULL);
	if (subtitle)
		put_text_element(w, "subtitle", (int)(W / 2), fs * 4, o->subtitle, NULL);
	put_text_element(w, "details", XPAD, H - w->ypad2 / 2, " ", NULL);
	put_text_element(w, "unzoom", XPAD, fs * 2, "Reset Zoom", " class=\"hide\"");
	put_text_element(w, "search", W - XPAD - 100, fs * 2, "Search", NULL);
	put_text_element(w, "ignorecase", W - XPAD - 16, fs * 2, "ic", NULL);
	put_text_element(w, "matched", W - XPAD - 100, H - w->ypad2 / 2, " ", NULL);
	put(w, "<g id=\"frames\">\n");
	/* (Even when the header failed: the helper must stop before the
	 * frames go.) */
	rc = write_frames(&work, view_data ? &view : NULL, flush_line(w));
	free(frames);
	if (count > 0)
		put(w, "</g>\n");
	put(w, "</g>\n");
	if (view_data) {
		int view_rc = put_view_data(w, &view, rc == 0);
		view_data = false; /* (joined) */
		if (rc == 0)
			rc = view_rc;
	}
	put(w, "<script><![CDATA[\n");
	put_bytes(w, fg_viewer_js, fg_viewer_js_length);
	put(w, "]]></script>\n</svg>\n");
	if (rc == 0)
		rc = flush_line(w);
	if (rc != 0)
		return fg_output_check(w->out, err) != 0 ? err->code : fg_fail(err, rc, "out of memory");
	return 0;
fail:
	free(frames);
	if (view_data)
		put_view_data(w, &view, false);
	return fg_fail(err, rc, "out of memory");
}

int fg_svg_write_empty(const fg_graph_options *o, fg_output *out)
{
	writer w = {.o = o, .out = out};
	int rc = write_empty(&w);
	fg_buffer_free(&w.line);
	fg_buffer_free(&w.clean);
	return rc;
}

int fg_svg_write(const fg_drawing *d, fg_frame_colors *colors,
		 const fg_name_table *attributes, fg_output *out, fg_error *err)
{
	writer w = {
		.o = d->o, .d = d, .tree = d->tree, .out = out, .time_max = d->time_max,
		.self_delta = d->self_delta, .widths = d->widths, .colors = colors,
		.attributes = attributes,
	};
	int rc = write_graph(&w, err);
	fg_entities_free(w.entities);
	fg_buffer_free(&w.dtd);
	fg_buffer_free(&w.line);
	fg_buffer_free(&w.clean);
	return rc;
}
