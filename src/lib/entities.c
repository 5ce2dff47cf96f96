/*
 * entities.c - the SVG's entity dictionary (entities.h): which names get
 * an XML entity, their declarations, and references to them.
 *
 * A name is worth an entity when writing it out at every use costs more
 * than declaring it once (<!ENTITY id "value">) plus a reference "&id;"
 * at every use. The most used names get the shortest ids. But no name
 * longer than ENTITY_LONGEST: XML parsers built on expat (Python's, and
 * Firefox's) refuse a document whose entities expand to more than 100
 * times its own size (past 8 MiB), as an entity bomb; a frame takes some
 * 50 bytes of its own besides its name's two references (title and
 * label), so names this short keep it under 25 times.
 */
#define ENTITY_LONGEST 1024
#include <stdlib.h>

#include "entities.h"
#include "strmap.h"
#include "strsort.h"

struct fg_entities {
	fg_string_map *names; /* name -> uses; after choosing, entity number + 1 (0: none) */
	/* After choosing, only the names with an entity (-> number + 1): most
	 * names looked up by their bytes (fg_entities_ref: the view data's)
	 * have none, and this map, a few thousand keys in a few hundred KB
	 * that stay in cache, tells them so at the cost of a slot. */
	fg_string_map *chosen;
};

static const char entity_first[] = "abcdefghijklmnopqrtuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"; /* no 's' */
static const char entity_rest[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/* The name of entity number n ("a", "b", ..., "aa"...). Returns its length.
 * ('s' is never first: &s; is the writer's own " samples, ".) */
static size_t entity_name(uint64_t n, char *out)
{
	const uint64_t first = sizeof(entity_first) - 1, rest = sizeof(entity_rest) - 1;
	size_t length = 1;
	uint64_t block = first;
	while (n >= block) {
		n -= block;
		block *= rest;
		length++;
	}
	out[0] = entity_first[n % first];
	n /= first;
	for (size_t i = 1; i < length; i++) {
		out[i] = entity_rest[n % rest];
		n /= rest;
	}
	out[length] = '\0';
	return length;
}

/* The names XML predefines. */
static bool reserved_entity(const char *name)
{
	return strcmp(name, "lt") == 0 || strcmp(name, "gt") == 0 || strcmp(name, "amp") == 0 ||
	       strcmp(name, "quot") == 0 || strcmp(name, "apos") == 0;
}

fg_entities *fg_entities_new(void)
{
	fg_entities *d = calloc(1, sizeof(*d));
	if (d == NULL)
		return NULL;
	if ((d->names = fg_string_map_new()) == NULL) {
		free(d);
		return NULL;
	}
	return d;
}

void fg_entities_free(fg_entities *d)
{
	if (d == NULL)
		return;
	fg_string_map_free(d->names);
	fg_string_map_free(d->chosen);
	free(d);
}

int fg_entities_use(fg_entities *d, const char *name, size_t length, uint32_t *entry)
{
	if (entry != NULL)
		*entry = 0;
	if (length <= 2)
		return 0;
	fg_string_entry *e = fg_string_map_add(d->names, name, length, NULL);
	if (e == NULL)
		return FG_ENOMEM;
	e->value++;
	if (entry != NULL) /* (the map numbers fewer than UINT32_MAX - 1 entries) */
		*entry = (uint32_t)fg_string_map_index(d->names, e) + 1;
	return 0;
}

void fg_entities_use_entry(fg_entities *d, uint32_t entry)
{
	if (entry != 0)
		fg_string_map_at(d->names, entry - 1)->value++;
}

int fg_entity_value(fg_buffer *out, fg_buffer *scratch, const char *text, size_t length)
{
	scratch->length = 0;
	if (fg_text_clean(scratch, text, length) != 0)
		return FG_ENOMEM;
	int failed = 0;
	size_t run = 0;
	for (size_t i = 0; i < scratch->length; i++) {
		if (scratch->data[i] != '%')
			continue;
		failed |= fg_text_escape(out, scratch->data + run, i - run);
		failed |= fg_buffer_append_str(out, "&#37;");
		run = i + 1;
	}
	if (run < scratch->length) /* (scratch->data may be NULL when empty) */
		failed |= fg_text_escape(out, scratch->data + run, scratch->length - run);
	return failed ? FG_ENOMEM : 0;
}

/* Most uses first, then bytewise. */
static int compare_uses(const void *a, const void *b)
{
	const fg_string_entry *x = *(const fg_string_entry *const *)a;
	const fg_string_entry *y = *(const fg_string_entry *const *)b;
	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	size_t n = x->length < y->length ? x->length : y->length;
	int c = memcmp(x->key, y->key, n);
	return c ? c : (x->length > y->length) - (x->length < y->length);
}

static uint64_t entry_uses(const void *record)
{
	return (*(const fg_string_entry *const *)record)->value;
}

/* Entries in byte order, put in order of most uses first, keeping the
 * byte order among equal uses. */
static int by_uses(fg_string_entry **entries, size_t size)
{
	return fg_sort_records_by_count(entries, size, sizeof(*entries), entry_uses, compare_uses);
}

/* Names used once can gain nothing from an entity. */
static bool used_twice(const void *entry)
{
	return ((const fg_string_entry *)entry)->value >= 2;
}

int fg_entities_choose(fg_entities *d, fg_buffer *dtd)
{
	size_t size;
	fg_string_entry **sorted = fg_string_map_sorted_where(d->names, used_twice, &size);
	if (sorted == NULL)
		return FG_ENOMEM;
	for (size_t i = 0; i < fg_string_map_size(d->names); i++)
		if (!used_twice(fg_string_map_at(d->names, i)))
			fg_string_map_at(d->names, i)->value = 0; /* no entity */
	if (by_uses(sorted, size) != 0) {
		free(sorted);
		return FG_ENOMEM;
	}
	uint64_t next = 0;
	fg_buffer value = {0, 0, 0}, scratch = {0, 0, 0};
	fg_string_map_free(d->chosen);
	int failed = (d->chosen = fg_string_map_new()) == NULL;
	for (size_t i = 0; i < size && failed == 0; i++) {
		fg_string_entry *e = sorted[i];
		uint64_t uses = e->value;
		e->value = 0; /* no entity, unless chosen below */
		char id[16];
		size_t id_length = entity_name(next, id);
		while (reserved_entity(id))
			id_length = entity_name(++next, id);
		value.length = 0;
		failed |= fg_entity_value(&value, &scratch, e->key, e->length);
		/* Written out: uses * value; as an entity: the declaration
		 * <!ENTITY id "value">\n plus uses * &id; */
		size_t declaration = 13 + id_length + value.length;
		if (uses * value.length <= declaration + uses * (id_length + 2) ||
		    value.length > ENTITY_LONGEST)
			continue;
		next++;
		e->value = next; /* entity number + 1 */
		fg_string_entry *copy = fg_string_map_add(d->chosen, e->key, e->length, NULL);
		if (copy == NULL)
			failed = 1;
		else
			copy->value = next;
		failed |= fg_buffer_append_str(dtd, "<!ENTITY ");
		failed |= fg_buffer_append_str(dtd, id);
		failed |= fg_buffer_append_str(dtd, " \"");
		failed |= fg_buffer_append(dtd, value.data, value.length);
		failed |= fg_buffer_append_str(dtd, "\">\n");
	}
	fg_buffer_free(&value);
	fg_buffer_free(&scratch);
	free(sorted);
	return failed ? FG_ENOMEM : 0;
}

/* Appends "&id;" for an entry that has an entity (see fg_entities_ref). */
static bool put_ref(const fg_string_entry *e, fg_buffer *out, bool *failed)
{
	if (e == NULL || e->value == 0)
		return false;
	char ref[20] = "&";
	size_t id_length = entity_name(e->value - 1, ref + 1);
	ref[1 + id_length] = ';';
	if (fg_buffer_append(out, ref, id_length + 2) != 0)
		*failed = true;
	return true;
}

bool fg_entities_ref(const fg_entities *d, fg_buffer *out, const char *name, size_t length,
		     bool *failed)
{
	if (d == NULL || d->chosen == NULL || length <= 2)
		return false;
	return put_ref(fg_string_map_find(d->chosen, name, length), out, failed);
}

bool fg_entities_ref_entry(const fg_entities *d, fg_buffer *out, uint32_t entry, bool *failed)
{
	if (d == NULL || entry == 0)
		return false;
	return put_ref(fg_string_map_get(d->names, entry - 1), out, failed);
}
