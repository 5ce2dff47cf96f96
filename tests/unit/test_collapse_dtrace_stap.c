/*
 * test_collapse_dtrace_stap.c - the frame rules of fg_dtrace_clean_frame and
 * fg_stap_clean_frame, and the trace parser on buffers: count lines,
 * banners, warnings with file and line.
 */
#include <stdlib.h>

#include "check.h"
#include "folded.h"

/* One frame line through a cleaner, joined root first. */
static const char *dtrace(const char *line, bool include_offset)
{
	fg_stack_builder b;
	fg_stack_builder_init(&b);
	return check_joined(&b, fg_dtrace_clean_frame(line, strlen(line), include_offset, &b));
}

static const char *stap(const char *line)
{
	fg_stack_builder b;
	fg_stack_builder_init(&b);
	return check_joined(&b, fg_stap_clean_frame(line, strlen(line), &b));
}

static void test_dtrace_frames(void)
{
	CHECK_STR(dtrace("              genunix`open+0x25", false), "genunix`open", "dtrace: offset removed, module kept");
	CHECK_STR(dtrace("genunix`open+0x25", true), "genunix`open+0x25", "dtrace: --includeoffset keeps it");
	CHECK_STR(dtrace("unix`0xfffffffffb800c91", false), "unix`0xfffffffffb800c91", "dtrace: address frame unchanged");
	CHECK_STR(dtrace("0xfb60b4b4", false), "0xfb60b4b4", "dtrace: bare address unchanged");
	CHECK_STR(dtrace("libstdc++.so.6`_ZNSs6appendEPKc+0x1c", false), "libstdc++.so.6`_ZNSs6appendEPKc",
		  "dtrace: '+' in a module name stays");
	CHECK_STR(dtrace("a.out`operator++0x10", false), "a.out`operator+", "dtrace: operator+ keeps its '+'");
	CHECK_STR(dtrace("a.out`operator+", false), "a.out`operator+", "dtrace: operator+ without offset");
	CHECK_STR(dtrace("a.out`f+0x", false), "a.out`f+0x", "dtrace: '+0x' without digits is no offset");
	CHECK_STR(dtrace("a.out`f+0xZZ", false), "a.out`f+0xZZ", "dtrace: '+0x' with non-hex is no offset");
	CHECK_STR(dtrace("a.out`f+0xABCdef \r", false), "a.out`f", "dtrace: trailing whitespace and CR");
	CHECK_STR(dtrace("a.out`ns::Foo<int>::bar(int, char*)+0x4", false), "a.out`ns::Foo<int>::bar",
		  "dtrace: C++ arguments removed");
	CHECK_STR(dtrace("ns::vec<ns::x>", false), "ns::vec", "dtrace: C++ template tail removed");
	CHECK_STR(dtrace("a::b(c<d>)", false), "a::b(c", "dtrace: cut at the last ( or < after the first ::");
	CHECK_STR(dtrace("foo(int)", false), "foo(int)", "dtrace: no :: no C++ cut");
	CHECK_STR(dtrace("vec<int>::x", false), "vec<int>::x", "dtrace: ( or < before the first :: stays");
	CHECK_STR(dtrace("a::", false), "a::", "dtrace: :: at the end");
	CHECK_STR(dtrace("a:b", false), "a:b", "dtrace: single colon");
	CHECK_STR(dtrace("leaf->inl1->inl2", false), "leaf;inl1_[i];inl2_[i]", "dtrace: -> chain");
	CHECK_STR(dtrace("a->", false), "a;-_[i]", "dtrace: -> with an empty end");
	CHECK_STR(dtrace("x;y+0x3", false), "x:y", "dtrace: ; becomes :");
	CHECK_STR(dtrace("Ljava/lang/Thread;::run", false), "java/lang/Thread:::run", "dtrace: JVM L dropped");
	CHECK_STR(dtrace("LLVM`compile+0x20", false), "LLVM`compile", "dtrace: L kept on non-JVM names");
	CHECK_STR(dtrace("L", false), "L", "dtrace: a lone L");
	CHECK_STR(dtrace("+0x10", false), "-", "dtrace: empty frame becomes -");
	CHECK_STR(dtrace("   ", false), "-", "dtrace: blank frame becomes -");
}

static void test_stap_frames(void)
{
	CHECK_STR(stap(" 0xffffffff8103ce3b : native_safe_halt+0xb/0x10 [kernel]"), "native_safe_halt",
		  "stap: address, offset and module removed");
	CHECK_STR(stap(" 0x7f0000001234 : std::string::append+0x1c/0x40 [/usr/lib/libstdc++.so.6]"),
		  "std::string::append", "stap: '+' in the module");
	CHECK_STR(stap(" 0x401000 : operator++0x10/0x20 [/tmp/a.out]"), "operator+", "stap: operator+");
	CHECK_STR(stap(" 0x401000 : operator+ [/tmp/a.out]"), "operator+", "stap: operator+ without offset");
	CHECK_STR(stap(" 0x401100 : fmt%d%s+0x1/0x2 [/tmp/a.out]"), "fmt%d%s", "stap: %%d stays");
	CHECK_STR(stap(" 0x401200 : semi;colon+0x1/0x2 [m]"), "semi:colon", "stap: ; becomes :");
	CHECK_STR(stap(" 0x401300 : nooff [/tmp/a.out]"), "nooff", "stap: module without offset removed");
	CHECK_STR(stap(" 0x00007fd587158538"), "0x00007fd587158538", "stap: address only");
	CHECK_STR(stap(" 0x7fd587150000 [/usr/lib/libc++.so.1+0x1234]"), "0x7fd587150000",
		  "stap: address with module+offset");
	CHECK_STR(stap(" 0x401400 : +0x0/0x10 [/tmp/a.out]"), "-", "stap: empty name becomes -");
	CHECK_STR(stap("do_work+0x4/0x20 [/tmp/a.out]"), "do_work", "stap: no address (sprint_stack)");
	CHECK_STR(stap("do_work+0x4/0x20"), "do_work", "stap: offset without module");
	CHECK_STR(stap(" 0x1 : a : b+0x4/0x20 [m]"), "a : b", "stap: only the address prefix is cut");
	CHECK_STR(stap(" 0x1 : f+0x4/0x20x [m]"), "f+0x4/0x20x", "stap: a malformed offset stays");
	CHECK_STR(stap(" 0x1 : g [clone .cold] [m]"), "g [clone .cold]", "stap: only the last [module] goes");
	CHECK_STR(stap("name"), "name", "stap: a bare name");
}


/* Runs text through the driver with `threads` threads as one input named
 * "in"; returns the folded output. */
static const char *collapse(fg_trace_format format, const char *text, unsigned threads)
{
	static char out[1 << 16];
	fg_trace_options options = {.format = format};
	fg_warner w = {check_collect, NULL};
	fg_error err = {0};
	check_warnings()[0] = out[0] = '\0';
	fg_collapse *c = fg_trace_collapse_new(&options, threads, &w, &err);
	if (c == NULL || fg_collapse_text(c, text, strlen(text), "in", &err) != 0)
		return NULL;
	fg_stacks *stacks = fg_collapse_stacks(c, &err);
	if (stacks == NULL) {
		snprintf(out, sizeof(out), "error: %s\n", err.message);
		fg_collapse_free(c);
		return out;
	}
	const fg_stack_entry **sorted = fg_stacks_sorted(stacks);
	for (size_t i = 0; i < fg_stacks_size(stacks); i++) {
		char count[FG_COUNT_TEXT_MAX];
		fg_count_format(sorted[i]->count[0], count);
		size_t used = strlen(out);
		snprintf(out + used, sizeof(out) - used, "%.*s %s\n", (int)sorted[i]->stack_length,
			 sorted[i]->stack, count);
	}
	free(sorted);
	fg_collapse_free(c);
	return out;
}

static void test_parser(void)
{
	const char *text = "CPU     ID                    FUNCTION:NAME\n"
			   "  0  64091                        :tick-60s \n"
			   "\n"
			   "  m`b+0x1\n"
			   "  m`a+0x2\n"
			   "   3  \n"
			   "\n"
			   "  m`a\n"
			   "\t4\r\n"
			   "CPU     ID                    FUNCTION:NAME\n"
			   "  1  64091                        :tick-60s \n"
			   "  m`b\n"
			   "  m`a\n"
			   "  2";
	CHECK_STR(collapse(FG_TRACE_DTRACE, text, 1), "m`a 4\nm`a;m`b 5\n",
		  "parser: banners, counts with spaces, CRLF, no final newline");
	CHECK_STR(check_warnings(), "", "parser: no warnings");

	CHECK_STR(collapse(FG_TRACE_DTRACE, "  m`a\n  5\n  6\n  m`b\n 1.5\n 1\n  m`c\n\n", 1),
		  " 7\nm`a 5\n", "parser: malformed lines dropped, the rest kept (an empty stack too)");
	CHECK_STR(check_warnings(),
		  "in:5: not a whole count: the stack it ends (1 frame line) ignored\n"
		  "in:8: 1 frame line at the end, with no count line after it, ignored\n",
		  "parser: warnings name file and line");
	/* A count that is no whole count (a DTrace sum's -3) ends its stack,
	 * dropped: its frames were glued onto the next entry's, a made-up
	 * path. The next entry is kept, blank line between them or not (stap
	 * scripts print none). */
	CHECK_STR(collapse(FG_TRACE_DTRACE, "  a`f\n  -3\n\n  a`g\n  2\n", 1), "a`g 2\n",
		  "parser: a negative count drops its stack, not the next one");
	CHECK_STR(collapse(FG_TRACE_DTRACE, "  a`f\n  -3\n  a`g\n  2\n", 1), "a`g 2\n",
		  "parser: ... without a blank line too");
	CHECK_STR(collapse(FG_TRACE_STAP, " 0x1 : f+0x1/0x2 [k]\n 0x2 : m+0x1/0x2 [k]\n\t1.5\n"
				" 0x3 : g+0x1/0x2 [k]\n 0x2 : m+0x1/0x2 [k]\n\t4\n", 1),
		  "m;g 4\n", "parser: a decimal count drops its stap stack, not the next one");
	CHECK_STR(check_warnings(),
		  "in:3: not a whole count: the stack it ends (2 frame lines) ignored\n",
		  "parser: the dropped stack is reported");
	CHECK_STR(collapse(FG_TRACE_STAP, "\t-2\n 0x2 : g+0x1/0x2 [k]\n\t4\n", 1), "g 4\n",
		  "parser: a malformed count alone is a line ignored");
	CHECK_STR(check_warnings(), "in:1: not a whole count: line ignored\n", "parser: ... and says so");
	/* A frame with control characters spoils its whole stack, up to the
	 * count line: joined without it, the stack would be a made-up path. */
	CHECK_STR(collapse(FG_TRACE_DTRACE, "  a`f\n  a`x\001y\n  a`h\n 5\n  a`g\n  2\n  a`\033k\n", 1),
		  "a`g 2\n", "parser: control characters drop their stack, the next one kept");
	CHECK_STR(check_warnings(),
		  "in:2: control characters in a frame: its stack ignored, up to the next count or blank line\n"
		  "in:7: control characters in a frame: its stack ignored, up to the next count or blank line\n",
		  "parser: one warning a spoilt stack, none for its end");

	CHECK_STR(collapse(FG_TRACE_STAP, "CPU ID FUNCTION:NAME\n 0x1 : f+0x1/0x2 [k]\n\t1\n", 1),
		  "f 1\n", "parser: stap: a header flush left is no frame");
	CHECK_STR(check_warnings(), "in:2: a line not indented like a stack frame before this line: header line ignored\n",
		  "parser: stap: the header is reported");
	/* A script's own greeting, SystemTap's messages (2>&1): no frames;
	 * sprint_stack's frames, flush left but with offsets, and a frame
	 * flush left inside a stack, are. */
	CHECK_STR(collapse(FG_TRACE_STAP, "Tracing... Hit Ctrl-C to end.\n 0x1 : f+0x1/0x2 [k]\n\t3\n"
				"WARNING: Number of errors: 0\n 0x2 : g+0x1/0x2 [k]\n\t4\n"
				"do_work+0x4/0x20 [/tmp/a.out]\nmain\n 7\n0x401000\n\t1\n"
				"leaf [m]\n 0x9 : mid+0x1/0x2 [k]\nERROR: oops\n 0x9 : root+0x1/0x2 [k]\n 2\n", 1),
		  "0x401000 1\nf 3\ng 4\nmain;do_work 7\nroot;mid;leaf 2\n", "parser: stap: headers and messages are no frames");
	CHECK_STR(check_warnings(), "in:2: a line not indented like a stack frame before this line: header line ignored\n"
		  "in:4: SystemTap's message, not a frame: WARNING: Number of errors: 0\n"
		  "in:14: SystemTap's message, not a frame: ERROR: oops\n",
		  "parser: stap: header and messages reported");
	/* DTrace -x stackindent=0 prints frames flush left. */
	CHECK_STR(collapse(FG_TRACE_DTRACE, "unix`i86_mwait+0xd\nunix`cpu_idle+0xf1\n1641\n\n"
				  "0xfb60b4b4\ngenunix`open+0x25\n12\nTracing, not a frame\n  a`f\n 1\n", 1),
		  "a`f 1\ngenunix`open;0xfb60b4b4 12\nunix`cpu_idle;unix`i86_mwait 1641\n",
		  "parser: DTrace frames flush left (stackindent=0) are frames");
	CHECK_STR(check_warnings(), "in:9: a line not indented like a stack frame before this line: header line ignored\n",
		  "parser: ... prose flush left is still no frame");
	/* Names alone flush left (a script's symname(), jstack's Java frames
	 * with stackindent=0) are frames; white space or "^C" makes a line
	 * flush left text around the stacks. */
	CHECK_STR(collapse(FG_TRACE_STAP, "schedule\ndo_syscall_64\n\t5\nvfs_read\nksys_read\n\t3\n", 1),
		  "do_syscall_64;schedule 5\nksys_read;vfs_read 3\n", "parser: stap: names alone flush left are frames");
	CHECK_STR(collapse(FG_TRACE_DTRACE, "^C\njava/lang/Thread.sleep(J)V\nlibjvm.so`JVM_Sleep+0x1\n5\n", 1),
		  "libjvm.so`JVM_Sleep;java/lang/Thread.sleep(J)V 5\n", "parser: dtrace: a Java frame flush left is a frame");
	CHECK_STR(check_warnings(), "in:1: not indented like a stack frame: header line ignored\n",
		  "parser: dtrace: ^C flush left is not");
	/* Lines flush left before a stack are told by the lines after them:
	 * indented frames show them text (a greeting without white space
	 * too), names flush left show them frames (white space and all: a
	 * demangled C++ leaf). */
	CHECK_STR(collapse(FG_TRACE_DTRACE, "Sampling...\n^C\n\n  genunix`kmem_free+0x4e\n  unix`sys_syscall+0x17a\n"
				  "  3\n\n=========\n-----\n  genunix`kmem_free+0x4e\n  unix`sys_syscall+0x17a\n  4\nDone.\n", 1),
		  "unix`sys_syscall;genunix`kmem_free 7\n", "parser: dtrace: greetings, separators, ^C, Done. are no frames");
	CHECK_STR(check_warnings(), "in:2: not indented like a stack frame: header line ignored\n"
		  "in:4: a line not indented like a stack frame before this line: header line ignored\n"
		  "in:10: 2 lines not indented like stack frames before this line: header lines ignored\n"
		  "in:13: a line not indented like a stack frame at the end: header line ignored\n",
		  "parser: dtrace: ... each reported at its line");
	CHECK_STR(collapse(FG_TRACE_STAP, "std::vector<int, std::allocator<int> >::push_back(int const&)\nmain\n7\nfoo\nmain\n3\n", 1),
		  "main;foo 3\nmain;std::vector<int, std::allocator<int> >::push_back(int const&) 7\n",
		  "parser: stap: a name with white space, flush left before names, is a frame");
	/* Nothing tells text right before frames flush left from a frame: it
	 * is one, as the original takes every line for a frame. */
	CHECK_STR(collapse(FG_TRACE_STAP, "Tracing... Hit Ctrl-C to end.\nfoo+0x1/0x2 [k]\nmain+0x1/0x2 [k]\n3\n", 1),
		  "main;foo;Tracing... Hit Ctrl-C to end. 3\n", "parser: stap: text right before frames flush left is a frame");
	CHECK_STR(collapse(FG_TRACE_STAP, "operator new(unsigned long)\n0x00007f1234abcd\nmain\n3\n", 1),
		  "main;0x00007f1234abcd;operator new(unsigned long) 3\n",
		  "parser: stap: a leaf with white space before an address flush left is kept");
	CHECK_STR(collapse(FG_TRACE_DTRACE, "dtrace: description 'x' matched 1 probe\nCPU     ID  FUNCTION:NAME\n"
				  "  1  75195  :tick-60s\nnot a frame\n  m`a\n  m`b\ndtrace: 1 drop\n 2\n", 1),
		  "m`b;m`a 2\n", "parser: DTrace's messages, banner, probe line and header are no frames");
	CHECK_STR(check_warnings(), "in:5: a line not indented like a stack frame before this line: header line ignored\n"
		  "in:7: DTrace's message, not a frame: dtrace: 1 drop\n", "parser: DTrace header warnings");
	CHECK_STR(collapse(FG_TRACE_DTRACE, "  m`cut\nCPU     ID  FUNCTION:NAME\n  0  64091  :tick-60s\n  m`y\n 4\n", 1),
		  "m`y 4\n", "parser: a banner inside a stack (two captures concatenated) is no frame");
	CHECK_STR(check_warnings(), "in:2: 1 frame line before this line, with no count line after it, ignored\n",
		  "parser: the cut-off frames are reported");
	CHECK_STR(collapse(FG_TRACE_STAP, "\t248\n 0x1 : f+0x1/0x2 [k]\n\t1\n", 1),
		  " 248\nf 1\n", "parser: an empty stap backtrace is an empty stack");
	CHECK_STR(collapse(FG_TRACE_DTRACE, "  m`a\n 18446744073709551615\n", 1),
		  "m`a 18446744073709551615\n", "parser: the largest count");
	/* Issue 13 item 8: a sum beyond 2^64 - 1 fails the same way whether
	 * it is found in one thread's table or when merging the tables. */
	for (unsigned threads = 1; threads <= 4; threads *= 2) {
		static char overflow[(1 << 20) + 64];
		size_t used = 0;
		while (used + 64 < (1 << 20))
			used += (size_t)snprintf(overflow + used, sizeof(overflow) - used,
						 "  m`a\n 1\n  m`b\n 1.5x\n");
		snprintf(overflow + used, sizeof(overflow) - used, "  m`a\n 18446744073709551615\n");
		CHECK_STR(collapse(FG_TRACE_DTRACE, overflow, threads),
			  "error: the counts of one stack add up beyond 2^64 - 1\n",
			  "parser: -j%u: a sum beyond 2^64 - 1 is an error", threads);
		static char first[4096];
		if (threads == 1)
			snprintf(first, sizeof(first), "%s", check_warnings());
		CHECK(strcmp(first, check_warnings()) == 0, "parser: -j%u: the same warnings as -j1", threads);
	}

	/* A banner then a count line: the probe line after it is skipped
	 * whether or not the input was cut after the count (the banner's
	 * memory ends at a count line, where the driver may cut; a line of
	 * the probe's exact shape is DTrace's wherever a stack may start, as
	 * an interval script prints one before each printout). */
	for (unsigned threads = 1; threads <= 8; threads *= 2) {
		static char banners[1 << 21];
		size_t at = 0;
		while (at + 200 < sizeof(banners))
			at += (size_t)snprintf(banners + at, sizeof(banners) - at,
					       "CPU     ID                    FUNCTION:NAME\n  5\n"
					       "  0  64091                        :tick-60s\n  a`f\n  1\n");
		static char first[256];
		const char *out = collapse(FG_TRACE_DTRACE, banners, threads);
		if (threads == 1)
			snprintf(first, sizeof(first), "%s", out != NULL ? out : "");
		CHECK(out != NULL && strcmp(out, first) == 0 && strstr(first, "tick-60s") == NULL &&
			      strstr(first, "a`f ") != NULL,
		      "parser: -j%u: a probe line after a count is not a frame, whatever the cuts", threads);
	}

	/* Lines that may be text, over the cuts between threads' ranges and
	 * the blocks of one thread: the same stacks and warnings. */
	static char greeted[1 << 21];
	size_t at = 0;
	for (int i = 0; at + 200 < sizeof(greeted); i++)
		at += (size_t)snprintf(greeted + at, sizeof(greeted) - at,
				       i % 3 == 0 ? "Sampling%d...\n\n  m`f\n  m`main\n 1\n"
				       : i % 3 == 1 ? "name%d\nmain\n 2\n" : "  m`g%d\n 3\n", i % 7);
	static char greeted_one[256], greeted_warnings[4096];
	for (unsigned threads = 1; threads <= 8; threads *= 2) {
		const char *out = collapse(FG_TRACE_DTRACE, greeted, threads);
		if (threads == 1) {
			snprintf(greeted_one, sizeof(greeted_one), "%s", out != NULL ? out : "");
			snprintf(greeted_warnings, sizeof(greeted_warnings), "%s", check_warnings());
		}
		CHECK(out != NULL && strcmp(out, greeted_one) == 0 && strstr(out, "main;name3 ") != NULL &&
		      strstr(out, "Sampling") == NULL, "parser: -j%u: lines that may be text, the same stacks", threads);
		CHECK_STR(check_warnings(), greeted_warnings, "parser: -j%u: ... and warnings", threads);
	}

	/* Threads: a text large enough to be cut, the same stacks and warnings. */
	static char big[1 << 20];
	size_t used = 0;
	for (int i = 0; used + 200 < sizeof(big); i++)
		used += (size_t)snprintf(big + used, sizeof(big) - used,
					 "  m`f%d+0x1\n\n  m`main\n %s\n", i % 97, i % 5000 == 7 ? "1.5" : "2");
	static char one[1 << 16], warnings_one[4096];
	snprintf(one, sizeof(one), "%s", collapse(FG_TRACE_DTRACE, big, 1));
	snprintf(warnings_one, sizeof(warnings_one), "%s", check_warnings());
	for (unsigned threads = 2; threads <= 8; threads *= 2) {
		CHECK_STR(collapse(FG_TRACE_DTRACE, big, threads), one, "parser: %u threads, same stacks", threads);
		CHECK_STR(check_warnings(), warnings_one, "parser: %u threads, same warnings", threads);
	}
	CHECK(strstr(one, "m`main;m`f96 ") != NULL, "parser: big input parsed");
}

int main(void)
{
	test_dtrace_frames();
	test_stap_frames();
	test_parser();
	return check_exit();
}
