/*
 * tree.c - the frame tree: stacks merged by common prefix.
 *
 * Every node is one frame at one position: (parent, name). Input sorted by
 * stack (the collapsers' output) is the common case, and costs no hashing:
 * a line shares a byte prefix with the line before, and the frames inside
 * that prefix are the previous line's nodes; a frame past it is new when
 * its name sorts after its parent's last child while the parent's children
 * arrived in order. Only when that does not decide (input out of order) is
 * a hash on (parent, name) built, once, over all nodes, and kept from then
 * on, so any input order costs O(1) per frame.
 *
 * Nodes keep only their own ("self") count while lines are added; inclusive
 * totals are summed once, child to parent, in fg_tree_finish. Children are
 * created after their parents, so visiting ids from high to low reaches
 * every child before its parent: no recursion, no per-line path walk. The
 * running grand total is checked for overflow on every add, and no node's
 * total can exceed it, so the final sums cannot overflow.
 */
#include <stdlib.h>

#include "tree.h"

static uint32_t child_hash(fg_node_id parent, const char *name, size_t length)
{
	uint64_t h = fg_hash_bytes(name, length) ^ ((uint64_t)parent * 0x9e3779b97f4a7c15ull);
	h ^= h >> 29;
	return (uint32_t)h;
}

static fg_node_id new_node(fg_tree *t, fg_node_id parent, const char *name, size_t length)
{
	if (t->size >= FG_NODE_NONE - 1 || length > UINT32_MAX)
		return FG_NODE_NONE;
	if (fg_grow((void **)&t->nodes, &t->capacity, t->size + 1, sizeof(*t->nodes)) != 0)
		return FG_NODE_NONE;
	if (t->before != NULL &&
	    fg_grow((void **)&t->before, &t->before_capacity, t->size + 1, sizeof(*t->before)) != 0)
		return FG_NODE_NONE;
	if ((t->flags & FG_TREE_FLAMECHART) &&
	    fg_grow((void **)&t->starts, &t->starts_capacity, t->size + 1, sizeof(*t->starts)) != 0)
		return FG_NODE_NONE;
	const char *copy = length ? fg_arena_copy(&t->names, name, length) : "";
	if (copy == NULL)
		return FG_NODE_NONE;
	fg_node_id id = (fg_node_id)t->size++;
	node *n = &t->nodes[id];
	n->name = copy;
	n->name_length = (uint32_t)length;
	n->flags = CHILDREN_IN_ORDER;
	n->parent = parent;
	n->first_child = n->next_sibling = n->last_child = n->max_child = FG_NODE_NONE;
	n->count.whole = n->count.frac = 0;
	if (t->before != NULL)
		t->before[id] = n->count;
	if (t->starts != NULL)
		t->starts[id] = t->grand_total;
	if (parent != FG_NODE_NONE) {
		node *p = &t->nodes[parent];
		if (p->last_child == FG_NODE_NONE)
			p->first_child = id;
		else
			t->nodes[p->last_child].next_sibling = id;
		p->last_child = id;
		if (p->max_child == FG_NODE_NONE)
			p->max_child = id;
	}
	return id;
}

fg_tree *fg_tree_new(unsigned flags)
{
	fg_tree *t = calloc(1, sizeof(*t));
	if (t == NULL)
		return NULL;
	t->flags = flags;
	fg_arena_init(&t->names);
	if (new_node(t, FG_NODE_NONE, "", 0) != 0) {
		fg_tree_free(t);
		return NULL;
	}
	return t;
}

void fg_tree_free(fg_tree *t)
{
	if (t == NULL)
		return;
	fg_arena_free(&t->names);
	free(t->nodes);
	free(t->before);
	free(t->starts);
	free(t->slots);
	free(t->previous);
	free(t->frame_ends);
	free(t->path);
	free(t);
}

/* (Re)builds the child table over all nodes, with room to grow. A slot
 * holds the hash beside the id, so a probe touches no node that does not
 * match. */
static int build_index(fg_tree *t)
{
	size_t mask = 4095;
	while (mask / 2 < t->size)
		mask = mask * 2 + 1;
	uint64_t *slots = calloc(mask + 1, sizeof(*slots));
	if (slots == NULL)
		return FG_ENOMEM;
	for (size_t id = 1; id < t->size; id++) {
		node *n = &t->nodes[id];
		if (t->slots == NULL) /* the first table: nodes have no hash yet */
			n->hash = child_hash(n->parent, n->name, n->name_length);
		size_t at = n->hash & mask;
		while (slots[at] != 0)
			at = (at + 1) & mask;
		slots[at] = (uint64_t)n->hash << 32 | ((uint64_t)id + 1);
	}
	free(t->slots);
	t->slots = slots;
	t->slot_mask = mask;
	return 0;
}

static int compare_name(const node *n, const char *name, size_t length)
{
	size_t common = n->name_length < length ? n->name_length : length;
	int c = memcmp(n->name, name, common);
	if (c != 0)
		return c;
	return (n->name_length > length) - (n->name_length < length);
}

/* A new child of parent, entered in the child table if there is one. */
static fg_node_id add_child(fg_tree *t, fg_node_id parent, const char *name, size_t length,
			    size_t at, uint32_t hash)
{
	fg_node_id max = t->nodes[parent].max_child;
	int order = max == FG_NODE_NONE ? 1 : -compare_name(&t->nodes[max], name, length);
	fg_node_id id = new_node(t, parent, name, length);
	if (id == FG_NODE_NONE)
		return id;
	node *p = &t->nodes[parent];
	if (order > 0)
		p->max_child = id;
	else
		p->flags &= ~CHILDREN_IN_ORDER;
	if (t->slots == NULL)
		return id;
	t->nodes[id].hash = hash;
	t->slots[at] = (uint64_t)hash << 32 | ((uint64_t)id + 1);
	if ((t->size - 1) * 2 > t->slot_mask && build_index(t) != 0)
		return FG_NODE_NONE;
	return id;
}

/*
 * In input sorted bytewise by line, a frame name can come back once after
 * its parent's greater children: "a;f 1" < "a;f2;x 1" < "a;f;y 1", because
 * ' ' < '2' < ';'. Then the greatest child's name is the new name followed
 * by a byte between ' ' and ';'. Such a frame gets a second node, merged
 * with the first by fg_tree_finish, so sorted input needs no lookup at all.
 */
static bool split_by_sorting(const node *greatest, const char *name, size_t length)
{
	return greatest->name_length > length && memcmp(greatest->name, name, length) == 0 &&
	       (unsigned char)greatest->name[length] > ' ' && greatest->name[length] < ';';
}

/* The child of parent called name, created if missing; NONE if no memory. */
static fg_node_id child(fg_tree *t, fg_node_id parent, const char *name, size_t length)
{
	if (t->flags & FG_TREE_FLAMECHART)
		return new_node(t, parent, name, length); /* never merged by lookup */
	const node *p = &t->nodes[parent];
	if (t->slots == NULL) {
		if (p->last_child != FG_NODE_NONE &&
		    compare_name(&t->nodes[p->last_child], name, length) == 0)
			return p->last_child;
		if (p->max_child == FG_NODE_NONE)
			return add_child(t, parent, name, length, 0, 0);
		int order = compare_name(&t->nodes[p->max_child], name, length);
		if (order == 0)
			return p->max_child;
		/* Greater than every child: new. */
		if (order < 0 || split_by_sorting(&t->nodes[p->max_child], name, length))
			return add_child(t, parent, name, length, 0, 0);
		/* Out of order: from now on, a hash of every node. */
		if (build_index(t) != 0)
			return FG_NODE_NONE;
	}
	uint32_t hash = child_hash(parent, name, length);
	size_t at = hash & t->slot_mask;
	for (uint64_t slot; (slot = t->slots[at]) != 0; at = (at + 1) & t->slot_mask) {
		if ((uint32_t)(slot >> 32) != hash)
			continue;
		fg_node_id id = (fg_node_id)(slot & 0xffffffffu) - 1;
		const node *n = &t->nodes[id];
		if (n->parent == parent && n->name_length == length &&
		    memcmp(n->name, name, length) == 0)
			return id;
	}
	return add_child(t, parent, name, length, at, hash);
}

/* Length of the common prefix of a and b. */
static size_t common_prefix(const char *a, size_t a_length, const char *b, size_t b_length)
{
	size_t n = a_length < b_length ? a_length : b_length, i = 0;
	while (i + 8 <= n) {
		uint64_t x, y;
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return i + (size_t)__builtin_ctzll(x ^ y) / 8; /* little-endian */
		i += 8;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

int fg_tree_add(fg_tree *t, const char *stack, size_t length, fg_count count,
		const fg_count *before)
{
	/* Perl's split drops trailing empty fields: "a;b;" is "a;b". */
	while (length > 0 && stack[length - 1] == ';')
		length--;
	fg_count total = t->grand_total;
	if (fg_count_add_inline(&total, count) != 0)
		return FG_ERANGE;
	fg_count total_before = t->grand_before;
	if (before != NULL && fg_count_add_inline(&total_before, *before) != 0)
		return FG_ERANGE;
	if (before != NULL && t->before == NULL) {
		t->before = calloc(t->capacity, sizeof(*t->before));
		if (t->before == NULL)
			return FG_ENOMEM;
		t->before_capacity = t->capacity;
	}

	/* Frames of the previous stack that this one shares, byte for byte. */
	size_t common = common_prefix(t->previous, t->previous_length, stack, length);
	size_t low = 0, high = t->depth; /* frames ending before common: [0, low) */
	while (low < high) {
		size_t middle = low + (high - low) / 2;
		if (t->frame_ends[middle] < common)
			low = middle + 1;
		else
			high = middle;
	}
	size_t shared = low;
	if (shared < t->depth && t->frame_ends[shared] == common &&
	    (common == length || stack[common] == ';'))
		shared++; /* the frame ends where the difference starts */
	if (length == 0)
		shared = 0;
	fg_node_id at = shared ? t->path[shared - 1] : 0;
	size_t depth = shared;
	size_t start = shared ? t->frame_ends[shared - 1] + 1 : 0;
	while (length > 0 && start <= length) {
		const char *semicolon = memchr(stack + start, ';', length - start);
		size_t end = semicolon ? (size_t)(semicolon - stack) : length;
		at = child(t, at, stack + start, end - start);
		if (at == FG_NODE_NONE)
			return FG_ENOMEM;
		if (depth >= t->path_capacity &&
		    (fg_grow((void **)&t->path, &t->path_capacity, depth + 1, sizeof(*t->path)) != 0 ||
		     fg_grow((void **)&t->frame_ends, &t->ends_capacity, depth + 1,
			     sizeof(*t->frame_ends)) != 0))
			return FG_ENOMEM;
		t->path[depth] = at;
		t->frame_ends[depth] = end;
		depth++;
		start = end + 1;
	}
	t->depth = depth;
	if (fg_grow((void **)&t->previous, &t->previous_capacity, length + 1, 1) != 0)
		return FG_ENOMEM;
	memcpy(t->previous + common, stack + common, length - common); /* the rest is equal */
	t->previous_length = length;

	fg_count_add_inline(&t->nodes[at].count, count); /* cannot overflow: see above */
	if (before != NULL)
		fg_count_add_inline(&t->before[at], *before);
	t->grand_total = total;
	t->grand_before = total_before;
	return 0;
}

static int compare_names(const node *a, const node *b)
{
	return compare_name(a, b->name, b->name_length);
}

/* Sorts a sibling list by name: a merge sort of the linked list, which is
 * stable and needs no extra memory. */
static fg_node_id sort_siblings(node *nodes, fg_node_id head)
{
	size_t width = 1;
	for (;;) {
		fg_node_id result = FG_NODE_NONE, *tail = &result;
		fg_node_id rest = head;
		size_t merges = 0;
		while (rest != FG_NODE_NONE) {
			merges++;
			fg_node_id a = rest, b = rest;
			size_t a_size = 0;
			while (a_size < width && b != FG_NODE_NONE) {
				b = nodes[b].next_sibling;
				a_size++;
			}
			size_t b_size = width;
			while (a_size > 0 || (b_size > 0 && b != FG_NODE_NONE)) {
				fg_node_id take;
				if (a_size == 0) {
					take = b; b = nodes[b].next_sibling; b_size--;
				} else if (b_size == 0 || b == FG_NODE_NONE ||
					   compare_names(&nodes[a], &nodes[b]) <= 0) {
					take = a; a = nodes[a].next_sibling; a_size--;
				} else {
					take = b; b = nodes[b].next_sibling; b_size--;
				}
				*tail = take;
				tail = &nodes[take].next_sibling;
			}
			rest = b;
		}
		*tail = FG_NODE_NONE;
		head = result;
		if (merges <= 1)
			return head;
		width *= 2;
	}
}

int fg_tree_merge(fg_tree *into, fg_tree *from)
{
	fg_count total = into->grand_total, total_before = into->grand_before;
	if (fg_count_add_inline(&total, from->grand_total) != 0 ||
	    fg_count_add_inline(&total_before, from->grand_before) != 0)
		return FG_ERANGE;
	size_t added = from->size - 1, size = into->size + added;
	if (size >= FG_NODE_NONE ||
	    fg_grow((void **)&into->nodes, &into->capacity, size, sizeof(*into->nodes)) != 0)
		return FG_ENOMEM;
	if (from->before != NULL || into->before != NULL) {
		fg_count *before = realloc(into->before, into->capacity * sizeof(*before));
		if (before == NULL)
			return FG_ENOMEM;
		if (into->before == NULL)
			memset(before, 0, into->size * sizeof(*before));
		into->before = before;
		into->before_capacity = into->capacity;
	}
	fg_node_id offset = (fg_node_id)(into->size - 1);
#define MOVED(id) ((id) == FG_NODE_NONE || (id) == 0 ? (id) : (id) + offset)
	for (size_t i = 1; i < from->size; i++) {
		node n = from->nodes[i];
		n.parent = MOVED(n.parent);
		n.first_child = MOVED(n.first_child);
		n.next_sibling = MOVED(n.next_sibling);
		n.last_child = MOVED(n.last_child);
		n.max_child = MOVED(n.max_child);
		into->nodes[i + offset] = n;
		if (into->before != NULL) {
			fg_count zero = {0, 0};
			into->before[i + offset] = from->before != NULL ? from->before[i] : zero;
		}
	}
	node *root = &into->nodes[0];
	const node *from_root = &from->nodes[0];
	fg_count_add_inline(&root->count, from_root->count);
	if (into->before != NULL && from->before != NULL)
		fg_count_add_inline(&into->before[0], from->before[0]);
	if (from_root->first_child != FG_NODE_NONE) {
		if (root->first_child == FG_NODE_NONE)
			root->first_child = MOVED(from_root->first_child);
		else
			into->nodes[root->last_child].next_sibling = MOVED(from_root->first_child);
		root->last_child = MOVED(from_root->last_child);
		root->flags &= ~CHILDREN_IN_ORDER; /* the two lists may share names */
	}
#undef MOVED
	into->size = size;
	into->grand_total = total;
	into->grand_before = total_before;
	fg_arena_adopt(&into->names, &from->names);
	/* The child table and previous-line state describe `into` alone. */
	free(into->slots);
	into->slots = NULL;
	into->depth = 0;
	into->previous_length = 0;
	from->size = 1;
	return 0;
}

/* Merges node `from` into its sibling `into` of the same name (the one
 * with the lower id, so that children keep higher ids than parents). */
static void merge_nodes(fg_tree *t, fg_node_id into, fg_node_id from)
{
	node *a = &t->nodes[into], *b = &t->nodes[from];
	fg_count_add(&a->count, b->count); /* cannot overflow: below the grand total */
	if (t->before != NULL)
		fg_count_add(&t->before[into], t->before[from]);
	if (b->first_child != FG_NODE_NONE) {
		for (fg_node_id c = b->first_child; c != FG_NODE_NONE; c = t->nodes[c].next_sibling)
			t->nodes[c].parent = into;
		if (a->first_child == FG_NODE_NONE) {
			a->first_child = b->first_child;
			a->flags = (a->flags & ~CHILDREN_IN_ORDER) | (b->flags & CHILDREN_IN_ORDER);
		} else {
			t->nodes[a->last_child].next_sibling = b->first_child;
			a->flags &= ~CHILDREN_IN_ORDER; /* its children may now repeat */
		}
		a->last_child = b->last_child;
	}
	b->flags |= MERGED;
	b->parent = FG_NODE_NONE;
	b->first_child = FG_NODE_NONE;
	b->count.whole = b->count.frac = 0;
}

void fg_tree_finish(fg_tree *t)
{
	if (t->finished)
		return;
	t->finished = true;
	/*
	 * Sort the children of nodes whose children came out of order and
	 * merge siblings of the same name. Parents have lower ids than their
	 * children, so a node whose children a merge disordered is reached
	 * later in this loop.
	 */
	if (!(t->flags & FG_TREE_FLAMECHART))
		for (size_t id = 0; id < t->size; id++) {
			node *n = &t->nodes[id];
			if ((n->flags & (CHILDREN_IN_ORDER | MERGED)) || n->first_child == FG_NODE_NONE)
				continue;
			n->first_child = sort_siblings(t->nodes, n->first_child);
			fg_node_id previous = FG_NODE_NONE, kept = n->first_child;
			for (fg_node_id c = t->nodes[kept].next_sibling, next; c != FG_NODE_NONE; c = next) {
				next = t->nodes[c].next_sibling;
				if (compare_name(&t->nodes[kept], t->nodes[c].name,
						 t->nodes[c].name_length) != 0) {
					previous = kept;
					kept = c;
				} else if (kept < c) {
					t->nodes[kept].next_sibling = next;
					merge_nodes(t, kept, c);
				} else {
					/* Keep the lower id: children stay above parents. */
					if (previous == FG_NODE_NONE)
						t->nodes[id].first_child = c;
					else
						t->nodes[previous].next_sibling = c;
					merge_nodes(t, c, kept);
					kept = c;
				}
			}
			t->nodes[id].last_child = kept;
		}
	/* Inclusive totals: children (higher ids) first. */
	for (size_t id = t->size; id-- > 1;) {
		if (t->nodes[id].flags & MERGED)
			continue;
		fg_node_id parent = t->nodes[id].parent;
		fg_count_add_inline(&t->nodes[parent].count, t->nodes[id].count);
		if (t->before != NULL)
			fg_count_add_inline(&t->before[parent], t->before[id]);
	}
	/* The child table and the previous-stack state are no longer needed. */
	free(t->slots);
	t->slots = NULL;
	free(t->previous);
	t->previous = NULL;
	t->previous_length = 0;
}

size_t fg_tree_size(const fg_tree *t) { return t->size; }
bool fg_tree_is_differential(const fg_tree *t) { return t->before != NULL; }
fg_node_id fg_tree_first_child(const fg_tree *t, fg_node_id n) { return t->nodes[n].first_child; }
fg_node_id fg_tree_next_sibling(const fg_tree *t, fg_node_id n) { return t->nodes[n].next_sibling; }
fg_node_id fg_tree_parent(const fg_tree *t, fg_node_id n) { return t->nodes[n].parent; }
fg_count fg_tree_total(const fg_tree *t, fg_node_id n) { return t->nodes[n].count; }

const char *fg_tree_name(const fg_tree *t, fg_node_id n, size_t *length)
{
	*length = t->nodes[n].name_length;
	return t->nodes[n].name;
}

fg_count fg_tree_total_before(const fg_tree *t, fg_node_id n)
{
	fg_count zero = {0, 0};
	return t->before != NULL ? t->before[n] : zero;
}

fg_count fg_tree_start(const fg_tree *t, fg_node_id n)
{
	fg_count zero = {0, 0};
	return t->starts != NULL ? t->starts[n] : zero;
}
