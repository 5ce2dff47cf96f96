/*
 * test_perf_line.c - unit tests of perf_line.c and perf_symbol.c, the perf
 * parser's stateless parts: what a line is and its fields, and how a
 * symbol is tidied.
 */
#include <stdlib.h>

#include "check.h"
#include "perf.h"

static bool field(const char *p, size_t n, const char *expected)
{
	return p != NULL && n == strlen(expected) && memcmp(p, expected, n) == 0;
}

static void test_lines(void)
{
	fg_perf_header h;
	size_t indent = 0;
	const char *header = "java 1234/1235 [003] 1360.665435: 1 cycles:";
	CHECK(fg_perf_classify(false, header, strlen(header), &indent, &h) == FG_PERF_LINE_HEADER &&
	      field(h.comm, h.comm_length, "java") && field(h.pid, h.pid_length, "1234") &&
	      field(h.tid, h.tid_length, "1235") && field(h.event, h.event_length, "cycles") &&
	      field(h.period, h.period_length, "1"), "perf line: a header and its fields");
	const char *spaced = "my prog 77 cycles:";
	CHECK(fg_perf_match_header(spaced, strlen(spaced), false, &h) &&
	      field(h.comm, h.comm_length, "my prog") && h.tid == NULL,
	      "perf line: a comm with a space, one number");
	CHECK(fg_perf_classify(false, "# comment", 9, &indent, &h) == FG_PERF_LINE_COMMENT,
	      "perf line: a comment");
	CHECK(fg_perf_classify(false, " \t ", 3, &indent, &h) == FG_PERF_LINE_BLANK,
	      "perf line: a blank line");
	const char *frame = "\t    7f1234 main+0x1a (/bin/app (x))";
	CHECK(fg_perf_classify(false, frame, strlen(frame), &indent, &h) == FG_PERF_LINE_OTHER &&
	      indent == 5, "perf line: a frame line is no header");
	fg_perf_frame f;
	CHECK(fg_perf_match_frame(frame, strlen(frame), indent, &f) && field(f.pc, f.pc_length, "7f1234") &&
	      field(f.symbol, f.symbol_length, "main+0x1a (/bin/app") &&
	      field(f.module, f.module_length, "x)"),
	      "perf line: as the script's greedy (.+), the symbol runs to the last \" (\"");
	const char *deleted = "7f1234 main+0x1a (/bin/app (deleted))";
	CHECK(fg_perf_match_frame(deleted, strlen(deleted), 0, &f) && field(f.symbol, f.symbol_length, "main+0x1a") &&
	      field(f.module, f.module_length, "/bin/app"),
	      "perf line: but a module marked (deleted) is the module");
	const char *plain = "7f1234 main+0x1a (/bin/app)";
	CHECK(fg_perf_match_frame(plain, strlen(plain), 0, &f) && field(f.symbol, f.symbol_length, "main+0x1a") &&
	      field(f.module, f.module_length, "/bin/app"), "perf line: address, symbol, module");
	CHECK(!fg_perf_match_frame("7f1234 main", 11, 0, &f) &&
	      fg_perf_match_moduleless_frame("7f1234 main", 11, 0, &f) &&
	      field(f.symbol, f.symbol_length, "main"), "perf line: a frame without a module");
	char quoted[FG_PERF_QUOTE_MAX + 4];
	fg_perf_quote("a\x1b[31mb\tc", 9, quoted);
	CHECK_STR(quoted, "a?[31mb c", "perf line: a quote has no escape sequence");
}

static const char *tidy(const char *symbol)
{
	static fg_buffer out;
	out.length = 0;
	if (fg_perf_tidy(&out, symbol, strlen(symbol), fg_perf_symbol_class(symbol, strlen(symbol))) != 0 ||
	    fg_buffer_append(&out, "", 1) != 0)
		return NULL;
	return out.data;
}

static void test_symbols(void)
{
	CHECK_STR(tidy("main"), "main", "perf symbol: a plain name is copied");
	CHECK_STR(tidy("f(int, char*)"), "f", "perf symbol: the argument list goes");
	CHECK_STR(tidy("(anonymous namespace)::g(int)"), "(anonymous namespace)::g",
		  "perf symbol: (anonymous namespace) stays");
	CHECK_STR(tidy("main.(*T).Method"), "main.(*T).Method", "perf symbol: a Go method stays");
	CHECK_STR(tidy("a;b\"c'd"), "a:bcd", "perf symbol: ';' becomes ':', quotes go");
	CHECK(fg_perf_is_kernel_module("[kernel.kallsyms]", 17) &&
	      fg_perf_is_kernel_module("/boot/vmlinux", 13) &&
	      !fg_perf_is_kernel_module("[unknown]", 9), "perf symbol: kernel modules");
	CHECK(fg_perf_is_jit_module("/tmp/perf-1234.map", 18) &&
	      !fg_perf_is_jit_module("/tmp/perf-.map", 14), "perf symbol: JIT maps");
}

int main(void)
{
	test_lines();
	test_symbols();
	return check_exit();
}
