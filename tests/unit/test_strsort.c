/*
 * test_strsort.c - unit tests of strsort.c against a model: qsort with a
 * plain bytewise comparison. Random sets of strings over small alphabets
 * (NUL and 0xff included), shared prefixes, duplicates and empty strings,
 * small and large; the same with the nesting limit at 2, so that the
 * qsort hand-over is exercised too (strsort.c is included here with a
 * smaller MAX_NESTING).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_NESTING 2
#define fg_sort_strings fg_sort_strings_shallow
#define fg_sort_by_key fg_sort_by_key_unused
#define fg_sort_records fg_sort_records_shallow
#define fg_sort_records_where fg_sort_records_where_shallow
#define fg_sort_records_by_key fg_sort_records_by_key_unused
#define fg_sort_records_by_count fg_sort_records_by_count_unused
#include "../../src/lib/strsort.c"
#undef fg_sort_records_by_count
#undef fg_sort_strings
#undef fg_sort_by_key
#undef fg_sort_records
#undef fg_sort_records_where
#undef fg_sort_records_by_key
int fg_sort_records_by_key(void *base, size_t count, size_t size, const uint32_t *keys); /* the library's */
int fg_sort_by_key(const uint32_t *keys, size_t count, uint32_t *order); /* the library's */
void fg_sort_strings(fg_sort_string *items, size_t count); /* the library's */
const void **fg_sort_records(const void *base, size_t count, size_t size, size_t bytes_at,
			     size_t length_at); /* the library's */
int fg_sort_records_by_count(void *base, size_t count, size_t size,
			     uint64_t (*count_of)(const void *record),
			     int (*compare)(const void *, const void *)); /* the library's */
const void **fg_sort_records_where(const void *base, size_t count, size_t size, size_t bytes_at,
				   size_t length_at, bool (*keep)(const void *record),
				   size_t *kept); /* the library's */

#include "check.h"

static int model_compare(const void *a, const void *b)
{
	const fg_sort_string *x = a, *y = b;
	size_t common = x->length < y->length ? x->length : y->length;
	int c = common ? memcmp(x->bytes, y->bytes, common) : 0;
	return c ? c : (x->length > y->length) - (x->length < y->length);
}

/* A random string: a shared prefix of random length, then random bytes
 * from an alphabet of `letters` (byte values spread over 0..255). */
static size_t random_string(unsigned char *out, const unsigned char *prefix, size_t prefix_length,
			    unsigned letters, size_t most)
{
	size_t length = (size_t)lrand48() % (most + 1), shared = (size_t)lrand48() % (prefix_length + 1);
	if (shared > length)
		shared = length;
	memcpy(out, prefix, shared);
	for (size_t i = shared; i < length; i++) {
		unsigned letter = (unsigned)lrand48() % letters;
		out[i] = (unsigned char)(letters > 1 ? letter * 255 / (letters - 1) : 0);
	}
	return length;
}

/* Sorts one random set both ways; true when the orders' bytes agree. */
static bool one_set(size_t count, unsigned letters, size_t most, bool shallow)
{
	unsigned char *store = malloc(count * most + 1), prefix[64];
	fg_sort_string *ours = malloc((count + 1) * sizeof(*ours)), *model = malloc((count + 1) * sizeof(*model));
	for (size_t i = 0; i < sizeof(prefix); i++)
		prefix[i] = (unsigned char)(lrand48() % 3 ? 'a' + i % 5 : 0);
	for (size_t i = 0; i < count; i++) {
		unsigned char *s = store + i * most;
		size_t length;
		if (i > 0 && lrand48() % 10 == 0) { /* a duplicate */
			length = ours[i - 1].length;
			memcpy(s, ours[i - 1].bytes, length);
		} else {
			length = random_string(s, prefix, sizeof(prefix) < most ? sizeof(prefix) : most, letters, most);
		}
		ours[i] = model[i] = (fg_sort_string){s, (uint32_t)length, (uint32_t)i};
	}
	if (shallow)
		fg_sort_strings_shallow(ours, count);
	else
		fg_sort_strings(ours, count);
	qsort(model, count, sizeof(*model), model_compare);
	bool same = true;
	bool *seen = calloc(count + 1, 1);
	for (size_t i = 0; i < count && same; i++) {
		same = model_compare(&ours[i], &model[i]) == 0 && ours[i].id < count && !seen[ours[i].id];
		if (same)
			seen[ours[i].id] = true;
	}
	free(seen);
	free(store);
	free(ours);
	free(model);
	return same;
}

/* Strings that share a long prefix (the sort skips it in one step), some
 * ending inside it, some leaving it at a random byte. */
static bool one_long_prefix_set(size_t count, bool shallow)
{
	enum { LONG = 3000 };
	unsigned char *store = malloc(count * (LONG + 8)), prefix[LONG];
	for (size_t i = 0; i < LONG; i++)
		prefix[i] = (unsigned char)(";fabc"[i % 5]);
	fg_sort_string *ours = malloc((count + 1) * sizeof(*ours)), *model = malloc((count + 1) * sizeof(*model));
	for (size_t i = 0; i < count; i++) {
		unsigned char *str = store + i * (LONG + 8);
		size_t length = LONG + (size_t)lrand48() % 8;
		memcpy(str, prefix, LONG);
		for (size_t j = LONG; j < length; j++)
			str[j] = (unsigned char)lrand48();
		if (lrand48() % 8 == 0)
			length = (size_t)lrand48() % (LONG + 1); /* ends inside the prefix */
		else if (lrand48() % 8 == 0)
			str[(size_t)lrand48() % LONG] ^= 1; /* leaves it early */
		ours[i] = model[i] = (fg_sort_string){str, (uint32_t)length, (uint32_t)i};
	}
	(shallow ? fg_sort_strings_shallow : fg_sort_strings)(ours, count);
	qsort(model, count, sizeof(*model), model_compare);
	bool same = true;
	for (size_t i = 0; i < count && same; i++)
		same = model_compare(&ours[i], &model[i]) == 0;
	free(store);
	free(ours);
	free(model);
	return same;
}

/* fg_sort_by_key against qsort on (key, index): stable, ascending. */
static int model_key_compare(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static bool one_key_set(size_t count, uint32_t spread)
{
	uint32_t *keys = malloc((count + 1) * sizeof(*keys)), *order = malloc((count + 1) * sizeof(*order));
	uint64_t *model = malloc((count + 1) * sizeof(*model)); /* key << 32 | index */
	uint32_t high = (uint32_t)lrand48() << 8; /* bytes shared by every key, sometimes */
	for (size_t i = 0; i < count; i++) {
		keys[i] = spread ? (uint32_t)lrand48() % spread : (uint32_t)lrand48() ^ (uint32_t)lrand48() << 16;
		if (spread && spread < 256)
			keys[i] |= high;
		model[i] = (uint64_t)keys[i] << 32 | i;
	}
	bool same = fg_sort_by_key(keys, count, order) == 0;
	qsort(model, count, sizeof(*model), model_key_compare);
	for (size_t i = 0; i < count && same; i++)
		same = order[i] == (uint32_t)model[i];
	/* fg_sort_records_by_key: the records themselves (12 bytes each, their
	 * index inside) in that order. */
	typedef struct { uint32_t index; char pad[8]; } keyed;
	keyed *records = malloc((count + 1) * sizeof(*records));
	for (size_t i = 0; i < count; i++)
		records[i] = (keyed){(uint32_t)i, "record!"};
	same = same && fg_sort_records_by_key(records, count, sizeof(*records), keys) == 0;
	for (size_t i = 0; i < count && same; i++)
		same = records[i].index == (uint32_t)model[i] && strcmp(records[i].pad, "record!") == 0;
	free(records);
	free(keys);
	free(order);
	free(model);
	return same;
}

/* fg_sort_records on records that hold their string inside (not first),
 * against the model's order; every record once. */
typedef struct record {
	uint32_t tag;
	const char *text;
	size_t length;
	uint16_t more;
} record;

static bool even_tag(const void *r) { return ((const record *)r)->tag % 2 == 0; }

static bool one_record_set(size_t count, unsigned letters, bool shallow)
{
	unsigned char *store = malloc(count * 24 + 1), prefix[16];
	for (size_t i = 0; i < sizeof(prefix); i++)
		prefix[i] = (unsigned char)('a' + i % 3);
	record *records = malloc((count + 1) * sizeof(*records));
	fg_sort_string *model = malloc((count + 1) * sizeof(*model));
	for (size_t i = 0; i < count; i++) {
		size_t length = random_string(store + i * 24, prefix, sizeof(prefix), letters, 24);
		records[i] = (record){(uint32_t)i, (const char *)store + i * 24, length, 7};
		model[i] = (fg_sort_string){store + i * 24, (uint32_t)length, (uint32_t)i};
	}
	const void **sorted = (shallow ? fg_sort_records_shallow : fg_sort_records)(
		records, count, sizeof(*records), offsetof(record, text), offsetof(record, length));
	qsort(model, count, sizeof(*model), model_compare);
	bool same = sorted != NULL;
	bool *seen = calloc(count + 1, 1);
	for (size_t i = 0; i < count && same; i++) {
		const record *r = sorted[i];
		fg_sort_string as = {(const unsigned char *)r->text, (uint32_t)r->length, 0};
		same = r >= records && r < records + count && !seen[r->tag] && r->more == 7 &&
		       model_compare(&as, &model[i]) == 0;
		if (same)
			seen[r->tag] = true;
	}
	free(seen);
	free(sorted);
	/* fg_sort_records_where, the records of even tags only: the model's
	 * order, without the others. */
	size_t kept = 0, even = 0;
	sorted = (shallow ? fg_sort_records_where_shallow : fg_sort_records_where)(
		records, count, sizeof(*records), offsetof(record, text), offsetof(record, length),
		even_tag, &kept);
	same = same && sorted != NULL && kept == (count + 1) / 2;
	for (size_t i = 0; i < count && same; i++) {
		if (model[i].id % 2)
			continue;
		const record *r = sorted[even++];
		fg_sort_string as = {(const unsigned char *)r->text, (uint32_t)r->length, 0};
		same = r->tag % 2 == 0 && model_compare(&as, &model[i]) == 0;
	}
	free(sorted);
	free(records);
	free(model);
	free(store);
	return same;
}

/* fg_sort_records_by_count: counts decreasing, equal counts in their
 * first order (records hold their first place), against qsort on (count
 * descending, place); counts past 32 bits when `wide` (the qsort way). */
typedef struct counted {
	uint64_t count;
	uint32_t place;
} counted;

static uint64_t count_of(const void *record) { return ((const counted *)record)->count; }

static int compare_counted(const void *a, const void *b)
{
	const counted *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return (x->place > y->place) - (x->place < y->place);
}

static bool one_count_set(size_t count, bool wide)
{
	counted *records = malloc((count + 1) * sizeof(*records));
	counted *model = malloc((count + 1) * sizeof(*model));
	uint64_t range = 1 + (uint64_t)lrand48() % 50;
	for (size_t i = 0; i < count; i++) {
		uint64_t c = (uint64_t)lrand48() % range;
		records[i] = model[i] = (counted){wide && c % 3 == 0 ? c << 33 : c, (uint32_t)i};
	}
	qsort(model, count, sizeof(*model), compare_counted);
	bool same = fg_sort_records_by_count(records, count, sizeof(*records), count_of,
					     compare_counted) == 0;
	for (size_t i = 0; i < count && same; i++)
		same = records[i].count == model[i].count && records[i].place == model[i].place;
	free(records);
	free(model);
	return same;
}

int main(void)
{
	srand48(7);
	int failed = 0, sets = 0;
	static const unsigned alphabets[] = {1, 2, 3, 16, 256};
	for (int round = 0; round < 400; round++) {
		size_t count = round % 50 == 0 ? 20000 : (size_t)lrand48() % 200;
		unsigned letters = alphabets[round % 5];
		size_t most = 1 + (size_t)lrand48() % 40;
		failed += !one_set(count, letters, most, false);
		failed += !one_set(count, letters, most, true);
		sets += 2;
	}
	CHECK(failed == 0, "strsort: bytewise order of %d random sets (prefixes, NUL, 0xff, duplicates, empty), "
			   "with and without the qsort hand-over; %d differ", sets, failed);
	int long_failed = 0, long_sets = 0;
	for (int round = 0; round < 40; round++, long_sets++)
		long_failed += !one_long_prefix_set(round % 10 == 0 ? 3000 : (size_t)lrand48() % 100, round % 2);
	CHECK(long_failed == 0, "strsort: %d sets sharing a 3000-byte prefix, some ending in it or leaving "
				"it early; %d differ", long_sets, long_failed);
	int record_failed = 0, record_sets = 0;
	for (int round = 0; round < 100; round++, record_sets++)
		record_failed += !one_record_set(round % 25 == 0 ? 30000 : (size_t)lrand48() % 300,
						 alphabets[round % 5], round % 2);
	CHECK(record_failed == 0, "strsort: fg_sort_records orders %d random sets of records by their "
				  "strings, each record once, and fg_sort_records_where those it keeps "
				  "only; %d differ", record_sets, record_failed);
	int key_failed = 0, key_sets = 0;
	static const uint32_t spreads[] = {0, 1, 2, 200, 70000};
	for (int round = 0; round < 200; round++, key_sets++)
		key_failed += !one_key_set(round % 40 == 0 ? 50000 : (size_t)lrand48() % 300, spreads[round % 5]);
	CHECK(key_failed == 0, "strsort: fg_sort_by_key and fg_sort_records_by_key are qsort on "
			       "(key, index) for %d random sets "
			       "(equal keys, shared bytes, full range); %d differ", key_sets, key_failed);
	int count_failed = 0, count_sets = 0;
	for (int round = 0; round < 100; round++, count_sets++)
		count_failed += !one_count_set(round % 20 == 0 ? 20000 : (size_t)lrand48() % 300, round % 2);
	CHECK(count_failed == 0, "strsort: fg_sort_records_by_count is qsort on (count descending, "
				 "place) for %d random sets, counts past 32 bits in half; %d differ",
	      count_sets, count_failed);
	return check_exit();
}
