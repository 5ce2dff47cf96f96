/*
 * libfolded-demo.c - build a flame graph from memory with libfolded and
 * write it as an SVG: what fg-render does, from your own program.
 *
 *   cc examples/libfolded-demo.c $(pkg-config --cflags --libs libfolded) -o demo
 *   ./demo demo.svg        (or "./demo" to write the SVG to stdout)
 *
 * Statically: cc -static examples/libfolded-demo.c \
 *                  $(pkg-config --static --cflags --libs libfolded) -o demo
 */
#include <stdio.h>
#include <string.h>

#include <folded.h>

/* Folded stacks as a profiler (or your own instrumentation) would give them:
 * frames root first, separated by ';', then a space and the sample count. */
static const char *const profile[] = {
	"main;parse_args 3",
	"main;load_config;read_file 12",
	"main;run;compute;multiply 60",
	"main;run;compute;add 25",
	"main;run;write_output;fwrite 20",
	"main;run;compute;multiply 15", /* repeated stacks add up */
	"this line has no count",       /* invalid: skipped and reported */
};

/* Warnings (invalid lines, "Stack count is low") arrive here; the library
 * itself never prints. */
static void print_warning(void *context, const char *file, uint64_t line, const char *message)
{
	if (file != NULL && line > 0)
		fprintf(stderr, "%s: %s:%llu: %s\n", (const char *)context, file,
			(unsigned long long)line, message);
	else
		fprintf(stderr, "%s: %s\n", (const char *)context, message);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : NULL; /* NULL: stdout */
	fg_warner warner = {print_warning, "libfolded-demo"};
	fg_error err = {0};

	fg_graph_options options;
	fg_graph_options_init(&options); /* flamegraph.pl's defaults */
	options.title = "libfolded demo";
	options.count_name = "samples";

	fg_graph *graph = fg_graph_new(&options);
	if (graph == NULL) {
		fprintf(stderr, "libfolded-demo: out of memory\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(profile) / sizeof(profile[0]); i++) {
		if (fg_graph_add_line(graph, profile[i], strlen(profile[i]), "profile", i + 1,
				      &warner, &err) != 0)
			goto fail;
	}

	char total[FG_COUNT_TEXT_MAX];
	fg_count_format(fg_graph_total(graph), total);
	fprintf(stderr, "libfolded-demo: %s samples, %llu invalid line(s)\n", total,
		(unsigned long long)fg_graph_invalid_lines(graph));

	/* The output is written to a temporary file and renamed on commit, so
	 * a reader never sees half a graph. */
	fg_output *out = fg_output_open(path, &err);
	if (out == NULL)
		goto fail;
	if (fg_graph_write_svg(graph, out, &warner, &err) != 0) {
		fg_output_abort(out);
		goto fail;
	}
	if (fg_output_commit(out, &err) != 0)
		goto fail;
	fg_graph_free(graph);
	return 0;

fail:
	fprintf(stderr, "libfolded-demo: %s\n", err.message);
	fg_graph_free(graph);
	return 2;
}
