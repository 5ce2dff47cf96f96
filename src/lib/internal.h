/*
 * internal.h - helpers shared by libfolded's modules; not part of the API.
 */
#ifndef FG_INTERNAL_H
#define FG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "folded.h"

#define FG_ARRAY_LENGTH(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Grows *array (of *capacity elements of `size` bytes) to hold at least
 * `needed` elements, doubling. Returns 0 or FG_ENOMEM (array unchanged).
 */
int fg_grow_to(void **array, size_t *capacity, size_t needed, size_t size);
static inline int fg_grow(void **array, size_t *capacity, size_t needed, size_t size)
{
	return needed <= *capacity ? 0 : fg_grow_to(array, capacity, needed, size); /* (hot loops) */
}

/* Hints that a large block of memory be backed by huge pages (util.c). */
void fg_advise_huge(void *memory, size_t size);

/*
 * Gives the system back the whole pages of memory[from, to), the unused
 * end of an array whose contents there are zeros and not needed: they
 * read as zeros when touched again. A huge page (fg_advise_huge) is
 * faulted in whole, 2 MiB: an array that will not grow, or not for a
 * while, need not keep the rest of its last one.
 */
void fg_give_back(void *memory, size_t from, size_t to);

/*
 * A zeroed table of `size` bytes for random access (hash tables), in huge
 * pages where the system offers them: from 2 MiB on it is mapped on its
 * own, aligned to a huge page. Free it with fg_table_free and the same
 * size. NULL when out of memory.
 */
void *fg_table_alloc(size_t size);
void fg_table_free(void *table, size_t size);

/* The CPUs this process may run on (its affinity mask; else those online),
 * at least 1. */
unsigned fg_usable_cpus(void);

/* A 64-bit hash of bytes: fast on long keys (8 bytes a step), good spread. */
uint64_t fg_hash_bytes(const void *bytes, size_t length);

/*
 * The seed of fg_hash_bytes and tree.c's name hash: random, drawn once per
 * process, before main or the first table if that is sooner (util.c).
 * With a constant one, names are easily made whose 64-bit hashes are all
 * the same (23 bytes: choose the first 16 bytes freely until the hash's
 * top byte fits, then the last 7 cancel the rest), and every table of
 * names, paths or stacks probed through them all: 160,000 such names
 * (5 MB) took fg-render 24 s, fg-diff and the
 * collapsers alike. Nothing the library writes depends on the hashes'
 * values (tables keep their entries in insertion order; with -j, which
 * thread's tree takes a line changes, as it does with the thread count):
 * output is the same for any seed.
 */
extern uint64_t fg_hash_seed;

/* Draws fg_hash_seed if not yet drawn (util.c): every table hashed with it
 * (string maps, stacks, trees) calls this when made, so that the seed never
 * changes under one. */
void fg_hash_seed_ready(void);

/* The constants of the library's hashes (fg_hash_bytes, tree.c's name
 * hash, collapse_perf.c's cache hash). */
#define FG_HASH_K0 0xa0761d6478bd642full
#define FG_HASH_K1 0xe7037ed1a0b428dbull

/* The core step of those hashes: a 64x64 -> 128-bit multiply, folded. */
static inline uint64_t fg_hash_mix(uint64_t a, uint64_t b)
{
	unsigned __int128 r = (unsigned __int128)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/* Whitespace as Perl's \s in byte mode: space, \t, \n, \v, \f, \r. */
static inline int fg_is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline int fg_is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static inline bool fg_is_hex(unsigned char c)
{
	return fg_is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Byte-string tests on (pointer, length) text, which need not end in NUL:
 * where the spaces / digits / the word (up to white space) from `at` end;
 * equality; prefix, suffix and substring tests against a NUL-terminated
 * word. */
static inline size_t fg_skip_space(const char *s, size_t at, size_t n)
{
	while (at < n && fg_is_space((unsigned char)s[at]))
		at++;
	return at;
}

static inline size_t fg_skip_digits(const char *s, size_t at, size_t n)
{
	while (at < n && fg_is_digit((unsigned char)s[at]))
		at++;
	return at;
}

static inline size_t fg_skip_word(const char *s, size_t at, size_t n)
{
	while (at < n && !fg_is_space((unsigned char)s[at]))
		at++;
	return at;
}

static inline bool fg_bytes_equal(const char *a, size_t a_length, const char *b, size_t b_length)
{
	return a_length == b_length && memcmp(a, b, a_length) == 0;
}

static inline bool fg_has_prefix(const char *s, size_t n, const char *prefix)
{
	size_t p = strlen(prefix);
	return n >= p && memcmp(s, prefix, p) == 0;
}

static inline bool fg_has_suffix(const char *s, size_t n, const char *suffix)
{
	size_t p = strlen(suffix);
	return n >= p && memcmp(s + n - p, suffix, p) == 0;
}

static inline bool fg_contains(const char *s, size_t n, const char *needle)
{
	return memmem(s, n, needle, strlen(needle)) != NULL;
}

/*
 * An arena: many small allocations freed at once. Used for the names and
 * stacks that tables keep; blocks are never moved, so pointers stay valid.
 */
typedef struct fg_arena_block fg_arena_block;
typedef struct fg_arena {
	fg_arena_block *head;  /* the blocks, newest first */
	char *next, *end;      /* free space in the current block */
	size_t block_size;     /* of the next block: 16 KB doubling to 1 MB */
} fg_arena;

void fg_arena_init(fg_arena *arena);
void fg_arena_free(fg_arena *arena);
/* Copies length bytes into the arena; NULL when out of memory. */
char *fg_arena_copy(fg_arena *arena, const void *bytes, size_t length);
void *fg_arena_alloc(fg_arena *arena, size_t length, size_t align);
/* Takes over every block of `from` (left empty): pointers into them stay
 * valid and are freed with `into`. */
void fg_arena_adopt(fg_arena *into, fg_arena *from);

/*
 * After fg_input_read_block: the buffer that holds the block becomes the
 * caller's (*buffer, *capacity: the block stays valid as long as the
 * caller keeps it), and the input takes *buffer (NULL, or capacity bytes
 * from an earlier trade; grown if smaller than its own) for the bytes it
 * has read past the block. Saves copying each block out (graph_read.c's
 * ring). Returns 0; 1 once a line longer than a block has been read, or
 * when the input's buffer is larger than `most` (it grew for a long
 * line: the caller copies the block instead, so that such buffers do not
 * pile up in its hands, nor the input get one as large back); or
 * FG_ENOMEM. Nothing changes unless it returns 0.
 */
int fg_input_trade_buffer(fg_input *in, size_t most, char **buffer, size_t *capacity);

/* How many invalid folded lines are reported one by one before only
 * counting, and what is said of one (by its fg_folded_parse code). */
#define FG_REPORT_INVALID_LINES 5
const char *fg_folded_problem(int code);

/* Passes a warning to warner, if there is one that listens. */
void fg_warn(const fg_warner *warner, const char *file, uint64_t line, const char *message);

/* fg_count_add, inlined for hot loops (count.c has the definition). */
static inline int fg_count_add_inline(fg_count *sum, fg_count addend)
{
	uint64_t frac = sum->frac + addend.frac;
	uint64_t carry = frac >= FG_COUNT_FRAC_ONE;
	if (carry)
		frac -= FG_COUNT_FRAC_ONE;
	uint64_t whole;
	if (__builtin_add_overflow(sum->whole, addend.whole, &whole) ||
	    __builtin_add_overflow(whole, carry, &whole))
		return FG_ERANGE;
	sum->whole = whole;
	sum->frac = frac;
	return 0;
}

/* fg_stack_builder_push, inlined for hot loops: the common case (the
 * builder has grown enough) here, the rest in stacks.c. */
static inline int fg_stack_builder_push_inline(fg_stack_builder *b, const char *frame,
					       size_t length)
{
	if (b->frames < b->frames_capacity && b->capacity - b->length >= length && b->bytes != NULL) {
		memcpy(b->bytes + b->length, frame, length);
		b->length += length;
		b->ends[b->frames++] = b->length;
		return 0;
	}
	return fg_stack_builder_push(b, frame, length);
}

/* fg_stacks_write into `output` (NULL or "-": stdout), atomically: out of
 * memory or a write that fails leaves an -o file as it was, and the error
 * names the output and why (stacks.c). 0, FG_ENOMEM or FG_EIO. */
int fg_stacks_save(const fg_stacks *stacks, int columns, const char *output, fg_error *err);

/* Whether out is a stream (stdout, a pipe, a descriptor): its bytes go
 * out as its buffer fills, and abort cannot take back those already sent
 * (output.c). */
bool fg_output_streams(const fg_output *out);

/* The entry of a stack in a table, or NULL (stacks.c). */
const fg_stack_entry *fg_stacks_find(const fg_stacks *stacks, const char *stack,
				     size_t length);

#endif
