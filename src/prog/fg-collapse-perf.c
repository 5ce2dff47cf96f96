/*
 * fg-collapse-perf - perf script output in, folded stacks out.
 * A thin client of libfolded's perf parser and collapse driver; see
 * fg-collapse-perf(1).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
	"usage: fg-collapse-perf [--pid | --tid] [--kernel] [--jit] [--all] [--addrs]\n"
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
	"  -j, --jobs N        threads (default: one per CPU); the output is the same\n"
	"  -o, --output FILE   write to FILE atomically (default: stdout)\n"
	"  --help, --version\n";

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
	const cli c = {program, usage, options, &s};
	cli_start();
	int first = cli_parse(&c, argc, argv);
	if (s.jobs < 0) {
		cli_error(program, "-j needs a number of threads >= 0");
		return EXIT_USAGE;
	}
	if (s.all)
		s.perf.kernel = s.perf.jit = true;
	if (s.context)
		s.perf.inline_frames = s.perf.srcline = true;
	s.perf.skip_after = s.skip_after;
	s.perf.skip_after_count = s.skip_after_count;

	fg_warner warner = cli_warner(program);
	fg_error err = {0};
	fg_collapse *collapse = fg_perf_collapse_new(&s.perf, (unsigned)s.jobs, &warner, &err);
	if (collapse == NULL) {
		cli_error(program, "%s", err.message);
		return EXIT_FAILURE_IO;
	}
	int status = EXIT_OK;
	int files = argc - first;
	for (int i = 0; i < (files > 0 ? files : 1) && status != -1; i++) {
		const char *path = files > 0 ? argv[first + i] : NULL;
		fg_input *in = fg_input_open(path, &err);
		int rc = in != NULL ? fg_collapse_read(collapse, in, &err) : err.code;
		fg_input_close(in);
		if (rc != 0) {
			cli_error(program, "%s", err.message);
			/* An unreadable input is skipped; running out of memory or
			 * overflowing a count ends the run. */
			status = rc == FG_ENOMEM || rc == FG_ERANGE ? -1 : EXIT_FAILURE_IO;
		}
	}
	fg_stacks *stacks = status == -1 ? NULL : fg_collapse_stacks(collapse, &err);
	if (stacks == NULL) {
		if (status != -1)
			cli_error(program, "%s", err.message);
		fg_collapse_free(collapse);
		free(s.skip_after);
		return EXIT_FAILURE_IO;
	}
	fg_output *out = fg_output_open(s.output, &err);
	int rc = out != NULL ? fg_stacks_write(stacks, 1, out) : err.code;
	if (out != NULL) {
		if (rc == 0)
			rc = fg_output_commit(out, &err);
		else
			fg_output_abort(out);
		if (rc != 0 && err.message[0] == '\0')
			fg_fail(&err, rc, "%s: cannot write", s.output ? s.output : "<stdout>");
	}
	if (rc != 0) {
		cli_error(program, "%s", err.message);
		status = EXIT_FAILURE_IO;
	} else if (fg_stacks_size(stacks) == 0 && status == EXIT_OK) {
		cli_error(program, "no stacks found in the input");
		status = EXIT_FAILURE_IO;
	}
	fg_collapse_free(collapse);
	free(s.skip_after);
	return status;
}
