/*
 * fg-diff - two folded profiles into one differential profile:
 * "STACK BEFORE AFTER" lines for fg-render. Replaces difffolded.pl.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const char usage[] =
	"Usage: fg-diff [-n] [-s] [-o FILE] BEFORE.folded AFTER.folded\n"
	"Print \"STACK BEFORE AFTER\" for every stack of either profile (0 where\n"
	"a profile lacks it), sorted bytewise; fg-render draws the result as a\n"
	"differential flame graph (red grew, blue shrank).\n"
	"\n"
	"  -n, --normalize    scale BEFORE counts so both profiles have the same total\n"
	"  -s, --strip-hex    replace hex digits after 0x with ... before merging\n"
	"  -o, --output FILE  write to FILE atomically (default: standard output)\n"
	"  --help             display this help and exit\n"
	"  --version          display the version and exit\n"
	"\n"
	"Either file may be - (standard input) or gzip-compressed.\n"
	CLI_EXIT_STATUS_HELP
	"Example: fg-diff before.folded after.folded | fg-render > diff.svg\n";

/* The file a path names, "-" the standard input's; false if unknown. */
static bool file_of(const char *path, struct stat *st)
{
	return strcmp(path, "-") == 0 ? fstat(0, st) == 0 : stat(path, st) == 0;
}

/*
 * BEFORE and AFTER are one pipe (or socket), named twice:
 * "- /dev/stdin", a FIFO's path twice. It can be read once only: AFTER
 * would be found empty, every stack "removed". A file named twice is
 * read twice, as asked.
 */
static bool same_pipe(const char *before, const char *after)
{
	struct stat a, b;
	return file_of(before, &a) && file_of(after, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino && (S_ISFIFO(a.st_mode) || S_ISSOCK(a.st_mode));
}

int main(int argc, char **argv)
{
	cli_start();
	fg_diff_options options = {0};
	const char *output = NULL;
	const cli_option table[] = {
		{"normalize", 'n', CLI_FLAG, &options.normalize},
		{"strip-hex", 's', CLI_FLAG, &options.strip_hex},
		{"output", 'o', CLI_STRING, &output},
		{NULL, 0, CLI_FLAG, NULL},
	};
	const cli c = {.program = "fg-diff", .usage = usage, .options = table};
	int first = cli_parse(&c, argc, argv);
	if (argc - first != 2) {
		cli_error("fg-diff", "expected two files, BEFORE and AFTER");
		fputs("Try 'fg-diff --help' for more information.\n", stderr);
		return CLI_EXIT_USAGE;
	}
	if (strcmp(argv[first], "-") == 0 && strcmp(argv[first + 1], "-") == 0) {
		/* (read once, it would leave AFTER empty: every stack "removed") */
		cli_error("fg-diff", "BEFORE and AFTER cannot both be the standard input");
		return CLI_EXIT_USAGE;
	}
	if (same_pipe(argv[first], argv[first + 1])) {
		cli_error("fg-diff", "BEFORE and AFTER are one pipe (%s, %s), which can be read only once",
			  argv[first], argv[first + 1]);
		return CLI_EXIT_USAGE;
	}
	fg_warner warner = cli_warner("fg-diff");
	fg_error err = {0};
	if (fg_diff_run(argv[first], argv[first + 1], output, &options, &warner, &err) != 0) {
		cli_error("fg-diff", "%s", err.message);
		return CLI_EXIT_FAILURE_IO;
	}
	return CLI_EXIT_OK;
}
