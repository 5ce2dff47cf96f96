/*
 * strmap.h - a map from byte strings to 64-bit values: one hash table for
 * every "name -> something" lookup the library keeps (palette.map and
 * --nameattr names, the SVG's entity dictionary, the view data's name ids,
 * perf's frame ids). Internal to libfolded.
 *
 * Invariants:
 * - Keys are any bytes (NUL included), compared bytewise. Each is copied
 *   once, when added, into the map's arena; entry->key stays valid, and
 *   unchanged, until fg_string_map_free.
 * - Entries are numbered 0 .. size-1 in the order they were added; the
 *   number never changes (fg_string_map_at, fg_string_map_index), so it can
 *   serve as a dense id.
 * - An entry's value is the caller's: 0 when added, then whatever the
 *   caller stores. The map never reads it.
 * - Entry pointers are valid until the next fg_string_map_add (which may
 *   move the entries); keys and numbers are not affected.
 * - Out of memory leaves the map as it was.
 *
 * Open addressing (linear probing, at most half full) over entry numbers,
 * with each entry's hash kept so that growing never rehashes a key.
 */
#ifndef FG_STRMAP_H
#define FG_STRMAP_H

#include "internal.h"

typedef struct fg_string_entry {
	const char *key;   /* the map's copy; not NUL-terminated */
	size_t length;
	uint64_t value;    /* the caller's */
} fg_string_entry;

typedef struct fg_string_map fg_string_map;

/* An empty map; NULL when out of memory. */
fg_string_map *fg_string_map_new(void);
/* Frees the map and its keys; NULL is allowed. */
void fg_string_map_free(fg_string_map *m);

/* The number of entries. */
size_t fg_string_map_size(const fg_string_map *m);

/* The entry of key, or NULL when there is none. */
const fg_string_entry *fg_string_map_find(const fg_string_map *m, const char *key,
					  size_t length);

/* The entry of key, added with value 0 when new (*added, which may be
 * NULL, says which); NULL when out of memory (the map is unchanged). */
fg_string_entry *fg_string_map_add(fg_string_map *m, const char *key, size_t length,
				   bool *added);

/* Entry number i (i < size), and the number of an entry. */
fg_string_entry *fg_string_map_at(fg_string_map *m, size_t i);
const fg_string_entry *fg_string_map_get(const fg_string_map *m, size_t i);
size_t fg_string_map_index(const fg_string_map *m, const fg_string_entry *e);

/* Pointers to every entry, sorted by key bytewise (a shorter key before a
 * longer one it starts); the caller frees the array. NULL when out of
 * memory, and for an empty map an allocation of one pointer. */
fg_string_entry **fg_string_map_sorted(fg_string_map *m);
/* The same for the entries that keep(entry) holds true of only (entry: a
 * const fg_string_entry *), *kept of them. */
fg_string_entry **fg_string_map_sorted_where(fg_string_map *m, bool (*keep)(const void *entry),
					     size_t *kept);

#endif
