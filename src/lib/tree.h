/*
 * tree.h - the inside of fg_tree, for the modules that walk it in hot
 * loops (svg.c); everyone else uses the accessors of folded.h. Internal.
 */
#ifndef FG_TREE_H
#define FG_TREE_H

#include "internal.h"

/* The node's children were created in increasing name order, one node per
 * name: the list needs no sorting and no merging in fg_tree_finish. */
#define CHILDREN_IN_ORDER 1u
/* Merged into a sibling of the same name by fg_tree_finish. */
#define MERGED 2u

typedef struct node {
	const char *name;
	uint32_t name_length;
	uint32_t flags;         /* CHILDREN_IN_ORDER, MERGED */
	uint32_t hash;          /* of (parent, name), once the child table exists */
	fg_node_id parent;
	fg_node_id first_child;
	fg_node_id next_sibling;
	fg_node_id last_child;  /* while building: children are appended */
	fg_node_id max_child;   /* while building: the child with the greatest name */
	fg_count count;         /* self while building, inclusive after finish */
} node;

struct fg_tree {
	unsigned flags;
	fg_arena names;
	node *nodes;
	size_t size, capacity;
	fg_count *before;        /* differential: BEFORE per node, like count */
	size_t before_capacity;
	fg_count *starts;        /* flame charts: the grand total when created */
	size_t starts_capacity;
	uint64_t *slots;         /* child table: hash << 32 | node id + 1, 0 = empty; NULL until needed */
	size_t slot_mask;
	fg_count grand_total, grand_before;
	/* The previous stack, for the sorted-input fast path. */
	char *previous;
	size_t previous_length, previous_capacity;
	size_t *frame_ends;      /* end offset of each frame of the previous stack */
	fg_node_id *path;        /* its node ids, path[0] = first frame below root */
	size_t depth, path_capacity, ends_capacity;
	bool finished;
};

/*
 * Moves every frame of `from` into `into` (both unfinished, neither a
 * flame chart): from's nodes are appended with new ids, its root's children
 * join into's root's, and fg_tree_finish then merges the frames both trees
 * have. `from` is left empty (free it). No more fg_tree_add on `into`.
 * Returns 0, FG_ENOMEM, or FG_ERANGE (the sum of both exceeds 2^64-1).
 */
int fg_tree_merge(fg_tree *into, fg_tree *from);

static inline fg_count tree_total(const fg_tree *t, fg_node_id n) { return t->nodes[n].count; }
static inline fg_node_id tree_first_child(const fg_tree *t, fg_node_id n) { return t->nodes[n].first_child; }
static inline fg_node_id tree_next_sibling(const fg_tree *t, fg_node_id n) { return t->nodes[n].next_sibling; }

#endif
