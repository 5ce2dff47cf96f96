/*
 * strsort.h - sorting byte strings (frame names) in bytewise order, and
 * records by a 32-bit key. Internal to libfolded.
 *
 * Frame names share long prefixes ("std::__1::basic_string<...",
 * "sched::freeCopy565"), so a comparison sort spends most of its time
 * re-reading the same leading bytes of two names that are both far out
 * of cache. fg_sort_strings is a multikey quicksort (Bentley and
 * Sedgewick): it partitions by one byte at a time and never looks at a
 * byte position twice for the same group, so sorting n names costs about
 * n log n byte reads plus the length of their distinguishing prefixes.
 */
#ifndef FG_STRSORT_H
#define FG_STRSORT_H

#include "internal.h"

/* A string to sort and what it stands for (an id, an index). */
typedef struct fg_sort_string {
	const unsigned char *bytes;
	uint32_t length;
	uint32_t id;
} fg_sort_string;

/*
 * Sorts items by their bytes, unsigned and bytewise, a proper prefix
 * before its extensions ("a" < "a\0" < "ab"). Items with equal bytes end
 * up next to each other in no particular order. Needs no memory; its
 * recursion is bounded (past a depth it hands the rest to qsort).
 */
void fg_sort_strings(fg_sort_string *items, size_t count);

/*
 * Pointers to the count records at base (each `size` bytes apart), in
 * bytewise order of the string each holds: a const char * at byte offset
 * bytes_at of the record, its length (a size_t) at length_at. Records
 * with equal strings end up next to each other in no particular order.
 * The array (of count pointers, or one when count is 0) is the caller's
 * to free; NULL when out of memory. Takes 16 bytes a record while sorting.
 */
const void **fg_sort_records(const void *base, size_t count, size_t size, size_t bytes_at,
			     size_t length_at);
/* The same for the records that keep(record) holds true of only (all when
 * keep is NULL), *kept of them. */
const void **fg_sort_records_where(const void *base, size_t count, size_t size, size_t bytes_at,
				   size_t length_at, bool (*keep)(const void *record), size_t *kept);

/*
 * Writes to order[0..count) the indices 0..count-1 in increasing order of
 * keys[index], equal keys in index order (a stable sort): a radix sort a
 * byte at a time, skipping the bytes every key shares. Returns 0, or
 * FG_ENOMEM (order then undefined).
 */
int fg_sort_by_key(const uint32_t *keys, size_t count, uint32_t *order);

/*
 * Puts the count records at base (each `size` bytes) in that order: by
 * keys[i], record i's key, equal keys keeping their order. Returns 0, or
 * FG_ENOMEM (the records then as they were).
 */
int fg_sort_records_by_key(void *base, size_t count, size_t size, const uint32_t *keys);

/*
 * Puts the count records at base (each `size` bytes) in decreasing order
 * of a count, count_of(record), equal counts keeping their order: by
 * fg_sort_records_by_key while every count fits 32 bits, else by qsort
 * with `compare`, which must give the same order. Returns 0, or
 * FG_ENOMEM (the records then as they were).
 */
int fg_sort_records_by_count(void *base, size_t count, size_t size,
			     uint64_t (*count_of)(const void *record),
			     int (*compare)(const void *, const void *));

#endif
