/*
 * test_strsort.c - unit tests of strsort.c against a model: qsort with a
 * plain bytewise comparison. Random sets of strings over small alphabets
 * (NUL and 0xff included), shared prefixes, duplicates and empty strings,
 * small and large; the same with the nesting limit at 2, so that the
 * qsort hand-over is exercised too (strsort.c is included here with a
 * smaller MAX_NESTING).
 */
#include <stdio.h>
#include <stdlib.h>

#define MAX_NESTING 2
#define fg_sort_strings fg_sort_strings_shallow
#include "../../src/lib/strsort.c"
#undef fg_sort_strings
void fg_sort_strings(fg_sort_string *items, size_t count); /* the library's */

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
	return check_exit();
}
