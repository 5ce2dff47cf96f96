/*
 * test_collapse_bpftrace.c - the frame rules of fg_bpftrace_clean_frame,
 * fg_format_detect on one shape of each format (and on shapes that decide
 * nothing), and fg_input_peek: what it shows is read again afterwards.
 */
#include <stdlib.h>

#include "check.h"
#include "folded.h"

/* One frame line through the cleaner. */
static const char *frame(const char *line, bool include_offset)
{
	fg_stack_builder b;
	fg_stack_builder_init(&b);
	return check_joined(&b, fg_bpftrace_clean_frame(line, strlen(line), include_offset, &b));
}

static void test_frames(void)
{
	static const struct {
		const char *line, *plain, *with_offset;
	} cases[] = {
		{"    do_sys_open+123", "do_sys_open", "do_sys_open+123"},
		{"        kfree+0\r", "kfree", "kfree+0"},
		{"get_task_policy.part.33+58", "get_task_policy.part.33", "get_task_policy.part.33+58"},
		{"\tffffffffb4019501 do_mmap+1", "do_mmap", "do_mmap+1"},
		{"\t7f3c1d2e3a4b __libc_write+22 (/usr/lib/libc.so.6)", "__libc_write", "__libc_write+22"},
		{"\tffffffffb4019501 [unknown] (/usr/bin/app)", "[unknown]", "[unknown]"},
		/* A module replaced since it was loaded; a module path with " (". */
		{"\t7f1234567 foo+1 (/tmp/x (deleted))", "foo", "foo+1"},
		{"\t7f1234567 bar+2 (/opt/my (x)/liby.so)", "bar", "bar+2"},
		{"    f+1 (/usr/lib/libx.so.1 (deleted))", "f", "f+1"},
		{"\t7f0123456 foo+1 (/opt/a)b/libx.so)", "foo", "foo+1"},
		/* Short addresses (a 32-bit ARM program at 0x10000): before a
		 * whole "func+OFF (module)" only, not a word of a name. */
		{"\t10578 main+12 (/tmp/a.out)", "main", "main+12"},
		{"\ta1b2 f+1 (/tmp/a.out)", "f", "f+1"},
		{"\tfaced f+4 (/bin/busybox)", "f", "f+4"},
		{"\tfabcd [unknown] ([unknown])", "[unknown]", "[unknown]"},
		{"    add f+1", "add f", "add f+1"},
		{"    f32 lerp<f32>(f32, f32)+12", "f32 lerp<f32>(f32, f32)", "f32 lerp<f32>(f32, f32)+12"},
		{"    e1 foo (bar)", "e1 foo (bar)", "e1 foo (bar)"},
		{"\tffffffffb4019501", "ffffffffb4019501", "ffffffffb4019501"},
		{"    0x61ce258d4c544155", "0x61ce258d4c544155", "0x61ce258d4c544155"},
		{"    [unknown]", "[unknown]", "[unknown]"},
		{"    operator+", "operator+", "operator+"},
		{"    +12", "+12", "+12"},
		{"    a+b+7", "a+b", "a+b+7"},
		{"    Lfoo/Bar;::baz+8", "Lfoo/Bar:::baz", "Lfoo/Bar:::baz+8"},
		{"    f(int, char)+9", "f(int, char)", "f(int, char)+9"},
		{"    g+3 (not a module: no perf address)x", "g+3 (not a module: no perf address)x",
		 "g+3 (not a module: no perf address)x"},
		{"    entry+119 <--- a note", "entry+119 <--- a note", "entry+119 <--- a note"},
		{"    pad\t+5", "pad", "pad\t+5"},
		{"    ", "-", "-"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_STR(frame(cases[i].line, false), cases[i].plain, "bpftrace frame '%s'",
			  cases[i].line);
		CHECK_STR(frame(cases[i].line, true), cases[i].with_offset,
			  "bpftrace frame '%s' --includeoffset", cases[i].line);
	}
}

static void test_detect(void)
{
	static const struct {
		const char *text;
		fg_format format;
		uint64_t line;
	} cases[] = {
		{"Attaching 2 probes...\n", FG_FORMAT_BPFTRACE, 1},
		{"\n^C\n\n@[\n    f+1\n]: 3\n", FG_FORMAT_BPFTRACE, 4},
		{"@usecs[\n", FG_FORMAT_BPFTRACE, 1},
		{"  @[]: 5\n", FG_FORMAT_BPFTRACE, 1},
		{"dtrace: description 'x' matched 1 probe\n", FG_FORMAT_DTRACE, 1},
		{"CPU     ID                    FUNCTION:NAME\n", FG_FORMAT_DTRACE, 1},
		{"\n              libc.so.1`_write+0x8\n              5\n", FG_FORMAT_DTRACE, 2},
		{" 0xffffffff8103d0ca : native_write_msr_safe+0xa/0x10 [kernel]\n", FG_FORMAT_STAP, 1},
		{" 0x7f00 [libc.so.6+0x1234]\n", FG_FORMAT_STAP, 1},
		{"java 1234/1235 [003] 1360.665435: 1 cycles:\n", FG_FORMAT_PERF, 1},
		{"             inl  2818  1360.665435:    2004008 cpu-clock:pppH: 5 a (b)\n",
		 FG_FORMAT_PERF, 1},
		{"java 19983 cycles:\n", FG_FORMAT_PERF, 1},
		{"\t    7f1234 main (/bin/app)\n", FG_FORMAT_PERF, 1},
		{"# ========\n# captured on: today\n", FG_FORMAT_PERF, 1},
		{"main;f 5\n", FG_FORMAT_FOLDED, 1},
		{" 7\nmain 2.5\n", FG_FORMAT_FOLDED, 2},
		{"It took 42\n", FG_FORMAT_UNKNOWN, 0},
		{"", FG_FORMAT_UNKNOWN, 0},
		{"   12\n\n", FG_FORMAT_FOLDED, 1}, /* counts alone: empty stacks, whichever format */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t line = 99;
		fg_format f = fg_format_detect(cases[i].text, strlen(cases[i].text), true, &line);
		CHECK(f == cases[i].format && line == cases[i].line,
		      "detect case %zu: %s at line %llu (got %s at %llu)", i,
		      fg_format_name(cases[i].format), (unsigned long long)cases[i].line,
		      fg_format_name(f), (unsigned long long)line);
	}
	/* A partial last line decides nothing until the text is complete. */
	const char *partial = "@[";
	CHECK(fg_format_detect(partial, 2, false, NULL) == FG_FORMAT_UNKNOWN,
	      "detect: a partial line decides nothing");
	CHECK(fg_format_detect(partial, 2, true, NULL) == FG_FORMAT_BPFTRACE,
	      "detect: the same line at the end of the input decides");
	/* Frames and a count with nothing telling: DTrace, only when complete. */
	const char *shape = "  0xfffffe01\n  0xfffffe02\n  5\n";
	uint64_t line = 0;
	CHECK(fg_format_detect(shape, strlen(shape), false, NULL) == FG_FORMAT_UNKNOWN,
	      "detect: the frames-then-count shape waits for the whole window");
	CHECK(fg_format_detect(shape, strlen(shape), true, &line) == FG_FORMAT_DTRACE && line == 3,
	      "detect: frames then a count are DTrace, from the count line");
	for (int f = FG_FORMAT_PERF; f <= FG_FORMAT_FOLDED; f++)
		CHECK(fg_format_from_name(fg_format_name((fg_format)f)) == (fg_format)f,
		      "format name %s reads back", fg_format_name((fg_format)f));
	CHECK(fg_format_from_name("BPFTrace") == FG_FORMAT_BPFTRACE, "format names ignore case");
	CHECK(fg_format_from_name("json") == FG_FORMAT_UNKNOWN, "an unknown format name");
}

static void test_peek(void)
{
	const char text[] = "line one\nline two\n";
	fg_input *in = fg_input_open_memory("mem", text, sizeof(text) - 1);
	const char *bytes;
	size_t length;
	fg_error err = {0};
	int rc = fg_input_peek(in, 4, &bytes, &length, &err);
	CHECK(rc == 1 && length == sizeof(text) - 1 && memcmp(bytes, text, length) == 0,
	      "peek shows the unread bytes and says the input ends there");
	const char *line;
	size_t line_length;
	rc = fg_input_read_line(in, &line, &line_length, &err);
	CHECK(rc == 1 && line_length == 8 && memcmp(line, "line one", 8) == 0,
	      "after a peek, reading starts at the first byte again");
	rc = fg_input_peek(in, 100, &bytes, &length, &err);
	CHECK(rc == 1 && length == 9 && memcmp(bytes, "line two\n", 9) == 0,
	      "peek after a read shows what is left");
	fg_input_close(in);
}

int main(void)
{
	test_frames();
	test_detect();
	test_peek();
	return check_exit();
}
