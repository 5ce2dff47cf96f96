/*
 * graph.c - folded lines into a frame tree, as fg-render's options say.
 *
 * Parsing is folded.c's, merging tree.c's; this file holds what sits
 * between them: skipping and reporting invalid lines, --reverse, the chain
 * palette's rewriting of stacks, and the defaults of every option.
 */
#include <stdlib.h>

#include "graph.h"
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
}

fg_graph *fg_graph_new(const fg_graph_options *options)
{
	fg_graph *g = calloc(1, sizeof(*g));
	if (g == NULL)
		return NULL;
	g->options = *options;
	g->tree = fg_tree_new(options->flamechart ? FG_TREE_FLAMECHART : 0);
	if (g->tree == NULL) {
		free(g);
		return NULL;
	}
	return g;
}

void fg_graph_free(fg_graph *g)
{
	if (g == NULL)
		return;
	fg_tree_free(g->tree);
	fg_buffer_free(&g->scratch);
	free(g->invalid_file);
	free(g);
}

uint64_t fg_graph_invalid_lines(const fg_graph *g) { return g->invalid_lines; }

/* The running sum: node totals exist only after fg_tree_finish. */
fg_count fg_graph_total(const fg_graph *g) { return g->tree->grand_total; }

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

/*
 * The chain palette (waker stacks joined by "--"): every frame after the
 * first ";--;" gets a "_[w]" annotation. Like the original, a stack with no
 * ";--;" gains one at its end (an extra grey "--" frame on top).
 */
static int chain_stack(fg_buffer *out, const char *stack, size_t length)
{
	out->length = 0;
	const char *mark = memmem(stack, length, ";--;", 4);
	if (mark == NULL) {
		if (fg_buffer_append(out, stack, length) != 0 || fg_buffer_append(out, ";--", 3) != 0)
			return FG_ENOMEM;
		return 0;
	}
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

static void report(const fg_warner *w, const char *file, uint64_t line, const char *message)
{
	if (w != NULL && w->warn != NULL)
		w->warn(w->context, file, line, message);
}

int fg_graph_add_line(fg_graph *g, const char *line, size_t length, const char *file,
		      uint64_t line_number, const fg_warner *warner, fg_error *err)
{
	if (fg_is_blank(line, length))
		return 0;
	fg_folded_line parsed;
	int rc = fg_folded_parse(line, length, &parsed);
	if (rc != 0) {
		if (g->invalid_lines < FG_REPORT_INVALID_LINES) {
			g->first_invalid[g->invalid_lines] = line_number;
			if (g->invalid_lines == 0 && file != NULL)
				g->invalid_file = strdup(file);
			report(warner, file, line_number,
			       rc == FG_ERANGE ? "count does not fit in 64 bits; line ignored"
					       : "no valid count at the end of the line; line ignored");
		}
		g->invalid_lines++;
		return 0;
	}
	const char *stack = parsed.stack;
	size_t stack_length = parsed.stack_length;
	if (g->options.reverse) {
		if (reverse_stack(&g->scratch, stack, stack_length) != 0)
			return fg_fail(err, FG_ENOMEM, "out of memory");
		stack = g->scratch.data;
		stack_length = g->scratch.length;
	}
	if (strcmp(g->options.colors, "chain") == 0) {
		fg_buffer *into = &g->scratch;
		fg_buffer copy = {0, 0, 0};
		if (stack == g->scratch.data) {
			/* Reversed already: chain from a copy. */
			if (fg_buffer_append(&copy, stack, stack_length) != 0)
				return fg_fail(err, FG_ENOMEM, "out of memory");
			stack = copy.data != NULL ? copy.data : ""; /* an empty stack has no buffer */
		}
		rc = chain_stack(into, stack, stack_length);
		fg_buffer_free(&copy);
		if (rc != 0)
			return fg_fail(err, FG_ENOMEM, "out of memory");
		stack = into->data;
		stack_length = into->length;
	}
	rc = fg_tree_add(g->tree, stack, stack_length, parsed.count,
			 parsed.differential ? &parsed.before : NULL);
	if (rc == FG_ERANGE)
		return fg_fail(err, rc, "%s:%llu: the sum of counts exceeds 2^64-1",
			       file ? file : "<input>", (unsigned long long)line_number);
	if (rc != 0)
		return fg_fail(err, rc, "out of memory");
	return 0;
}

int fg_graph_read(fg_graph *g, fg_input *in, const fg_warner *warner, fg_error *err)
{
	const char *line;
	size_t length;
	int rc;
	while ((rc = fg_input_read_line(in, &line, &length, err)) > 0) {
		rc = fg_graph_add_line(g, line, length, fg_input_name(in),
				       fg_input_line_number(in), warner, err);
		if (rc != 0)
			return rc;
	}
	return rc;
}
