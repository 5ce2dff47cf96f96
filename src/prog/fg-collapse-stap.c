/*
 * fg-collapse-stap - SystemTap stacks to folded stacks (replaces
 * stackcollapse-stap.pl). The work is libfolded's trace parser and collapse driver.
 */
#include "cli.h"

static const char usage[] =
	"usage: fg-collapse-stap [-j N] [-o FILE] [FILE ...]\n"
	"\n"
	"Folds SystemTap print_stack()/print_ustack() output, each stack followed by\n"
	"its count, into one line per stack, \"root;...;leaf COUNT\", sorted.\n"
	"Reads the FILEs (gzip allowed) or stdin.\n"
	"\n"
	"  -j, --jobs N     threads to use (default: one per core)\n"
	"  -o, --output FILE  write to FILE atomically (default: stdout)\n"
	"  --help           show this help\n"
	"  --version        show the version\n";

static fg_collapse *make_collapse(const void *options, unsigned threads, const fg_warner *warner,
				  fg_error *err)
{
	return fg_trace_collapse_new(options, threads, warner, err);
}

int main(int argc, char **argv)
{
	fg_trace_options options = {.format = FG_TRACE_STAP};
	const char *output = NULL;
	int jobs = 0;
	const cli_option table[] = {
		{"jobs", 'j', CLI_INT, &jobs},
		{"output", 'o', CLI_STRING, &output},
		{NULL, 0, CLI_FLAG, NULL},
	};
	const cli c = {"fg-collapse-stap", usage, table, NULL};
	cli_start();
	int first = cli_parse(&c, argc, argv);
	return cli_collapse(c.program, make_collapse, &options, jobs, output, argc, argv, first);
}
