/*
 * tree.h - the inside of fg_tree, for the modules that walk it in hot
 * loops (svg.c); everyone else uses the accessors of folded.h. Internal.
 */
#ifndef FG_TREE_H
#define FG_TREE_H

#include "internal.h"

/* In node.name's top bits: the node's children were created in increasing
 * name order, one node per name, so they need no sorting and no merging in
 * fg_tree_finish; the node has children. Name ids stay below
 * FG_HAS_CHILDREN. */
#define FG_CHILDREN_IN_ORDER 0x80000000u
#define FG_HAS_CHILDREN 0x40000000u
#define FG_NAME_FLAGS (FG_CHILDREN_IN_ORDER | FG_HAS_CHILDREN)
#define FG_NAME_ID(n) ((n)->name & ~FG_NAME_FLAGS)

/*
 * 8 bytes a node while the tree is built: the name is an id into the
 * tree's table of distinct names, so a frame that occurs under many
 * parents is stored once, and counts live in arrays of their own (whole
 * units always, fractions only once a fractional count has been seen).
 * A node knows its parent only: lines find children through the previous
 * stack (sorted input) or the child table, never through lists.
 * fg_tree_finish links every parent to its children (fg_tree_links), in
 * order.
 */
typedef struct fg_tree_node {
	uint32_t name;     /* name id | FG_CHILDREN_IN_ORDER | FG_HAS_CHILDREN */
	fg_node_id parent; /* FG_NODE_NONE once merged into a sibling */
} fg_tree_node;

/* A node's children, from fg_tree_finish on. */
typedef struct fg_tree_links {
	fg_node_id first_child;
	fg_node_id next_sibling;
} fg_tree_links;

struct fg_tree {
	unsigned flags;
	/*
	 * Every distinct name's bytes, one after another, in id order: name
	 * id's start where names[id] says and end where names[id + 1] (one
	 * entry past the last holds the store's length). The entries are 32
	 * bits while the store is shorter than narrow_limit (4 GiB), 64 bits
	 * (wide_names, names NULL) after.
	 */
	char *store;
	size_t store_length, store_capacity;
	uint32_t *names;
	uint64_t *wide_names;
	size_t name_count, name_capacity, narrow_limit;
	uint32_t *name_slots;    /* hash tag | name id + 1 (tree.c: make_slot), 0 = empty */
	size_t name_mask;
	fg_tree_node *nodes;
	size_t size, capacity;
	fg_tree_links *links;    /* NULL until fg_tree_finish */
	size_t links_capacity;
	/* Count per node: its own while building, inclusive after. While every
	 * own count fits in 8 bits, and only while building, they are kept in
	 * `byte_count`, then while they fit in 16 bits in `tiny` (tree.c: never
	 * seen outside it: fg_tree_finish and fg_tree_merge widen them first);
	 * while they fit in 32 bits (and after fg_tree_finish, while the grand
	 * total does, and with it every inclusive total) in `narrow`; else in
	 * `whole`. The others are NULL. */
	uint8_t *byte_count;
	size_t byte_count_capacity;
	uint16_t *tiny;
	size_t tiny_capacity;
	uint32_t *narrow;
	size_t narrow_capacity;
	uint64_t *whole;
	uint64_t *frac;          /* its fraction (FG_COUNT_FRAC_ONE units), NULL while all are whole */
	size_t whole_capacity, frac_capacity;
	fg_count *before;        /* differential: BEFORE per node, like count */
	size_t before_capacity;
	fg_count *starts;        /* flame charts: the grand total when created */
	size_t starts_capacity;
	/* Child table: hash tag | node id + 1 (tree.c: make_slot), 0 = empty;
	 * NULL until the input is found out of order. The hash is of the node's
	 * whole path (name ids from the root), so the probes of one line do not
	 * wait for each other and can be prefetched together. */
	uint32_t *slots;
	size_t slot_mask;
	unsigned slot_shift;     /* a probe starts at hash >> slot_shift */
	fg_count grand_total, grand_before;
	size_t merged;           /* nodes merged into a sibling (fg_tree_finish) */
	/* The previous stack, for the sorted-input fast path. */
	char *previous;
	size_t previous_length, previous_capacity;
	size_t *frame_ends;      /* end offset of each frame of the previous stack */
	fg_node_id *path;        /* its node ids, path[0] = first frame below root */
	uint64_t *path_hash;     /* the path hash of each */
	uint32_t *path_name;     /* scratch: name ids of the frames being added */
	size_t depth, path_capacity, ends_capacity, hash_capacity, name_scratch_capacity;
	size_t since_huge;       /* bytes of stacks since these became far larger
				    than needed (tree.c: fit_previous) */
	bool finished;
	bool lost_table;         /* a table could not be built again: no more lines */
};

/*
 * Moves every frame of `from` into `into` (neither a flame chart), both
 * finished first (fg_tree_finish) if they are not: from's nodes are
 * appended with new ids, and its lists joined to into's, from the root
 * down as far as the two have frames in common. `into` stays finished.
 * from's names are added to into's: through `map` (fg_tree_map_names,
 * for all of from's names, written over; may be NULL) those into has
 * already are not added again; the others, or all without a map, are
 * added as they are, so that a name both had may then have two ids (see
 * fg_node_name_id). Whatever
 * this returns, free `from` next (its memory is given back as it goes);
 * after an error, free `into` too.
 * Returns 0, FG_ENOMEM, or FG_ERANGE (the sum of both exceeds 2^64-1).
 */
int fg_tree_merge(fg_tree *into, fg_tree *from, uint32_t *map);

/*
 * fg_tree_finish, keeping the tree's table of names if it has
 * FG_TREE_MAPPED_NAMES names or fewer, for fg_tree_map_names, until
 * fg_tree_drop_names (or fg_tree_merge) frees it.
 */
#define FG_TREE_MAPPED_NAMES (1u << 20)
int fg_tree_finish_keeping_names(fg_tree *t);
void fg_tree_drop_names(fg_tree *t);

/* Gives back the memory past the end of a finished tree's arrays: most
 * end in a huge page, faulted in whole (fg_give_back). For a tree that
 * will not grow: pages given back are faulted in again one by one. */
void fg_tree_give_back(fg_tree *t);

/* Whether from's names can be looked up in into's (fg_tree_map_names):
 * into keeps its table (fg_tree_finish_keeping_names, or not finished
 * yet), and neither tree has more than FG_TREE_MAPPED_NAMES names (their
 * lookups would then cost more than the names' second copies). */
bool fg_tree_can_map_names(const fg_tree *into, const fg_tree *from);

/* map[begin..end): from's names begin..end as ids of into's names, NO_NAME
 * (UINT32_MAX) where into has none (fg_tree_can_map_names must be true).
 * Reads the names of the two trees only: it may run while either is being
 * finished, and on several threads, for ranges of their own. */
void fg_tree_map_names(const fg_tree *into, const fg_tree *from, uint32_t *map, size_t begin,
		       size_t end);

/* The id of a node's name in the tree's name table: equal ids, equal
 * names; but in a merged tree (fg_tree_merge) one name may have two ids. */
static inline uint32_t fg_node_name_id(const fg_tree *t, fg_node_id n) { return FG_NAME_ID(&t->nodes[n]); }
static inline size_t fg_tree_name_count(const fg_tree *t) { return t->name_count; }
static inline const char *fg_tree_name_bytes(const fg_tree *t, uint32_t id, size_t *length)
{
	size_t start, end;
	if (t->names != NULL) {
		start = t->names[id];
		end = t->names[id + 1];
	} else {
		start = t->wide_names[id];
		end = t->wide_names[id + 1];
	}
	*length = end - start;
	return t->store + start;
}

static inline uint64_t fg_node_whole(const fg_tree *t, fg_node_id n)
{
	return t->whole != NULL ? t->whole[n] : t->narrow[n];
}

/* Starts loading node n's total, for a walk in an order of its own (the
 * frames grouped by colour) that reads it a few steps later. */
static inline void fg_node_prefetch_total(const fg_tree *t, fg_node_id n)
{
	__builtin_prefetch(t->whole != NULL ? (const void *)&t->whole[n] : (const void *)&t->narrow[n]);
}

/* Starts loading node n's name id (fg_node_name_id), or name id's entry
 * (fg_tree_name_bytes), for a walk that reads it a few steps later. */
static inline void fg_node_prefetch_name_id(const fg_tree *t, fg_node_id n)
{
	__builtin_prefetch(&t->nodes[n]);
}

static inline void fg_tree_prefetch_name(const fg_tree *t, uint32_t id)
{
	__builtin_prefetch(t->names != NULL ? (const void *)&t->names[id] : (const void *)&t->wide_names[id]);
}

static inline fg_count fg_node_total(const fg_tree *t, fg_node_id n)
{
	fg_count c = {fg_node_whole(t, n), t->frac != NULL ? t->frac[n] : 0};
	return c;
}
/*
 * Loads into the cache, and starts loading the counts of, the children of
 * the nodes of a walk's stack that are nearest its top (the next to be
 * visited) and not yet warmed, up to 16 of them: `used` entries of
 * `stride` bytes, each with a fg_node_id at `node_at` and a uint8_t at
 * `warmed_at` (offsetof), 0 when pushed, then one of the states below.
 * Their lists are walked side by side, a step of each in turn: a list is
 * a chain of loads, each waiting for the one before, but the chains of
 * different nodes do not wait for each other. The walk that follows then
 * finds them in the cache. Leaves take no lane, and while 8 warmed lists
 * are still ahead nothing is done: else a walk that pushes leaves at
 * every step (a wide last level) would warm one list at a time.
 */
enum { FG_WARMED_LIST = 1, FG_WARMED_LEAF = 2 };
void fg_tree_warm_stack(const fg_tree *t, void *stack, size_t used, size_t stride,
			size_t node_at, size_t warmed_at);

/*
 * The same for a walk breadth first, whose next nodes are all known: the
 * children of the nodes of a queue's entries from `from` on, 16 of them at
 * most, and each of those nodes' own count. `used` entries of `stride`
 * bytes, each with a fg_node_id at `node_at`. Returns the entry after the
 * last one warmed: the walk calls it again when it gets there.
 */
size_t fg_tree_warm_queue(const fg_tree *t, const void *queue, size_t used, size_t stride,
			  size_t node_at, size_t from);

/* Nodes in the tree, not counting those merged into a sibling. */
static inline size_t fg_tree_live_nodes(const fg_tree *t) { return t->size - t->merged; }
static inline fg_node_id fg_node_first_child(const fg_tree *t, fg_node_id n) { return t->links[n].first_child; }
static inline fg_node_id fg_node_next_sibling(const fg_tree *t, fg_node_id n) { return t->links[n].next_sibling; }

#endif
