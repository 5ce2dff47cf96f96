/*
 * fg-collapse-dtrace - DTrace stack aggregations to folded stacks
 * (replaces stackcollapse.pl). The work is libfolded's trace parser and collapse driver.
 */
#include "cli.h"

static const char usage[] =
	"Usage: fg-collapse-dtrace [--includeoffset] [-j N] [-o FILE] [FILE ...]\n"
	"\n"
	"Folds DTrace stack()/ustack()/jstack() aggregation output into one line per\n"
	"stack, \"root;...;leaf COUNT\", sorted. Reads the FILEs (gzip allowed) or stdin.\n"
	"\n"
	"  --includeoffset  keep the +0xOFF offsets of frames\n"
	CLI_TRACE_HELP_OPTIONS;

int main(int argc, char **argv)
{
	return cli_trace_main("fg-collapse-dtrace", usage, FG_TRACE_DTRACE, argc, argv);
}
