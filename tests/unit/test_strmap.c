/*
 * test_strmap.c - unit tests of strmap.c: keys are bytes, entries keep
 * their numbers and keys while the table grows, values start at 0, and the
 * sorted view is bytewise.
 */
#include <stdlib.h>

#include "check.h"
#include "strmap.h"

int main(void)
{
	fg_string_map *m = fg_string_map_new();
	CHECK(m != NULL && fg_string_map_size(m) == 0 && fg_string_map_find(m, "a", 1) == NULL,
	      "strmap: an empty map");
	bool added = false;
	fg_string_entry *e = fg_string_map_add(m, "b", 1, &added);
	CHECK(e != NULL && added && e->value == 0 && e->length == 1, "strmap: add, value 0");
	e->value = 7;
	e = fg_string_map_add(m, "b", 1, &added);
	CHECK(e != NULL && !added && e->value == 7, "strmap: add again finds it");
	CHECK(fg_string_map_add(m, "a\0b", 3, NULL) != NULL && fg_string_map_find(m, "a", 1) == NULL &&
	      fg_string_map_find(m, "a\0b", 3) != NULL, "strmap: keys are bytes (NUL inside)");
	CHECK(fg_string_map_add(m, "", 0, NULL) != NULL && fg_string_map_find(m, "", 0) != NULL,
	      "strmap: the empty key");
	const char *key = fg_string_map_get(m, 0)->key;
	for (int i = 0; i < 20000; i++) {
		char name[16];
		snprintf(name, sizeof(name), "f%d", i);
		fg_string_map_add(m, name, strlen(name), NULL)->value = (uint64_t)i;
	}
	const fg_string_entry *found = fg_string_map_find(m, "f12345", 6);
	CHECK(found != NULL && found->value == 12345 && fg_string_map_index(m, found) == 3 + 12345,
	      "strmap: 20,000 keys, each found with its value and number");
	CHECK(fg_string_map_get(m, 0)->key == key && memcmp(key, "b", 1) == 0 &&
	      fg_string_map_get(m, 0)->value == 7, "strmap: a key does not move as the map grows");
	fg_string_entry **sorted = fg_string_map_sorted(m);
	bool ordered = sorted != NULL;
	for (size_t i = 1; ordered && i < fg_string_map_size(m); i++) {
		size_t n = sorted[i - 1]->length < sorted[i]->length ? sorted[i - 1]->length : sorted[i]->length;
		int c = memcmp(sorted[i - 1]->key, sorted[i]->key, n);
		ordered = c < 0 || (c == 0 && sorted[i - 1]->length < sorted[i]->length);
	}
	CHECK(ordered && sorted[0]->length == 0 && sorted[1]->length == 3,
	      "strmap: sorted bytewise, a prefix first");
	free(sorted);
	fg_string_map_free(m);
	fg_string_map_free(NULL);
	return check_exit();
}
