/*
 * stacks.c - the table of unique stacks and their summed counts.
 *
 * Collapsers see the same few thousand stacks millions of times, so the
 * table is an open-addressing hash (linear probing, power-of-two size, load
 * at most 1/2) over entries kept in insertion order; stack bytes live in an
 * arena, copied once per unique stack. Sorting happens only at output.
 */
#include <stddef.h>
#include <stdlib.h>

#include "internal.h"
#include "strsort.h"

struct fg_stacks {
	fg_arena arena;
	fg_stack_entry *entries;
	uint64_t *hashes;        /* hash of each entry's stack */
	size_t size, capacity, hash_capacity; /* entries, hashes: same size, own capacities */
	uint32_t *slots;         /* entry index + 1; 0 = empty */
	size_t slot_mask;        /* number of slots - 1 */
};

fg_stacks *fg_stacks_new(void)
{
	fg_hash_seed_ready();
	fg_stacks *s = calloc(1, sizeof(*s));
	if (s == NULL)
		return NULL;
	fg_arena_init(&s->arena);
	s->slot_mask = 1023;
	s->slots = calloc(s->slot_mask + 1, sizeof(*s->slots));
	if (s->slots == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

void fg_stacks_free(fg_stacks *s)
{
	if (s == NULL)
		return;
	fg_arena_free(&s->arena);
	free(s->entries);
	free(s->hashes);
	free(s->slots);
	free(s);
}

size_t fg_stacks_size(const fg_stacks *s) { return s->size; }

static int rehash(fg_stacks *s)
{
	size_t mask = s->slot_mask * 2 + 1;
	uint32_t *slots = calloc(mask + 1, sizeof(*slots));
	if (slots == NULL)
		return FG_ENOMEM;
	for (size_t i = 0; i < s->size; i++) {
		size_t at = s->hashes[i] & mask;
		while (slots[at] != 0)
			at = (at + 1) & mask;
		slots[at] = (uint32_t)(i + 1);
	}
	free(s->slots);
	s->slots = slots;
	s->slot_mask = mask;
	return 0;
}

/* The slot holding stack, or the empty slot where it would go. */
static size_t probe(const fg_stacks *s, const char *stack, size_t length, uint64_t hash)
{
	size_t at = hash & s->slot_mask;
	for (uint32_t slot; (slot = s->slots[at]) != 0; at = (at + 1) & s->slot_mask) {
		const fg_stack_entry *e = &s->entries[slot - 1];
		if (s->hashes[slot - 1] == hash && e->stack_length == length &&
		    memcmp(e->stack, stack, length) == 0)
			break;
	}
	return at;
}

/* Finds or creates the entry for stack; NULL when out of memory. */
static fg_stack_entry *find_or_add(fg_stacks *s, const char *stack, size_t length,
				   uint64_t hash)
{
	size_t at = probe(s, stack, length, hash);
	if (s->slots[at] != 0)
		return &s->entries[s->slots[at] - 1];
	if (s->size >= UINT32_MAX - 1)
		return NULL;
	/* Grow before inserting, so the table is never more than half full. */
	if ((s->size + 1) * 2 > s->slot_mask) {
		if (rehash(s) != 0)
			return NULL;
		at = probe(s, stack, length, hash);
	}
	if (fg_grow((void **)&s->entries, &s->capacity, s->size + 1, sizeof(*s->entries)) != 0 ||
	    fg_grow((void **)&s->hashes, &s->hash_capacity, s->size + 1, sizeof(*s->hashes)) != 0)
		return NULL;
	char *copy = fg_arena_copy(&s->arena, stack, length);
	if (copy == NULL)
		return NULL;
	fg_stack_entry *e = &s->entries[s->size];
	e->stack = copy;
	e->stack_length = length;
	memset(e->count, 0, sizeof(e->count));
	s->hashes[s->size] = hash;
	s->slots[at] = (uint32_t)(s->size + 1);
	s->size++;
	return e;
}

const fg_stack_entry *fg_stacks_find(const fg_stacks *s, const char *stack, size_t length)
{
	size_t at = probe(s, stack, length, fg_hash_bytes(stack, length));
	return s->slots[at] != 0 ? &s->entries[s->slots[at] - 1] : NULL;
}

int fg_stacks_add(fg_stacks *s, const char *stack, size_t length, int column,
		  fg_count count)
{
	if (column != 0 && column != 1)
		return FG_EINVAL;
	fg_stack_entry *e = find_or_add(s, stack, length, fg_hash_bytes(stack, length));
	if (e == NULL)
		return FG_ENOMEM;
	return fg_count_add(&e->count[column], count);
}

int fg_stacks_merge(fg_stacks *into, const fg_stacks *from)
{
	for (size_t i = 0; i < from->size; i++) {
		const fg_stack_entry *f = &from->entries[i];
		fg_stack_entry *e = find_or_add(into, f->stack, f->stack_length, from->hashes[i]);
		if (e == NULL)
			return FG_ENOMEM;
		for (int c = 0; c < 2; c++) {
			int rc = fg_count_add(&e->count[c], f->count[c]);
			if (rc != 0)
				return rc;
		}
	}
	return 0;
}

int fg_stacks_total(const fg_stacks *s, int column, fg_count *total)
{
	if (column != 0 && column != 1)
		return FG_EINVAL;
	fg_count sum = {0, 0};
	for (size_t i = 0; i < s->size; i++) {
		int rc = fg_count_add(&sum, s->entries[i].count[column]);
		if (rc != 0)
			return rc;
	}
	*total = sum;
	return 0;
}

const fg_stack_entry **fg_stacks_sorted(const fg_stacks *s)
{
	return (const fg_stack_entry **)fg_sort_records(s->entries, s->size, sizeof(*s->entries),
							offsetof(fg_stack_entry, stack),
							offsetof(fg_stack_entry, stack_length));
}

int fg_stacks_write(const fg_stacks *s, int columns, fg_output *out)
{
	if (columns != 1 && columns != 2)
		return FG_EINVAL;
	const fg_stack_entry **sorted = fg_stacks_sorted(s);
	if (sorted == NULL)
		return FG_ENOMEM;
	int rc = 0;
	char text[FG_COUNT_TEXT_MAX + 1];
	for (size_t i = 0; i < s->size && rc == 0; i++) {
		const fg_stack_entry *e = sorted[i];
		rc = fg_output_write(out, e->stack, e->stack_length);
		for (int c = 0; c < columns && rc == 0; c++) {
			text[0] = ' ';
			size_t n = fg_count_format(e->count[c], text + 1);
			rc = fg_output_write(out, text, n + 1);
		}
		if (rc == 0)
			rc = fg_output_write(out, "\n", 1);
	}
	free(sorted);
	return rc;
}

int fg_stacks_save(const fg_stacks *s, int columns, const char *output, fg_error *err)
{
	fg_output *out = fg_output_open(output, err);
	if (out == NULL)
		return err != NULL && err->code != 0 ? err->code : FG_EIO;
	if (fg_stacks_write(s, columns, out) == FG_ENOMEM) {
		fg_output_abort(out);
		return fg_fail(err, FG_ENOMEM, "out of memory");
	}
	return fg_output_commit(out, err); /* reports write errors too */
}

/* ------------------------------------------------------------ the builder */

void fg_stack_builder_init(fg_stack_builder *b)
{
	memset(b, 0, sizeof(*b));
}

void fg_stack_builder_free(fg_stack_builder *b)
{
	free(b->bytes);
	free(b->ends);
	free(b->joined);
	fg_stack_builder_init(b);
}

int fg_stack_builder_append(fg_stack_builder *b, const char *bytes, size_t length)
{
	if (b->frames == 0)
		return fg_stack_builder_push(b, bytes, length);
	if (fg_grow((void **)&b->bytes, &b->capacity, b->length + length, 1) != 0)
		return FG_ENOMEM;
	memcpy(b->bytes + b->length, bytes, length);
	b->length += length;
	b->ends[b->frames - 1] = b->length;
	return 0;
}

int fg_stack_builder_push(fg_stack_builder *b, const char *frame, size_t length)
{
	if (fg_grow((void **)&b->ends, &b->frames_capacity, b->frames + 1, sizeof(*b->ends)) != 0)
		return FG_ENOMEM;
	b->ends[b->frames++] = b->length;
	return fg_stack_builder_append(b, frame, length);
}

int fg_stack_builder_join(fg_stack_builder *b, const char *root, size_t root_length,
			  const char **stack, size_t *length)
{
	size_t need = b->length + b->frames + (root ? root_length + 1 : 0) + 1;
	if (fg_grow((void **)&b->joined, &b->joined_capacity, need, 1) != 0)
		return FG_ENOMEM;
	char *p = b->joined;
	if (root != NULL) {
		memcpy(p, root, root_length);
		p += root_length;
		if (b->frames > 0)
			*p++ = ';';
	}
	for (size_t i = b->frames; i-- > 0;) {
		size_t start = i > 0 ? b->ends[i - 1] : 0;
		memcpy(p, b->bytes + start, b->ends[i] - start);
		p += b->ends[i] - start;
		if (i > 0)
			*p++ = ';';
	}
	*stack = b->joined;
	*length = (size_t)(p - b->joined);
	return 0;
}
