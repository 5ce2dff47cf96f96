/*
 * strsort.c - see strsort.h: a multikey quicksort of byte strings, and a
 * stable radix sort of indices by a 32-bit key (fg_sort_by_key, at the end).
 *
 * Each step looks at the byte at one position (`depth`) of every string
 * in a range and splits the range three ways around a pivot byte: less,
 * equal, greater. The less and greater parts are sorted at the same
 * depth, the equal part at the next one (strings that end there, byte
 * -1, are equal and done). Small ranges are finished by insertion sort
 * from the current depth.
 */
#include <stdlib.h>

#include "strsort.h"

/* Past this many nested calls the rest goes to qsort: a stack of any
 * size is enough whatever the input. */
#ifndef MAX_NESTING /* (tests set a small one) */
#define MAX_NESTING 256
#endif
#define SMALL 12

/* The byte at depth, or -1 past the end (an end sorts first). */
static inline int byte_at(const fg_sort_string *s, size_t depth)
{
	return depth < s->length ? s->bytes[depth] : -1;
}

/* x and y, known equal before depth, compared from there on. */
static int compare_from(const fg_sort_string *x, const fg_sort_string *y, size_t depth)
{
	size_t common = x->length < y->length ? x->length : y->length;
	if (depth < common) {
		int c = memcmp(x->bytes + depth, y->bytes + depth, common - depth);
		if (c != 0)
			return c;
	}
	return (x->length > y->length) - (x->length < y->length);
}

static int compare_whole(const void *a, const void *b)
{
	return compare_from(a, b, 0);
}

static void insertion_sort(fg_sort_string *a, size_t n, size_t depth)
{
	for (size_t i = 1; i < n; i++) {
		fg_sort_string item = a[i];
		size_t j = i;
		for (; j > 0 && compare_from(&a[j - 1], &item, depth) > 0; j--)
			a[j] = a[j - 1];
		a[j] = item;
	}
}

static inline void swap(fg_sort_string *a, size_t i, size_t j)
{
	fg_sort_string t = a[i];
	a[i] = a[j];
	a[j] = t;
}

static inline int median3(int a, int b, int c)
{
	if (a < b)
		return b < c ? b : a < c ? c : a;
	return a < c ? a : b < c ? c : b;
}

/* How far the n strings of a, equal before depth, stay equal. Each string
 * is read in order, a word at a time: stacks and names share long
 * prefixes, which a byte of every string per step would read at random. */
static size_t common_depth(const fg_sort_string *a, size_t n, size_t depth)
{
	size_t end = a[0].length;
	for (size_t k = 1; k < n && end > depth; k++) {
		size_t limit = a[k].length < end ? a[k].length : end, j = depth;
		while (j + 8 <= limit && memcmp(a[k].bytes + j, a[0].bytes + j, 8) == 0)
			j += 8;
		while (j < limit && a[k].bytes[j] == a[0].bytes[j])
			j++;
		end = j;
	}
	return end > depth ? end : depth;
}

static void sort_from(fg_sort_string *a, size_t n, size_t depth, int nesting)
{
	while (n > SMALL) {
		if (nesting >= MAX_NESTING) {
			qsort(a, n, sizeof(*a), compare_whole); /* equal before depth: same order */
			return;
		}
		int pivot = median3(byte_at(&a[0], depth), byte_at(&a[n / 2], depth),
				    byte_at(&a[n - 1], depth));
		size_t less = 0, i = 0, greater = n;
		while (i < greater) {
			int c = byte_at(&a[i], depth);
			if (c < pivot)
				swap(a, less++, i++);
			else if (c > pivot)
				swap(a, i, --greater);
			else
				i++;
		}
		sort_from(a, less, depth, nesting + 1);
		sort_from(a + greater, n - greater, depth, nesting + 1);
		if (pivot < 0)
			return; /* the equal part ended here: all the same string */
		bool all_equal = less == 0 && greater == n;
		a += less;
		n = greater - less;
		depth++;
		if (all_equal) /* perhaps a long shared prefix: skip it at once */
			depth = common_depth(a, n, depth);
	}
	insertion_sort(a, n, depth);
}

void fg_sort_strings(fg_sort_string *items, size_t count)
{
	sort_from(items, count, 0, 0);
}

typedef struct record_layout {
	size_t bytes_at, length_at;
} record_layout;

static void record_key(const void *record, const record_layout *layout, const char **bytes,
		       size_t *length)
{
	memcpy(bytes, (const char *)record + layout->bytes_at, sizeof(*bytes));
	memcpy(length, (const char *)record + layout->length_at, sizeof(*length));
}

static int compare_records(const void *a, const void *b, void *layout)
{
	const char *x, *y;
	size_t x_length, y_length;
	record_key(*(const void *const *)a, layout, &x, &x_length);
	record_key(*(const void *const *)b, layout, &y, &y_length);
	int c = memcmp(x, y, x_length < y_length ? x_length : y_length);
	return c ? c : (x_length > y_length) - (x_length < y_length);
}

const void **fg_sort_records(const void *base, size_t count, size_t size, size_t bytes_at,
			     size_t length_at)
{
	size_t kept;
	return fg_sort_records_where(base, count, size, bytes_at, length_at, NULL, &kept);
}

const void **fg_sort_records_where(const void *base, size_t count, size_t size, size_t bytes_at,
				   size_t length_at, bool (*keep)(const void *record), size_t *kept)
{
	record_layout layout = {bytes_at, length_at};
	fg_sort_string *items = malloc((count ? count : 1) * sizeof(*items));
	if (items == NULL)
		return NULL;
	size_t n = 0;
	bool short_keys = count <= UINT32_MAX;
	for (size_t i = 0; i < count && short_keys; i++) {
		const char *record = (const char *)base + i * size;
		if (keep != NULL && !keep(record))
			continue;
		const char *bytes;
		size_t length;
		record_key(record, &layout, &bytes, &length);
		short_keys = length <= UINT32_MAX;
		items[n++] = (fg_sort_string){(const unsigned char *)bytes, (uint32_t)length, (uint32_t)i};
	}
	/* The pointers are written over the items, the i-th over the first
	 * half of item i / 2, which is read by then. */
	const void **sorted = (const void **)(void *)items;
	if (short_keys) {
		fg_sort_strings(items, n);
		for (size_t i = 0; i < n; i++) {
			const void *record = (const char *)base + items[i].id * size;
			memcpy(&sorted[i], &record, sizeof(record));
		}
	} else {
		n = 0;
		for (size_t i = 0; i < count; i++)
			if (keep == NULL || keep((const char *)base + i * size))
				sorted[n++] = (const char *)base + i * size;
		qsort_r(sorted, n, sizeof(*sorted), compare_records, &layout);
	}
	*kept = n;
	const void **smaller = realloc(sorted, (n ? n : 1) * sizeof(*sorted));
	return smaller != NULL ? smaller : sorted;
}

int fg_sort_by_key(const uint32_t *keys, size_t count, uint32_t *order)
{
	uint32_t *other = malloc((count ? count : 1) * sizeof(*other));
	if (other == NULL)
		return FG_ENOMEM;
	uint32_t all_or = 0, all_and = UINT32_MAX;
	for (size_t i = 0; i < count; i++) {
		order[i] = (uint32_t)i;
		all_or |= keys[i];
		all_and &= keys[i];
	}
	uint32_t *from = order, *to = other;
	for (unsigned shift = 0; shift < 32; shift += 8) {
		if (((all_or ^ all_and) >> shift & 0xff) == 0)
			continue; /* the same byte in every key */
		size_t start[257] = {0};
		for (size_t i = 0; i < count; i++)
			start[(keys[from[i]] >> shift & 0xff) + 1]++;
		for (size_t b = 1; b <= 256; b++)
			start[b] += start[b - 1];
		for (size_t i = 0; i < count; i++)
			to[start[keys[from[i]] >> shift & 0xff]++] = from[i];
		uint32_t *swap = from;
		from = to;
		to = swap;
	}
	if (from != order)
		memcpy(order, from, count * sizeof(*order));
	free(other);
	return 0;
}

/*
 * The records put in the order fg_sort_by_key found (record i gets the
 * one at order[i]) in place, one cycle of the permutation after another,
 * not through a copy of them all (1M frames of the SVG writer's: 48 MB).
 * A place filled is marked in order as its own.
 */
int fg_sort_records_by_key(void *base, size_t count, size_t size, const uint32_t *keys)
{
	if (count < 2)
		return 0; /* in order (base may be NULL when count is 0) */
	uint32_t *order = malloc(count * sizeof(*order));
	char *held = malloc(size);
	int rc = order == NULL || held == NULL ? FG_ENOMEM : fg_sort_by_key(keys, count, order);
	for (size_t i = 0; rc == 0 && i < count; i++) {
		if (order[i] == i)
			continue;
		memcpy(held, (char *)base + i * size, size);
		size_t at = i;
		while (order[at] != i) {
			size_t from = order[at];
			memcpy((char *)base + at * size, (char *)base + from * size, size);
			order[at] = (uint32_t)at;
			at = from;
		}
		memcpy((char *)base + at * size, held, size);
		order[at] = (uint32_t)at;
	}
	free(order);
	free(held);
	return rc;
}

int fg_sort_records_by_count(void *base, size_t count, size_t size,
			     uint64_t (*count_of)(const void *record),
			     int (*compare)(const void *, const void *))
{
	uint64_t most = 0;
	for (size_t i = 0; i < count; i++) {
		uint64_t c = count_of((const char *)base + i * size);
		most = c > most ? c : most;
	}
	if (most > UINT32_MAX) {
		qsort(base, count, size, compare);
		return 0;
	}
	uint32_t *keys = malloc((count ? count : 1) * sizeof(*keys));
	if (keys == NULL)
		return FG_ENOMEM;
	for (size_t i = 0; i < count; i++) /* (most first) */
		keys[i] = UINT32_MAX - (uint32_t)count_of((const char *)base + i * size);
	int rc = fg_sort_records_by_key(base, count, size, keys);
	free(keys);
	return rc;
}
