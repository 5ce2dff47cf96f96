/*
 * test_tree.c - unit tests of the frame tree (tree.c): merging, order, flame charts, depth, overflow, merging trees.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "folded.h"
#include "tree.h"

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

static void serialize(const fg_tree *t, fg_node_id n, int depth, char *out, size_t size);

/* from's names as ids of into's (fg_tree_merge), in two ranges; NULL if
 * they cannot be. */
static uint32_t *name_map(const fg_tree *into, const fg_tree *from)
{
	size_t names = fg_tree_name_count(from);
	uint32_t *map = fg_tree_can_map_names(into, from) ? malloc((names + 1) * sizeof(*map)) : NULL;
	if (map != NULL) {
		fg_tree_map_names(into, from, map, names / 3, names);
		fg_tree_map_names(into, from, map, 0, names / 3);
	}
	return map;
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

	/* Lines that go back and forth between a name and a longer one that
	 * sorts before it ("a1;y", "a;z", under a greater "a1!x"): each name
	 * keeps one node, not one per line, while the lines are read. */
	t = fg_tree_new(0);
	add(t, "p;a1!x", 1);
	for (int i = 0; i < 10000; i++)
		add(t, i % 2 ? "p;a;z" : "p;a1;y", 1);
	CHECK(fg_tree_size(t) <= 12, "tree: alternating lines make no node per line (%zu nodes)",
	      fg_tree_size(t));
	fg_tree_finish(t);
	fg_node_id p = child_named(t, 0, "p");
	CHECK(fg_tree_total(t, child_named(t, p, "a")).whole == 5000 &&
	      fg_tree_total(t, child_named(t, child_named(t, p, "a1"), "y")).whole == 5000 &&
	      fg_tree_total(t, p).whole == 10001, "tree: alternating lines counted once each");
	fg_tree_free(t);
	/* The same with a line that is a proper prefix of the one before in
	 * between ("p", or the empty stack), and with a name that a byte past
	 * 0x7f extends: still no node per line. */
	static const char *const between[] = {"p", ""};
	for (int b = 0; b < 2; b++) {
		t = fg_tree_new(0);
		add(t, "p;a1!x", 1);
		for (int i = 0; i < 10000; i++)
			add(t, i % 4 == 1 || i % 4 == 3 ? between[b] : i % 4 ? "p;a;z" : "p;a1;y", 1);
		CHECK(fg_tree_size(t) <= 12, "tree: alternating lines with \"%s\" between make no node per line "
		      "(%zu nodes)", between[b], fg_tree_size(t));
		fg_tree_free(t);
	}
	t = fg_tree_new(0);
	add(t, "p;f\x80\x80", 1);
	for (int i = 0; i < 10000; i++)
		add(t, i % 2 ? "p;f" : "p;f\x80", 1);
	CHECK(fg_tree_size(t) <= 12, "tree: a name and its extension by a byte past 0x7f, alternating: "
	      "no node per line (%zu nodes)", fg_tree_size(t));
	fg_tree_free(t);

	/* Names around the length that no longer fits a name entry (2^24 - 1
	 * bytes and up keep their length in the name store). */
	size_t long_length = ((size_t)1 << 24) + 1;
	char *longer = malloc(long_length + 2);
	memset(longer, 'x', long_length);
	t = fg_tree_new(0);
	for (size_t cut = long_length - 3; cut <= long_length; cut++) {
		longer[cut - 1] = 'y';
		CHECK(fg_tree_add(t, longer, cut, fg_count_of(cut), NULL) == 0, "tree: a %zu-byte name", cut);
		longer[cut - 1] = 'x';
	}
	add(t, "short", 1);
	fg_tree_finish(t);
	size_t seen = 0;
	for (fg_node_id c = fg_tree_first_child(t, 0); c != FG_NODE_NONE; c = fg_tree_next_sibling(t, c)) {
		size_t length;
		const char *name = fg_tree_name(t, c, &length);
		bool right = length == 5 ? memcmp(name, "short", 5) == 0 && fg_tree_total(t, c).whole == 1
					 : fg_tree_total(t, c).whole == length && name[length - 1] == 'y' &&
						   memchr(name, 'y', length - 1) == NULL;
		CHECK(right, "tree: the %zu-byte name comes back whole", length);
		seen++;
	}
	CHECK(seen == 5, "tree: five names around 2^24 bytes");
	fg_tree_free(t);
	free(longer);

	/* A node's own count past 32 bits (counts are kept in 32 bits while
	 * they fit), as an empty stack (the root) and below it, and merged. */
	t = fg_tree_new(0);
	add(t, "a", 4294967295u);
	add(t, "b", 1);
	add(t, "", 4294967295u);
	add(t, "a", 2);
	add(t, "", 3);
	fg_tree *t2 = fg_tree_new(0);
	add(t2, "b", 4294967295u);
	add(t2, "", 4294967294u);
	CHECK(fg_tree_merge(t, t2, NULL) == 0, "tree: counts past 2^32 merge");
	fg_tree_free(t2);
	fg_tree_finish(t);
	CHECK(fg_tree_total(t, child_named(t, 0, "a")).whole == 4294967297u &&
	      fg_tree_total(t, child_named(t, 0, "b")).whole == 4294967296u &&
	      fg_tree_total(t, 0).whole == 4294967297u + 4294967296u + 4294967298u + 4294967294u,
	      "tree: counts past 2^32 are exact");
	fg_tree_free(t);

	/* Own counts stay in 8 bits until one passes 255 (a fraction's carry
	 * included), then in 16: every count moved in place, exact. */
	for (int over = 0; over <= 1; over++) {
		t = fg_tree_new(0);
		char stack[32];
		for (int i = 0; i < 3000; i++) {
			snprintf(stack, sizeof(stack), "n%d;m%d", i % 7, i);
			add(t, stack, (uint64_t)(i % 255) + 1);
		}
		fg_tree_add(t, "a;b", 3, (fg_count){254, FG_COUNT_FRAC_ONE / 2}, NULL);
		bool byte_before = t->byte_count != NULL;
		fg_tree_add(t, "a;b", 3, (fg_count){(uint64_t)over, FG_COUNT_FRAC_ONE / 2}, NULL);
		bool byte_after = t->byte_count != NULL, tiny_after = t->tiny != NULL;
		fg_tree_finish(t);
		int wrong = 0;
		uint64_t sums[7] = {0};
		for (int i = 0; i < 3000; i++) {
			char parent[16];
			snprintf(parent, sizeof(parent), "n%d", i % 7);
			snprintf(stack, sizeof(stack), "m%d", i);
			fg_node_id n = child_named(t, child_named(t, 0, parent), stack);
			wrong += fg_tree_total(t, n).whole != (uint64_t)(i % 255) + 1;
			sums[i % 7] += (uint64_t)(i % 255) + 1;
		}
		for (int k = 0; k < 7; k++) {
			snprintf(stack, sizeof(stack), "n%d", k);
			wrong += fg_tree_total(t, child_named(t, 0, stack)).whole != sums[k];
		}
		fg_node_id a = child_named(t, 0, "a");
		CHECK(byte_before && byte_after == !over && tiny_after == (bool)over && wrong == 0 &&
		      fg_tree_total(t, child_named(t, a, "b")).whole == 255 + (uint64_t)over,
		      "tree: own counts in 8 bits up to 255, 16 bits past it (%s), all exact",
		      over ? "256 by a fraction's carry" : "255 by a carry: still 8");
		fg_tree_free(t);
	}

	/* Own counts stay in 16 bits until one passes 65535 (a fraction's
	 * carry included), then in 32; totals are exact either way. */
	for (int over = 0; over <= 1; over++) {
		t = fg_tree_new(0);
		add(t, "a;b", 65000);
		fg_tree_add(t, "a;b", 3, (fg_count){534 + (uint64_t)over, FG_COUNT_FRAC_ONE / 2}, NULL);
		bool tiny_before = t->tiny != NULL;
		fg_tree_add(t, "a;b", 3, (fg_count){0, FG_COUNT_FRAC_ONE / 2}, NULL); /* a carry */
		bool tiny_after = t->tiny != NULL;
		add(t, "a;c", 70000);
		bool tiny_last = t->tiny != NULL;
		fg_tree_finish(t);
		fg_node_id a = child_named(t, 0, "a");
		fg_count b = fg_tree_total(t, child_named(t, a, "b"));
		CHECK(tiny_before && tiny_after == !over && !tiny_last && t->tiny == NULL &&
		      t->narrow != NULL && b.whole == 65535 + (uint64_t)over && b.frac == 0 &&
		      fg_tree_total(t, a).whole == 135535 + (uint64_t)over &&
		      fg_tree_total(t, child_named(t, a, "c")).whole == 70000,
		      "tree: own counts in 16 bits up to 65535, 32 bits past it (%s), exact",
		      over ? "65536 by a fraction's carry" : "65535 by a carry: still 16");
		fg_tree_free(t);
	}

	/* Inclusive totals stay in 32 bits while the grand total fits, a
	 * fraction's carry included; one unit more and they widen. */
	for (int over = 0; over <= 1; over++) {
		const fg_count half = {0, FG_COUNT_FRAC_ONE / 2};
		const fg_count most = {4294967293u + (uint64_t)over, FG_COUNT_FRAC_ONE / 2};
		t = fg_tree_new(0);
		fg_tree_add(t, "a;b", 3, most, NULL);
		fg_tree_add(t, "a;c", 3, half, NULL);
		add(t, "a", 1);
		fg_tree_finish(t);
		fg_node_id a = child_named(t, 0, "a");
		CHECK((t->whole == NULL) == !over && fg_tree_total(t, a).whole == 4294967295u + (uint64_t)over &&
		      fg_tree_total(t, a).frac == 0 && fg_tree_total(t, 0).whole == 4294967295u + (uint64_t)over &&
		      fg_tree_total(t, child_named(t, a, "b")).whole == 4294967293u + (uint64_t)over,
		      "tree: a grand total of %s keeps totals in %s bits, exact", over ? "2^32" : "2^32 - 1",
		      over ? "64" : "32");
		fg_tree_free(t);
	}

	/* Name entries widen to 64 bits when the store passes its limit (4 GiB;
	 * 40 bytes here): the same tree as with narrow entries. */
	static char narrow_listing[8192], wide_listing[8192];
	for (int wide = 0; wide < 2; wide++) {
		t = fg_tree_new(0);
		if (wide)
			t->narrow_limit = 40;
		for (int i = 0; i < 60; i++) {
			char line[64];
			snprintf(line, sizeof(line), "frame%d;f%d;leaf number %d", i % 7, i % 5, i);
			add(t, line, 1 + (uint64_t)i);
		}
		CHECK(wide == (t->wide_names != NULL), "tree: name entries %s", wide ? "widened" : "narrow");
		fg_tree_finish(t);
		char *listing = wide ? wide_listing : narrow_listing;
		listing[0] = '\0';
		serialize(t, 0, 0, listing, sizeof(narrow_listing));
		fg_tree_free(t);
	}
	CHECK(strcmp(narrow_listing, wide_listing) == 0 && strstr(wide_listing, "leaf number 59") != NULL,
	      "tree: widened name entries give the same tree");

	/* Overflow of the grand total is refused, nothing added. */
	t = fg_tree_new(0);
	add(t, "a", UINT64_MAX);
	CHECK(fg_tree_add(t, "b", 1, fg_count_of(1), NULL) == FG_ERANGE, "tree: overflowing sum refused");
	fg_tree_finish(t);
	CHECK(fg_tree_total(t, 0).whole == UINT64_MAX && child_named(t, 0, "b") == FG_NODE_NONE,
	      "tree: total unchanged after a refused add");
	fg_tree_free(t);
}

/* serialize's listing of n's subtree at out (size bytes, size > 0): the
 * bytes written, NUL not counted. */
static size_t listing(const fg_tree *t, fg_node_id n, int depth, char *out, size_t size)
{
	/* Recursion is fine here: test trees are shallow. */
	size_t length;
	const char *name = fg_tree_name(t, n, &length);
	int written = snprintf(out, size, "%d %.*s %llu\n", depth, (int)length, name,
			       (unsigned long long)fg_tree_total(t, n).whole);
	size_t used = written < 0 ? 0 : (size_t)written < size ? (size_t)written : size - 1;
	for (fg_node_id c = fg_tree_first_child(t, n); c != FG_NODE_NONE; c = fg_tree_next_sibling(t, c))
		used += listing(t, c, depth + 1, out + used, size - used);
	return used;
}

/* A canonical listing of a finished tree: depth, name, total, DFS order,
 * appended to the string at out (size bytes in all). */
static void serialize(const fg_tree *t, fg_node_id n, int depth, char *out, size_t size)
{
	size_t at = strlen(out);
	listing(t, n, depth, out + at, size - at);
}

/* Every split of lines between two trees, merged, gives the tree of all
 * lines. counts: each line's count (NULL: 1 + its index). */
static void check_merges(const char *const *lines, const uint64_t *counts, size_t n, const char *what)
{
	static char whole[4096], merged[4096];
	fg_tree *one = fg_tree_new(0);
	for (size_t i = 0; i < n; i++)
		add(one, lines[i], counts ? counts[i] : 1 + i);
	fg_tree_finish(one);
	whole[0] = '\0';
	serialize(one, 0, 0, whole, sizeof(whole));
	for (size_t split = 0; split <= 2 * n + 1; split++) {
		fg_tree *a = fg_tree_new(0), *b = fg_tree_new(0);
		for (size_t i = 0; i < n; i++)
			add(i < split / 2 ? a : b, lines[i], counts ? counts[i] : 1 + i);
		/* (Odd splits: b's names mapped to a's first.) */
		fg_tree_finish_keeping_names(a);
		fg_tree_finish(b);
		uint32_t *map = split % 2 ? name_map(a, b) : NULL;
		int rc = fg_tree_merge(a, b, map);
		free(map);
		fg_tree_free(b);
		merged[0] = '\0';
		serialize(a, 0, 0, merged, sizeof(merged));
		CHECK(rc == 0 && strcmp(whole, merged) == 0 && (split % 2 == 0 || map != NULL),
		      "tree merge (%s): split after line %zu (names %s) equals one tree", what,
		      split / 2, split % 2 ? "mapped" : "copied");
		fg_tree_free(a);
	}
	fg_tree_free(one);
}

static void test_merge(void)
{
	static const char *const lines[] = {
		"a;f 1", "a;f2;x 2", "a;f;y 3", "a;f.c 1", "b;q 5", "a;f;y;z 2", "b 1", "", "c;d;e 4",
		"a;f2;x 1", "b;q;r 2",
	};
	check_merges(lines, NULL, sizeof(lines) / sizeof(lines[0]), "small counts");
	/* Own counts past 32 bits, on either side, at the root (empty stacks)
	 * and below: counts then need 64 bits in one tree or both. */
	static const char *const big_lines[] = {"", "a", "a;b", "", "a", "c", "a;b", ""};
	static const uint64_t big_counts[] = {
		4294967295u, 4294967295u, 7, 1, 1, 4294967296u, 4294967295u, 3,
	};
	check_merges(big_lines, big_counts, sizeof(big_lines) / sizeof(big_lines[0]), "counts past 2^32");
	/* Own counts around 16 bits: a tree keeps them in 16 bits until one
	 * passes 65535 (here by one line, or by two adding up, at the root
	 * too), so the two trees of a split may differ in width. */
	static const char *const tiny_lines[] = {"a;b", "a;b", "", "c", "", "a", "c;d", "a;b", "c;d"};
	static const uint64_t tiny_counts[] = {65535, 1, 65534, 65535, 2, 65536, 7, 65535, 65529};
	check_merges(tiny_lines, tiny_counts, sizeof(tiny_lines) / sizeof(tiny_lines[0]),
		     "own counts past 16 bits");
	/* Merges where either tree's name entries are 64 bits wide (from's
	 * are rewritten in place as ids of into's names). */
	static char one_listing[8192], merged_listing[8192];
	fg_tree *one = fg_tree_new(0);
	for (int i = 0; i < 60; i++) {
		char line[64];
		snprintf(line, sizeof(line), "frame%d;f%d;leaf number %d", i % 7, i % 5, i % 23);
		add(one, line, 1 + (uint64_t)i);
	}
	fg_tree_finish(one);
	one_listing[0] = '\0';
	serialize(one, 0, 0, one_listing, sizeof(one_listing));
	fg_tree_free(one);
	for (int wide = 0; wide < 4; wide++) {
		fg_tree *a = fg_tree_new(0), *b = fg_tree_new(0);
		if (wide & 1)
			a->narrow_limit = 40;
		if (wide & 2)
			b->narrow_limit = 40;
		for (int i = 0; i < 60; i++) {
			char line[64];
			snprintf(line, sizeof(line), "frame%d;f%d;leaf number %d", i % 7, i % 5, i % 23);
			add(i % 3 ? a : b, line, 1 + (uint64_t)i);
		}
		bool widened = ((wide & 1) != 0) == (a->wide_names != NULL) && ((wide & 2) != 0) == (b->wide_names != NULL);
		uint32_t *map = wide >= 2 ? name_map(a, b) : NULL;
		int rc = fg_tree_merge(a, b, map);
		free(map);
		fg_tree_free(b);
		merged_listing[0] = '\0';
		serialize(a, 0, 0, merged_listing, sizeof(merged_listing));
		CHECK(widened && rc == 0 && strcmp(one_listing, merged_listing) == 0,
		      "tree merge: name entries wide in %s give the one tree", (const char *[]){"neither", "into", "from", "both"}[wide]);
		fg_tree_free(a);
	}

	/* A finished tree keeps its table of names only when asked to, until
	 * dropped (it is of no use after, and takes room: -j1 too). */
	fg_tree *kept = fg_tree_new(0), *dropped = fg_tree_new(0);
	add(kept, "a;b", 1);
	add(dropped, "a;c", 1);
	fg_tree_finish_keeping_names(kept);
	fg_tree_finish(dropped);
	bool mappable = fg_tree_can_map_names(kept, dropped) && !fg_tree_can_map_names(dropped, kept);
	fg_tree_drop_names(kept);
	CHECK(mappable && !fg_tree_can_map_names(kept, dropped),
	      "tree: the table of names is kept when finishing only when asked, until dropped");
	fg_tree_free(kept);
	fg_tree_free(dropped);

	fg_tree *big = fg_tree_new(0), *other = fg_tree_new(0);
	add(big, "a", UINT64_MAX);
	add(other, "b", 1);
	CHECK(fg_tree_merge(big, other, NULL) == FG_ERANGE, "tree merge: an overflowing sum is refused");
	fg_tree_free(other);
	fg_tree_free(big);
}

static int compare_lines(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b); /* bytewise, as unsigned */
}

/*
 * Input sorted bytewise stays on the sorted path (no child table is ever
 * built), names that come back after a longer sibling included, and gives
 * the tree the same lines give in reverse order, found through the table.
 */
static void test_sorted_path(void)
{
	static const char *const names[] = {"a", "a1", "a!x", "a b", "f", "f2", "f2x", "f.c", "", "\x80z", "z"};
	static char text[64][64], sorted_listing[65536], reverse_listing[65536];
	const char *lines[64];
	uint64_t state = 7;
	for (int round = 0; round < 200; round++) {
		size_t n = 0;
		for (int i = 0; i < 64; i++) {
			text[i][0] = '\0';
			state = state * 6364136223846793005ull + 1442695040888963407ull;
			int depth = 1 + (int)(state >> 60) % 5;
			for (int d = 0; d < depth; d++) {
				state = state * 6364136223846793005ull + 1442695040888963407ull;
				if (d > 0)
					strcat(text[i], ";");
				strcat(text[i], names[(state >> 33) % (sizeof(names) / sizeof(names[0]))]);
			}
			bool seen = false;
			for (size_t j = 0; j < n; j++)
				seen = seen || strcmp(lines[j], text[i]) == 0;
			size_t length = strlen(text[i]);
			/* (trailing empty frames are dropped: "a;" is "a", not sorted as such) */
			if (!seen && length > 0 && text[i][length - 1] != ';')
				lines[n++] = text[i];
		}
		qsort(lines, n, sizeof(lines[0]), compare_lines);
		fg_tree *sorted = fg_tree_new(0), *reverse = fg_tree_new(0);
		for (size_t i = 0; i < n; i++) {
			add(sorted, lines[i], 1 + i);
			add(reverse, lines[n - 1 - i], 1 + (n - 1 - i));
		}
		bool no_table = sorted->slots == NULL;
		fg_tree_finish(sorted);
		fg_tree_finish(reverse);
		sorted_listing[0] = reverse_listing[0] = '\0';
		serialize(sorted, 0, 0, sorted_listing, sizeof(sorted_listing));
		serialize(reverse, 0, 0, reverse_listing, sizeof(reverse_listing));
		CHECK(no_table && strcmp(sorted_listing, reverse_listing) == 0,
		      "tree: sorted input (round %d, %zu lines) needs no child table (%s) and gives the tree "
		      "of the same lines reversed", round, n, no_table ? "none" : "built");
		fg_tree_free(sorted);
		fg_tree_free(reverse);
	}
}

/* The child of parent whose name is these bytes (NUL included). */
static fg_node_id child_bytes(const fg_tree *t, fg_node_id parent, const char *name, size_t length)
{
	for (fg_node_id c = fg_tree_first_child(t, parent); c != FG_NODE_NONE; c = fg_tree_next_sibling(t, c)) {
		size_t n;
		const char *bytes = fg_tree_name(t, c, &n);
		if (n == length && memcmp(bytes, name, length) == 0)
			return c;
	}
	return FG_NODE_NONE;
}

/*
 * Frames are found and hashed 8 bytes at a time (tree.c: next_frame), and
 * names alone again when the name table grows (name_hash). Names of every
 * length around those 8 bytes, of bytes close to ';' (':', '<', 0xbb =
 * ';' | 0x80) and NUL, more of them than the first name table holds, each
 * used many times in random order (the child table), are the frames a
 * plain split at ';' gives: every line's path is in the tree, with exact
 * totals, and no frame twice (a name hashed two ways would be two names,
 * never merged).
 */
static void test_frame_bytes(void)
{
	static const char alphabet[] = {'a', ':', '<', (char)0xbb, '\0', 'b'};
	enum { NAMES = 1500, LINES = 3000, ROOM = 8 * 20 };
	static char vocabulary[NAMES][20], text[LINES][ROOM];
	static size_t name_lengths[NAMES], lengths[LINES];
	uint64_t state = 11;
#define NEXT() (state = state * 6364136223846793005ull + 1442695040888963407ull, state >> 33)
	for (int round = 0; round < 4; round++) {
		for (int i = 0; i < NAMES; i++) {
			name_lengths[i] = (size_t)i % 20;
			for (size_t k = 0; k < name_lengths[i]; k++)
				vocabulary[i][k] = alphabet[NEXT() % sizeof(alphabet)];
		}
		fg_tree *t = fg_tree_new(0);
		bool added = true;
		for (int i = 0; i < LINES; i++) {
			size_t n = 0;
			int depth = 1 + (int)(NEXT() % 8);
			for (int d = 0; d < depth; d++) {
				size_t name = NEXT() % NAMES;
				if (d == depth - 1 && name_lengths[name] == 0)
					name++; /* (a trailing empty frame is dropped) */
				if (d > 0)
					text[i][n++] = ';';
				memcpy(text[i] + n, vocabulary[name], name_lengths[name]);
				n += name_lengths[name];
			}
			lengths[i] = n;
			added = added && fg_tree_add(t, text[i], n, fg_count_of(1 + (uint64_t)i), NULL) == 0;
		}
#undef NEXT
		fg_tree_finish(t);
		uint64_t *expected = calloc(fg_tree_size(t), sizeof(*expected));
		size_t paths = 0, missing = 0;
		for (int i = 0; i < LINES; i++) {
			fg_node_id at = 0;
			for (size_t start = 0, end; start <= lengths[i] && at != FG_NODE_NONE; start = end + 1) {
				for (end = start; end < lengths[i] && text[i][end] != ';'; end++)
					;
				at = child_bytes(t, at, text[i] + start, end - start);
				if (at == FG_NODE_NONE) {
					missing++;
				} else {
					paths += expected[at] == 0;
					expected[at] += 1 + (uint64_t)i;
				}
			}
		}
		bool totals = true;
		for (fg_node_id n = 1; n < fg_tree_size(t); n++)
			if (expected[n] != 0 && fg_tree_total(t, n).whole != expected[n])
				totals = false;
		CHECK(added && missing == 0 && totals && paths == fg_tree_live_nodes(t) - 1,
		      "tree: names of 0-19 bytes near ';' and NUL, out of order (round %d): %zu frames missing, "
		      "%zu paths for %zu nodes, totals %s", round, missing, paths, fg_tree_live_nodes(t) - 1,
		      totals ? "exact" : "wrong");
		free(expected);
		fg_tree_free(t);
	}
}


/* One line of random frames: names from a small set, so that siblings
 * repeat across lines, with names that come back after a longer sibling
 * in sorted input ("a" after "a1;..."). */
static void random_line(uint64_t *state, char *out, size_t size)
{
	static const char *const kinds[] = {"a", "a1", "a b", "f", "f.c", "x"};
	size_t used = 0;
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	int depth = 1 + (int)((*state >> 59) % 8);
	for (int d = 0; d < depth && used + 32 < size; d++) {
		*state = *state * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t r = *state >> 20;
		used += (size_t)snprintf(out + used, size - used, "%s%s%d", d ? ";" : "",
					 kinds[r % 6], (int)((r >> 8) % (d < 2 ? 9 : 60)));
	}
}

/* The lines split between `parts` trees as `how` says (0: by first
 * frame, as the threads split them; 1: at random, so that the trees share
 * frames at every depth; 2: sorted lines dealt in turn, every other tree
 * taking its share backwards, so that some trees have names that came
 * back and the others are out of order), each finished, merged into the
 * first: when `mapped`, the names of every other tree (or of the second
 * of two) mapped to the first's before the merges. */
static fg_tree *split_tree(char (*lines)[96], size_t n, int how, size_t parts, bool mapped)
{
	fg_tree *trees[4];
	for (size_t p = 0; p < parts; p++)
		trees[p] = fg_tree_new(0);
	uint64_t state = 99;
	for (size_t k = 0; k < n; k++) {
		size_t part;
		if (how == 0) {
			part = (size_t)(lines[k][0] + lines[k][1]) % parts;
		} else if (how == 1) {
			state = state * 6364136223846793005ull + 1;
			part = (size_t)(state >> 33) % parts;
		} else {
			part = k % parts;
		}
		if (how != 2 || part % 2 == 0)
			add(trees[part], lines[k], 1 + k % 7);
	}
	for (size_t k = n; how == 2 && k-- > 0;) /* (the odd trees' shares, backwards) */
		if (k % parts % 2)
			add(trees[k % parts], lines[k], 1 + k % 7);
	int rc = 0;
	uint32_t *maps[4] = {NULL};
	for (size_t p = 0; p < parts; p++) {
		rc |= p == 0 && mapped ? fg_tree_finish_keeping_names(trees[p]) : fg_tree_finish(trees[p]);
		fg_tree_give_back(trees[p]); /* (trees[0] then grows into what it gave back) */
	}
	for (size_t p = 1; p < parts && mapped; p++) /* (as graph.c: all before the merges) */
		if (p % 2 || parts == 2)
			rc |= (maps[p] = name_map(trees[0], trees[p])) == NULL;
	for (size_t p = 1; p < parts; p++) {
		rc |= fg_tree_merge(trees[0], trees[p], maps[p]);
		free(maps[p]);
		fg_tree_free(trees[p]);
	}
	if (rc != 0) {
		fg_tree_free(trees[0]);
		return NULL;
	}
	return trees[0];
}

static int compare_rows(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* Whether every live node is in its parent's list, once, after its
 * parent (a higher id: finish.c sums children first by going down the
 * ids), lists in strict name order (siblings of one name merged), and the
 * merged nodes weigh nothing; *live: the nodes found. */
static bool well_linked(const fg_tree *t, size_t *live)
{
	size_t found = 1;
	for (size_t id = 0; id < fg_tree_size(t); id++) {
		if (id > 0 && fg_tree_parent(t, (fg_node_id)id) == FG_NODE_NONE) {
			if (!fg_count_is_zero(fg_tree_total(t, (fg_node_id)id)))
				return false;
			continue;
		}
		const char *previous = NULL;
		size_t previous_length = 0;
		for (fg_node_id c = fg_tree_first_child(t, (fg_node_id)id); c != FG_NODE_NONE;
		     c = fg_tree_next_sibling(t, c), found++) {
			size_t length;
			const char *name = fg_tree_name(t, c, &length);
			if (fg_tree_parent(t, c) != id || c <= id || found > fg_tree_size(t))
				return false;
			if (previous != NULL) {
				int order = memcmp(previous, name, length < previous_length ? length : previous_length);
				if (order > 0 || (order == 0 && previous_length >= length))
					return false;
			}
			previous = name;
			previous_length = length;
		}
	}
	*live = found;
	return true;
}

/*
 * Trees of a split of the lines, finished and merged (as the threads'
 * trees are: graph.c), give the tree of all the lines: the same frames,
 * totals and order, on trees of over 100,000 nodes, split in 2 to 4,
 * with merges at every depth.
 */
static void test_merge_many(void)
{
	enum { LINES = 40000 };
	static char lines[LINES][96];
	uint64_t state = 12345;
	for (size_t i = 0; i < LINES; i++)
		random_line(&state, lines[i], sizeof(lines[i]));
	size_t size = 16 << 20;
	char *whole = malloc(size), *merged = malloc(size);
	for (int how = 0; how < 3; how++) {
		if (how == 2)
			qsort(lines, LINES, sizeof(lines[0]), compare_rows);
		fg_tree *one = fg_tree_new(0);
		for (size_t i = 0; i < LINES; i++)
			add(one, lines[i], 1 + i % 7);
		fg_tree_finish(one);
		whole[0] = '\0';
		serialize(one, 0, 0, whole, size);
		for (size_t run = 0; run < 6; run++) {
			size_t parts = 2 + run / 2;
			bool mapped = run % 2;
			fg_tree *many = split_tree(lines, LINES, how, parts, mapped);
			size_t live = 0;
			bool linked = many != NULL && well_linked(many, &live);
			merged[0] = '\0';
			if (many != NULL)
				serialize(many, 0, 0, merged, size);
			CHECK(linked && live == fg_tree_live_nodes(many) && fg_tree_live_nodes(one) > 100000 &&
			      live == fg_tree_live_nodes(one) && strcmp(whole, merged) == 0 &&
			      (!mapped || parts > 2 || fg_tree_name_count(many) == fg_tree_name_count(one)),
			      "tree: %zu trees of a split (%d), finished and merged (names %s), are the one "
			      "tree (%zu nodes; %zu, %s)", parts, how, mapped ? "mapped" : "copied",
			      fg_tree_live_nodes(one), live, linked ? "well linked" : "badly linked");
			fg_tree_free(many);
		}
		fg_tree_free(one);
	}
	free(whole);
	free(merged);
}

/* fg_give_back: the whole pages past `from` leave memory and read as
 * zeros; the bytes before it, the rest of its page included, stay. */
static void test_give_back(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = 64, from = 10 * page + 100;
	unsigned char *memory = aligned_alloc(page, pages * page);
	unsigned char resident[64];
	if (memory == NULL)
		return;
	memset(memory, 0xab, pages * page);
	fg_give_back(memory, from, pages * page);
	bool gone = mincore(memory, pages * page, resident) == 0, kept = true, zeros = true;
	for (size_t i = 0; i < pages; i++)
		if (i <= 10 ? !(resident[i] & 1) : (resident[i] & 1))
			gone = false;
	for (size_t i = 0; i < pages * page; i++)
		if (i < 11 * page)
			kept = kept && memory[i] == 0xab;
		else
			zeros = zeros && memory[i] == 0;
	CHECK(gone && kept && zeros,
	      "tree: memory given back leaves from the next whole page on (%s), the bytes before "
	      "stay (%s), those after read as zeros (%s)", gone ? "yes" : "no", kept ? "yes" : "no",
	      zeros ? "yes" : "no");
	free(memory);
}

/* After a huge stack, the previous stack's arrays shrink to fit the next
 * ones, once these have had as many bytes as the arrays hold (not after
 * a few short lines: a huge stack coming back would grow them again); the
 * lines after it still find their frames on it. */
static void test_fit_previous(void)
{
	enum { FRAMES = 250000, REPEATS = 150000 };
	size_t capacity = FRAMES * 8 + 64, used = 0;
	char *huge = malloc(capacity);
	used += (size_t)snprintf(huge, capacity, "main;run");
	for (size_t i = 0; i < FRAMES; i++)
		used += (size_t)snprintf(huge + used, capacity - used, ";f%zu", i % 1000);
	static const char *const after[] = {"main;run;x", "main;run;x;y", "main;run;z", "main;s"};
	static const char repeated[] = "main;run;w_a_frame_with_a_long_name_of_sixty_bytes_or_so_abcdef";
	fg_tree *t = fg_tree_new(0), *u = fg_tree_new(0);
	fg_tree_add(t, huge, used, fg_count_of(3), NULL);
	size_t big = t->previous_capacity, big_path = t->path_capacity;
	for (size_t i = 0; i < 4; i++) {
		add(t, after[i], 1 + i);
		add(u, after[i], 1 + i);
	}
	bool kept = t->previous_capacity == big && t->path_capacity == big_path;
	for (size_t i = 0; i < REPEATS; i++) {
		add(t, repeated, 1);
		add(u, repeated, 1);
	}
	bool fit = t->previous_capacity < 128 && t->path_capacity < 8 && t->ends_capacity < 8 &&
		   t->hash_capacity < 8 && t->name_scratch_capacity < 8;
	add(t, "main;run;x;y", 10); /* (after the fit: shares main;run with the line before) */
	add(u, "main;run;x;y", 10);
	fg_tree_add(u, huge, used, fg_count_of(3), NULL); /* (the same lines, the huge one last) */
	fg_tree_finish(t);
	fg_tree_finish(u);
	bool same = fg_tree_size(t) == fg_tree_size(u);
	for (int k = 0; k < 2; k++) {
		const fg_tree *v = k ? u : t;
		fg_node_id main = child_named(v, 0, "main"), run = child_named(v, main, "run");
		fg_node_id x = child_named(v, run, "x");
		same = same && fg_tree_total(v, run).whole == 19 + REPEATS && fg_tree_total(v, x).whole == 13 &&
		       fg_tree_total(v, child_named(v, x, "y")).whole == 12 &&
		       fg_tree_total(v, child_named(v, run, "z")).whole == 3 &&
		       fg_tree_total(v, child_named(v, run, repeated + 9)).whole == REPEATS &&
		       fg_tree_total(v, child_named(v, main, "s")).whole == 4;
	}
	CHECK(big >= used && big_path > FRAMES && kept && fit && same,
	      "tree: after a stack of %zu bytes, %d frames, the previous stack's arrays stay through a few "
	      "short lines (%s), then fit the next (%zu bytes, %zu frames: %s), and the lines after it "
	      "build the same tree", used, FRAMES, kept ? "kept" : "shrunk", t->previous_capacity,
	      t->path_capacity, fit ? "fit" : "not fit");
	fg_tree_free(t);
	fg_tree_free(u);
	free(huge);
}

int main(void)
{
	test_give_back();
	test_fit_previous();
	test_tree();
	test_frame_bytes();
	test_merge();
	test_sorted_path();
	test_merge_many();
	return check_exit();
}
