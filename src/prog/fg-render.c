/*
 * fg-render - folded stacks in, an interactive SVG flame graph out.
 * Options are flamegraph.pl's (same names, same defaults); see fg-render(1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

static const char usage[] =
	"Usage: fg-render [OPTIONS] [FILE...] > graph.svg\n"
	"       fg-render [OPTIONS] -o graph.svg [FILE...]\n"
	"Render folded stacks (\"frame;frame;frame COUNT\" lines) from the FILEs\n"
	"(or standard input; - is standard input; .gz is read transparently)\n"
	"as an interactive SVG flame graph.\n"
	"\n"
	"  -o, --output FILE  write to FILE atomically (default: standard output)\n"
	"  -j, --jobs N       threads to parse and write with (default 0 = one per core,\n"
	"                     at most 4); the SVG is the same for any N\n"
	"  --title TEXT       title (default \"Flame Graph\")\n"
	"  --subtitle TEXT    second line of title\n"
	"  --width NUM        width of image in pixels (default 1200)\n"
	"  --height NUM       height of each frame (default 16)\n"
	"  --minwidth NUM     omit frames narrower than NUM pixels, or NUM% of\n"
	"                     the total (default 0.1)\n"
	"  --fonttype FONT    font type (default \"Verdana\")\n"
	"  --fontsize NUM     font size (default 12)\n"
	"  --fontwidth NUM    average glyph width / font size (default 0.59)\n"
	"  --countname TEXT   count type label (default \"samples\")\n"
	"  --nametype TEXT    name type label (default \"Function:\")\n"
	"  --colors PALETTE   hot (default), mem, io, wakeup, chain, java, js,\n"
	"                     perl, red, green, blue, aqua, yellow, purple, orange\n"
	"  --bgcolors COLOR   yellow, blue, green, grey or #rrggbb\n"
	"  --hash             colors are keyed by function name hash\n"
	"  --random           colors are randomly generated\n"
	"  --cp               use consistent palette (palette.map)\n"
	"  --reverse          generate stack-reversed flame graph\n"
	"  --inverted         icicle graph\n"
	"  --flamechart       produce a flame chart (sort by time, do not merge stacks)\n"
	"  --negate           switch differential hues (blue<->red)\n"
	"  --notes TEXT       add notes comment in SVG (for debugging)\n"
	"  --total NUM        scale the graph to NUM samples when larger than the sum\n"
	"  --factor NUM       multiply displayed counts by NUM\n"
	"  --nameattr FILE    file holding function attributes\n"
	"  --encoding ENC     XML encoding declaration\n"
	"  --diff-union       differential input: widths from max(BEFORE, AFTER), so\n"
	"                     frames that vanished stay visible (see fg-render(1))\n"
	"  --diff-threshold PCT  changes smaller than PCT% of the total are not coloured\n"
	"  --view-nodes N     at most N nodes of view data for the function table,\n"
	"                     function view, hide, recursion and zoom (default\n"
	"                     100000; the rest is shown as an exact \"other\"; 0: none)\n"
	"  --help             display this help and exit\n"
	"  --version          display the version and exit\n"
	"\n"
	CLI_EXIT_STATUS_HELP
	"Example: perf script | fg-collapse-perf | fg-render > cpu.svg\n";

typedef struct settings {
	fg_graph_options graph;
	const char *output;
	const char *min_width;
	const char *total;
	int jobs;
} settings;

static int valid_min_width(settings *s)
{
	const char *text = s->min_width;
	size_t length = strlen(text);
	bool percent = length > 0 && text[length - 1] == '%';
	/* A number without a sign (flamegraph.pl: ^[0-9.]+%?$; an exponent is
	 * let through), then an optional '%': not "%", "0x10", " 5" or "1.2.3". */
	char *number = strndup(text, length - percent);
	if (number == NULL) {
		cli_error("fg-render", "out of memory");
		return -1;
	}
	bool valid = number[0] != '+' && number[0] != '-' && cli_is_real(number);
	if (valid) {
		s->graph.min_width = strtod(number, NULL);
		s->graph.min_width_percent = percent;
	}
	free(number);
	if (!valid)
		cli_error("fg-render", "invalid --minwidth '%s': expected a number of pixels or NUM%%", text);
	return valid ? 0 : -1;
}

int main(int argc, char **argv)
{
	cli_start();
	settings s = {0};
	fg_graph_options *g = &s.graph;
	fg_graph_options_init(g);
	const cli_option options[] = {
		{"output", 'o', CLI_STRING, &s.output},
		{"jobs", 'j', CLI_INT, &s.jobs},
		{"title", 0, CLI_STRING, &g->title},
		{"subtitle", 0, CLI_STRING, &g->subtitle},
		{"width", 0, CLI_INT, &g->width},
		{"height", 0, CLI_INT, &g->frame_height},
		{"minwidth", 0, CLI_STRING, &s.min_width},
		{"fonttype", 0, CLI_STRING, &g->font_type},
		{"fontsize", 0, CLI_DOUBLE, &g->font_size},
		{"fontwidth", 0, CLI_DOUBLE, &g->font_width},
		{"countname", 0, CLI_STRING, &g->count_name},
		{"nametype", 0, CLI_STRING, &g->name_type},
		{"colors", 0, CLI_STRING, &g->colors},
		{"bgcolors", 0, CLI_STRING, &g->bg_colors},
		{"hash", 0, CLI_FLAG, &g->hash},
		{"random", 0, CLI_FLAG, &g->random},
		{"cp", 0, CLI_FLAG, &g->consistent_palette},
		{"reverse", 0, CLI_FLAG, &g->reverse},
		{"inverted", 0, CLI_FLAG, &g->inverted},
		{"flamechart", 0, CLI_FLAG, &g->flamechart},
		{"negate", 0, CLI_FLAG, &g->negate},
		{"notes", 0, CLI_STRING, &g->notes},
		{"total", 0, CLI_STRING, &s.total},
		{"factor", 0, CLI_DOUBLE, &g->factor},
		{"nameattr", 0, CLI_STRING, &g->name_attr_path},
		{"encoding", 0, CLI_STRING, &g->encoding},
		{"diff-union", 0, CLI_FLAG, &g->diff_union},
		{"diff-threshold", 0, CLI_DOUBLE, &g->diff_threshold},
		{"view-nodes", 0, CLI_INT, &g->view_nodes},
		{NULL, 0, CLI_FLAG, NULL},
	};
	static const char *const added[] = {"output", "jobs", "diff-union", "diff-threshold",
					    "view-nodes", NULL};
	const cli c = {.program = "fg-render", .usage = usage, .options = options, .context = &s,
		       .added = added};
	int first = cli_parse(&c, argc, argv);

	if (s.min_width != NULL && valid_min_width(&s) != 0)
		return CLI_EXIT_USAGE;
	if (s.total != NULL && s.total[0] != '\0' &&
	    fg_count_parse(s.total, strlen(s.total), &g->total) != 0) {
		cli_error("fg-render", "invalid --total '%s': expected a count", s.total);
		return CLI_EXIT_USAGE;
	}
	g->threads = (unsigned)s.jobs;
	fg_error err = {0};
	if (fg_graph_options_check(g, &err) != 0) {
		cli_error("fg-render", "%s", err.message);
		return CLI_EXIT_USAGE;
	}
	if (g->bg_colors != NULL && !fg_background_is_valid(g->bg_colors)) {
		cli_error("fg-render", "unrecognized --bgcolors '%s': use yellow, blue, green, "
				       "grey or #rrggbb", g->bg_colors);
		return CLI_EXIT_USAGE;
	}
	if (!fg_palette_is_valid(g->colors))
		cli_error("fg-render", "warning: unknown palette '%s': frames will be black",
			  g->colors);

	fg_warner warner = cli_warner("fg-render");
	fg_graph *graph = fg_graph_new(g);
	if (graph == NULL) {
		cli_error("fg-render", "out of memory");
		return CLI_EXIT_FAILURE_IO;
	}
	int rc = fg_graph_run(graph, (const char *const *)argv + first, (size_t)(argc - first),
			      s.output, &warner, &err);
	fg_graph_free(graph);
	/* No valid input: the warning said so. */
	if (rc != 0 && rc != FG_EEMPTY)
		cli_error("fg-render", "%s", err.message);
	return rc != 0 ? CLI_EXIT_FAILURE_IO : CLI_EXIT_OK;
}
