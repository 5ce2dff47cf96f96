/*
 * viewdata.c - the frame tree as view data for the viewer (viewdata.h).
 *
 * The drawn frames of an SVG hold only what is wider than --minwidth, and
 * their titles only inclusive counts: not enough for a function table, a
 * function view or a zoom that reveals narrow frames, all of which must be
 * exact to the sample. So the writer adds the tree itself, as text inside
 * one <metadata> element (docs/svg-contract.md, "View data"), as XML text,
 * where a name that the SVG declares as an entity is a reference to it:
 *
 *   fg-data 1 nodes=K names=M total=T minwidth=W factor=F other=O [named=D]
 *   NAME 1                       (the names, most used first, one a line,
 *   NAME 2                        escaped: \\ \n \r, then XML; name 0 is the root)
 *   ...
 *   TREE                         (one line)
 *
 * TREE lists the nodes in pre-order. A node is its name number in base 36,
 * (left out for a frame the SVG draws at least NAMED wide: the viewer reads
 * that name from the frame, the n-th drawn child of a drawn node being its
 * n-th drawn frame from the left), then ":SELF" when it has own samples and "!OTHER" when children were left
 * out, and then what comes next: "," when the next node is its child, else
 * one ")" per level to climb first (")" = a sibling). Counts are exact
 * decimals. Frequent names get short numbers, and most nodes have no own
 * samples: a node costs about 4 bytes.
 *
 * The budget counts nodes. Past it, the heaviest nodes are kept (a parent
 * weighs at least as much as its child and comes first in pre-order, so
 * the kept set is a tree) and every left-out subtree's total is added to
 * its parent's OTHER: each view can then say exactly how much it cannot
 * show. Everything is iterative; the tree may be deep.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tree.h"
#include "viewdata.h"

typedef struct visit {
	fg_node_id node;
	uint32_t depth;
	size_t parent;   /* the parent's position in pre-order (the root: 0) */
} visit;

/* Every live node in pre-order, children in tree (name) order. */
static int preorder(const fg_tree *t, visit **out, size_t *count)
{
	size_t capacity = 0, used = 0, stack_capacity = 0, stack_used = 0;
	visit *list = NULL, *stack = NULL;
	if (fg_grow((void **)&stack, &stack_capacity, 1, sizeof(*stack)) != 0)
		return FG_ENOMEM;
	stack[stack_used++] = (visit){0, 0, 0};
	while (stack_used > 0) {
		visit v = stack[--stack_used];
		if (fg_grow((void **)&list, &capacity, used + 1, sizeof(*list)) != 0)
			goto oom;
		list[used++] = v;
		/* Children pushed last-first, so the first is visited first. */
		size_t first = stack_used;
		for (fg_node_id c = tree_first_child(t, v.node); c != FG_NODE_NONE;
		     c = tree_next_sibling(t, c)) {
			if (fg_grow((void **)&stack, &stack_capacity, stack_used + 1, sizeof(*stack)) != 0)
				goto oom;
			stack[stack_used++] = (visit){c, v.depth + 1, used - 1};
		}
		for (size_t a = first, b = stack_used; a + 1 < b; a++, b--) {
			visit swap = stack[a];
			stack[a] = stack[b - 1];
			stack[b - 1] = swap;
		}
	}
	free(stack);
	*out = list;
	*count = used;
	return 0;
oom:
	free(stack);
	free(list);
	return FG_ENOMEM;
}

/* For the budget: heavier first, then earlier in pre-order. */
typedef struct weighed {
	fg_count total;
	size_t position;
} weighed;

static int compare_weight(const void *a, const void *b)
{
	const weighed *x = a, *y = b;
	int c = fg_count_compare(y->total, x->total);
	if (c != 0)
		return c;
	return x->position < y->position ? -1 : x->position > y->position;
}

/* Marks kept[position] for the `budget` heaviest nodes. */
static int choose(const fg_tree *t, const visit *nodes, size_t count, size_t budget,
		  unsigned char *kept)
{
	if (count <= budget) {
		memset(kept, 1, count);
		return 0;
	}
	weighed *w = malloc(count * sizeof(*w));
	if (w == NULL)
		return FG_ENOMEM;
	for (size_t i = 0; i < count; i++)
		w[i] = (weighed){tree_total(t, nodes[i].node), i};
	qsort(w, count, sizeof(*w), compare_weight);
	memset(kept, 0, count);
	for (size_t i = 0; i < budget && i < count; i++)
		kept[w[i].position] = 1;
	kept[0] = 1;
	free(w);
	return 0;
}

static int compare_uses(const void *a, const void *b)
{
	const fg_stack_entry *x = *(const fg_stack_entry *const *)a;
	const fg_stack_entry *y = *(const fg_stack_entry *const *)b;
	if (x->count[0].whole != y->count[0].whole)
		return x->count[0].whole > y->count[0].whole ? -1 : 1;
	return 0; /* qsort is not stable, but the input order is: see below */
}

static void put_base36(fg_buffer *out, uint64_t v)
{
	char digits[16];
	int n = 0;
	do {
		digits[n++] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
		v /= 36;
	} while (v);
	while (n)
		fg_buffer_append(out, &digits[--n], 1);
}

static void put_count(fg_buffer *out, char prefix, fg_count c)
{
	char text[FG_COUNT_TEXT_MAX + 1];
	text[0] = prefix;
	size_t n = fg_count_format(c, text + 1);
	fg_buffer_append(out, text, n + 1);
}

/* A name on its own line: cleaned, with \ newline and CR escaped (a name
 * is one line), then escaped for XML. */
static int put_name(fg_buffer *out, fg_buffer *scratch, const char *bytes, size_t length)
{
	scratch->length = 0;
	if (fg_text_clean(scratch, bytes, length) != 0)
		return FG_ENOMEM;
	size_t run = 0;
	for (size_t i = 0; i < scratch->length; i++) {
		char c = scratch->data[i];
		const char *escape = c == '\\' ? "\\\\" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : NULL;
		if (escape == NULL)
			continue;
		fg_text_escape(out, scratch->data + run, i - run);
		fg_buffer_append_str(out, escape);
		run = i + 1;
	}
	if (fg_text_escape(out, scratch->data + run, scratch->length - run) != 0 ||
	    fg_buffer_append(out, "\n", 1) != 0)
		return FG_ENOMEM;
	return 0;
}

/* The shown name of a node: without its _[k]-style annotation. */
static const char *shown_name(const fg_tree *t, fg_node_id n, size_t *length)
{
	const char *name = fg_tree_name(t, n, length);
	*length = fg_name_without_annotation(name, *length);
	return name;
}

int fg_view_data_write(fg_buffer *out, const fg_tree *t, size_t budget, fg_count total,
		       double threshold, double named, double factor, fg_view_data_entity entity,
		       void *entity_context)
{
	visit *nodes = NULL;
	size_t count = 0;
	unsigned char *kept = NULL;
	fg_stacks *names = NULL;
	const fg_stack_entry **sorted = NULL;
	fg_buffer scratch = {0, 0, 0};
	fg_count *other = NULL;   /* per position, when nodes were left out */
	int rc = FG_ENOMEM;
	if (preorder(t, &nodes, &count) != 0)
		return FG_ENOMEM;
	if ((kept = malloc(count)) == NULL || choose(t, nodes, count, budget ? budget : 1, kept) != 0)
		goto done;

	/* The names of drawn frames at least `named` wide are left out: the
	 * viewer reads them from the frames. Only when every drawn frame is
	 * kept and counts are whole (so that both sides agree on which nodes
	 * are drawn: total >= threshold). */
	bool omit = named >= threshold && named == named;
	for (size_t i = 0; i < count && omit; i++) {
		fg_count c = tree_total(t, nodes[i].node);
		if (c.frac != 0 || (!kept[i] && fg_count_to_double(c) >= threshold))
			omit = false;
	}
#define OMITTED(i) (omit && (i) > 0 && fg_count_to_double(tree_total(t, nodes[i].node)) >= named)

	/* Names by use, most used first (ties in byte order: the sorted table
	 * is in byte order and the sort below keeps it by its position). */
	if ((names = fg_stacks_new()) == NULL)
		goto done;
	size_t kept_count = 0;
	for (size_t i = 0; i < count; i++) {
		if (!kept[i])
			continue;
		kept_count++;
		if (i == 0 || OMITTED(i))
			continue;
		size_t length;
		const char *name = shown_name(t, nodes[i].node, &length);
		if (fg_stacks_add(names, name, length, 0, fg_count_of(1)) != 0)
			goto done;
	}
	if ((sorted = fg_stacks_sorted(names)) == NULL)
		goto done;
	size_t name_count = fg_stacks_size(names);
	for (size_t i = 0; i < name_count; i++) /* uses * 2^32 + position: a stable sort */
		((fg_stack_entry *)sorted[i])->count[0].whole =
			((fg_stack_entry *)sorted[i])->count[0].whole << 32 | (UINT32_MAX - i);
	qsort(sorted, name_count, sizeof(*sorted), compare_uses);
	for (size_t i = 0; i < name_count; i++)
		((fg_stack_entry *)sorted[i])->count[1] = fg_count_of(i + 1);

	/* Each left-out subtree's total goes to its kept parent's OTHER. */
	fg_count other_all = {0, 0};
	if (kept_count < count && (other = calloc(count, sizeof(*other))) == NULL)
		goto done;
	for (size_t i = 1; i < count && other != NULL; i++)
		if (!kept[i] && kept[nodes[i].parent]) {
			fg_count_add_inline(&other[nodes[i].parent], tree_total(t, nodes[i].node));
			fg_count_add_inline(&other_all, tree_total(t, nodes[i].node));
		}

	char number[FG_COUNT_TEXT_MAX], real[160];
	fg_buffer_append_str(out, "fg-data 1 nodes=");
	snprintf(real, sizeof(real), "%zu names=%zu total=", kept_count, name_count + 1);
	fg_buffer_append_str(out, real);
	fg_count_format(total, number);
	fg_buffer_append_str(out, number);
	snprintf(real, sizeof(real), " minwidth=%.17g factor=%.17g other=", threshold, factor);
	fg_buffer_append_str(out, real);
	fg_count_format(other_all, number);
	fg_buffer_append_str(out, number);
	if (omit) {
		snprintf(real, sizeof(real), " named=%.17g", named);
		fg_buffer_append_str(out, real);
	}
	fg_buffer_append_str(out, "\nall\n");
	for (size_t i = 0; i < name_count; i++) {
		if (entity != NULL && entity(entity_context, out, sorted[i]->stack, sorted[i]->stack_length))
			fg_buffer_append(out, "\n", 1);
		else if (put_name(out, &scratch, sorted[i]->stack, sorted[i]->stack_length) != 0) {
			rc = FG_ENOMEM;
			goto done;
		}
	}

	uint32_t previous_depth = 0;
	for (size_t i = 0; i < count; i++) {
		if (!kept[i])
			continue;
		fg_node_id n = nodes[i].node;
		if (i > 0) {
			uint32_t up = previous_depth + 1 - nodes[i].depth;
			if (up == 0)
				fg_buffer_append(out, ",", 1);
			while (up-- > 0)
				fg_buffer_append(out, ")", 1);
		}
		previous_depth = nodes[i].depth;
		uint64_t id = 0;
		if (i > 0 && !OMITTED(i)) {
			size_t length;
			const char *name = shown_name(t, n, &length);
			id = fg_stacks_find(names, name, length)->count[1].whole;
		}
		if (!OMITTED(i))
			put_base36(out, id);
		fg_count children = {0, 0};
		for (fg_node_id c = tree_first_child(t, n); c != FG_NODE_NONE; c = tree_next_sibling(t, c))
			fg_count_add_inline(&children, tree_total(t, c));
		fg_count self = fg_count_sub_floor(tree_total(t, n), children);
		if (!fg_count_is_zero(self))
			put_count(out, ':', self);
		if (other != NULL && !fg_count_is_zero(other[i]))
			put_count(out, '!', other[i]);
	}
	fg_buffer_append(out, "\n", 1);
	rc = out->data == NULL ? FG_ENOMEM : 0;
done:
	free(sorted);
	fg_stacks_free(names);
	fg_buffer_free(&scratch);
	free(other);
	free(kept);
	free(nodes);
	return rc;
}
