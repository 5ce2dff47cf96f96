/*
 * fg-collapse-bpftrace - bpftrace stack maps to folded stacks (replaces
 * stackcollapse-bpftrace.pl). The work is libfolded's bpftrace parser and
 * collapse driver; see fg-collapse-bpftrace(1).
 */
#include "cli.h"

static const char usage[] =
	"Usage: fg-collapse-bpftrace [--includeoffset] [-j N] [-o FILE] [FILE ...]\n"
	"\n"
	"Folds the maps bpftrace prints (@[kstack] = count(), @name[ustack, comm], ...)\n"
	"into one line per stack, \"root;...;leaf COUNT\", sorted. Other key fields\n"
	"(comm, pid...) become root frames. Reads the FILEs (gzip allowed) or stdin.\n"
	"\n"
	"  --includeoffset  keep the +OFFSET of frames (func+12)\n"
	CLI_TRACE_HELP_OPTIONS;

static fg_collapse *make_collapse(const void *options, unsigned threads, const fg_warner *warner,
				  fg_error *err)
{
	return fg_bpftrace_collapse_new(options, threads, warner, err);
}

int main(int argc, char **argv)
{
	static const char program[] = "fg-collapse-bpftrace";
	fg_bpftrace_options options = {0};
	const char *output = NULL;
	int jobs = 0;
	const cli_option table[] = {
		{"includeoffset", 0, CLI_FLAG, &options.include_offset},
		{"jobs", 'j', CLI_INT, &jobs},
		{"output", 'o', CLI_STRING, &output},
		{NULL, 0, CLI_FLAG, NULL},
	};
	const cli c = {.program = program, .usage = usage, .options = table};
	cli_start();
	int first = cli_parse(&c, argc, argv);
	return cli_collapse(program, make_collapse, &options, jobs, output, argc, argv, first);
}
