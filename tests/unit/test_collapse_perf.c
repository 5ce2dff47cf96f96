/*
 * test_collapse_perf.c - the perf parser through its API: the tidying
 * rules of stackcollapse-perf.pl one by one (fg-collapse-perf(1) lists them),
 * header shapes, periods and events, fg's fixes, and the driver (same
 * stacks and warnings for any number of threads).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "folded.h"


/* The folded output ("STACK COUNT" lines, '|'-separated) of text. */
static char *collapse_with(const fg_perf_options *o, unsigned threads, const char *text,
			   size_t length)
{
	fg_error err = {0};
	fg_warner w = {check_collect, NULL};
	check_warnings()[0] = '\0';
	fg_collapse *c = fg_perf_collapse_new(o, threads, &w, &err);
	if (c == NULL || fg_collapse_text(c, text, length, "t", &err) != 0) {
		fg_collapse_free(c);
		return strdup("(error)");
	}
	fg_stacks *stacks = fg_collapse_stacks(c, &err);
	const fg_stack_entry **sorted = fg_stacks_sorted(stacks);
	size_t size = 1;
	for (size_t i = 0; i < fg_stacks_size(stacks); i++)
		size += sorted[i]->stack_length + FG_COUNT_TEXT_MAX + 2;
	char *out = calloc(1, size);
	for (size_t i = 0; i < fg_stacks_size(stacks); i++) {
		char count[FG_COUNT_TEXT_MAX];
		fg_count_format(sorted[i]->count[0], count);
		sprintf(out + strlen(out), "%s%.*s %s", i ? "|" : "", (int)sorted[i]->stack_length,
			sorted[i]->stack, count);
	}
	free(sorted);
	fg_collapse_free(c);
	return out;
}

static char *collapse(const fg_perf_options *o, const char *text)
{
	return collapse_with(o, 1, text, strlen(text));
}

static fg_perf_options defaults(void)
{
	fg_perf_options o;
	fg_perf_options_init(&o);
	return o;
}

/* One sample of comm "app" with one frame line, folded. */
static char *frame(const fg_perf_options *o, const char *comm, const char *line)
{
	char text[1024];
	snprintf(text, sizeof(text), "%s 1 1.0: 1 cycles:\n\t%s\n\n", comm, line);
	return collapse(o, text);
}

#define CHECK_FRAME(o, comm, line, expected)                               \
	do {                                                               \
		char *out_ = frame(o, comm, line);                         \
		CHECK_STR(out_, expected, "frame %s", line);               \
		free(out_);                                                \
	} while (0)

#define CHECK_TEXT(o, text, expected, ...)                                 \
	do {                                                               \
		char *out_ = collapse(o, text);                            \
		CHECK_STR(out_, expected, __VA_ARGS__);                    \
		free(out_);                                                \
	} while (0)

static void test_tidy(void)
{
	fg_perf_options o = defaults();
	/* offsets: one, lowercase hex, at the end */
	CHECK_FRAME(&o, "app", "4005d0 foo+0x1a (/bin/app)", "app;foo 1");
	CHECK_FRAME(&o, "app", "4005d0 foo+0xAB (/bin/app)", "app;foo+0xAB 1");
	CHECK_FRAME(&o, "app", "4005d0 a+0x1+0x2 (/bin/app)", "app;a+0x1 1");
	CHECK_FRAME(&o, "app", "4005d0 +0x10 (/bin/app)", "app 1");
	/* symbols starting with '(' go, except C++ anonymous namespaces (fixed) */
	CHECK_FRAME(&o, "app", "4005d0 (unknown) (/bin/app)", "app 1");
	CHECK_FRAME(&o, "app", "4005d0 (anonymous namespace)::f(int)+0x3 (/bin/app)",
		    "app;(anonymous namespace)::f 1");
	/* argument lists, except Go methods; quotes; ';' */
	CHECK_FRAME(&o, "app", "1 ns::Foo<int>::bar(int, char*) const (/bin/app)", "app;ns::Foo<int>::bar 1");
	CHECK_FRAME(&o, "app", "1 net/http.(*Client).Do+0x1f (/bin/app)", "app;net/http.(*Client).Do 1");
	CHECK_FRAME(&o, "app", "1 std::function<void ()>::operator()() const (/bin/app)",
		    "app;std::function<void  1");
	CHECK_FRAME(&o, "app", "1 RegExp:[&<>\\\"\\'] (/tmp/perf-1.map)", "app;RegExp:[&<>\\\\] 1");
	CHECK_FRAME(&o, "app", "1 a;b;c (/bin/app)", "app;a:b:c 1");
	/* unknown symbols */
	CHECK_FRAME(&o, "app", "7f12 [unknown] (/lib/libc.so.6)", "app;[libc.so.6] 1");
	CHECK_FRAME(&o, "app", "0 [unknown] ([unknown])", "app;[unknown] 1");
	CHECK_FRAME(&o, "app", "7f12 [unknown] ([vdso])", "app;[[vdso]] 1");
	fg_perf_options addrs = defaults();
	addrs.addrs = true;
	CHECK_FRAME(&addrs, "app", "7f12 [unknown] (/lib/libc.so.6)", "app;[libc.so.6 <7f12>] 1");
	CHECK_FRAME(&addrs, "app", "0 [unknown] ([unknown])", "app;[unknown <0>] 1");
	/* Java: a leading L goes from names with a '/', for comms starting java */
	CHECK_FRAME(&o, "java", "1 Lcom/foo/Bar;.baz(I)V (/tmp/perf-1.map)", "java;com/foo/Bar:.baz 1");
	CHECK_FRAME(&o, "javac", "1 Lcom/foo/Bar;.baz(I)V (/tmp/perf-1.map)", "javac;com/foo/Bar:.baz 1");
	CHECK_FRAME(&o, "java", "1 Lfoo;.bar(Ljava/lang/X;)V (/tmp/perf-1.map)", "java;Lfoo:.bar 1");
	CHECK_FRAME(&o, "node", "1 Lcom/foo/Bar;.baz(I)V (/tmp/perf-1.map)", "node;Lcom/foo/Bar:.baz 1");
	/* inline chains: pieces in printed order, the later ones inlined */
	CHECK_FRAME(&o, "app", "1 a->b->c+0x10 (/bin/app)", "app;a;b_[i];c_[i] 1");
	CHECK_FRAME(&o, "app", "1 a->b_[i] (/bin/app)", "app;a;b_[i] 1");
	CHECK_FRAME(&o, "app", "1 a-> (/bin/app)", "app;a 1");
	CHECK_FRAME(&o, "app", "1 ->a (/bin/app)", "app;;a_[i] 1");
	/* how the frame expression splits odd lines */
	CHECK_FRAME(&o, "app", "ffff4 ([kernel.kallsyms])", "app;4 1");
	CHECK_FRAME(&o, "app", "1 foo (/tmp/x (y))", "app;foo  1");
	/* (a module replaced since it was loaded: as if it had not been) */
	CHECK_FRAME(&o, "app", "1 foo+0x1a (/tmp/x (deleted))", "app;foo 1");
	CHECK_FRAME(&o, "app", "1 [unknown] (/tmp/libx.so (deleted))", "app;[libx.so] 1");
	CHECK_FRAME(&o, "app", "1 JS:*fib /app.js:1:13+0x97 (/tmp/perf-9.map)", "app;JS:*fib /app.js:1:13 1");
	CHECK_FRAME(&o, "app", "1 foo (/bin/app) trailing", "app;foo 1");
}

static void test_annotations(void)
{
	fg_perf_options o = defaults();
	o.kernel = o.jit = true;
	CHECK_FRAME(&o, "app", "1 f ([kernel.kallsyms])", "app;f_[k] 1");
	CHECK_FRAME(&o, "app", "1 f (/lib/modules/4.1/build/vmlinux)", "app;f_[k] 1");
	CHECK_FRAME(&o, "app", "1 f ([nf_conntrack_ipv4])", "app;f_[k] 1");
	CHECK_FRAME(&o, "app", "1 [unknown] ([unknown])", "app;[unknown] 1");
	CHECK_FRAME(&o, "app", "1 f (/tmp/perf-123.map)", "app;f_[j] 1");
	CHECK_FRAME(&o, "app", "1 f_[j] (/tmp/perf-123.map)", "app;f_[j] 1");
	CHECK_FRAME(&o, "app", "1 f (/tmp/perf-x.map)", "app;f 1");
	CHECK_FRAME(&o, "app", "1 f (/home/tmp/perf-7.map.old)", "app;f_[j] 1");
	CHECK_FRAME(&o, "app", "1 f (/bin/app)", "app;f 1");
	CHECK_FRAME(&o, "app", "1 a->b ([kernel.kallsyms])", "app;a_[k];b_[i] 1");
	fg_perf_options plain = defaults();
	CHECK_FRAME(&plain, "app", "1 f ([kernel.kallsyms])", "app;f 1");
	CHECK_FRAME(&plain, "app", "1 f (/tmp/perf-123.map)", "app;f 1");
	/* --inline: perf's "(inlined)" frames */
	fg_perf_options inl = defaults();
	inl.inline_frames = true;
	CHECK_FRAME(&inl, "app", "1 leaf+0x1e (inlined)", "app;leaf_[i] 1");
	CHECK_FRAME(&plain, "app", "1 leaf+0x1e (inlined)", "app;leaf 1");
}

static void test_headers(void)
{
	fg_perf_options o = defaults(), pid = defaults(), tid = defaults();
	pid.pid = true;
	tid.tid = true;
	const char *frames = "\t1 f (/x)\n\n";
	char text[512];
	struct {
		const char *header, *plain, *pid, *tid;
	} cases[] = {
		{"java 25607 4794564.109216: 1 cycles:", "java;f 1", "java-?;f 1", "java-?/25607;f 1"},
		{"java 24636/25607 [000] 1.0: 3 cycles:", "java;f 3", "java-24636;f 3", "java-24636/25607;f 3"},
		{"V8 WorkerThread 24636/25607 [000] 1.0: 100 cycles:", "V8_WorkerThread;f 100",
		 "V8_WorkerThread-24636;f 100", "V8_WorkerThread-24636/25607;f 100"},
		{"swapper     0 [000]  1.0:  250 cpu-clock:", "swapper;f 250", "swapper-?;f 250",
		 "swapper-?/0;f 250"},
		{"swapper 0/0 [000] 1.0: 1 cycles:", "swapper;f 1", "swapper-?;f 1", "swapper-?/0;f 1"},
		{"func_ab 15294 cpu-clock:", "func_ab;f 1", "func_ab-?;f 1", "func_ab-?/15294;f 1"},
		{"emulator  4152 75695.008865:          16 cycles:u: ", "emulator;f 16", "emulator-?;f 16",
		 "emulator-?/4152;f 16"},
		/* fixed: a one-byte comm */
		{"X 123 [000] 1.0: 2 cycles:", "X;f 2", "X-?;f 2", "X-?/123;f 2"},
		/* a period of 0 counts 1, as the script's "not" does; "00" is 0 */
		{"a 1 1.0: 0 cycles:", "a;f 1", "a-?;f 1", "a-?/1;f 1"},
		{"a 1 1.0: 00 cycles:", "a;f 0", "a-?;f 0", "a-?/1;f 0"},
		/* fg reads what follows the event: a tracepoint's payload */
		{"dd 28791 [000]  1314.502180:  syscalls:sys_enter_read: fd: 0x3, count: 0x340",
		 "dd;f 1", "dd-?;f 1", "dd-?/28791;f 1"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "%s\n%s", cases[i].header, frames);
		CHECK_TEXT(&o, text, cases[i].plain, "header %s", cases[i].header);
		CHECK_TEXT(&pid, text, cases[i].pid, "header --pid %s", cases[i].header);
		CHECK_TEXT(&tid, text, cases[i].tid, "header --tid %s", cases[i].header);
	}
	/* a one-line sample: the frame is on the header */
	CHECK_TEXT(&o, "             inl  2818  1360.665435:    2004008 cpu-clock:pppH:      "
		       "55dbca6ca195 outer+0x25 (/tmp/pp/inl)\n"
		       "             inl  2818  1360.665436:    2004008 cpu-clock:pppH:      "
		       "55dbca6ca196 outer+0x26 (/tmp/pp/inl)\n",
		   "inl;outer 4008016", "one-line samples");
}

static void test_samples_and_events(void)
{
	fg_perf_options o = defaults();
	/* periods add up; stacks are sorted bytewise */
	CHECK_TEXT(&o, "b 1 1.0: 5 cycles:\n\t1 f (/x)\n\na 1 1.0: 7 cycles:\n\t1 f (/x)\n\n"
		       "b 1 1.0: 5 cycles:\n\t1 f (/x)\n\n",
		   "a;f 7|b;f 10", "periods add up");
	/* fixes: no blank line at the end; whitespace-only and CRLF lines end samples */
	CHECK_TEXT(&o, "a 1 1.0: 1 cycles:\n\t1 f (/x)", "a;f 1", "last sample without blank line");
	CHECK_TEXT(&o, "a 1 1.0: 1 cycles:\n\t1 f (/x)\n \t\nb 1 1.0: 1 cycles:\n\t1 g (/x)\n",
		   "a;f 1|b;g 1", "whitespace-only line ends a sample");
	CHECK_TEXT(&o, "a 1 1.0: 1 cycles:\r\n\t1 f (/x)\r\n\r\nb 1 1.0: 1 cycles:\r\n\t1 g (/x)\r\n",
		   "a;f 1|b;g 1", "CRLF input");
	/* the first event is kept; names compare exactly */
	CHECK_TEXT(&o, "a 1 1.0: 1 cycles:u:\n\t1 f (/x)\n\na 1 1.0: 1 cycles:\n\t1 g (/x)\n\n",
		   "a;f 1", "first event kept, cycles:u != cycles");
	CHECK(strstr(check_warnings(), "t:4: skipping samples of event cycles: only the first event, cycles:u") != NULL,
	      "skipped event reported with its line");
	fg_perf_options filter = defaults();
	filter.event_filter = "cycles";
	CHECK_TEXT(&filter, "a 1 1.0: 1 cycles:u:\n\t1 f (/x)\n\na 1 1.0: 1 cycles:\n\t1 g (/x)\n\n",
		   "a;g 1", "--event-filter");
	CHECK(check_warnings()[0] == '\0', "no warning with --event-filter");
	/* comments anywhere; frames before any header are ignored */
	CHECK_TEXT(&o, "# header\n\t1 lost (/x)\n\na 1 1.0: 1 cycles:\n# inside\n\t1 f (/x)\n\n",
		   "a;f 1", "comments and frames without header");
	/* unrecognised lines are warnings with file and line */
	CHECK_TEXT(&o, "a 1 1.0: 1 cycles:\n\t1 f (/x)\nnonsense\n\n", "a;f 1", "bad line skipped");
	CHECK_STR(check_warnings(), "t:3: unrecognized line: nonsense\n", "bad line reported");
	/* --skip-after */
	fg_perf_options skip = defaults();
	const char *names[] = {"main"};
	skip.skip_after = names;
	skip.skip_after_count = 1;
	CHECK_TEXT(&skip, "a 1 1.0: 1 cycles:\n\t1 leaf (/x)\n\t2 main (/x)\n\t3 _start (/x)\n\n",
		   "a;main;leaf 1", "--skip-after");
	/* --srcline: the next line is the source location; [..] groups go */
	fg_perf_options src = defaults();
	src.srcline = true;
	CHECK_TEXT(&src, "a 1 1.0: 1 cycles:\n\t1 f+0x8b (/a.out)\n  uniform_int_dist.h:300\n"
			 "\t2 __libc_start_main+0xf3 (/lib/libc.so)\n  libc-2.33.so[27b25]\n"
			 "\t0 [unknown] ([unknown])\n\n",
		   "a;[unknown];__libc_start_main:libc-2.33.so;f:uniform_int_dist.h:300 1", "--srcline");
}

/* The same stacks and the same warnings for any number of threads. */
static void test_threads(void)
{
	const char *sample = "app 1 [000] 1.0: 3 cycles:\n\t1 leaf (/x)\n\t2 main (/x)\n\n"
			     "app 2 [000] 1.1: 5 cycles:\n\t1 other (/x)\n\t2 main (/x)\n\n";
	size_t one = strlen(sample), copies = 40000;
	size_t length = one * copies + 64;
	char *text = malloc(length + 1);
	size_t at = 0;
	for (size_t i = 0; i < copies; i++) {
		memcpy(text + at, sample, one);
		at += one;
		if (i == copies / 3 || i == copies - 7) /* warnings deep inside */
			at += (size_t)sprintf(text + at, "junk %zu\n", i);
	}
	text[at] = '\0';
	fg_perf_options o = defaults();
	char *single = collapse_with(&o, 1, text, at);
	char single_warnings[8192];
	strcpy(single_warnings, check_warnings());
	CHECK_STR(single, "app;main;leaf 120000|app;main;other 200000", "one thread");
	CHECK(strstr(single_warnings, "junk 13333") != NULL, "warnings kept");
	for (unsigned threads = 2; threads <= 8; threads += 3) {
		char *many = collapse_with(&o, threads, text, at);
		CHECK_STR(many, single, "%u threads: same stacks", threads);
		CHECK_STR(check_warnings(), single_warnings, "%u threads: same warnings", threads);
		free(many);
	}
	free(single);
	free(text);
}

int main(void)
{
	test_tidy();
	test_annotations();
	test_headers();
	test_samples_and_events();
	test_threads();
	return check_exit();
}
