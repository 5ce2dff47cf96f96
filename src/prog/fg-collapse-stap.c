/*
 * fg-collapse-stap - SystemTap stacks to folded stacks (replaces
 * stackcollapse-stap.pl). The work is libfolded's trace parser and collapse driver.
 */
#include "cli.h"

static const char usage[] =
	"Usage: fg-collapse-stap [-j N] [-o FILE] [FILE ...]\n"
	"\n"
	"Folds SystemTap print_stack()/print_ustack() output, each stack followed by\n"
	"its count, into one line per stack, \"root;...;leaf COUNT\", sorted.\n"
	"Reads the FILEs (gzip allowed) or stdin.\n"
	"\n"
	CLI_TRACE_HELP_OPTIONS;

int main(int argc, char **argv)
{
	return cli_trace_main("fg-collapse-stap", usage, FG_TRACE_STAP, argc, argv);
}
