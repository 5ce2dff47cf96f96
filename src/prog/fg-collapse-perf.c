/*
 * fg-collapse-perf - perf script output in, folded stacks out.
 * A thin client of libfolded's perf parser and collapse driver; see
 * fg-collapse-perf(1).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
	"Usage: fg-collapse-perf [--pid | --tid] [--kernel] [--jit] [--all] [--addrs]\n"
	"                        [--event-filter EVENT] [--inline] [--context] [--srcline]\n"
	"                        [--skip-after SYMBOL]... [-j N] [-o FILE] [FILE...]\n"
	"\n"
	"Folds the stacks of `perf script` output (FILEs, gzip allowed, or stdin)\n"
	"into lines \"frame;frame;... COUNT\" for fg-render.\n"
	"\n"
	"  --pid               the root frame is comm-PID\n"
	"  --tid               the root frame is comm-PID/TID\n"
	"  --kernel            annotate kernel frames with _[k]\n"
	"  --jit               annotate JIT frames (/tmp/perf-N.map) with _[j]\n"
	"  --all               --kernel and --jit\n"
	"  --addrs             show the address of unknown symbols: [module <ADDR>]\n"
	"  --event-filter EV   collapse only samples of event EV (default: the first)\n"
	"  --inline            annotate the frames perf marks (inlined) with _[i]\n"
	"                      (perf script --inline)\n"
	"  --context           --inline and --srcline\n"
	"  --srcline           append the source line that perf script -F+srcline\n"
	"                      prints after each frame: func:file.c:42\n"
	"  --skip-after SYM    drop the callers of frames named SYM (repeatable)\n"
	"  -j, --jobs N        threads (default 0 = one per core); the output is the\n"
	"                      same for any N\n"
	"  -o, --output FILE   write to FILE atomically (default: standard output)\n"
	"  --help              display this help and exit\n"
	"  --version           display the version and exit\n"
	"\n"
	CLI_EXIT_STATUS_HELP
	"Example: perf script | fg-collapse-perf | fg-render > cpu.svg\n";

struct settings {
	fg_perf_options perf;
	bool all, context;
	int jobs;
	const char *output;
	const char **skip_after;
	size_t skip_after_count;
};

static int add_skip_after(const char *value, void *context)
{
	struct settings *s = context;
	const char **grown = realloc(s->skip_after, (s->skip_after_count + 1) * sizeof(*grown));
	if (grown == NULL) {
		cli_error("fg-collapse-perf", "out of memory");
		return -1;
	}
	grown[s->skip_after_count++] = value;
	s->skip_after = grown;
	return 0;
}

static fg_collapse *make_collapse(const void *options, unsigned threads, const fg_warner *warner,
				  fg_error *err)
{
	return fg_perf_collapse_new(options, threads, warner, err);
}

int main(int argc, char **argv)
{
	static const char program[] = "fg-collapse-perf";
	struct settings s;
	memset(&s, 0, sizeof(s));
	fg_perf_options_init(&s.perf);
	s.jobs = 0;
	const cli_option options[] = {
		{"pid", 0, CLI_FLAG, &s.perf.pid},
		{"tid", 0, CLI_FLAG, &s.perf.tid},
		{"kernel", 0, CLI_FLAG, &s.perf.kernel},
		{"jit", 0, CLI_FLAG, &s.perf.jit},
		{"all", 0, CLI_FLAG, &s.all},
		{"addrs", 0, CLI_FLAG, &s.perf.addrs},
		{"event-filter", 0, CLI_STRING, &s.perf.event_filter},
		{"inline", 0, CLI_FLAG, &s.perf.inline_frames},
		{"context", 0, CLI_FLAG, &s.context},
		{"srcline", 0, CLI_FLAG, &s.perf.srcline},
		{"skip-after", 0, CLI_CALL, (void *)add_skip_after},
		{"jobs", 'j', CLI_INT, &s.jobs},
		{"output", 'o', CLI_STRING, &s.output},
		{NULL, 0, CLI_FLAG, NULL},
	};
	static const char *const added[] = {"skip-after", "jobs", "output", NULL};
	const cli c = {.program = program, .usage = usage, .options = options, .context = &s,
		       .added = added};
	cli_start();
	int first = cli_parse(&c, argc, argv);
	if (s.all)
		s.perf.kernel = s.perf.jit = true;
	if (s.context)
		s.perf.inline_frames = s.perf.srcline = true;
	s.perf.skip_after = s.skip_after;
	s.perf.skip_after_count = s.skip_after_count;

	/* A filter that names an event the input lacks leaves no stack: say
	 * which filter, the likely reason. */
	char hint[256];
	const char *filter = s.perf.event_filter;
	bool filtered = filter != NULL && filter[0] != '\0';
	if (filtered) {
		/* (at most 200 bytes of it, cut between two UTF-8 characters) */
		size_t shown = strlen(filter);
		if (shown > 200)
			for (shown = 200; shown > 0 && ((unsigned char)filter[shown] & 0xc0) == 0x80; shown--)
				;
		snprintf(hint, sizeof(hint), "no samples of event %.*s%s, which --event-filter asks for",
			 (int)shown, filter, filter[shown] != '\0' ? "..." : "");
	}
	int status = cli_collapse_hinted(program, make_collapse, &s.perf, s.jobs, s.output, argc, argv,
					 first, filtered ? hint : NULL);
	free(s.skip_after);
	return status;
}
