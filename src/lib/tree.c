/*
 * tree.c - the frame tree: stacks merged by common prefix.
 *
 * Every node is one frame at one position: (parent, name). Names are
 * interned: the tree keeps each distinct name once, in a hash table that
 * stays in cache for real profiles, and nodes hold the name's id (8 bytes a
 * node while the tree is built, name and parent, with counts in arrays of
 * their own). Nodes have no lists of children until fg_tree_finish links
 * them: lines find their frames without walking lists.
 *
 * Input sorted by stack (the collapsers' output) is the common case, and
 * costs no lookup of nodes: a line shares a byte prefix with the line
 * before, and the frames inside that prefix are the previous line's nodes;
 * a frame past it is new when its name sorts after the previous line's
 * frame there, its parent's newest child. Only when that does not decide,
 * or a stack sorts before the one above it (input out of order), is a hash
 * table of nodes built, once, and kept from then on. Its key is the hash of
 * a node's whole path (its name ids from the root), not of (parent id,
 * name): the hashes of a line's frames are known before any node is found,
 * so their probes are prefetched together instead of waiting for each
 * other, one cache miss after another, down the stack. A probe still
 * compares (parent, name id), so lookups are exact whatever the hashes.
 *
 * Memory grows with unique frames only: about 37 bytes each where every
 * frame has a name of its own (an 8-byte node, a 1-byte count while every
 * own count fits 8 bits, then 2 bytes while they fit 16, a 4-byte name
 * entry, the name's bytes, a 4-byte slot in each of two hash tables at
 * most 3/4 full). fg_tree_finish frees
 * the tables, then widens counts to 4 bytes in place and adds 8 bytes a
 * node for the lists (and 4 more for 64-bit counts if the grand total
 * needs them).
 *
 * Nodes keep only their own ("self") count while lines are added; inclusive
 * totals are summed once, child to parent, in fg_tree_finish. Children are
 * created after their parents, so visiting ids from high to low reaches
 * every child before its parent: no recursion, no per-line path walk. The
 * running grand total is checked for overflow on every add, and no node's
 * total can exceed it, so the final sums cannot overflow.
 *
 * The threads' trees (graph_read.c) are finished each on its own thread,
 * then merged (fg_tree_merge): one tree's nodes are appended to the
 * other's, and the two trees' sorted lists joined from the root down, as
 * far as they share frames (the first few of a line). Its names are added
 * too: those the other tree lacks, looked up beforehand on all the threads
 * (fg_tree_map_names), or, in trees of over 1M names, all of them as they
 * are, without a lookup; a name both had then has two ids.
 */
#include <stdlib.h>

#include "strsort.h"
#include "tree.h"

#define ROOT_HASH 0x243f6a8885a308d3ull
#define NO_NAME UINT32_MAX

/* The hash of a path: its parent's path hash and its own name id. */
static inline uint64_t path_hash(uint64_t parent_hash, uint32_t name)
{
	uint64_t h = parent_hash ^ ((uint64_t)name + 1) * 0x9e3779b97f4a7c15ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

/*
 * The two hash tables have 4-byte slots: an id + 1 (0: empty) in the bits
 * of the table's mask, which holds every id (a table is at most 3/4 full),
 * and above them, where the table is small enough to leave room, the same
 * bits of a tag taken from the hash, which spares most probes that would
 * not match a look at the name or node.
 */
static inline uint32_t make_slot(uint32_t tag, size_t mask, size_t id)
{
	return (tag & ~(uint32_t)mask) | (uint32_t)(id + 1);
}

static inline bool slot_has_tag(uint32_t slot, uint32_t tag, size_t mask)
{
	return ((slot ^ tag) & ~(uint32_t)mask) == 0;
}

static inline size_t slot_id(uint32_t slot, size_t mask)
{
	return (size_t)(slot & (uint32_t)mask) - 1;
}

/* Whether a table of mask + 1 slots holding count ids is past 3/4 full. */
static inline bool crowded(size_t count, size_t mask) { return count * 4 > mask * 3; }

/* A name table's probe starts at the hash's low bits; its tag is the high
 * half. */
static inline uint32_t name_tag(uint64_t hash) { return (uint32_t)(hash >> 32); }

/* The two hash tables (fg_table_alloc: freed with their size). */
static void free_name_slots(fg_tree *t)
{
	fg_table_free(t->name_slots, (t->name_mask + 1) * sizeof(*t->name_slots));
	t->name_slots = NULL;
}

static void free_child_slots(fg_tree *t)
{
	fg_table_free(t->slots, (t->slot_mask + 1) * sizeof(*t->slots));
	t->slots = NULL;
}

/* ----------------------------------------------------------------- names */

/*
 * A name's hash, 8 bytes at a time, so that a line's frames are found
 * (the next ';') and hashed in one pass over their bytes (next_frame),
 * with the same result as name_hash on the name alone: every 8 bytes
 * before the name's last partial word (fewer than 8, zero-padded) are
 * mixed in turn, then that word and the length.
 */
#define BYTES_01 0x0101010101010101ull
#define BYTES_80 0x8080808080808080ull

static inline uint64_t hash_word(uint64_t h, uint64_t word) { return fg_hash_mix(h ^ word, FG_HASH_K1); }

static inline uint64_t hash_end(uint64_t h, uint64_t last, size_t length)
{
	return fg_hash_mix(h ^ last ^ FG_HASH_K1, length ^ FG_HASH_K0);
}

/* The low n bytes of word (n < 8). */
static inline uint64_t low_bytes(uint64_t word, size_t n)
{
	return word & ((UINT64_C(1) << (8 * n)) - 1);
}

/* The bytes of word that are ';' (their top bit set), exactly up to the
 * first one (bytes past it may be flagged falsely). */
static inline uint64_t semicolons(uint64_t word)
{
	uint64_t x = word ^ (BYTES_01 * ';');
	return (x - BYTES_01) & ~x & BYTES_80;
}

static uint64_t name_hash(const char *name, size_t length)
{
	uint64_t h = fg_hash_seed, word;
	size_t i = 0;
	for (; i + 8 <= length; i += 8) {
		memcpy(&word, name + i, 8);
		h = hash_word(h, word);
	}
	word = 0;
	memcpy(&word, name + i, length - i);
	return hash_end(h, word, length);
}

/* The frame of stack[0, length) that starts at `start`: where it ends
 * (the next ';', or length) and its name_hash. Reads no byte past length. */
static inline size_t next_frame(const char *stack, size_t start, size_t length, uint64_t *hash)
{
	uint64_t h = fg_hash_seed, word;
	size_t i = start;
	for (; i + 8 <= length; i += 8) {
		memcpy(&word, stack + i, 8);
		uint64_t found = semicolons(word);
		if (found != 0) {
			size_t k = (size_t)__builtin_ctzll(found) / 8; /* little-endian */
			*hash = hash_end(h, low_bytes(word, k), i + k - start);
			return i + k;
		}
		h = hash_word(h, word);
	}
	word = 0;
	memcpy(&word, stack + i, length - i); /* (zero bytes are no ';') */
	uint64_t found = semicolons(word);
	size_t k = found != 0 ? (size_t)__builtin_ctzll(found) / 8 : length - i;
	*hash = hash_end(h, low_bytes(word, k), i + k - start);
	return i + k;
}

/*
 * The name table again, `mask` + 1 slots. It is built from the names, not
 * from the old table, which goes first so that the two never take room
 * together; if the new one cannot be had, the tree takes no more lines
 * (lost_table).
 */
static int build_names(fg_tree *t, size_t mask)
{
	free_name_slots(t);
	uint32_t *slots = fg_table_alloc((mask + 1) * sizeof(*slots));
	if (slots == NULL) {
		t->lost_table = true;
		return FG_ENOMEM;
	}
	for (size_t i = 0; i < t->name_count; i++) {
		size_t length;
		const char *bytes = fg_tree_name_bytes(t, (uint32_t)i, &length);
		uint64_t hash = name_hash(bytes, length);
		size_t at = hash & mask;
		while (slots[at] != 0)
			at = (at + 1) & mask;
		slots[at] = make_slot(name_tag(hash), mask, i);
	}
	t->name_slots = slots;
	t->name_mask = mask;
	return 0;
}

static inline uint64_t load64(const char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* a and b, both length bytes, are equal: names are short, memcmp's call
 * costs more than the comparison. */
static inline bool same_bytes(const char *a, const char *b, size_t length)
{
	if (length < 8 || length > 64)
		return memcmp(a, b, length) == 0;
	for (size_t i = 0; i + 8 < length; i += 8)
		if (load64(a + i) != load64(b + i))
			return false;
	return load64(a + length - 8) == load64(b + length - 8);
}

/* The slot where a name of this hash starts its probe: to prefetch. */
static inline const uint32_t *name_slot(const fg_tree *t, uint64_t hash)
{
	return &t->name_slots[hash & t->name_mask];
}

/* Name entries in 64 bits from now on (the store passes narrow_limit). */
static int widen_names(fg_tree *t)
{
	uint64_t *wide = NULL;
	size_t capacity = 0;
	if (fg_grow((void **)&wide, &capacity, t->name_capacity, sizeof(*wide)) != 0)
		return FG_ENOMEM;
	for (size_t i = 0; i <= t->name_count; i++)
		wide[i] = t->names[i];
	free(t->names);
	t->names = NULL;
	t->wide_names = wide;
	t->name_capacity = capacity;
	return 0;
}

/* Copies a new name into the store as name name_count; 0 or FG_ENOMEM. */
static int store_name(fg_tree *t, const char *name, size_t length)
{
	size_t end = t->store_length + length;
	if (length > UINT32_MAX || end < length ||
	    fg_grow((void **)&t->store, &t->store_capacity, end, 1) != 0 ||
	    (t->names != NULL && end > t->narrow_limit && widen_names(t) != 0))
		return FG_ENOMEM;
	void **entries = t->names != NULL ? (void **)&t->names : (void **)&t->wide_names;
	size_t entry_size = t->names != NULL ? sizeof(*t->names) : sizeof(*t->wide_names);
	if (fg_grow(entries, &t->name_capacity, t->name_count + 2, entry_size) != 0)
		return FG_ENOMEM;
	memcpy(t->store + t->store_length, name, length);
	t->store_length = end;
	if (t->names != NULL)
		t->names[t->name_count + 1] = (uint32_t)end;
	else
		t->wide_names[t->name_count + 1] = end;
	return 0;
}

/* The id of name (whose name_hash is hash), NO_NAME if the table does
 * not have it; *at: the slot it would go in. */
static inline uint32_t find_name(const fg_tree *t, const char *name, size_t length,
				 uint64_t hash, size_t *at)
{
	uint32_t tag = name_tag(hash);
	*at = hash & t->name_mask;
	for (uint32_t slot; (slot = t->name_slots[*at]) != 0; *at = (*at + 1) & t->name_mask) {
		if (!slot_has_tag(slot, tag, t->name_mask))
			continue;
		uint32_t id = (uint32_t)slot_id(slot, t->name_mask);
		size_t known_length;
		const char *known = fg_tree_name_bytes(t, id, &known_length);
		if (known_length == length && same_bytes(known, name, length))
			return id;
	}
	return NO_NAME;
}

/* The id of name (whose name_hash is hash), added if new; NO_NAME when
 * out of memory. */
static uint32_t intern_hashed(fg_tree *t, const char *name, size_t length, uint64_t hash)
{
	size_t at;
	uint32_t id = find_name(t, name, length, hash, &at);
	if (id != NO_NAME)
		return id;
	if (t->name_count >= FG_HAS_CHILDREN - 1 || store_name(t, name, length) != 0)
		return NO_NAME;
	id = (uint32_t)t->name_count++;
	t->name_slots[at] = make_slot(name_tag(hash), t->name_mask, id);
	if (crowded(t->name_count, t->name_mask) && build_names(t, t->name_mask * 2 + 1) != 0)
		return NO_NAME;
	return id;
}

static uint32_t intern(fg_tree *t, const char *name, size_t length)
{
	return intern_hashed(t, name, length, name_hash(name, length));
}

/* Bytewise order of two names (by id). */
static int compare_names(const fg_tree *t, uint32_t a, uint32_t b)
{
	if (a == b)
		return 0;
	size_t x_length, y_length;
	const char *x = fg_tree_name_bytes(t, a, &x_length), *y = fg_tree_name_bytes(t, b, &y_length);
	int c = memcmp(x, y, x_length < y_length ? x_length : y_length);
	if (c != 0)
		return c;
	return (x_length > y_length) - (x_length < y_length);
}

/* ----------------------------------------------------------------- nodes */

/*
 * The counts in *narrow (`from` bytes each, room for *narrow_capacity)
 * made counts of `to` bytes in *wide (NULL before), *narrow then NULL. In
 * place, so that the two widths never take room together: in the block's
 * own room when it has enough (fg_grow reserves ahead), else grown by
 * realloc; each count moved from the last down, written over counts
 * already moved. 0 or FG_ENOMEM (nothing changed).
 */
static int widen_in_place(fg_tree *t, void **narrow, size_t *narrow_capacity, size_t from,
			  void **wide, size_t *wide_capacity, size_t to)
{
	unsigned char *b = *narrow;
	size_t room = *narrow_capacity * from / to;
	if (room < t->size) {
		if (*narrow_capacity > SIZE_MAX / to || (b = realloc(b, *narrow_capacity * to)) == NULL)
			return FG_ENOMEM;
		room = *narrow_capacity;
	}
	for (size_t i = t->size; i-- > 0;) {
		uint16_t v16;
		uint32_t v;
		if (from == 1) {
			v = b[i];
		} else {
			memcpy(&v16, b + i * 2, 2);
			v = v16;
		}
		if (to == 2) {
			v16 = (uint16_t)v;
			memcpy(b + i * 2, &v16, 2);
		} else {
			memcpy(b + i * 4, &v, 4);
		}
	}
	*narrow = NULL;
	*narrow_capacity = 0;
	*wide = b;
	*wide_capacity = room;
	return 0;
}

/* From now on, counts in 16 bits at least (an own count past 8 bits). */
static int widen_byte_counts(fg_tree *t)
{
	if (t->byte_count == NULL)
		return 0;
	return widen_in_place(t, (void **)&t->byte_count, &t->byte_count_capacity, 1,
			      (void **)&t->tiny, &t->tiny_capacity, 2);
}

/* From now on, counts in 32 bits at least (an own count past 16 bits; at
 * fg_tree_finish and fg_tree_merge in any case). */
static int widen_tiny(fg_tree *t)
{
	if (widen_byte_counts(t) != 0)
		return FG_ENOMEM;
	if (t->tiny == NULL)
		return 0;
	return widen_in_place(t, (void **)&t->tiny, &t->tiny_capacity, 2, (void **)&t->narrow,
			      &t->narrow_capacity, 4);
}

/* From now on, counts in 64 bits (an own count past 32 bits; at
 * fg_tree_finish, a grand total past 32 bits). */
static int widen_counts(fg_tree *t)
{
	if (t->whole != NULL)
		return 0;
	if (widen_tiny(t) != 0)
		return FG_ENOMEM;
	uint64_t *whole = NULL;
	size_t capacity = 0;
	if (fg_grow((void **)&whole, &capacity, t->narrow_capacity, sizeof(*whole)) != 0)
		return FG_ENOMEM;
	for (size_t i = 0; i < t->size; i++)
		whole[i] = t->narrow[i];
	free(t->narrow);
	t->narrow = NULL;
	t->narrow_capacity = 0;
	t->whole = whole;
	t->whole_capacity = capacity;
	return 0;
}

static inline size_t count_capacity(const fg_tree *t)
{
	return t->byte_count != NULL ? t->byte_count_capacity
	       : t->tiny != NULL ? t->tiny_capacity
	       : t->whole != NULL ? t->whole_capacity : t->narrow_capacity;
}

/* Adds units to node id's own whole count. */
static inline int add_units(fg_tree *t, fg_node_id id, uint64_t units)
{
	if (t->byte_count != NULL) {
		if (units <= (uint64_t)(UINT8_MAX - t->byte_count[id])) {
			t->byte_count[id] += (uint8_t)units;
			return 0;
		}
		if (widen_byte_counts(t) != 0)
			return FG_ENOMEM;
	}
	if (t->tiny != NULL) {
		if (units <= (uint64_t)(UINT16_MAX - t->tiny[id])) {
			t->tiny[id] += (uint16_t)units;
			return 0;
		}
		if (widen_tiny(t) != 0)
			return FG_ENOMEM;
	}
	if (t->whole == NULL) {
		if (units <= UINT32_MAX - t->narrow[id]) {
			t->narrow[id] += (uint32_t)units;
			return 0;
		}
		if (widen_counts(t) != 0)
			return FG_ENOMEM;
	}
	t->whole[id] += units;
	return 0;
}

/* Sets node id's whole count to 0. */
static inline void clear_units(fg_tree *t, fg_node_id id)
{
	if (t->byte_count != NULL)
		t->byte_count[id] = 0;
	else if (t->tiny != NULL)
		t->tiny[id] = 0;
	else if (t->whole != NULL)
		t->whole[id] = 0;
	else
		t->narrow[id] = 0;
}

/* Adds c to node id's own count (cannot overflow: below the grand total). */
static int add_count(fg_tree *t, fg_node_id id, fg_count c)
{
	if (c.frac != 0 && t->frac == NULL) {
		t->frac = calloc(count_capacity(t), sizeof(*t->frac));
		if (t->frac == NULL)
			return FG_ENOMEM;
		t->frac_capacity = count_capacity(t);
	}
	if (t->frac != NULL) {
		uint64_t f = t->frac[id] + c.frac;
		if (f >= FG_COUNT_FRAC_ONE) {
			f -= FG_COUNT_FRAC_ONE;
			if (add_units(t, id, 1) != 0)
				return FG_ENOMEM;
		}
		t->frac[id] = f;
	}
	return add_units(t, id, c.whole);
}

static fg_node_id new_node(fg_tree *t, fg_node_id parent, uint32_t name)
{
	size_t need = t->size + 1;
	if (t->size >= FG_NODE_NONE - 1 ||
	    fg_grow((void **)&t->nodes, &t->capacity, need, sizeof(*t->nodes)) != 0)
		return FG_NODE_NONE;
	if (t->byte_count != NULL
		    ? fg_grow((void **)&t->byte_count, &t->byte_count_capacity, need, 1) != 0
		    : t->tiny != NULL
		    ? fg_grow((void **)&t->tiny, &t->tiny_capacity, need, sizeof(*t->tiny)) != 0
		    : t->whole != NULL
		    ? fg_grow((void **)&t->whole, &t->whole_capacity, need, sizeof(*t->whole)) != 0
		    : fg_grow((void **)&t->narrow, &t->narrow_capacity, need, sizeof(*t->narrow)) != 0)
		return FG_NODE_NONE;
	if (t->frac != NULL &&
	    fg_grow((void **)&t->frac, &t->frac_capacity, need, sizeof(*t->frac)) != 0)
		return FG_NODE_NONE;
	if (t->before != NULL &&
	    fg_grow((void **)&t->before, &t->before_capacity, need, sizeof(*t->before)) != 0)
		return FG_NODE_NONE;
	if ((t->flags & FG_TREE_FLAMECHART) &&
	    fg_grow((void **)&t->starts, &t->starts_capacity, need, sizeof(*t->starts)) != 0)
		return FG_NODE_NONE;
	fg_node_id id = (fg_node_id)t->size++;
	t->nodes[id] = (fg_tree_node){name | FG_CHILDREN_IN_ORDER, parent};
	clear_units(t, id);
	if (t->frac != NULL)
		t->frac[id] = 0;
	if (t->before != NULL)
		t->before[id] = (fg_count){0, 0};
	if (t->starts != NULL)
		t->starts[id] = t->grand_total;
	if (parent != FG_NODE_NONE)
		t->nodes[parent].name |= FG_HAS_CHILDREN;
	return id;
}

fg_tree *fg_tree_new(unsigned flags)
{
	fg_hash_seed_ready();
	fg_tree *t = calloc(1, sizeof(*t));
	if (t == NULL)
		return NULL;
	t->flags = flags;
	t->name_mask = 1023;
	t->name_slots = fg_table_alloc((t->name_mask + 1) * sizeof(*t->name_slots));
	t->narrow_limit = UINT32_MAX;
	t->names = calloc(2, sizeof(*t->names)); /* names[0]: where the first name starts */
	t->name_capacity = 2;
	if (t->name_slots == NULL || t->names == NULL ||
	    fg_grow((void **)&t->store, &t->store_capacity, 1, 1) != 0 || intern(t, "", 0) != 0 ||
	    fg_grow((void **)&t->byte_count, &t->byte_count_capacity, 1, 1) != 0 ||
	    new_node(t, FG_NODE_NONE, 0) != 0) {
		fg_tree_free(t);
		return NULL;
	}
	return t;
}

void fg_tree_free(fg_tree *t)
{
	if (t == NULL)
		return;
	free(t->store);
	free(t->names);
	free(t->wide_names);
	free_name_slots(t);
	free(t->nodes);
	free(t->links);
	free(t->byte_count);
	free(t->tiny);
	free(t->narrow);
	free(t->whole);
	free(t->frac);
	free(t->before);
	free(t->starts);
	free_child_slots(t);
	free(t->previous);
	free(t->frame_ends);
	free(t->path);
	free(t->path_hash);
	free(t->path_name);
	free(t);
}

/*
 * The child table. A probe starts at the top bits of a node's path hash;
 * the tag is its low half.
 */
static inline size_t slot_of(const fg_tree *t, uint64_t hash)
{
	return (size_t)(hash >> t->slot_shift);
}

static inline uint32_t path_tag(uint64_t hash) { return (uint32_t)hash; }

/* Builds the child table over all nodes, with room to grow (at most 3/4
 * full). The path hashes are worked out again from the root down (parents
 * have lower ids than their children): a slot keeps too little of its
 * hash to be moved without it. The old table goes first, as in
 * build_names. */
static int build_index(fg_tree *t)
{
	unsigned bits = 12;
	while (((size_t)1 << bits) / 4 * 3 < t->size)
		bits++;
	if (bits > 32)
		return FG_ENOMEM; /* (node ids are 32 bits: cannot happen) */
	size_t mask = ((size_t)1 << bits) - 1;
	free_child_slots(t);
	/* Huge pages: fewer faults, fewer TLB misses. */
	uint32_t *slots = fg_table_alloc((mask + 1) * sizeof(*slots));
	uint64_t *hashes = fg_table_alloc(t->size * sizeof(*hashes));
	if (slots == NULL || hashes == NULL) {
		fg_table_free(slots, (mask + 1) * sizeof(*slots));
		fg_table_free(hashes, t->size * sizeof(*hashes));
		t->lost_table = true;
		return FG_ENOMEM;
	}
	/* In two passes, each loading ahead what it will need (a parent's hash,
	 * a slot) at random places. */
	enum { AHEAD = 16 };
	hashes[0] = ROOT_HASH;
	for (size_t id = 1; id < t->size; id++) {
		if (id + AHEAD < t->size)
			__builtin_prefetch(&hashes[t->nodes[id + AHEAD].parent]);
		const fg_tree_node *n = &t->nodes[id];
		hashes[id] = path_hash(hashes[n->parent], FG_NAME_ID(n));
	}
	for (size_t id = 1; id < t->size; id++) {
		if (id + AHEAD < t->size)
			__builtin_prefetch(&slots[hashes[id + AHEAD] >> (64 - bits)]);
		size_t at = (size_t)(hashes[id] >> (64 - bits));
		while (slots[at] != 0)
			at = (at + 1) & mask;
		slots[at] = make_slot(path_tag(hashes[id]), mask, id);
	}
	fg_table_free(hashes, t->size * sizeof(*hashes));
	t->slots = slots;
	t->slot_mask = mask;
	t->slot_shift = 64 - bits;
	return 0;
}

/* How a new child was found missing. */
typedef enum child_place {
	GREATEST,  /* its name is greater than every sibling's */
	CAME_BACK, /* its name came back after a greater one (split_by_sorting) */
	LOOKED_UP, /* in the child table */
} child_place;

/* A new child of parent, entered at slot `at` of the child table if there
 * is one. */
static fg_node_id add_child(fg_tree *t, fg_node_id parent, uint32_t name, size_t at,
			    uint64_t hash, child_place place)
{
	/* A child looked up keeps its parent's children in order only if it
	 * is the first (keeping a greatest child to compare with would cost
	 * every node 4 bytes). */
	uint32_t flags = t->nodes[parent].name;
	bool in_order = place == GREATEST || (place == LOOKED_UP && !(flags & FG_HAS_CHILDREN));
	fg_node_id id = new_node(t, parent, name);
	if (id == FG_NODE_NONE)
		return id;
	if (!in_order)
		t->nodes[parent].name &= ~FG_CHILDREN_IN_ORDER;
	if (t->slots == NULL)
		return id;
	t->slots[at] = make_slot(path_tag(hash), t->slot_mask, id);
	if (crowded(t->size - 1, t->slot_mask) && build_index(t) != 0)
		return FG_NODE_NONE;
	return id;
}

/*
 * In input sorted bytewise by stack, a frame name can come back once after
 * its parent's greater children: "a;f2;x" < "a;f;y", because '2' < ';'.
 * Then the greatest child's name is the new name followed by a byte below
 * ';' (digits, spaces, most punctuation). Such a frame gets a second node,
 * merged with the first by fg_tree_finish, so sorted input needs no lookup
 * at all. The lines under it find it on the previous stack.
 */
static bool split_by_sorting(const fg_tree *t, uint32_t greatest, uint32_t name)
{
	size_t g_length, n_length;
	const char *g = fg_tree_name_bytes(t, greatest, &g_length);
	const char *n = fg_tree_name_bytes(t, name, &n_length);
	return g_length > n_length && memcmp(g, n, n_length) == 0 && (unsigned char)g[n_length] < ';';
}

/*
 * The child of parent called name (whose path hash is hash), created if
 * missing; NONE if no memory. `previous` is parent's child on the previous
 * stack, if it had one there. While the input is sorted, that child is the
 * newest, and unless it came back (split_by_sorting), the greatest: a name
 * after it is new, and one that cannot have come back shows the input out
 * of order.
 */
static fg_node_id child(fg_tree *t, fg_node_id parent, uint32_t name, uint64_t hash,
			fg_node_id previous)
{
	if (t->flags & FG_TREE_FLAMECHART)
		return new_node(t, parent, name); /* never merged by lookup */
	if (t->slots == NULL) {
		if (previous == FG_NODE_NONE) {
			if (!(t->nodes[parent].name & FG_HAS_CHILDREN))
				return add_child(t, parent, name, 0, 0, GREATEST);
		} else {
			uint32_t newest = FG_NAME_ID(&t->nodes[previous]);
			if (newest == name)
				return previous;
			if (compare_names(t, newest, name) < 0)
				return add_child(t, parent, name, 0, 0, GREATEST);
			if (split_by_sorting(t, newest, name))
				return add_child(t, parent, name, 0, 0, CAME_BACK);
		}
		/* Out of order: from now on, a hash of every node. */
		if (build_index(t) != 0)
			return FG_NODE_NONE;
	}
	uint32_t tag = path_tag(hash);
	size_t at = slot_of(t, hash);
	for (uint32_t slot; (slot = t->slots[at]) != 0; at = (at + 1) & t->slot_mask) {
		if (!slot_has_tag(slot, tag, t->slot_mask))
			continue;
		fg_node_id id = (fg_node_id)slot_id(slot, t->slot_mask);
		const fg_tree_node *n = &t->nodes[id];
		if (n->parent == parent && FG_NAME_ID(n) == name)
			return id;
	}
	return add_child(t, parent, name, at, hash, LOOKED_UP);
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

/* Room for depth + 1 frames in the per-frame arrays of the last stack. */
static int grow_path(fg_tree *t, size_t depth)
{
	if (depth < t->path_capacity && depth < t->ends_capacity && depth < t->hash_capacity &&
	    depth < t->name_scratch_capacity)
		return 0;
	if (fg_grow((void **)&t->path, &t->path_capacity, depth + 1, sizeof(*t->path)) != 0 ||
	    fg_grow((void **)&t->frame_ends, &t->ends_capacity, depth + 1, sizeof(*t->frame_ends)) != 0 ||
	    fg_grow((void **)&t->path_hash, &t->hash_capacity, depth + 1, sizeof(*t->path_hash)) != 0 ||
	    fg_grow((void **)&t->path_name, &t->name_scratch_capacity, depth + 1,
		    sizeof(*t->path_name)) != 0)
		return FG_ENOMEM;
	return 0;
}

/* A line's counts, at its last frame `at`; the new grand totals. */
static int count_line(fg_tree *t, fg_node_id at, fg_count count, const fg_count *before,
		      fg_count total, fg_count total_before)
{
	if (add_count(t, at, count) != 0)
		return FG_ENOMEM;
	if (before != NULL)
		fg_count_add_inline(&t->before[at], *before);
	t->grand_total = total;
	t->grand_before = total_before;
	return 0;
}

/* *array (of *capacity elements of `size` bytes) made to hold `want`,
 * fewer, keeping the first ones; as it was if realloc fails. */
static void realloc_down(void **array, size_t *capacity, size_t want, size_t size)
{
	void *smaller = realloc(*array, want * size);
	if (smaller != NULL) {
		*array = smaller;
		*capacity = want;
	}
}

/*
 * The previous stack's arrays, once far larger than the stacks that came
 * after a huge one (a line of megabytes, a million frames), made to fit
 * the current one, keeping what they hold up to it: else each thread's
 * tree keeps room for the largest stack it has met until it is finished.
 * Only once the stacks since have had as many bytes as the arrays: a huge
 * stack that comes back grows them again, a page fault every 4 KiB, and
 * huge stacks every few lines would pay that each time (27% slower). Then
 * the work of those bytes outweighs it. Shrinking fails harmlessly (the
 * arrays stay as they were).
 */
#define FIT_FROM ((size_t)1 << 20) /* bytes */
static bool too_roomy(size_t capacity, size_t want, size_t size)
{
	return capacity * size >= FIT_FROM && want <= capacity / 4;
}

static void shrink_to(void **array, size_t *capacity, size_t want, size_t size)
{
	if (too_roomy(*capacity, want, size))
		realloc_down(array, capacity, want, size);
}

static void fit_previous(fg_tree *t, size_t length, size_t depth)
{
	size_t frames = depth + 1;
	bool roomy = too_roomy(t->previous_capacity, length + 1, 1) ||
		     too_roomy(t->path_capacity, frames, sizeof(*t->path)) ||
		     too_roomy(t->ends_capacity, frames, sizeof(*t->frame_ends)) ||
		     too_roomy(t->hash_capacity, frames, sizeof(*t->path_hash)) ||
		     too_roomy(t->name_scratch_capacity, frames, sizeof(*t->path_name));
	if (!roomy) {
		t->since_huge = 0;
		return;
	}
	size_t held = t->previous_capacity + t->path_capacity * sizeof(*t->path) +
		      t->ends_capacity * sizeof(*t->frame_ends) + t->hash_capacity * sizeof(*t->path_hash) +
		      t->name_scratch_capacity * sizeof(*t->path_name);
	t->since_huge += length + 1;
	if (t->since_huge < held)
		return;
	t->since_huge = 0;
	shrink_to((void **)&t->previous, &t->previous_capacity, length + 1, 1);
	shrink_to((void **)&t->path, &t->path_capacity, frames, sizeof(*t->path));
	shrink_to((void **)&t->frame_ends, &t->ends_capacity, frames, sizeof(*t->frame_ends));
	shrink_to((void **)&t->path_hash, &t->hash_capacity, frames, sizeof(*t->path_hash));
	shrink_to((void **)&t->path_name, &t->name_scratch_capacity, frames, sizeof(*t->path_name));
}

int fg_tree_add(fg_tree *t, const char *stack, size_t length, fg_count count,
		const fg_count *before)
{
	if (t->lost_table)
		return FG_ENOMEM;
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
	/* An empty stack counts at the root alone. Outside flame charts it
	 * leaves the previous stack in place, so that the next line is
	 * compared with the one before it (the empty stack shares nothing). */
	if (length == 0 && !(t->flags & FG_TREE_FLAMECHART))
		return count_line(t, 0, count, before, total, total_before);

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
	/*
	 * A stack that sorts before the previous one (a proper prefix of it
	 * included) ends the sorted-input path: there, a frame name can come
	 * back after its parent's greater children at most once (see
	 * split_by_sorting), but lines going back and forth could make a new
	 * node of it on every line.
	 */
	if (t->slots == NULL && !(t->flags & FG_TREE_FLAMECHART) && common < t->previous_length &&
	    (common == length || (unsigned char)stack[common] < (unsigned char)t->previous[common]) &&
	    build_index(t) != 0)
		return FG_ENOMEM;
	size_t shared = low, previous_depth = t->depth;
	if (shared < t->depth && t->frame_ends[shared] == common &&
	    (common == length || stack[common] == ';'))
		shared++; /* the frame ends where the difference starts */
	if (length == 0)
		shared = 0;
	t->depth = shared; /* until the new frames are all in */

	/*
	 * The new frames in three steps over all of them, each step's loads
	 * started (prefetched) before the next step needs them: a line's
	 * frames are independent until their nodes are linked, so their cache
	 * misses overlap instead of queueing. First where they end and their
	 * names' hashes (prefetching the names' slots); then the names' ids
	 * and the frames' path hashes (prefetching the child table's slots);
	 * then the nodes, one after the other. Steps that prefetched more (a
	 * name's entry and bytes, the node a slot points at) cost more than
	 * they saved, on every bench shape, 10M distinct names included: each
	 * had to load what the step before it prefetched, waiting on the same
	 * misses the walk would.
	 */
	size_t depth = shared;
	size_t start = shared ? t->frame_ends[shared - 1] + 1 : 0;
	while (length > 0 && start <= length) {
		uint64_t hash;
		size_t end = next_frame(stack, start, length, &hash);
		if (grow_path(t, depth) != 0)
			return FG_ENOMEM;
		__builtin_prefetch(name_slot(t, hash));
		t->path_hash[depth] = hash;
		t->frame_ends[depth] = end;
		depth++;
		start = end + 1;
	}
	uint64_t hash = shared ? t->path_hash[shared - 1] : ROOT_HASH;
	for (size_t d = shared; d < depth; d++) {
		size_t from = d ? t->frame_ends[d - 1] + 1 : 0;
		uint32_t name = intern_hashed(t, stack + from, t->frame_ends[d] - from, t->path_hash[d]);
		if (name == NO_NAME)
			return FG_ENOMEM;
		hash = path_hash(hash, name);
		if (t->slots != NULL)
			__builtin_prefetch(&t->slots[slot_of(t, hash)]);
		t->path_name[d] = name;
		t->path_hash[d] = hash;
	}
	/* Down the new frames, along the previous stack's nodes as long as
	 * they are the same. */
	fg_node_id at = shared ? t->path[shared - 1] : 0;
	bool along = true;
	for (size_t d = shared; d < depth; d++) {
		fg_node_id previous = along && d < previous_depth ? t->path[d] : FG_NODE_NONE;
		at = child(t, at, t->path_name[d], t->path_hash[d], previous);
		if (at == FG_NODE_NONE)
			return FG_ENOMEM;
		along = at == previous;
		t->path[d] = at;
	}
	if (fg_grow((void **)&t->previous, &t->previous_capacity, length + 1, 1) != 0)
		return FG_ENOMEM;
	fit_previous(t, length, depth);
	if (length > common) /* (stack may be NULL when empty) */
		memcpy(t->previous + common, stack + common, length - common); /* the rest is equal */
	t->previous_length = length;
	t->depth = depth;

	return count_line(t, at, count, before, total, total_before);
}

/* Grows a count array of `size` used entries to `capacity` (zeroed tail). */
static int grow_counts(void **array, size_t *capacity, size_t want, size_t element)
{
	if (*capacity >= want)
		return 0;
	void *grown = realloc(*array, want * element);
	if (grown == NULL)
		return FG_ENOMEM;
	memset((char *)grown + *capacity * element, 0, (want - *capacity) * element);
	*array = grown;
	*capacity = want;
	return 0;
}

#define MERGE_STEP 65536

/* Gives back the memory of from's nodes from `keep` on (already moved). */
static void shrink(fg_tree *from, size_t keep)
{
	realloc_down((void **)&from->nodes, &from->capacity, keep, sizeof(*from->nodes));
	realloc_down((void **)&from->links, &from->links_capacity, keep, sizeof(*from->links));
	if (from->whole != NULL)
		realloc_down((void **)&from->whole, &from->whole_capacity, keep, sizeof(*from->whole));
	if (from->narrow != NULL)
		realloc_down((void **)&from->narrow, &from->narrow_capacity, keep, sizeof(*from->narrow));
}

/* Gives back the memory of from's name bytes from `keep` on (copied). */
static void shrink_store(fg_tree *from, size_t keep)
{
	realloc_down((void **)&from->store, &from->store_capacity, keep > 0 ? keep : 1, 1);
	from->store_length = keep;
}

/* Gives back the memory of from's name entries from `keep` on. */
static void shrink_entries(fg_tree *from, size_t keep)
{
	if (from->names != NULL)
		realloc_down((void **)&from->names, &from->name_capacity, keep, sizeof(*from->names));
	else if (from->wide_names != NULL)
		realloc_down((void **)&from->wide_names, &from->name_capacity, keep, sizeof(*from->wide_names));
}

static inline size_t name_start(const fg_tree *t, size_t id)
{
	return t->names != NULL ? t->names[id] : t->wide_names[id];
}

bool fg_tree_can_map_names(const fg_tree *into, const fg_tree *from)
{
	return into->name_count <= FG_TREE_MAPPED_NAMES && from->name_count <= FG_TREE_MAPPED_NAMES &&
	       into->name_slots != NULL;
}

void fg_tree_map_names(const fg_tree *into, const fg_tree *from, uint32_t *map, size_t begin,
		       size_t end)
{
	for (size_t i = begin; i < end; i++) {
		size_t length, at;
		const char *name = fg_tree_name_bytes(from, (uint32_t)i, &length);
		map[i] = find_name(into, name, length, name_hash(name, length), &at);
	}
}

/* The ids the names of from that into lacks (NO_NAME in map) will have
 * once added (append_names), in map: into's next ids, in from's order. */
static int new_names(const fg_tree *into, const fg_tree *from, uint32_t *map, size_t *added)
{
	size_t next = into->name_count;
	for (size_t i = 0; i < from->name_count; i++)
		if (map[i] == NO_NAME) {
			if (next >= FG_HAS_CHILDREN - 1)
				return FG_ENOMEM;
			map[i] = (uint32_t)next++;
		}
	*added = next - into->name_count;
	return 0;
}

/*
 * from's names added to into's. Without a map, all of them, as they are:
 * from's name i is into's name into->name_count (before) + i, and a name
 * both trees have is then in into's store twice, under two ids (finished
 * trees compare names by their bytes; only fg_tree_add needs one id a
 * name). A copy, not a lookup a name (10M names: 1.7 s of 4), from the
 * last name down, giving back from's memory as it goes. With a map
 * (fg_tree_map_names, then new_names), only the names into does not have
 * (`added` of them), under the ids new_names gave them. 0 or FG_ENOMEM.
 */
static int append_names(fg_tree *into, fg_tree *from, uint32_t *map, size_t added)
{
	size_t base = into->store_length, count = into->name_count + added;
	size_t length = base + from->store_length;
	if (count >= FG_HAS_CHILDREN || length < base ||
	    fg_grow((void **)&into->store, &into->store_capacity, length, 1) != 0 ||
	    (into->names != NULL && length > into->narrow_limit && widen_names(into) != 0))
		return FG_ENOMEM;
	void **entries = into->names != NULL ? (void **)&into->names : (void **)&into->wide_names;
	size_t entry_size = into->names != NULL ? sizeof(*into->names) : sizeof(*into->wide_names);
	if (fg_grow(entries, &into->name_capacity, count + 1, entry_size) != 0)
		return FG_ENOMEM;
	if (map != NULL) {
		uint32_t first = (uint32_t)into->name_count; /* (new_names numbered from it) */
		for (size_t i = 0; i < from->name_count; i++) {
			if (map[i] < first)
				continue;
			size_t name_length;
			const char *name = fg_tree_name_bytes(from, (uint32_t)i, &name_length);
			store_name(into, name, name_length); /* (cannot fail: room made above) */
			into->name_count++; /* (map[i], as new_names said) */
		}
		return 0;
	}
	size_t end = from->store_length; /* of the bytes not yet copied */
	for (size_t i = from->name_count; i-- > 0;) {
		size_t at = into->name_count + i + 1; /* (the entry past name i) */
		if (into->names != NULL)
			into->names[at] = (uint32_t)(base + name_start(from, i + 1));
		else
			into->wide_names[at] = base + name_start(from, i + 1);
		if (i % MERGE_STEP == 0) {
			size_t start = name_start(from, i);
			memcpy(into->store + base + start, from->store + start, end - start);
			shrink_store(from, start);
			end = start;
			shrink_entries(from, i + 1); /* (name i's start is read next) */
		}
	}
	into->name_count = count;
	into->store_length = length;
	return 0;
}

/* Adds node from's counts to its sibling into's (own counts while
 * finishing, totals in a finished tree) and marks it merged. Cannot fail:
 * the counts' width holds the grand total, frac exists if needed. */
static void fold_counts(fg_tree *t, fg_node_id into, fg_node_id from)
{
	add_count(t, into, fg_node_total(t, from));
	if (t->before != NULL)
		fg_count_add(&t->before[into], t->before[from]);
	t->nodes[from].parent = FG_NODE_NONE; /* merged */
	t->merged++;
	clear_units(t, from);
	if (t->frac != NULL)
		t->frac[from] = 0;
}

/* Two sibling lists to merge into one (fg_tree_merge): into's list of
 * children of `parent`, and another from `first` on. */
typedef struct join {
	fg_node_id parent, first;
} join;

/*
 * Merges the list from j.first into parent's children, both in name
 * order: one walk of the two, as in a merge sort. A node of the other
 * list whose name parent's list has too is merged into that sibling, and
 * their two lists of children are then to be merged in turn (added to
 * *pending). 0 or FG_ENOMEM.
 */
static int join_lists(fg_tree *t, join j, join **pending, size_t *used, size_t *capacity)
{
	fg_node_id *link = &t->links[j.parent].first_child;
	fg_node_id x = *link, y = j.first;
	while (x != FG_NODE_NONE && y != FG_NODE_NONE) {
		int c = compare_names(t, FG_NAME_ID(&t->nodes[x]), FG_NAME_ID(&t->nodes[y]));
		fg_node_id next = t->links[y].next_sibling;
		if (c > 0) {
			t->nodes[y].parent = j.parent;
			*link = y;
			t->links[y].next_sibling = x;
			link = &t->links[y].next_sibling;
			y = next;
			continue;
		}
		if (c == 0) {
			if (fg_grow((void **)pending, capacity, *used + 1, sizeof(**pending)) != 0)
				return FG_ENOMEM;
			(*pending)[(*used)++] = (join){x, t->links[y].first_child};
			t->links[y].first_child = FG_NODE_NONE;
			fold_counts(t, x, y);
			y = next;
		}
		link = &t->links[x].next_sibling;
		x = *link;
	}
	if (y != FG_NODE_NONE)
		*link = y;
	for (; y != FG_NODE_NONE; y = t->links[y].next_sibling)
		t->nodes[y].parent = j.parent;
	return 0;
}

int fg_tree_merge(fg_tree *into, fg_tree *from, uint32_t *map)
{
	if (fg_tree_finish(into) != 0 || fg_tree_finish(from) != 0)
		return FG_ENOMEM;
	fg_count total = into->grand_total, total_before = into->grand_before;
	if (fg_count_add_inline(&total, from->grand_total) != 0 ||
	    fg_count_add_inline(&total_before, from->grand_before) != 0)
		return FG_ERANGE;
	size_t added = from->size - 1, size = into->size + added;
	/* Totals are summed below as they are: counts 64 bits wide when the
	 * sum of the grand totals needs them (as fg_tree_finish widens). */
	if (size >= FG_NODE_NONE ||
	    fg_grow((void **)&into->nodes, &into->capacity, size, sizeof(*into->nodes)) != 0 ||
	    (into->whole == NULL && (from->whole != NULL || total.whole > UINT32_MAX) &&
	     widen_counts(into) != 0))
		return FG_ENOMEM;
	/* (Grown in place, in room fg_grow reserved ahead: moving a block of
	 * huge pages costs far more than copying it.) */
	if (fg_grow((void **)&into->links, &into->links_capacity, size, sizeof(*into->links)) != 0)
		return FG_ENOMEM;
	if (into->whole != NULL
		    ? fg_grow((void **)&into->whole, &into->whole_capacity, size, sizeof(*into->whole)) != 0
		    : fg_grow((void **)&into->narrow, &into->narrow_capacity, size, sizeof(*into->narrow)) != 0)
		return FG_ENOMEM;
	if ((from->frac != NULL || into->frac != NULL) &&
	    grow_counts((void **)&into->frac, &into->frac_capacity, size, sizeof(*into->frac)) != 0)
		return FG_ENOMEM;
	if ((from->before != NULL || into->before != NULL) &&
	    grow_counts((void **)&into->before, &into->before_capacity, size, sizeof(*into->before)) != 0)
		return FG_ENOMEM;
	/* The names' ids are known before the nodes move; their bytes are
	 * copied after, once from's nodes have given their memory back. */
	uint32_t names = (uint32_t)into->name_count;
	size_t added_names = from->name_count;
	if (map != NULL && new_names(into, from, map, &added_names) != 0)
		return FG_ENOMEM;
	/* from's node i is into's i + offset (its root is into's root); from
	 * the last node down, giving back from's memory as it goes: the two
	 * trees never take much more room than the merged one. */
	fg_node_id offset = (fg_node_id)(into->size - 1);
#define MOVED(id) ((id) == FG_NODE_NONE ? FG_NODE_NONE : (id) + offset)
	for (size_t i = from->size - 1; i >= 1; i--) {
		fg_tree_node n = from->nodes[i];
		n.name = (map != NULL ? map[FG_NAME_ID(&n)] : FG_NAME_ID(&n) + names) |
			 (n.name & FG_NAME_FLAGS);
		if (n.parent != 0 && n.parent != FG_NODE_NONE)
			n.parent += offset;
		into->nodes[i + offset] = n;
		into->links[i + offset] = (fg_tree_links){MOVED(from->links[i].first_child),
							  MOVED(from->links[i].next_sibling)};
		if (into->whole != NULL)
			into->whole[i + offset] = fg_node_whole(from, (fg_node_id)i);
		else
			into->narrow[i + offset] = from->narrow[i];
		if (into->frac != NULL)
			into->frac[i + offset] = from->frac != NULL ? from->frac[i] : 0;
		if (into->before != NULL) /* (room past into->size is not zeroed) */
			into->before[i + offset] = from->before != NULL ? from->before[i]
								  : (fg_count){0, 0};
		if (i % MERGE_STEP == 0)
			shrink(from, i);
	}
	fg_node_id first = MOVED(from->links[0].first_child);
#undef MOVED
	if (append_names(into, from, map, added_names) != 0)
		return FG_ENOMEM;
	/* into's name table no longer has all of its names. */
	free_name_slots(into);
	add_count(into, 0, fg_node_total(from, 0)); /* cannot fail: see above; frac exists if needed */
	if (into->before != NULL && from->before != NULL)
		fg_count_add_inline(&into->before[0], from->before[0]);
	into->size = size;
	into->merged += from->merged;
	into->grand_total = total;
	into->grand_before = total_before;
	from->size = 1;
	/* from's first frames join into's root's, and so on down where the
	 * two trees have the same frames (the first few of a line only, when
	 * the threads' trees are merged: see graph_read.c). */
	join *pending = NULL;
	size_t used = 0, capacity = 0;
	int rc = join_lists(into, (join){0, first}, &pending, &used, &capacity);
	while (rc == 0 && used > 0)
		rc = join_lists(into, pending[--used], &pending, &used, &capacity);
	free(pending);
	return rc;
}

/* Merges node `from` into its sibling `into` of the same name (the one
 * with the lower id, so that children keep higher ids than parents). */
static void merge_nodes(fg_tree *t, fg_node_id into, fg_node_id from)
{
	fg_tree_links *a = &t->links[into], *b = &t->links[from];
	if (b->first_child != FG_NODE_NONE) {
		fg_node_id tail = b->first_child;
		for (fg_node_id c = b->first_child; c != FG_NODE_NONE; c = t->links[c].next_sibling) {
			t->nodes[c].parent = into;
			tail = c;
		}
		uint32_t *name = &t->nodes[into].name;
		if (a->first_child == FG_NODE_NONE) {
			*name = (*name & ~FG_CHILDREN_IN_ORDER) | (t->nodes[from].name & FG_CHILDREN_IN_ORDER);
		} else {
			t->links[tail].next_sibling = a->first_child;
			*name &= ~FG_CHILDREN_IN_ORDER; /* its children may now repeat */
		}
		a->first_child = b->first_child;
	}
	b->first_child = FG_NODE_NONE;
	fold_counts(t, into, from);
}

/*
 * Sorts the children of `parent` by name and merges the nodes of one name
 * into the one with the lowest id (children stay above their parents, and
 * each merged node's children are walked once). scratch: room for the
 * list, kept from one call to the next. Returns 0 or FG_ENOMEM (the list
 * is then left as it was).
 */
static int sort_children(fg_tree *t, fg_node_id parent, fg_sort_string **scratch,
			 size_t *capacity)
{
	/* A list may have come in order after all (children looked up in the
	 * child table count as in order only when first): one comparison a
	 * child then, instead of a sort. */
	fg_node_id at = t->links[parent].first_child, next;
	while ((next = t->links[at].next_sibling) != FG_NODE_NONE &&
	       compare_names(t, FG_NAME_ID(&t->nodes[at]), FG_NAME_ID(&t->nodes[next])) < 0)
		at = next;
	if (next == FG_NODE_NONE)
		return 0;
	size_t count = 0;
	for (fg_node_id c = t->links[parent].first_child; c != FG_NODE_NONE;
	     c = t->links[c].next_sibling) {
		if (fg_grow((void **)scratch, capacity, count + 1, sizeof(**scratch)) != 0)
			return FG_ENOMEM;
		size_t length;
		const char *bytes = fg_tree_name_bytes(t, FG_NAME_ID(&t->nodes[c]), &length);
		(*scratch)[count++] = (fg_sort_string){(const unsigned char *)bytes, (uint32_t)length, c};
	}
	fg_sort_string *items = *scratch;
	fg_sort_strings(items, count);
	fg_node_id *link = &t->links[parent].first_child;
	for (size_t i = 0, end; i < count; i = end) {
		uint32_t name = FG_NAME_ID(&t->nodes[items[i].id]);
		fg_node_id kept = items[i].id;
		for (end = i + 1; end < count && FG_NAME_ID(&t->nodes[items[end].id]) == name; end++)
			if (items[end].id < kept)
				kept = items[end].id;
		for (size_t j = i; j < end; j++)
			if (items[j].id != kept)
				merge_nodes(t, kept, items[j].id);
		*link = kept;
		link = &t->links[kept].next_sibling;
	}
	*link = FG_NODE_NONE;
	return 0;
}

#define WARM_MOST 16
static void warm_lists(const fg_tree *t, const fg_node_id *nodes, size_t count,
		       const void *per_child, size_t width);

/* Whether node id's children are to be sorted in fg_tree_finish. */
static bool needs_sorting(const fg_tree *t, size_t id)
{
	const fg_tree_node *n = &t->nodes[id];
	return !(n->name & FG_CHILDREN_IN_ORDER) && (id == 0 || n->parent != FG_NODE_NONE) &&
	       t->links[id].first_child != FG_NODE_NONE;
}

#define GIVE_BACK(array, used, capacity) \
	fg_give_back((array), (used) * sizeof(*(array)), (capacity) * sizeof(*(array)))
void fg_tree_give_back(fg_tree *t)
{
	GIVE_BACK(t->nodes, t->size, t->capacity);
	GIVE_BACK(t->links, t->size, t->links_capacity);
	if (t->whole != NULL)
		GIVE_BACK(t->whole, t->size, t->whole_capacity);
	else
		GIVE_BACK(t->narrow, t->size, t->narrow_capacity);
	if (t->frac != NULL)
		GIVE_BACK(t->frac, t->size, t->frac_capacity);
	if (t->before != NULL)
		GIVE_BACK(t->before, t->size, t->before_capacity);
	GIVE_BACK(t->store, t->store_length, t->store_capacity);
	if (t->names != NULL)
		GIVE_BACK(t->names, t->name_count + 1, t->name_capacity);
	else
		GIVE_BACK(t->wide_names, t->name_count + 1, t->name_capacity);
}
#undef GIVE_BACK

static int finish(fg_tree *t, bool keep_names)
{
	int rc = 0;
	if (t->finished)
		return 0;
	t->finished = true;
	free_child_slots(t);
	if (!keep_names || t->name_count > FG_TREE_MAPPED_NAMES)
		free_name_slots(t);
	/* No inclusive total is greater than the grand total. */
	if (widen_tiny(t) != 0 || (t->grand_total.whole > UINT32_MAX && widen_counts(t) != 0))
		return FG_ENOMEM;
	/* Every parent's list of children, in creation order (children come
	 * after their parents): in name order where they came in order, in
	 * input order in a flame chart. The others are sorted below. */
	if (fg_grow((void **)&t->links, &t->links_capacity, t->size, sizeof(*t->links)) != 0)
		return FG_ENOMEM;
	memset(t->links, 0xff, t->size * sizeof(*t->links)); /* FG_NODE_NONE */
	for (size_t id = t->size; id-- > 1;) {
		fg_tree_links *parent = &t->links[t->nodes[id].parent];
		t->links[id].next_sibling = parent->first_child;
		parent->first_child = (fg_node_id)id;
	}
	/*
	 * Sort the children of nodes whose children came out of order and
	 * merge siblings of the same name. Parents have lower ids than their
	 * children, so a node whose children a merge disordered is reached
	 * later in this loop.
	 */
	fg_sort_string *scratch = NULL;
	size_t scratch_capacity = 0, warmed = 0; /* ids below `warmed` were looked ahead at */
	if (!(t->flags & FG_TREE_FLAMECHART))
		for (size_t id = 0; id < t->size; id++) {
			if (!needs_sorting(t, id))
				continue;
			/* This one's list and those of the next few to sort, walked
			 * side by side (warm_lists), their nodes (names) prefetched. */
			if (id >= warmed) {
				fg_node_id ahead[WARM_MOST];
				size_t count = 0;
				for (warmed = id; warmed < t->size && count < WARM_MOST; warmed++)
					if (needs_sorting(t, warmed))
						ahead[count++] = (fg_node_id)warmed;
				warm_lists(t, ahead, count, t->nodes, sizeof(*t->nodes));
			}
			if (sort_children(t, (fg_node_id)id, &scratch, &scratch_capacity) != 0) {
				rc = FG_ENOMEM; /* the children stay unsorted: not to be drawn */
				break;
			}
		}
	free(scratch);
	/* Inclusive totals: children (higher ids) first. */
	for (size_t id = t->size; id-- > 1;) {
		fg_node_id parent = t->nodes[id].parent;
		if (parent == FG_NODE_NONE)
			continue; /* merged */
		if (t->frac != NULL) {
			uint64_t f = t->frac[parent] + t->frac[id];
			if (f >= FG_COUNT_FRAC_ONE) {
				f -= FG_COUNT_FRAC_ONE;
				add_units(t, parent, 1);
			}
			t->frac[parent] = f;
		}
		add_units(t, parent, fg_node_whole(t, id)); /* (cannot widen: see above) */
		if (t->before != NULL)
			fg_count_add_inline(&t->before[parent], t->before[id]);
	}
	/* The previous-stack state is no longer needed. */
	free(t->previous);
	t->previous = NULL;
	t->previous_length = 0;
	t->depth = 0;
	return rc;
}

int fg_tree_finish(fg_tree *t)
{
	return finish(t, false);
}

int fg_tree_finish_keeping_names(fg_tree *t)
{
	return finish(t, true);
}

void fg_tree_drop_names(fg_tree *t)
{
	free_name_slots(t);
}

/* The children of nodes[0..count) (at most WARM_MOST) loaded into the
 * cache (fg_tree_warm_stack), prefetching for each child the `width`
 * bytes at `per_child` + its id * width. */
static void warm_lists(const fg_tree *t, const fg_node_id *nodes, size_t count,
		       const void *per_child, size_t width)
{
	fg_node_id at[WARM_MOST];
	size_t lanes = 0;
	for (size_t i = 0; i < count && i < WARM_MOST; i++)
		if ((at[lanes] = t->links[nodes[i]].first_child) != FG_NODE_NONE)
			lanes++;
	while (lanes > 0)
		for (size_t k = 0; k < lanes;) {
			__builtin_prefetch((const char *)per_child + (size_t)at[k] * width);
			if ((at[k] = t->links[at[k]].next_sibling) == FG_NODE_NONE)
				at[k] = at[--lanes];
			else
				k++;
		}
}

/* warm_lists, prefetching the children's counts. */
static void warm_counted(const fg_tree *t, const fg_node_id *nodes, size_t count)
{
	if (t->whole != NULL)
		warm_lists(t, nodes, count, t->whole, sizeof(*t->whole));
	else
		warm_lists(t, nodes, count, t->narrow, sizeof(*t->narrow));
}

void fg_tree_warm_stack(const fg_tree *t, void *stack, size_t used, size_t stride,
			size_t node_at, size_t warmed_at)
{
	/* Entries looked at, at most; lists warmed and not yet visited that
	 * are enough to wait for (a new batch would find few lanes). */
	enum { LOOK = 64, READY = WARM_MOST / 2 };
	fg_node_id nodes[WARM_MOST];
	size_t count = 0, ready = 0;
	for (size_t i = used; i-- > 0 && used - i <= LOOK && count < WARM_MOST;) {
		unsigned char *entry = (unsigned char *)stack + i * stride;
		uint8_t state = entry[warmed_at];
		if (state == FG_WARMED_LEAF)
			continue;
		if (state == FG_WARMED_LIST) {
			if (count == 0 && ++ready >= READY)
				return;
			continue;
		}
		fg_node_id node;
		memcpy(&node, entry + node_at, sizeof(node));
		if (t->links[node].first_child == FG_NODE_NONE) {
			entry[warmed_at] = FG_WARMED_LEAF;
		} else {
			entry[warmed_at] = FG_WARMED_LIST;
			nodes[count++] = node;
		}
	}
	warm_counted(t, nodes, count);
}

size_t fg_tree_warm_queue(const fg_tree *t, const void *queue, size_t used, size_t stride,
			  size_t node_at, size_t from)
{
	fg_node_id nodes[WARM_MOST];
	size_t count = 0;
	for (; from < used && count < WARM_MOST; from++) {
		memcpy(&nodes[count], (const unsigned char *)queue + from * stride + node_at,
		       sizeof(*nodes));
		fg_node_prefetch_total(t, nodes[count++]);
	}
	warm_counted(t, nodes, count);
	return from;
}

size_t fg_tree_size(const fg_tree *t) { return t->size; }
bool fg_tree_is_differential(const fg_tree *t) { return t->before != NULL; }
fg_node_id fg_tree_first_child(const fg_tree *t, fg_node_id n) { return t->links[n].first_child; }
fg_node_id fg_tree_next_sibling(const fg_tree *t, fg_node_id n) { return t->links[n].next_sibling; }
fg_node_id fg_tree_parent(const fg_tree *t, fg_node_id n) { return t->nodes[n].parent; }
fg_count fg_tree_total(const fg_tree *t, fg_node_id n) { return fg_node_total(t, n); }

const char *fg_tree_name(const fg_tree *t, fg_node_id n, size_t *length)
{
	return fg_tree_name_bytes(t, FG_NAME_ID(&t->nodes[n]), length);
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
