/*
 * graph.c - folded lines into a frame tree, as fg-render's options say.
 *
 * Parsing is folded.c's, merging tree.c's; this file holds what sits
 * between them: skipping and reporting invalid lines, --reverse, the
 * palette's stack (color.c), and the defaults of every option; and, for
 * -j, how many threads, and their trees finished each on its own thread
 * and merged (fg_graph_collect; the reading is graph_read.c's).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "color.h"
#include "graph.h"
#include "viewdata.h"
#include "tree.h"

void fg_graph_options_init(fg_graph_options *o)
{
	memset(o, 0, sizeof(*o));
	o->width = 1200;
	o->frame_height = 16;
	o->min_width = 0.1;
	o->font_type = "Verdana";
	o->font_size = 12;
	o->font_width = 0.59;
	o->count_name = "samples";
	o->name_type = "Function:";
	o->colors = "hot";
	o->palette_map_path = "palette.map";
	o->factor = 1;
	o->view_nodes = FG_VIEW_NODES_DEFAULT;
}

#define AUTO_THREADS 4

size_t fg_graph_thread_count(const fg_graph_options *o)
{
	if (o->flamechart)
		return 1; /* the x axis is input order: one tree */
	/* One per CPU by default, at most AUTO_THREADS: past two, only the
	 * parsing goes faster (merging, ordering and drawing the tree take one
	 * or two), and each thread adds a tree and a block of input. */
	size_t n = o->threads > 0 ? o->threads : fg_usable_cpus();
	size_t most = o->threads > 0 ? FG_GRAPH_THREADS_MAX : AUTO_THREADS;
	return n > most ? most : n;
}

/* The options' strings that must be there, NULL (a zeroed struct) meaning
 * their defaults. */
static void default_strings(fg_graph_options *o)
{
	fg_graph_options d;
	fg_graph_options_init(&d);
	const char **strings[] = {&o->font_type, &o->count_name, &o->name_type, &o->colors,
				  &o->palette_map_path};
	const char *defaults[] = {d.font_type, d.count_name, d.name_type, d.colors,
				  d.palette_map_path};
	for (size_t i = 0; i < FG_ARRAY_LENGTH(strings); i++)
		if (*strings[i] == NULL)
			*strings[i] = defaults[i];
}

fg_graph *fg_graph_new(const fg_graph_options *options)
{
	fg_graph *g = calloc(1, sizeof(*g));
	if (g == NULL)
		return NULL;
	g->options = *options;
	default_strings(&g->options);
	g->sink_count = fg_graph_thread_count(options);
	g->sinks = calloc(g->sink_count, sizeof(*g->sinks));
	if (g->sinks == NULL) {
		free(g);
		return NULL;
	}
	for (size_t i = 0; i < g->sink_count; i++)
		if ((g->sinks[i].tree = fg_tree_new(options->flamechart ? FG_TREE_FLAMECHART : 0)) == NULL) {
			fg_graph_free(g);
			return NULL;
		}
	g->tree = g->sinks[0].tree;
	return g;
}

void fg_graph_free(fg_graph *g)
{
	if (g == NULL)
		return;
	for (size_t i = 0; i < g->sink_count; i++) {
		fg_tree_free(g->sinks[i].tree);
		fg_buffer_free(&g->sinks[i].scratch);
		fg_buffer_free(&g->sinks[i].reversed);
	}
	free(g->sinks);
	for (size_t i = 0; i < FG_REPORT_INVALID_LINES; i++)
		free(g->invalid_files[i]);
	free(g);
}

uint64_t fg_graph_invalid_lines(const fg_graph *g) { return g->invalid_lines; }

/* The running sum: node totals exist only after fg_tree_finish. */
fg_count fg_graph_total(const fg_graph *g)
{
	fg_count total = {0, 0};
	for (size_t i = 0; i < g->sink_count; i++)
		fg_count_add_inline(&total, g->sinks[i].tree->grand_total);
	return total;
}

/* "a;b;c" -> "c;b;a" into scratch. */
static int reverse_stack(fg_buffer *out, const char *stack, size_t length)
{
	out->length = 0;
	if (fg_buffer_reserve(out, length) != 0)
		return FG_ENOMEM;
	/* Trailing empty frames vanish first, as in the tree. */
	while (length > 0 && stack[length - 1] == ';')
		length--;
	size_t end = length;
	for (;;) {
		size_t start = end;
		while (start > 0 && stack[start - 1] != ';')
			start--;
		fg_buffer_append(out, stack + start, end - start);
		if (start == 0)
			break;
		fg_buffer_append(out, ";", 1);
		end = start - 1;
	}
	return 0;
}

int fg_graph_parse_line(const fg_graph_options *o, fg_graph_sink *s, const char *line,
			size_t length, bool *fatal)
{
	*fatal = false;
	if (fg_is_blank(line, length))
		return 0;
	fg_folded_line parsed;
	int rc = fg_folded_parse(line, length, &parsed);
	if (rc != 0)
		return rc;
	const char *stack = parsed.stack;
	size_t stack_length = parsed.stack_length;
	*fatal = true;
	if (o->reverse) {
		/* Into `reversed`: fg_palette_stack below writes into scratch. */
		if (reverse_stack(&s->reversed, stack, stack_length) != 0)
			return FG_ENOMEM;
		stack = s->reversed.data;
		stack_length = s->reversed.length;
	}
	if (fg_palette_stack(o->colors, &s->scratch, &stack, &stack_length) != 0)
		return FG_ENOMEM;
	rc = fg_tree_add(s->tree, stack, stack_length, parsed.count,
			 parsed.differential ? &parsed.before : NULL);
	*fatal = rc != 0;
	return rc;
}

void fg_graph_note_invalid(fg_graph *g, const char *file, uint64_t line_number, int code,
			   const fg_warner *warner)
{
	if (g->invalid_lines < FG_REPORT_INVALID_LINES) {
		g->first_invalid[g->invalid_lines] = line_number;
		if (file != NULL)
			g->invalid_files[g->invalid_lines] = strdup(file); /* NULL: "input" */
		fg_warn(warner, file, line_number, fg_folded_problem(code));
	}
	g->invalid_lines++;
}

int fg_graph_fatal(int rc, const char *file, uint64_t line_number, fg_error *err)
{
	if (rc == FG_ERANGE)
		return fg_fail(err, rc, "%s:%llu: the sum of counts exceeds 2^64-1",
			       file ? file : "<input>", (unsigned long long)line_number);
	return fg_fail(err, rc, "out of memory");
}

int fg_graph_check_open(const fg_graph *g, fg_error *err)
{
	if (g->written)
		return fg_fail(err, FG_EINVAL, "the graph was written: it takes no more lines");
	return 0;
}

int fg_graph_add_line(fg_graph *g, const char *line, size_t length, const char *file,
		      uint64_t line_number, const fg_warner *warner, fg_error *err)
{
	if (g->written)
		return fg_graph_check_open(g, err);
	bool fatal;
	int rc = fg_graph_parse_line(&g->options, &g->sinks[0], line, length, &fatal);
	if (rc != 0 && fatal)
		return fg_graph_fatal(rc, file, line_number, err);
	if (rc != 0)
		fg_graph_note_invalid(g, file, line_number, rc, warner);
	return 0;
}

/*
 * Collecting the threads' trees: each is finished (fg_tree_finish) on a
 * thread of its own; then, when they are small enough to, every thread
 * takes chunks of the names of the other trees to look up in the first
 * tree's (fg_tree_map_names), so that fg_tree_merge adds only new names.
 * The merge then only has the frames the trees share to join, a line's
 * first few (graph_read.c).
 */
#define MAP_CHUNK 4096

typedef struct collecting {
	fg_graph *g;
	uint32_t *maps[FG_GRAPH_THREADS_MAX]; /* tree i's names in tree 0's; NULL: none */
	size_t chunks[FG_GRAPH_THREADS_MAX];  /* the chunks of names before tree i's */
	atomic_size_t next;                   /* the next chunk to take */
} collecting;

typedef struct finishing {
	collecting *c;
	size_t index;
	pthread_t thread;
	bool started;
	int rc;
} finishing;

static void *finish_tree(void *argument)
{
	finishing *f = argument;
	collecting *c = f->c;
	fg_tree *tree = c->g->sinks[f->index].tree;
	f->rc = f->index == 0 && c->chunks[c->g->sink_count - 1] > 0 ? fg_tree_finish_keeping_names(tree)
								     : fg_tree_finish(tree);
	if (f->index > 0) /* (merged into the first, which grows) */
		fg_tree_give_back(tree);
	size_t trees = c->g->sink_count;
	for (size_t k; (k = atomic_fetch_add(&c->next, 1)) < c->chunks[trees - 1];) {
		size_t i = 1;
		while (k >= c->chunks[i])
			i++;
		const fg_tree *from = c->g->sinks[i].tree;
		size_t begin = (k - c->chunks[i - 1]) * MAP_CHUNK;
		size_t end = fg_tree_name_count(from) - begin > MAP_CHUNK ? begin + MAP_CHUNK
									  : fg_tree_name_count(from);
		fg_tree_map_names(c->g->tree, from, c->maps[i], begin, end);
	}
	return NULL;
}

int fg_graph_collect(fg_graph *g, fg_error *err)
{
	collecting c = {.g = g};
	finishing f[FG_GRAPH_THREADS_MAX];
	atomic_init(&c.next, 0);
	for (size_t i = 1; i < g->sink_count; i++) {
		const fg_tree *from = g->sinks[i].tree;
		size_t names = fg_tree_name_count(from);
		if (fg_tree_can_map_names(g->tree, from))
			c.maps[i] = malloc((names ? names : 1) * sizeof(*c.maps[i]));
		c.chunks[i] = c.chunks[i - 1] + (c.maps[i] != NULL ? (names + MAP_CHUNK - 1) / MAP_CHUNK : 0);
	}
	for (size_t i = 0; i < g->sink_count; i++) {
		f[i] = (finishing){.c = &c, .index = i};
		f[i].started = i > 0 && pthread_create(&f[i].thread, NULL, finish_tree, &f[i]) == 0;
	}
	for (size_t i = 0; i < g->sink_count; i++)
		if (!f[i].started)
			finish_tree(&f[i]);
	int rc = 0;
	for (size_t i = 0; i < g->sink_count; i++) {
		if (f[i].started)
			pthread_join(f[i].thread, NULL);
		if (f[i].rc != 0)
			rc = f[i].rc;
	}
	fg_tree_drop_names(g->tree); /* (the names are mapped) */
	for (size_t i = 1; i < g->sink_count; i++) {
		if (rc == 0)
			rc = fg_tree_merge(g->tree, g->sinks[i].tree, c.maps[i]);
		free(c.maps[i]);
		fg_tree_free(g->sinks[i].tree);
		fg_buffer_free(&g->sinks[i].scratch);
		fg_buffer_free(&g->sinks[i].reversed);
		g->sinks[i].tree = NULL;
	}
	if (rc != 0)
		return rc == FG_ERANGE ? fg_fail(err, rc, "the sum of counts exceeds 2^64-1")
				       : fg_fail(err, rc, "out of memory");
	g->sink_count = 1;
	fg_tree_give_back(g->tree);
	return 0;
}
