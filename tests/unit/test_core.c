/*
 * test_core.c - unit tests of libfolded's core: counts, the folded line
 * parser, the stack table, the tree (merge, order, depth), escaping.
 */
#include <stdlib.h>

#include "check.h"
#include "folded.h"
#include "text.h"
#include "tree.h"

static fg_count count_of(const char *text)
{
	fg_count c = {0, 0};
	if (fg_count_parse(text, strlen(text), &c) != 0)
		c.whole = c.frac = 12345678; /* visible in failures */
	return c;
}

static const char *format(fg_count c)
{
	static char text[FG_COUNT_TEXT_MAX];
	fg_count_format(c, text);
	return text;
}

static void test_counts(void)
{
	fg_count c;
	CHECK(fg_count_parse("42", 2, &c) == 0 && c.whole == 42 && c.frac == 0, "count: integer");
	CHECK(fg_count_parse("5.", 2, &c) == 0 && c.whole == 5 && c.frac == 0, "count: 5. is valid");
	CHECK_STR(format(count_of("2.25")), "2.25", "count: decimal round trip");
	CHECK(fg_count_parse(".5", 2, &c) == FG_EINVAL, "count: .5 is invalid");
	CHECK(fg_count_parse("-1", 2, &c) == FG_EINVAL, "count: negative is invalid");
	CHECK(fg_count_parse("1e3", 3, &c) == FG_EINVAL, "count: exponent is invalid");
	CHECK(fg_count_parse("1.2.3", 5, &c) == FG_EINVAL, "count: two dots are invalid");
	CHECK(fg_count_parse("18446744073709551615", 20, &c) == 0 && c.whole == UINT64_MAX,
	      "count: 2^64-1 fits");
	CHECK(fg_count_parse("18446744073709551616", 20, &c) == FG_ERANGE, "count: 2^64 is out of range");

	fg_count sum = {0, 0};
	for (int i = 0; i < 100000; i++)
		fg_count_add(&sum, count_of("0.1"));
	CHECK_STR(format(sum), "10000", "count: 100,000 x 0.1 is exactly 10000");
	fg_count_add(&sum, count_of("9007199254740993"));
	CHECK_STR(format(sum), "9007199254750993", "count: no binary floating point drift above 2^53");

	fg_count big = {UINT64_MAX, 0};
	CHECK(fg_count_add(&big, count_of("1")) == FG_ERANGE && big.whole == UINT64_MAX,
	      "count: overflow is reported and the sum left unchanged");
	fg_count almost = {UINT64_MAX, FG_COUNT_FRAC_ONE / 2};
	CHECK(fg_count_add(&almost, count_of("0.5")) == FG_ERANGE, "count: overflow through the carry");
	CHECK(fg_count_compare(count_of("2.5"), count_of("2.25")) > 0, "count: compare");
	CHECK_STR(format(fg_count_sub_floor(count_of("3"), count_of("0.75"))), "2.25", "count: subtract");
	CHECK_STR(format(fg_count_sub_floor(count_of("1"), count_of("2"))), "0", "count: subtract floors at 0");
}

static int parse(const char *line, fg_folded_line *out)
{
	return fg_folded_parse(line, strlen(line), out);
}

static bool stack_is(const fg_folded_line *l, const char *stack)
{
	return l->stack_length == strlen(stack) && memcmp(l->stack, stack, l->stack_length) == 0;
}

static void test_folded(void)
{
	fg_folded_line l;
	CHECK(parse("a;b;c 42", &l) == 0 && stack_is(&l, "a;b;c") && l.count.whole == 42 &&
	      !l.differential, "folded: plain line");
	CHECK(parse("a;with space;c 7", &l) == 0 && stack_is(&l, "a;with space;c"),
	      "folded: frames may contain spaces");
	CHECK(parse("a;b   5", &l) == 0 && stack_is(&l, "a;b  "),
	      "folded: only one whitespace character before the count is consumed");
	CHECK(parse("a;b\t5", &l) == 0 && stack_is(&l, "a;b"), "folded: tab separator");
	CHECK(parse("a;b 5\r", &l) == 0 && stack_is(&l, "a;b") && l.count.whole == 5,
	      "folded: CRLF line end");
	CHECK(parse("a;b 3 7", &l) == 0 && l.differential && stack_is(&l, "a;b") &&
	      l.before.whole == 3 && l.count.whole == 7, "folded: differential line");
	CHECK(parse("a;b 2.5", &l) == 0 && l.count.whole == 2 && l.count.frac == FG_COUNT_FRAC_ONE / 2,
	      "folded: decimal count");
	CHECK(parse(" 5", &l) == 0 && l.stack_length == 0, "folded: empty stack counts for the root");
	CHECK(parse("a;b", &l) == FG_EINVAL, "folded: no count");
	CHECK(parse("a;b5", &l) == FG_EINVAL, "folded: no whitespace before the count");
	CHECK(parse("a;b 5 ", &l) == FG_EINVAL, "folded: trailing whitespace");
	CHECK(parse("5", &l) == FG_EINVAL, "folded: a count alone");
	CHECK(parse("a;b 99999999999999999999", &l) == FG_ERANGE, "folded: count beyond 64 bits");
	char with_nul[] = "a\0b;c 3";
	CHECK(fg_folded_parse(with_nul, sizeof(with_nul) - 1, &l) == 0 && l.stack_length == 5,
	      "folded: NUL bytes are ordinary bytes");
	CHECK(fg_is_blank(" \t\r", 3) && fg_is_blank("", 0) && !fg_is_blank(" a", 2), "folded: blank lines");
}

static void test_stacks(void)
{
	fg_stacks *s = fg_stacks_new();
	fg_stacks_add(s, "b;c", 3, 0, fg_count_of(2));
	fg_stacks_add(s, "a", 1, 0, fg_count_of(1));
	fg_stacks_add(s, "b;c", 3, 0, fg_count_of(5));
	fg_stacks_add(s, "b", 1, 0, fg_count_of(1));
	for (int i = 0; i < 5000; i++) {
		char name[32];
		int n = snprintf(name, sizeof(name), "x;%d", i);
		fg_stacks_add(s, name, (size_t)n, 1, fg_count_of(1));
	}
	CHECK(fg_stacks_size(s) == 5003, "stacks: unique stacks counted once (rehashing kept them)");
	const fg_stack_entry **sorted = fg_stacks_sorted(s);
	CHECK(sorted != NULL && sorted[0]->stack_length == 1 && sorted[0]->stack[0] == 'a' &&
	      sorted[1]->stack_length == 1 && sorted[2]->stack_length == 3 &&
	      sorted[2]->count[0].whole == 7, "stacks: sorted bytewise, counts summed");
	free(sorted);
	fg_count total;
	CHECK(fg_stacks_total(s, 1, &total) == 0 && total.whole == 5000, "stacks: column total");
	fg_stacks *other = fg_stacks_new();
	fg_stacks_add(other, "a", 1, 0, fg_count_of(10));
	fg_stacks_add(other, "z", 1, 0, fg_count_of(1));
	fg_stacks_merge(s, other);
	CHECK(fg_stacks_size(s) == 5004 && fg_stacks_total(s, 0, &total) == 0 && total.whole == 20,
	      "stacks: merge adds counts and new stacks");
	fg_stacks_free(other);
	fg_stacks_free(s);

	fg_stack_builder b;
	fg_stack_builder_init(&b);
	const char *stack;
	size_t length;
	fg_stack_builder_push(&b, "leaf", 4);
	fg_stack_builder_push(&b, "mid", 3);
	fg_stack_builder_append(&b, "dle", 3);
	fg_stack_builder_push(&b, "root", 4);
	fg_stack_builder_join(&b, "comm", 4, &stack, &length);
	CHECK(length == 21 && memcmp(stack, "comm;root;middle;leaf", 21) == 0,
	      "builder: leaf-first frames joined root first");
	fg_stack_builder_clear(&b);
	fg_stack_builder_join(&b, "comm", 4, &stack, &length);
	CHECK(length == 4 && memcmp(stack, "comm", 4) == 0, "builder: empty stack is the root alone");
	fg_stack_builder_free(&b);
}

static fg_node_id child_named(const fg_tree *t, fg_node_id parent, const char *name)
{
	for (fg_node_id c = fg_tree_first_child(t, parent); c != FG_NODE_NONE; c = fg_tree_next_sibling(t, c)) {
		size_t length;
		const char *n = fg_tree_name(t, c, &length);
		if (length == strlen(name) && memcmp(n, name, length) == 0)
			return c;
	}
	return FG_NODE_NONE;
}

static void add(fg_tree *t, const char *stack, uint64_t count)
{
	fg_tree_add(t, stack, strlen(stack), fg_count_of(count), NULL);
}

static void test_tree(void)
{
	fg_tree *t = fg_tree_new(0);
	/* A name and a longer sibling name that extends it (bar, bar.cold):
	 * flamegraph.pl's whole-line sort splits "bar" in two; one box here. */
	add(t, "foo;bar", 100);
	add(t, "foo;bar2", 50);
	add(t, "foo;bar;baz", 25);
	add(t, "foo;bar.cold", 5);
	add(t, "foo;bar", 1); /* not adjacent: still merged */
	add(t, "a;b;", 3);     /* trailing empty frame dropped */
	add(t, "a;;b", 2);     /* interior empty frame kept */
	add(t, "", 4);          /* root only */
	fg_tree_finish(t);
	fg_node_id foo = child_named(t, 0, "foo");
	CHECK(foo != FG_NODE_NONE && fg_tree_total(t, foo).whole == 181, "tree: totals are inclusive");
	fg_node_id c = fg_tree_first_child(t, foo);
	size_t length;
	const char *names[3];
	size_t lengths[3];
	for (int i = 0; i < 3 && c != FG_NODE_NONE; i++, c = fg_tree_next_sibling(t, c)) {
		names[i] = fg_tree_name(t, c, &length);
		lengths[i] = length;
	}
	CHECK(lengths[0] == 3 && memcmp(names[0], "bar", 3) == 0 && lengths[1] == 8 &&
	      memcmp(names[1], "bar.cold", 8) == 0 && lengths[2] == 4,
	      "tree: siblings ordered by name bytewise, prefix first (foo < foo.cold < foo2)");
	CHECK(c == FG_NODE_NONE, "tree: bar, bar.cold and bar2 only: bar merged into one frame");
	fg_node_id bar = child_named(t, foo, "bar");
	CHECK(fg_tree_total(t, bar).whole == 126, "tree: bar total = self 101 + child 25");
	fg_node_id a = child_named(t, 0, "a");
	CHECK(child_named(t, child_named(t, a, "b"), "") == FG_NODE_NONE, "tree: a;b; is a;b");
	CHECK(child_named(t, child_named(t, a, ""), "b") != FG_NODE_NONE, "tree: a;;b keeps the empty frame");
	CHECK(fg_tree_total(t, 0).whole == 190, "tree: root total includes empty stacks");
	fg_tree_free(t);

	/* Flame chart: only consecutive stacks merge; starts follow input order. */
	t = fg_tree_new(FG_TREE_FLAMECHART);
	add(t, "a;b", 1);
	add(t, "a;c", 2);
	add(t, "a;b", 3);
	add(t, "d", 4);
	fg_tree_finish(t);
	fg_node_id first = fg_tree_first_child(t, 0);
	CHECK(fg_tree_size(t) == 6 && fg_tree_total(t, first).whole == 6, "flamechart: a merged across consecutive lines");
	fg_node_id b1 = fg_tree_first_child(t, first);
	fg_node_id c1 = fg_tree_next_sibling(t, b1);
	fg_node_id b2 = fg_tree_next_sibling(t, c1);
	CHECK(b2 != FG_NODE_NONE && fg_tree_start(t, b2).whole == 3 && fg_tree_total(t, b2).whole == 3,
	      "flamechart: b appears twice, the second at time 3");
	fg_tree_free(t);

	/* Depth: 100,000 frames, no recursion. */
	size_t depth = 100000;
	char *deep = malloc(depth * 2);
	for (size_t i = 0; i < depth; i++) {
		deep[2 * i] = 'f';
		deep[2 * i + 1] = ';';
	}
	t = fg_tree_new(0);
	CHECK(fg_tree_add(t, deep, depth * 2 - 1, fg_count_of(1), NULL) == 0, "tree: 100,000-frame stack");
	fg_tree_finish(t);
	CHECK(fg_tree_size(t) == depth + 1, "tree: one node per frame of the deep stack");
	fg_tree_free(t);
	free(deep);

	/* Overflow of the grand total is refused, nothing added. */
	t = fg_tree_new(0);
	add(t, "a", UINT64_MAX);
	CHECK(fg_tree_add(t, "b", 1, fg_count_of(1), NULL) == FG_ERANGE, "tree: overflowing sum refused");
	fg_tree_finish(t);
	CHECK(fg_tree_total(t, 0).whole == UINT64_MAX && child_named(t, 0, "b") == FG_NODE_NONE,
	      "tree: total unchanged after a refused add");
	fg_tree_free(t);
}

/* A canonical listing of a finished tree: depth, name, total, DFS order. */
static void serialize(const fg_tree *t, fg_node_id n, int depth, char *out, size_t size)
{
	/* Recursion is fine here: test trees are shallow. */
	size_t length;
	const char *name = fg_tree_name(t, n, &length);
	char line[128];
	snprintf(line, sizeof(line), "%d %.*s %llu\n", depth, (int)length, name,
		 (unsigned long long)fg_tree_total(t, n).whole);
	strncat(out, line, size - strlen(out) - 1);
	for (fg_node_id c = fg_tree_first_child(t, n); c != FG_NODE_NONE; c = fg_tree_next_sibling(t, c))
		serialize(t, c, depth + 1, out, size);
}

static void test_merge(void)
{
	static const char *const lines[] = {
		"a;f 1", "a;f2;x 2", "a;f;y 3", "a;f.c 1", "b;q 5", "a;f;y;z 2", "b 1", "", "c;d;e 4",
		"a;f2;x 1", "b;q;r 2",
	};
	size_t n = sizeof(lines) / sizeof(lines[0]);
	static char whole[4096], merged[4096];
	fg_tree *one = fg_tree_new(0);
	for (size_t i = 0; i < n; i++)
		add(one, lines[i], 1 + i);
	fg_tree_finish(one);
	whole[0] = '\0';
	serialize(one, 0, 0, whole, sizeof(whole));
	for (size_t split = 0; split <= n; split++) {
		fg_tree *a = fg_tree_new(0), *b = fg_tree_new(0);
		for (size_t i = 0; i < n; i++)
			add(i < split ? a : b, lines[i], 1 + i);
		int rc = fg_tree_merge(a, b);
		fg_tree_free(b);
		fg_tree_finish(a);
		merged[0] = '\0';
		serialize(a, 0, 0, merged, sizeof(merged));
		CHECK(rc == 0 && strcmp(whole, merged) == 0, "tree merge: split after line %zu equals one tree", split);
		fg_tree_free(a);
	}
	fg_tree_free(one);
	fg_tree *big = fg_tree_new(0), *other = fg_tree_new(0);
	add(big, "a", UINT64_MAX);
	add(other, "b", 1);
	CHECK(fg_tree_merge(big, other) == FG_ERANGE, "tree merge: an overflowing sum is refused");
	fg_tree_free(other);
	fg_tree_free(big);
}

static const char *clean_escape(const char *bytes, size_t length)
{
	static fg_buffer out;
	fg_buffer clean = {0, 0, 0};
	out.length = 0;
	fg_text_clean(&clean, bytes, length);
	fg_text_escape(&out, clean.data, clean.length);
	fg_buffer_append(&out, "", 1);
	fg_buffer_free(&clean);
	return out.data;
}

static void test_text(void)
{
	CHECK_STR(clean_escape("</title><script>", 16), "&lt;/title&gt;&lt;script&gt;", "escape: markup");
	CHECK_STR(clean_escape("a&b \"q\" 'x' ]]>", 15), "a&amp;b &quot;q&quot; 'x' ]]&gt;", "escape: & quotes ]]>");
	CHECK_STR(clean_escape("a\x01" "b\tc", 5), "a\xef\xbf\xbd" "b\tc", "clean: C0 control replaced, tab kept");
	CHECK_STR(clean_escape("a\0b", 3), "a\xef\xbf\xbd" "b", "clean: NUL replaced");
	CHECK_STR(clean_escape("\xff\xfe", 2), "\xef\xbf\xbd\xef\xbf\xbd", "clean: invalid UTF-8 bytes replaced");
	CHECK_STR(clean_escape("\xed\xa0\x80", 3), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "clean: UTF-8 surrogate replaced");
	CHECK_STR(clean_escape("\xef\xbf\xbe", 3), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "clean: U+FFFE replaced");
	CHECK_STR(clean_escape("\xc0\xaf", 2), "\xef\xbf\xbd\xef\xbf\xbd", "clean: overlong encoding replaced");
	CHECK_STR(clean_escape("\xe4\xb8\xad\xe6\x96\x87", 6), "\xe4\xb8\xad\xe6\x96\x87", "clean: valid UTF-8 kept");
	CHECK_STR(clean_escape("\xe4\xb8", 2), "\xef\xbf\xbd\xef\xbf\xbd", "clean: truncated sequence replaced");
	const char *mixed = "a\xc3\xa9" "b\xe4\xb8\xad";
	CHECK(fg_text_characters(mixed, strlen(mixed)) == 4, "text: characters counted as code points");
	CHECK(fg_text_prefix_bytes(mixed, strlen(mixed), 2) == 3, "text: prefix ends on a character boundary");
	CHECK(fg_name_without_annotation("foo_[k]", 7) == 3 && fg_name_without_annotation("foo_[x]", 7) == 7,
	      "text: annotations _[k] _[j] _[i] _[w] stripped, others kept");
}

int main(void)
{
	test_counts();
	test_folded();
	test_stacks();
	test_tree();
	test_merge();
	test_text();
	return check_exit();
}
