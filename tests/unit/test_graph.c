/*
 * test_graph.c - unit tests of graph.c and svg.c through the public graph
 * API: the SVG depends only on the multiset of lines (any order, any
 * number of threads: byte-identical), invalid lines are counted and the
 * valid ones kept, the layout puts a frame's own samples first, and two
 * graphs live side by side in one process.
 */
#include <stdlib.h>

#include "check.h"
#include "folded.h"
#include "graph.h"

static const char *const lines[] = {
	"main;parse;lex 30", "main;parse;lex;next_token 10", "main;parse 5", "main;eval;call;add 20",
	"main;eval;call;mul 15", "main;eval 10", "main;init_[k] 5", "main;foo 2", "main;foo.cold 1",
	"main;foo;inner 1", " 4", "other;x 2.5", "main;parse;lex 1", "zz;0x1f 7",
};
enum { LINES = sizeof(lines) / sizeof(*lines) };

/* The SVG of the lines in the given order, with `threads` threads. */
static char *render(const size_t *order, unsigned threads, uint64_t *invalid, const char *extra)
{
	fg_graph_options o;
	fg_graph_options_init(&o);
	o.threads = threads;
	fg_graph *g = fg_graph_new(&o);
	size_t capacity = 4096, used = 0;
	char *text = malloc(capacity);
	for (size_t i = 0; i < LINES; i++)
		used += (size_t)snprintf(text + used, capacity - used, "%s\n", lines[order[i]]);
	if (extra != NULL)
		used += (size_t)snprintf(text + used, capacity - used, "%s", extra);
	fg_input *in = fg_input_open_memory("mem", text, used);
	fg_error err = {0};
	fg_output *out = fg_output_open_memory();
	char *svg = NULL;
	if (fg_graph_read(g, in, NULL, &err) == 0 && fg_graph_write_svg(g, out, NULL, &err) == 0) {
		size_t length;
		const char *data = fg_output_data(out, &length);
		svg = strndup(data, length);
	}
	if (invalid != NULL)
		*invalid = fg_graph_invalid_lines(g);
	fg_output_abort(out);
	fg_input_close(in);
	fg_graph_free(g);
	free(text);
	return svg;
}

/* fg_graph_options_check: the ranges of fg-render(1), named as its options. */
static void test_options_check(void)
{
	fg_graph_options o;
	fg_graph_options_init(&o);
	fg_error err = {0};
	CHECK(fg_graph_options_check(&o, &err) == 0, "options: the defaults pass");
	o.width = 20;
	CHECK(fg_graph_options_check(&o, &err) == FG_EINVAL &&
	      strcmp(err.message, "--width must be between 21 and 1000000") == 0, "options: --width too small");
	fg_graph_options_init(&o);
	o.min_width = 101;
	o.min_width_percent = true;
	CHECK(fg_graph_options_check(&o, &err) == FG_EINVAL &&
	      strcmp(err.message, "--minwidth must be between 0 and 100%") == 0, "options: --minwidth NUM%%");
	fg_graph_options_init(&o);
	o.font_size = 0.0 / 0.0;
	CHECK(fg_graph_options_check(&o, &err) == FG_EINVAL, "options: a NaN is out of range");
	fg_graph_options_init(&o);
	o.threads = 2000;
	fg_graph *g = fg_graph_new(&o);
	fg_output *out = fg_output_open("/dev/null", &err);
	CHECK(g != NULL && out != NULL && fg_graph_write_svg(g, out, NULL, &err) == FG_EINVAL &&
	      strcmp(err.message, "-j must be between 0 and 1024") == 0,
	      "options: fg_graph_write_svg checks them too");
	fg_output_abort(out);
	fg_graph_free(g);
	/* The SVG is UTF-8: no other encoding may be declared, nor an empty one. */
	fg_graph_options_init(&o);
	o.encoding = "utf-8";
	CHECK(fg_graph_options_check(&o, &err) == 0, "options: encoding utf-8 passes");
	o.encoding = "";
	CHECK(fg_graph_options_check(&o, &err) == FG_EINVAL &&
	      strstr(err.message, "invalid --encoding ''") != NULL, "options: an empty encoding is refused");
	o.encoding = "latin1";
	CHECK(fg_graph_options_check(&o, &err) == FG_EINVAL, "options: encoding latin1 is refused");
}

/* Options left zeroed: the strings take their defaults (no crash), the
 * numbers are refused when the graph is written. */
static void test_zeroed_options(void)
{
	fg_graph_options o;
	fg_graph_options_init(&o);
	o.count_name = o.colors = o.font_type = o.name_type = NULL;
	o.colors = "chain"; /* (the one palette that rewrites stacks) */
	fg_graph *g = fg_graph_new(&o);
	fg_error err = {0};
	fg_output *out = fg_output_open_memory();
	size_t length = 0;
	const char *svg = NULL;
	CHECK(g != NULL && fg_graph_add_line(g, "a;b 5", 5, "x", 1, NULL, &err) == 0 &&
	      fg_graph_write_svg(g, out, NULL, &err) == 0 && (svg = fg_output_data(out, &length)) != NULL &&
	      memmem(svg, length, "samples", 7) != NULL && memmem(svg, length, "Verdana", 7) != NULL,
	      "zeroed options: NULL strings take their defaults");
	fg_output_abort(out);
	fg_graph_free(g);
	memset(&o, 0, sizeof(o));
	g = fg_graph_new(&o);
	out = fg_output_open_memory();
	CHECK(g != NULL && fg_graph_add_line(g, "a;b 5", 5, "x", 1, NULL, &err) == 0 &&
	      fg_graph_write_svg(g, out, NULL, &err) == FG_EINVAL &&
	      strstr(err.message, "--width") != NULL,
	      "zeroed options: lines are taken, the write refuses the width");
	fg_output_abort(out);
	fg_graph_free(g);
}

/* A graph is written once, after its lines: more lines after are refused,
 * through every door (they would go into trees already merged). */
static void test_written_graph(void)
{
	fg_graph_options o;
	fg_graph_options_init(&o);
	fg_graph *g = fg_graph_new(&o);
	fg_error err = {0};
	fg_output *out = fg_output_open_memory();
	CHECK(fg_graph_add_line(g, "a;b 5", 5, "x", 1, NULL, &err) == 0 &&
	      fg_graph_write_svg(g, out, NULL, &err) == 0, "written graph: the first write");
	fg_output_abort(out);
	CHECK(fg_graph_add_line(g, "a;c 5", 5, "x", 2, NULL, &err) == FG_EINVAL &&
	      strstr(err.message, "written") != NULL, "written graph: fg_graph_add_line refuses");
	fg_input *in = fg_input_open_memory("mem", "a;c 5\n", 6);
	CHECK(fg_graph_read(g, in, NULL, &err) == FG_EINVAL, "written graph: fg_graph_read refuses");
	fg_input_close(in);
	const char *paths[] = {"/dev/null"};
	CHECK(fg_graph_run(g, paths, 1, "/dev/null", NULL, &err) == FG_EINVAL,
	      "written graph: fg_graph_run refuses");
	fg_graph_free(g);
}

/* A first block of `count` lines: `kind` 0, a hundred processes (the
 * first frame, at random), each line's own function below; 1, one busy
 * process; 2, twenty processes whose stacks all begin with the same
 * twenty frames, then a leaf of their own. */
static char *block_of(int kind, size_t count, size_t *length)
{
	size_t capacity = count * 128, used = 0;
	char *text = malloc(capacity);
	unsigned seed = 7;
	for (size_t i = 0; i < count; i++) {
		seed = seed * 1103515245u + 12345u;
		unsigned process = (seed >> 16) % (kind == 2 ? 20 : 100);
		if (kind == 0)
			used += (size_t)snprintf(text + used, capacity - used, "p%u;f%zu;leaf 1\n", process, i);
		else if (kind == 1)
			used += (size_t)snprintf(text + used, capacity - used, "busy;f%zu;leaf 1\n", i);
		else
			used += (size_t)snprintf(text + used, capacity - used,
						 "p%u;a;b;c;d;e;f;g;h;i;j;k;l;m;n;o;p;q;r;s;leaf%zu 1\n", process, i);
	}
	*length = used;
	return text;
}

/* Which frames choose a line's thread: enough that the prefixes spread
 * over the threads, and no more than adds to them. */
/* fg_graph_write_svg with a consistent palette whose map cannot be
 * written (a path in a directory that does not exist): the SVG is written
 * and complete, rc 0, and a warning names the file. */
static void test_palette_map_unwritable(void)
{
	fg_graph_options o;
	fg_graph_options_init(&o);
	o.consistent_palette = true;
	o.palette_map_path = "/nonexistent-fg-dir/palette.map";
	fg_graph *g = fg_graph_new(&o);
	static const char text[] = "a;b 3\n";
	fg_input *in = fg_input_open_memory("mem", text, sizeof(text) - 1);
	fg_output *out = fg_output_open_memory();
	fg_error err = {0};
	fg_warner warner = {check_collect, NULL};
	check_warnings()[0] = '\0';
	int rc = fg_graph_read(g, in, &warner, &err);
	if (rc == 0)
		rc = fg_graph_write_svg(g, out, &warner, &err);
	size_t length = 0;
	const char *svg = fg_output_data(out, &length);
	CHECK(rc == 0 && length > 7 && memcmp(svg + length - 7, "</svg>\n", 7) == 0,
	      "graph: a palette.map that cannot be written: the SVG is still written (rc %d)", rc);
	CHECK(strstr(check_warnings(), "palette.map is not updated") != NULL,
	      "graph: ... and a warning says palette.map is not updated");
	fg_output_abort(out);
	fg_input_close(in);
	fg_graph_free(g);
}

static void test_partition_frames(void)
{
	size_t length;
	char *text = block_of(0, 8192, &length);
	CHECK(fg_graph_partition_frames(text, length, 2) == 1,
	      "partition: a hundred processes are prefixes enough for two threads");
	CHECK(fg_graph_partition_frames(text, length, 4) == 2,
	      "partition: four threads spread them by their second frames too (%zu)",
	      fg_graph_partition_frames(text, length, 4));
	free(text);
	text = block_of(1, 8192, &length);
	CHECK(fg_graph_partition_frames(text, length, 2) == 2, "partition: one busy process, by its second frames");
	free(text);
	text = block_of(2, 4096, &length);
	size_t frames = fg_graph_partition_frames(text, length, 2);
	CHECK(frames == 1, "partition: frames that all twenty processes share add nothing (%zu)", frames);
	free(text);
}

int main(void)
{
	test_options_check();
	test_zeroed_options();
	test_written_graph();
	test_palette_map_unwritable();
	test_partition_frames();
	size_t order[LINES];
	for (size_t i = 0; i < LINES; i++)
		order[i] = i;
	char *first = render(order, 1, NULL, NULL);
	CHECK(first != NULL && strstr(first, "<title>all (114&s;100%)</title>") != NULL,
	      "graph: the root counts every line, the empty stack and decimals too (113.5, shown 114)");
	/* Own samples first: main;parse (own 5) starts at its left edge, lex after it. */
	CHECK(first != NULL && strstr(first, "<title>parse (46&s;") != NULL, "graph: parse totals its children");
	unsigned seed = 12345;
	int same = 0, tries = 40;
	for (int t = 0; t < tries; t++) {
		for (size_t i = LINES - 1; i > 0; i--) { /* Fisher-Yates */
			seed = seed * 1103515245u + 12345u;
			size_t j = (seed >> 16) % (i + 1), swap = order[i];
			order[i] = order[j];
			order[j] = swap;
		}
		char *svg = render(order, 1 + (unsigned)t % 3, NULL, NULL);
		same += svg != NULL && first != NULL && strcmp(svg, first) == 0;
		free(svg);
	}
	CHECK(same == tries, "graph: %d shuffles with 1-3 threads give byte-identical SVGs (%d did)", tries, same);
	uint64_t invalid = 0;
	char *with_junk = render(order, 2, &invalid, "no count\nx;y 1e3\n\n");
	CHECK(invalid == 2, "graph: two invalid lines counted, the blank one ignored (%llu)",
	      (unsigned long long)invalid);
	CHECK(with_junk != NULL && strcmp(with_junk, first) == 0, "graph: invalid lines change nothing else");
	free(with_junk);

	/* Two graphs at once: no global state between them. */
	fg_graph_options o;
	fg_graph_options_init(&o);
	fg_graph *a = fg_graph_new(&o), *b = fg_graph_new(&o);
	fg_graph_add_line(a, "x 1", 3, "a", 1, NULL, NULL);
	fg_graph_add_line(b, "y 2", 3, "b", 1, NULL, NULL);
	fg_graph_add_line(a, "x 4", 3, "a", 2, NULL, NULL);
	CHECK(fg_graph_total(a).whole == 5 && fg_graph_total(b).whole == 2, "graph: two graphs keep their own totals");
	fg_output *out = fg_output_open_memory();
	fg_error err = {0};
	fg_graph *empty = fg_graph_new(&o);
	CHECK(fg_graph_write_svg(empty, out, NULL, &err) == FG_EEMPTY, "graph: no samples is FG_EEMPTY");
	size_t length;
	const char *data = fg_output_data(out, &length);
	CHECK(length > 0 && strstr(data, "</svg>") != NULL, "graph: ... with the small no-input SVG");
	fg_output_abort(out);
	fg_graph_free(empty);
	fg_graph_free(a);
	fg_graph_free(b);
	free(first);
	return check_exit();
}
