/*
 * cli.h - what the fg programs share: option parsing in the style of
 * Getopt::Long (the original tools' parser, so scripts keep working),
 * messages in the "prog: file:line: reason" form, and exit codes.
 */
#ifndef FG_CLI_H
#define FG_CLI_H

#include <stdbool.h>

#include "folded.h"

/* Exit statuses of every fg program (documented in each man page). */
enum {
	CLI_EXIT_OK = 0,      /* success, possibly with warnings */
	CLI_EXIT_USAGE = 1,   /* bad options or arguments */
	CLI_EXIT_FAILURE_IO = 2, /* no valid input, or an I/O error */
};

enum cli_kind {
	CLI_FLAG,     /* bool *: set to true */
	CLI_STRING,   /* const char **: the argument */
	CLI_INT,      /* int *: a decimal integer (a leading + is allowed) */
	CLI_DOUBLE,   /* double *: a decimal number */
	CLI_CALL,     /* int (*)(const char *value, void *context): returns 0 or -1 */
	CLI_CALL_FLAG, /* int (*)(const char *value, void *context) with value NULL */
};

typedef int cli_callback(const char *value, void *context);

typedef struct cli_option {
	const char *name;    /* long name, matched case-insensitively by unique prefix */
	char short_name;     /* 0 for none */
	enum cli_kind kind;
	void *target;
} cli_option;

typedef struct cli {
	const char *program;     /* "fg-render" */
	const char *usage;       /* full --help text; its first lines are the synopsis */
	const cli_option *options;
	void *context;           /* handed to callbacks */
	/* The options the original has not (NULL-terminated; NULL: none): a
	 * prefix that they share with one of the original's means the
	 * original's, so that a script keeps its meaning (in
	 * fg-collapse-perf, --j is --jit and --s --srcline, not --jobs and
	 * --skip-after). */
	const char *const *added;
} cli;

/*
 * Parses argv. Handles --help (usage to stdout, exit 0) and --version
 * itself. On an error prints "prog: reason" and a hint to stderr and exits
 * with CLI_EXIT_USAGE. Returns the index of the first operand; operands and
 * options may be interleaved (they are permuted so operands come last).
 */
int cli_parse(const cli *c, int argc, char **argv);

/* Prints "prog: message" to stderr (printf-style). */
void cli_error(const char *program, const char *format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* A warner that prints "prog: file:line: message" to stderr. */
fg_warner cli_warner(const char *program);

/*
 * The end of every collapser's main: checks -j (jobs >= 0), runs the
 * collapser that make_collapse builds with that many threads over the
 * operands argv[first..argc) (none: stdin) into output, prints any error,
 * and returns the exit status.
 */
typedef fg_collapse *cli_collapse_factory(const void *options, unsigned threads,
					  const fg_warner *warner, fg_error *err);
int cli_collapse(const char *program, cli_collapse_factory *make_collapse, const void *options,
		 int jobs, const char *output, int argc, char **argv, int first);

/* cli_collapse, with `empty_hint` (if not NULL) said after "no stacks found
 * in the input" when the input gave none: why there may be none. */
int cli_collapse_hinted(const char *program, cli_collapse_factory *make_collapse,
			const void *options, int jobs, const char *output, int argc, char **argv,
			int first, const char *empty_hint);

/* The end of the --help text of fg-collapse-dtrace and fg-collapse-stap. */
#define CLI_TRACE_HELP_OPTIONS \
	"  -j, --jobs N     threads (default 0 = one per core); the output is the\n" \
	"                   same for any N\n" \
	"  -o, --output FILE  write to FILE atomically (default: standard output)\n" \
	"  --help           display this help and exit\n" \
	"  --version        display the version and exit\n" \
	"\n" \
	CLI_EXIT_STATUS_HELP

/* The last lines of every --help but the example: the exit statuses. */
#define CLI_EXIT_STATUS_HELP \
	"Exit status: 0 success, 1 usage error, 2 no valid input or I/O error.\n"

/*
 * All of fg-collapse-dtrace and fg-collapse-stap: options -j, -o (and
 * --includeoffset for DTrace), then cli_collapse with the trace parser.
 */
int cli_trace_main(const char *program, const char *usage, fg_trace_format format, int argc,
		   char **argv);

/* Sets up the process: SIGPIPE ends it quietly, as Unix filters should. */
void cli_start(void);

/* Whether a collapser's -j is 0 (one per CPU) to 1024; else says so. */
bool cli_jobs_valid(const char *program, int jobs);

/* Whether s is a real number as Perl's Getopt::Long reads one ("=f"):
 * [+-]DIGITS[.DIGITS] or [+-].DIGITS, then [eE][+-]DIGITS; not hex, "inf",
 * "nan" or spaces, which strtod would take. */
bool cli_is_real(const char *s);

#endif
