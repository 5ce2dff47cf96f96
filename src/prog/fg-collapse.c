/*
 * fg-collapse - any supported profiler output in, folded stacks out: the
 * format is detected from the first lines of each input (or given with
 * --format), then the format's own collapser runs. See fg-collapse(1).
 */
#include <stdio.h>

#include "cli.h"

static const char usage[] =
	"Usage: fg-collapse [-v] [--format NAME] [-j N] [-o FILE] [FILE ...]\n"
	"\n"
	"Folds perf script text, DTrace aggregations, SystemTap print_stack() output,\n"
	"bpftrace maps or already folded stacks into one line per stack,\n"
	"\"root;...;leaf COUNT\", sorted: the same bytes as fg-collapse-perf,\n"
	"fg-collapse-dtrace, fg-collapse-stap or fg-collapse-bpftrace without options.\n"
	"The format is told from the first lines. Reads the FILEs (gzip allowed) or stdin.\n"
	"\n"
	"  -v, --verbose    say which format was chosen, and from which line\n"
	"  --format NAME    perf, dtrace, stap, bpftrace or folded: no detection\n"
	CLI_TRACE_HELP_OPTIONS;

static int set_format(const char *value, void *context)
{
	fg_format *format = context;
	*format = fg_format_from_name(value);
	if (*format == FG_FORMAT_UNKNOWN) {
		cli_error("fg-collapse", "unknown format '%s' (perf, dtrace, stap, bpftrace, folded)",
			  value);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const char program[] = "fg-collapse";
	fg_format format = FG_FORMAT_UNKNOWN;
	bool verbose = false;
	const char *output = NULL;
	int jobs = 0;
	const cli_option table[] = {
		{"verbose", 'v', CLI_FLAG, &verbose},
		{"format", 0, CLI_CALL, (void *)set_format},
		{"jobs", 'j', CLI_INT, &jobs},
		{"output", 'o', CLI_STRING, &output},
		{NULL, 0, CLI_FLAG, NULL},
	};
	const cli c = {.program = program, .usage = usage, .options = table, .context = &format};
	cli_start();
	int first = cli_parse(&c, argc, argv);
	if (!cli_jobs_valid(program, jobs))
		return CLI_EXIT_USAGE;
	fg_warner warner = cli_warner(program);
	fg_error err = {0};
	int rc = fg_collapse_detected(format, (const char *const *)argv + first,
				      (size_t)(argc - first), output, (unsigned)jobs, &warner,
				      verbose ? &warner : NULL, &err);
	if (rc == 0)
		return CLI_EXIT_OK;
	cli_error(program, "%s", err.message[0] ? err.message : "out of memory");
	return CLI_EXIT_FAILURE_IO;
}
