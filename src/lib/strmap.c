/*
 * strmap.c - the string map (strmap.h): byte strings to 64-bit values.
 *
 * Small and general on purpose: the collapsers' hot table of stacks is
 * stacks.c, the frame tree interns its names itself (tree.c); this one
 * serves the tables that are keyed by a name and hold a number or an
 * index, where a second copy of a hash table would otherwise grow.
 */
#include <stddef.h>
#include <stdlib.h>

#include "strmap.h"
#include "strsort.h"

struct fg_string_map {
	fg_arena arena;          /* the keys */
	fg_string_entry *entries;
	uint64_t *hashes;        /* of each entry's key */
	size_t size, capacity, hash_capacity;
	uint32_t *slots;         /* entry number + 1, and a tag (make_slot); 0 = empty */
	size_t slot_mask;        /* number of slots - 1 */
};

fg_string_map *fg_string_map_new(void)
{
	fg_hash_seed_ready();
	fg_string_map *m = calloc(1, sizeof(*m));
	if (m == NULL)
		return NULL;
	fg_arena_init(&m->arena);
	m->slot_mask = 63;
	if ((m->slots = calloc(m->slot_mask + 1, sizeof(*m->slots))) == NULL) {
		free(m);
		return NULL;
	}
	return m;
}

void fg_string_map_free(fg_string_map *m)
{
	if (m == NULL)
		return;
	fg_arena_free(&m->arena);
	free(m->entries);
	free(m->hashes);
	free(m->slots);
	free(m);
}

size_t fg_string_map_size(const fg_string_map *m) { return m->size; }

fg_string_entry *fg_string_map_at(fg_string_map *m, size_t i) { return &m->entries[i]; }

const fg_string_entry *fg_string_map_get(const fg_string_map *m, size_t i)
{
	return &m->entries[i];
}

size_t fg_string_map_index(const fg_string_map *m, const fg_string_entry *e)
{
	return (size_t)(e - m->entries);
}

/*
 * A slot holds an entry's number + 1 in the bits of slot_mask (the table,
 * at most half full, has room for every number there) and, above them,
 * the same bits of its key's hash: most probes that would not match (a
 * lookup of a key the map lacks: most of the view data's names, in the
 * entity dictionary) are told so by the slot alone, without loading the
 * entry or its hash.
 */
static inline uint32_t make_slot(uint64_t hash, size_t mask, size_t number)
{
	return ((uint32_t)(hash >> 32) & ~(uint32_t)mask) | (uint32_t)(number + 1);
}

/* The entry number in a slot (not 0). */
static inline size_t slot_number(uint32_t slot, size_t mask)
{
	return (size_t)(slot & (uint32_t)mask) - 1;
}

/* The slot holding key, or the empty slot where it would go. */
static size_t probe(const fg_string_map *m, const char *key, size_t length, uint64_t hash)
{
	uint32_t tag = (uint32_t)(hash >> 32) & ~(uint32_t)m->slot_mask;
	size_t at = hash & m->slot_mask;
	for (uint32_t slot; (slot = m->slots[at]) != 0; at = (at + 1) & m->slot_mask) {
		if ((slot & ~(uint32_t)m->slot_mask) != tag)
			continue;
		size_t number = slot_number(slot, m->slot_mask);
		const fg_string_entry *e = &m->entries[number];
		if (m->hashes[number] == hash && e->length == length &&
		    memcmp(e->key, key, length) == 0)
			break;
	}
	return at;
}

static int grow_slots(fg_string_map *m)
{
	size_t mask = m->slot_mask * 2 + 1;
	uint32_t *slots = calloc(mask + 1, sizeof(*slots));
	if (slots == NULL)
		return FG_ENOMEM;
	for (size_t i = 0; i < m->size; i++) {
		size_t at = m->hashes[i] & mask;
		while (slots[at] != 0)
			at = (at + 1) & mask;
		slots[at] = make_slot(m->hashes[i], mask, i);
	}
	free(m->slots);
	m->slots = slots;
	m->slot_mask = mask;
	return 0;
}

const fg_string_entry *fg_string_map_find(const fg_string_map *m, const char *key,
					  size_t length)
{
	size_t at = probe(m, key, length, fg_hash_bytes(key, length));
	return m->slots[at] != 0 ? &m->entries[slot_number(m->slots[at], m->slot_mask)] : NULL;
}

fg_string_entry *fg_string_map_add(fg_string_map *m, const char *key, size_t length,
				   bool *added)
{
	uint64_t hash = fg_hash_bytes(key, length);
	size_t at = probe(m, key, length, hash);
	if (added != NULL)
		*added = false;
	if (m->slots[at] != 0)
		return &m->entries[slot_number(m->slots[at], m->slot_mask)];
	if (m->size >= UINT32_MAX - 1)
		return NULL;
	if ((m->size + 1) * 2 > m->slot_mask) {
		if (grow_slots(m) != 0)
			return NULL;
		at = probe(m, key, length, hash);
	}
	if (fg_grow((void **)&m->entries, &m->capacity, m->size + 1, sizeof(*m->entries)) != 0 ||
	    fg_grow((void **)&m->hashes, &m->hash_capacity, m->size + 1, sizeof(*m->hashes)) != 0)
		return NULL;
	const char *copy = fg_arena_copy(&m->arena, key, length);
	if (copy == NULL)
		return NULL;
	fg_string_entry *e = &m->entries[m->size];
	*e = (fg_string_entry){copy, length, 0};
	m->hashes[m->size] = hash;
	m->slots[at] = make_slot(hash, m->slot_mask, m->size);
	m->size++;
	if (added != NULL)
		*added = true;
	return e;
}

fg_string_entry **fg_string_map_sorted(fg_string_map *m)
{
	size_t kept;
	return fg_string_map_sorted_where(m, NULL, &kept);
}

fg_string_entry **fg_string_map_sorted_where(fg_string_map *m, bool (*keep)(const void *entry),
					     size_t *kept)
{
	return (fg_string_entry **)fg_sort_records_where(m->entries, m->size, sizeof(*m->entries),
							 offsetof(fg_string_entry, key),
							 offsetof(fg_string_entry, length), keep, kept);
}
