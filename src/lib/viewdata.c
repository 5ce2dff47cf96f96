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
 * The budget counts nodes. Past it, the heaviest nodes are kept (ties: the
 * first in pre-order; a parent weighs at least as much as its child and
 * comes first in pre-order, so the kept set is a tree) and every left-out
 * subtree's total is added to its parent's OTHER: each view can then say
 * exactly how much it cannot show.
 *
 * Time and memory are linear, and small: a profile of a million nodes is
 * written in a few milliseconds with one bit per node. The weight of the
 * budget's last node is found by one histogram of the node totals when it
 * is below 65535 (the usual case), else by a radix select (one 16-bit
 * digit per pass, highest first), not by sorting. The nodes heavier than
 * it, kept whatever the order, have their children weighed breadth first,
 * many lists loaded side by side; then one pre-order walk, with a stack,
 * decides the ties (weighing the children of those kept) and lists the
 * kept nodes with their depth, own samples and left-out children's
 * weight: each kept node's name number is then found once, by name id,
 * and the TREE line is written from the list alone, without going back
 * to the tree.
 * Everything is iterative: the tree may be deep.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tree.h"
#include "strsort.h"
#include "viewdata.h"

static inline bool live(const fg_tree *t, fg_node_id n)
{
	return n == 0 || t->nodes[n].parent != FG_NODE_NONE; /* else merged */
}

/* The keys nodes are ranked by, heaviest first: a total's whole units,
 * then (when counts are fractional) its fraction. */
typedef struct selection {
	uint64_t whole, frac; /* the weight of the last node kept */
	size_t equal;         /* how many nodes of exactly that weight are kept */
	size_t budget;        /* how many nodes are kept in all */
	bool all;             /* every node is kept */
} selection;

/*
 * The value v of one 64-bit key of the nodes (whole units, or the
 * fraction of those whose whole units are `whole`) such that `*need`
 * nodes are taken from those of key >= v, counting down from the
 * greatest; *need becomes how many of key == v are taken. Merged nodes
 * (total 0) count as nodes of key 0: the nodes of key > v, and so *need,
 * are the same with or without them.
 */
static uint64_t radix_select(const fg_tree *t, bool fraction, uint64_t whole, size_t *need,
			     uint32_t *histogram)
{
#define KEY(n) (fraction ? t->frac[n] : fg_node_whole(t, n))
	uint64_t prefix = 0, mask = 0, greatest = 0;
	for (size_t n = 0; n < t->size; n++)
		if (KEY(n) > greatest && (!fraction || fg_node_whole(t, n) == whole))
			greatest = KEY(n);
	int shift = 48;
	while (shift > 0 && (greatest >> shift) == 0)
		shift -= 16;
	for (; shift >= 0; shift -= 16) {
		memset(histogram, 0, 65536 * sizeof(*histogram));
		for (size_t n = 0; n < t->size; n++)
			if ((KEY(n) & mask) == prefix && (!fraction || fg_node_whole(t, n) == whole))
				histogram[(KEY(n) >> shift) & 0xffff]++;
		uint32_t digit = 65535;
		while (digit > 0 && histogram[digit] < *need)
			*need -= histogram[digit--];
		prefix |= (uint64_t)digit << shift;
		mask |= (uint64_t)0xffff << shift;
	}
#undef KEY
	return prefix;
}

/*
 * radix_select's whole units in one pass, for the usual case: a budget
 * well below the node count keeps nodes down to a small weight. Each
 * node counts in the bucket of its weight, weights of 65535 and more in
 * the last one; false (and *need unchanged) when the weight sought is
 * in that one, which only radix_select can split.
 */
static bool select_light(const fg_tree *t, size_t *need, uint32_t *histogram, uint64_t *weight)
{
	memset(histogram, 0, 65536 * sizeof(*histogram));
	if (t->whole == NULL)
		for (size_t n = 0; n < t->size; n++)
			histogram[t->narrow[n] < 65535 ? t->narrow[n] : 65535]++;
	else
		for (size_t n = 0; n < t->size; n++)
			histogram[t->whole[n] < 65535 ? t->whole[n] : 65535]++;
	if (histogram[65535] >= *need)
		return false;
	uint32_t digit = 65535;
	while (digit > 0 && histogram[digit] < *need)
		*need -= histogram[digit--];
	*weight = digit;
	return true;
}

/* Which nodes a budget keeps: the `budget` heaviest. */
static int select_weight(const fg_tree *t, size_t budget, selection *s)
{
	*s = (selection){.budget = budget, .all = fg_tree_live_nodes(t) <= budget};
	if (s->all)
		return 0;
	uint32_t *histogram = malloc(65536 * sizeof(*histogram));
	if (histogram == NULL)
		return FG_ENOMEM;
	size_t need = budget;
	if (!select_light(t, &need, histogram, &s->whole))
		s->whole = radix_select(t, false, 0, &need, histogram);
	if (t->frac != NULL)
		s->frac = radix_select(t, true, s->whole, &need, histogram);
	s->equal = need;
	free(histogram);
	return 0;
}

/* Whether a node of total c weighs less than the last node kept. */
static inline bool below(const selection *s, fg_count c)
{
	return !s->all && (c.whole < s->whole || (c.whole == s->whole && c.frac < s->frac));
}

/* Whether a node of total c (visited in pre-order) is kept; uses up ties. */
static bool keep(selection *s, fg_count c)
{
	if (s->all)
		return true;
	if (c.whole != s->whole || c.frac != s->frac)
		return c.whole > s->whole || (c.whole == s->whole && c.frac > s->frac);
	if (s->equal == 0)
		return false;
	s->equal--;
	return true;
}

/*
 * A kept node, in pre-order: what the TREE line says of it, in 16 bytes
 * (a budget may keep millions). A count is its whole units when it has no
 * fraction and fits in 31 bits, else WIDE | its index in the list's
 * `wide` counts.
 */
#define WIDE 0x80000000u
typedef struct kept_node {
	fg_node_id node;
	uint32_t depth;
	uint32_t self;  /* its own samples */
	uint32_t other; /* what its left-out children weigh */
} kept_node;

typedef struct kept_nodes {
	kept_node *nodes;
	size_t count, capacity;
	fg_count *wide;
	size_t wide_count, wide_capacity;
} kept_nodes;

static fg_count kept_count(const kept_nodes *list, uint32_t v)
{
	return v & WIDE ? list->wide[v & ~WIDE] : (fg_count){v, 0};
}

/* Sets a count of a kept node (*v: 0, or a count set before). 0 or
 * FG_ENOMEM. */
static int set_kept_count(kept_nodes *list, uint32_t *v, fg_count c)
{
	if (c.frac == 0 && c.whole < WIDE && !(*v & WIDE)) {
		*v = (uint32_t)c.whole;
		return 0;
	}
	if (*v & WIDE) {
		list->wide[*v & ~WIDE] = c;
		return 0;
	}
	if (list->wide_count >= WIDE ||
	    fg_grow((void **)&list->wide, &list->wide_capacity, list->wide_count + 1,
		    sizeof(*list->wide)) != 0)
		return FG_ENOMEM;
	list->wide[list->wide_count] = c;
	*v = WIDE | (uint32_t)list->wide_count++;
	return 0;
}

/* What a kept node's children weigh, all of them and those left out. */
typedef struct weighing {
	fg_count children, left_out;
} weighing;

/* Weighs a kept node's child: false when it is lighter than the
 * selection, and so left out (its weight added to *other, the sum of
 * every left-out node), true when the order decides or it is kept. */
static bool weigh(const selection *s, fg_count weight, weighing *w, fg_count *other)
{
	fg_count_add_inline(&w->children, weight);
	if (!below(s, weight))
		return true;
	fg_count_add_inline(other, weight);
	fg_count_add_inline(&w->left_out, weight);
	return false;
}

/* A kept node's own samples and left-out children's weight, once its
 * children are weighed. 0 or FG_ENOMEM. */
static int set_weighed(kept_nodes *list, uint32_t *self, uint32_t *left_out, fg_count total,
		       const weighing *w)
{
	if (set_kept_count(list, self, fg_count_sub_floor(total, w->children)) != 0 ||
	    set_kept_count(list, left_out, w->left_out) != 0)
		return FG_ENOMEM;
	return 0;
}

/* Whether a node of total c weighs more than the last node kept: then it
 * is kept whatever the order (so are its ancestors, heavier still). */
static inline bool heavier(const selection *s, fg_count c)
{
	return s->all || c.whole > s->whole || (c.whole == s->whole && c.frac > s->frac);
}

/*
 * The nodes heavier than the selection's weight, and the root, found
 * breadth first (find_heavy), so that the lists of many nodes' children
 * are loaded side by side (fg_tree_warm_queue): the kept part of a profile
 * is mostly chains, where a walk with a stack loads one list at a time.
 * Each has what the TREE line says of it (counts as in kept_node), and
 * where its heavy children are: `count` of them from `heavier` on, in
 * name order. The first HEAVY_MOST breadth first at most (20 bytes each,
 * allocated once): past them, heavy nodes are left to mark_kept, as ties
 * (nodes of the selection's very weight, decided in pre-order) are. A
 * node with children of either kind is marked `mixed`: mark_kept then
 * walks its list again to put them in order among its heavy ones, which
 * needs no room a child.
 */
#ifndef HEAVY_MOST /* (tests set a small one) */
#define HEAVY_MOST (1u << 17)
#endif

typedef struct heavy_node {
	fg_node_id node;
	uint32_t self, other;
	uint32_t heavier, count : 31, mixed : 1; /* (fewer than 2^31 noted) */
} heavy_node;

typedef struct heavy_nodes {
	heavy_node *nodes;
	size_t count, capacity;
} heavy_nodes;

/* The heavy nodes (above) into h; what their left-out children weigh
 * added to *other. 0 or FG_ENOMEM. */
static int find_heavy(const fg_tree *t, const selection *s, kept_nodes *list, heavy_nodes *h,
		      fg_count *other)
{
	size_t kept = s->all ? fg_tree_live_nodes(t) : s->budget;
	h->capacity = kept < HEAVY_MOST ? kept : HEAVY_MOST;
	if ((h->nodes = malloc(h->capacity * sizeof(*h->nodes))) == NULL)
		return FG_ENOMEM;
	h->nodes[h->count++] = (heavy_node){.node = 0};
	for (size_t i = 0, warmed = 0; i < h->count; i++) {
		if (i == warmed)
			warmed = fg_tree_warm_queue(t, h->nodes, h->count, sizeof(*h->nodes),
						    offsetof(heavy_node, node), i);
		fg_node_id node = h->nodes[i].node;
		weighing w = {{0, 0}, {0, 0}};
		size_t first_heavier = h->count;
		bool mixed = false;
		for (fg_node_id c = fg_node_first_child(t, node); c != FG_NODE_NONE;
		     c = fg_node_next_sibling(t, c)) {
			fg_count weight = fg_node_total(t, c);
			if (!weigh(s, weight, &w, other))
				continue;
			if (heavier(s, weight) && h->count < h->capacity)
				h->nodes[h->count++] = (heavy_node){.node = c};
			else
				mixed = true;
		}
		heavy_node *e = &h->nodes[i];
		e->heavier = (uint32_t)first_heavier;
		e->count = (uint32_t)(h->count - first_heavier) & 0x7fffffffu;
		e->mixed = mixed;
		if (set_weighed(list, &e->self, &e->other, fg_node_total(t, node), &w) != 0)
			return FG_ENOMEM;
	}
	return 0;
}

/* A node to visit, with its depth and its parent's place in the list;
 * `heavy`: its place in the noted heavy nodes + 1, or 0 for a node not
 * noted (a tie, a child of one, a heavy node past HEAVY_MOST). */
typedef struct visit {
	fg_node_id node;
	uint32_t depth;
	size_t parent;
	uint32_t heavy;
	uint8_t warmed; /* 0, or whether its children were loaded ahead (fg_tree_warm_stack) */
} visit;

/* A visit of noted heavy node n: its children are looked at again only
 * when mixed, and then warmed like a tie's. */
static visit heavy_visit(const heavy_nodes *h, size_t n, uint32_t depth, size_t parent)
{
	return (visit){h->nodes[n].node, depth, parent, (uint32_t)n + 1,
		       h->nodes[n].mixed ? 0 : FG_WARMED_LEAF};
}

static void reverse_visits(visit *v, size_t count)
{
	for (size_t a = 0, b = count; a + 1 < b; a++, b--) {
		visit swap = v[a];
		v[a] = v[b - 1];
		v[b - 1] = swap;
	}
}

#define KEPT(kept, n) ((kept)[(n) >> 3] >> ((n) & 7) & 1)

/*
 * Marks the kept nodes in `kept` (a bit per node id) and lists them in
 * `list`, in pre-order as the ties require, each with its own samples and
 * its left-out children's weight (the TREE line is then written from the
 * list alone); sums what every left-out node weighs. The heavy nodes'
 * children were looked at by find_heavy; the other kept nodes' are walked
 * here, with a stack.
 */
static int mark_kept(const fg_tree *t, selection *s, uint8_t *kept, kept_nodes *list,
		     fg_count *other)
{
	visit *stack = NULL;
	size_t used = 0, capacity = 0;
	heavy_nodes h = {0};
	*other = (fg_count){0, 0};
	/* The list's size is known (the budget, or every node): one
	 * allocation, not a copy at every doubling. */
	size_t expected = s->all ? fg_tree_live_nodes(t) : s->budget;
	if (fg_grow((void **)&list->nodes, &list->capacity, expected, sizeof(*list->nodes)) != 0 ||
	    fg_grow((void **)&stack, &capacity, 1, sizeof(*stack)) != 0 ||
	    find_heavy(t, s, list, &h, other) != 0)
		goto oom;
	stack[used++] = heavy_visit(&h, 0, 0, 0);
	while (used > 0) {
		if (!stack[used - 1].warmed)
			fg_tree_warm_stack(t, stack, used, sizeof(*stack), offsetof(visit, node),
					   offsetof(visit, warmed));
		visit v = stack[--used];
		fg_count total = v.heavy ? (fg_count){0, 0} : fg_node_total(t, v.node);
		/* (The root is the heaviest and first: kept, using up a tie.) */
		if (v.node == 0)
			keep(s, fg_node_total(t, 0));
		else if (!v.heavy && !keep(s, total)) {
			fg_count_add_inline(other, total);
			uint32_t *parent_other = &list->nodes[v.parent].other;
			fg_count sum = kept_count(list, *parent_other);
			fg_count_add_inline(&sum, total);
			if (set_kept_count(list, parent_other, sum) != 0)
				goto oom;
			continue;
		}
		kept[v.node >> 3] |= (uint8_t)(1u << (v.node & 7));
		if (fg_grow((void **)&list->nodes, &list->capacity, list->count + 1,
			    sizeof(*list->nodes)) != 0)
			goto oom;
		size_t at = list->count++;
		kept_node *k = &list->nodes[at];
		size_t first = used;
		if (v.heavy) {
			const heavy_node *e = &h.nodes[v.heavy - 1];
			*k = (kept_node){v.node, v.depth, e->self, e->other};
			if (!e->mixed) {
				if (fg_grow((void **)&stack, &capacity, used + e->count, sizeof(*stack)) != 0)
					goto oom;
				for (size_t n = e->heavier; n < e->heavier + e->count; n++)
					stack[used++] = heavy_visit(&h, n, v.depth + 1, at);
			} else {
				/* (its children already weighed: only their order) */
				size_t next = e->heavier, end = e->heavier + e->count;
				for (fg_node_id c = fg_node_first_child(t, v.node); c != FG_NODE_NONE;
				     c = fg_node_next_sibling(t, c)) {
					if (below(s, fg_node_total(t, c)))
						continue;
					if (fg_grow((void **)&stack, &capacity, used + 1, sizeof(*stack)) != 0)
						goto oom;
					if (next < end && h.nodes[next].node == c)
						stack[used++] = heavy_visit(&h, next++, v.depth + 1, at);
					else
						stack[used++] = (visit){c, v.depth + 1, at, 0, 0};
				}
			}
			reverse_visits(stack + first, used - first);
			continue;
		}
		*k = (kept_node){v.node, v.depth, 0, 0};
		/* Children lighter than the selection are left out now; the
		 * others are decided in pre-order (ties use the quota up). */
		weighing w = {{0, 0}, {0, 0}};
		for (fg_node_id c = fg_node_first_child(t, v.node); c != FG_NODE_NONE;
		     c = fg_node_next_sibling(t, c)) {
			if (!weigh(s, fg_node_total(t, c), &w, other))
				continue;
			if (fg_grow((void **)&stack, &capacity, used + 1, sizeof(*stack)) != 0)
				goto oom;
			stack[used++] = (visit){c, v.depth + 1, at, 0, 0};
		}
		if (set_weighed(list, &k->self, &k->other, total, &w) != 0)
			goto oom;
		reverse_visits(stack + first, used - first);
	}
	free(stack);
	free(h.nodes);
	return 0;
oom:
	free(stack);
	free(h.nodes);
	return FG_ENOMEM;
}

/*
 * The names the view data lists: shown names (without their _[k]-style
 * annotations) of the kept nodes whose names are not left out, most used
 * first, ties in byte order, numbered from 1. A small hash table finds
 * the distinct name ids of the kept nodes (only those used: a profile may
 * have millions of names), once; each kept node, by its place in
 * pre-order, then has its name's number at hand.
 */
typedef struct shown_names {
	uint32_t *number;  /* by a distinct name id's index (number_names), the
			      name's number */
	uint32_t *of_kept; /* by a kept node's place in pre-order, its name's
			      index (0: the root, or a name left out; see `omit`) */
	uint32_t *order;   /* a name id of each shown name, by number - 1 */
	size_t used;
} shown_names;

/* number_names' table of distinct name ids: (name id + 1) << 32 | the
 * id's index, from 1; 0 = empty. */
static uint64_t *name_slot(uint64_t *slots, size_t mask, uint32_t id)
{
	size_t at = (size_t)(((uint64_t)id + 1) * 0x9e3779b97f4a7c15ull >> 32) & mask;
	while (slots[at] != 0 && slots[at] >> 32 != (uint64_t)id + 1)
		at = (at + 1) & mask;
	return &slots[at];
}

static size_t shown_length(const fg_tree *t, uint32_t id, const char **bytes)
{
	size_t length;
	*bytes = fg_tree_name_bytes(t, id, &length);
	return fg_name_without_annotation(*bytes, length);
}

/* Bytewise order of the shown names of two name ids. */
static int compare_shown(const fg_tree *t, uint32_t a, uint32_t b)
{
	const char *x, *y;
	size_t xl = shown_length(t, a, &x);
	size_t yl = shown_length(t, b, &y);
	int c = memcmp(x, y, xl < yl ? xl : yl);
	return c ? c : (xl > yl) - (xl < yl);
}

/* at (indexes into ids, a list of name ids) in the byte order of their
 * shown names. */
static int sort_shown(const fg_tree *t, const uint32_t *ids, uint32_t *at, size_t count)
{
	fg_sort_string *k = malloc((count ? count : 1) * sizeof(*k));
	if (k == NULL)
		return FG_ENOMEM;
	for (size_t i = 0; i < count; i++) {
		const char *name;
		size_t length = shown_length(t, ids[at[i]], &name);
		k[i] = (fg_sort_string){(const unsigned char *)name, (uint32_t)length, at[i]};
	}
	fg_sort_strings(k, count);
	for (size_t i = 0; i < count; i++)
		at[i] = k[i].id;
	free(k);
	return 0;
}

typedef struct use {
	uint64_t uses;
	uint32_t group, first; /* group: its place in byte order; first: into ids */
} use;

static int compare_use(const void *a, const void *b)
{
	const use *x = a, *y = b;
	if (x->uses != y->uses)
		return x->uses > y->uses ? -1 : 1;
	return (x->group > y->group) - (x->group < y->group);
}

static uint64_t group_uses(const void *record)
{
	return ((const use *)record)->uses;
}

static void free_shown(shown_names *s)
{
	free(s->number);
	free(s->of_kept);
	free(s->order);
}

/* Kept nodes are looked at this many places after their name ids (and
 * totals) were prefetched: they are spread over the tree. */
#define NUMBER_AHEAD 16

/* Numbers the shown names of the kept nodes (see above). */
static int number_names(const fg_tree *t, const kept_nodes *kept, bool omit, double named,
			shown_names *s)
{
	/* One slot per distinct name: no more than nodes, nor than names. */
	size_t distinct = kept->count < fg_tree_name_count(t) ? kept->count : fg_tree_name_count(t);
	size_t mask = 15;
	while (mask / 2 < distinct)
		mask = mask * 2 + 1;
	uint64_t *slots = fg_table_alloc((mask + 1) * sizeof(*slots));
	uint32_t *ids = malloc((distinct + 1) * sizeof(*ids)); /* by index, as first met */
	s->number = malloc((distinct + 1) * sizeof(*s->number));
	s->of_kept = calloc(kept->count, sizeof(*s->of_kept));
	s->order = malloc((distinct + 1) * sizeof(*s->order));
	uint64_t *uses = calloc(distinct + 1, sizeof(*uses));
	uint32_t *sorted = malloc((distinct + 1) * sizeof(*sorted));
	use *groups = malloc((distinct + 1) * sizeof(*groups));
	int rc = FG_ENOMEM;
	if (slots == NULL || ids == NULL || s->number == NULL || s->of_kept == NULL ||
	    s->order == NULL || uses == NULL || sorted == NULL || groups == NULL)
		goto done;
	size_t count = 0;
	for (size_t k = 1; k < kept->count; k++) { /* (the root comes first) */
		if (k + NUMBER_AHEAD < kept->count) {
			fg_node_id ahead = kept->nodes[k + NUMBER_AHEAD].node;
			fg_node_prefetch_name_id(t, ahead);
			if (omit)
				fg_node_prefetch_total(t, ahead);
		}
		fg_node_id n = kept->nodes[k].node;
		if (omit && fg_count_to_double(fg_node_total(t, n)) >= named)
			continue;
		uint32_t id = fg_node_name_id(t, n);
		uint64_t *slot = name_slot(slots, mask, id);
		if (*slot == 0) {
			ids[++count] = id;
			*slot = ((uint64_t)id + 1) << 32 | count;
		}
		s->of_kept[k] = (uint32_t)*slot;
		uses[s->of_kept[k]]++;
	}
	for (size_t i = 0; i < count; i++)
		sorted[i] = (uint32_t)i + 1;
	if (sort_shown(t, ids, sorted, count) != 0)
		goto done;
	/* Shown names that are equal (a name and its annotated forms) are one. */
	size_t group_count = 0;
	for (size_t i = 0; i < count; i++) {
		if (i == 0 || compare_shown(t, ids[sorted[i - 1]], ids[sorted[i]]) != 0) {
			groups[group_count] = (use){0, (uint32_t)group_count, (uint32_t)i};
			group_count++;
		}
		groups[group_count - 1].uses += uses[sorted[i]];
		s->number[sorted[i]] = (uint32_t)group_count - 1; /* its group, for now */
	}
	/* (In byte order: compare_use's order is a stable sort on the uses.) */
	if (fg_sort_records_by_count(groups, group_count, sizeof(*groups), group_uses, compare_use) != 0)
		goto done;
	for (size_t g = 0; g < group_count; g++)
		s->order[g] = ids[sorted[groups[g].first]];
	uint32_t *number_of_group = sorted; /* (sorted is done with) */
	for (size_t g = 0; g < group_count; g++)
		number_of_group[groups[g].group] = (uint32_t)(g + 1);
	for (size_t i = 1; i <= count; i++)
		s->number[i] = number_of_group[s->number[i]];
	s->used = group_count;
	rc = 0;
done:
	fg_table_free(slots, (mask + 1) * sizeof(*slots));
	free(ids);
	free(uses);
	free(sorted);
	free(groups);
	return rc;
}

/* These return 0 or FG_ENOMEM, as fg_buffer_append: a failed append is
 * not sticky, so a later one may succeed and leave a hole in the text. */
static int put_base36(fg_buffer *out, uint64_t v)
{
	char digits[16];
	size_t at = sizeof(digits);
	do {
		digits[--at] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
		v /= 36;
	} while (v);
	return fg_buffer_append(out, digits + at, sizeof(digits) - at);
}

static int put_count(fg_buffer *out, char prefix, fg_count c)
{
	char text[FG_COUNT_TEXT_MAX + 1];
	text[0] = prefix;
	size_t n = fg_count_format(c, text + 1);
	return fg_buffer_append(out, text, n + 1);
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
		if (fg_text_escape(out, scratch->data + run, i - run) != 0 ||
		    fg_buffer_append_str(out, escape) != 0)
			return FG_ENOMEM;
		run = i + 1;
	}
	if (fg_text_escape(out, scratch->data + run, scratch->length - run) != 0 ||
	    fg_buffer_append(out, "\n", 1) != 0)
		return FG_ENOMEM;
	return 0;
}

/* The tree line: kept nodes in pre-order (see the top of this file). */
static int put_tree(fg_buffer *out, const kept_nodes *list, const shown_names *names)
{
	uint32_t previous_depth = 0;
	int failed = 0; /* any append: a hole would misnumber what follows */
	for (size_t k = 0; k < list->count && !failed; k++) {
		const kept_node *e = &list->nodes[k];
		if (e->node != 0) {
			uint32_t up = previous_depth + 1 - e->depth;
			if (up == 0)
				failed |= fg_buffer_append(out, ",", 1);
			while (up-- > 0)
				failed |= fg_buffer_append(out, ")", 1);
		}
		previous_depth = e->depth;
		if (e->node == 0)
			failed |= put_base36(out, 0);
		else if (names->of_kept[k] != 0)
			failed |= put_base36(out, names->number[names->of_kept[k]]);
		fg_count self = kept_count(list, e->self), other = kept_count(list, e->other);
		if (!fg_count_is_zero(self))
			failed |= put_count(out, ':', self);
		if (!fg_count_is_zero(other))
			failed |= put_count(out, '!', other);
	}
	if (failed)
		return FG_ENOMEM;
	return fg_buffer_append(out, "\n", 1);
}

struct fg_view_data {
	const fg_tree *tree;
	uint8_t *kept;         /* a bit per node id */
	kept_nodes list;       /* the kept nodes, in pre-order */
	fg_count other_all;    /* the sum of every OTHER */
	shown_names names;
	bool omit;             /* names of nodes `named` wide or more left out */
	double named;
};

void fg_view_data_free(fg_view_data *v)
{
	if (v == NULL)
		return;
	free_shown(&v->names);
	free(v->list.nodes);
	free(v->list.wide);
	free(v->kept);
	free(v);
}

int fg_view_data_prepare(fg_view_data **prepared, const fg_tree *t, size_t budget,
			 double threshold, double named)
{
	selection chosen;
	fg_view_data *v = calloc(1, sizeof(*v));
	*prepared = NULL;
	if (v == NULL)
		return FG_ENOMEM;
	v->tree = t;
	v->named = named;
	v->kept = calloc(t->size / 8 + 1, 1);
	if (v->kept == NULL || select_weight(t, budget ? budget : 1, &chosen) != 0 ||
	    mark_kept(t, &chosen, v->kept, &v->list, &v->other_all) != 0) {
		fg_view_data_free(v);
		return FG_ENOMEM;
	}

	/* The names of drawn frames at least `named` wide are left out: the
	 * viewer reads them from the frames. Only when every drawn frame is
	 * kept and counts are whole (so that both sides agree on which nodes
	 * are drawn: total >= threshold). */
	bool omit = named >= threshold && named == named;
	for (size_t n = 0; t->frac != NULL && n < t->size && omit; n++)
		omit = t->frac[n] == 0;
	/* (Left-out nodes weigh at most the selection's weight.) */
	if (!chosen.all && fg_count_to_double((fg_count){chosen.whole, chosen.frac}) >= threshold)
		for (size_t n = 1; n < t->size && omit; n++)
			if (!KEPT(v->kept, n) && live(t, n) &&
			    fg_count_to_double(fg_node_total(t, (fg_node_id)n)) >= threshold)
				omit = false;
	v->omit = omit;
	if (number_names(t, &v->list, omit, named, &v->names) != 0) {
		fg_view_data_free(v);
		return FG_ENOMEM;
	}
	*prepared = v;
	return 0;
}

int fg_view_data_put_names(fg_buffer *out, const fg_view_data *v, fg_count total,
			   double threshold, double factor, fg_view_data_entity entity,
			   void *entity_context)
{
	const fg_tree *t = v->tree;
	char number[FG_COUNT_TEXT_MAX], real[160];
	int failed = fg_buffer_append_str(out, "fg-data 1 nodes=");
	snprintf(real, sizeof(real), "%zu names=%zu total=", v->list.count, v->names.used + 1);
	failed |= fg_buffer_append_str(out, real);
	fg_count_format(total, number);
	failed |= fg_buffer_append_str(out, number);
	snprintf(real, sizeof(real), " minwidth=%.17g factor=%.17g other=", threshold, factor);
	failed |= fg_buffer_append_str(out, real);
	fg_count_format(v->other_all, number);
	failed |= fg_buffer_append_str(out, number);
	if (v->omit) {
		snprintf(real, sizeof(real), " named=%.17g", v->named);
		failed |= fg_buffer_append_str(out, real);
	}
	failed |= fg_buffer_append_str(out, "\nall\n");
	fg_buffer scratch = {0, 0, 0};
	for (size_t i = 0; i < v->names.used && !failed; i++) {
		const char *name;
		size_t length = shown_length(t, v->names.order[i], &name);
		if (entity != NULL && entity(entity_context, out, name, length))
			failed |= fg_buffer_append(out, "\n", 1);
		else
			failed |= put_name(out, &scratch, name, length);
	}
	fg_buffer_free(&scratch);
	return failed ? FG_ENOMEM : 0;
}

int fg_view_data_put_tree(fg_buffer *out, const fg_view_data *v)
{
	return put_tree(out, &v->list, &v->names);
}

int fg_view_data_write(fg_buffer *out, const fg_tree *t, size_t budget, fg_count total,
		       double threshold, double named, double factor, fg_view_data_entity entity,
		       void *entity_context)
{
	fg_view_data *v;
	int rc = fg_view_data_prepare(&v, t, budget, threshold, named);
	if (rc == 0)
		rc = fg_view_data_put_names(out, v, total, threshold, factor, entity, entity_context);
	if (rc == 0)
		rc = fg_view_data_put_tree(out, v);
	fg_view_data_free(v);
	return rc;
}
