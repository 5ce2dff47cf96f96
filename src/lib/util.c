/*
 * util.c - small shared helpers: errors and warnings, growing arrays,
 * hash tables' memory (huge pages, given back), hashing with a seed drawn
 * per process, arenas, and the number of CPUs the process may use.
 */
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* Whether c continues a UTF-8 character (10xxxxxx). */
static bool continues(char c) { return ((unsigned char)c & 0xc0) == 0x80; }

/*
 * Copies a message too long for err->message (a path near PATH_MAX) as
 * its start, "...", and its end: the end says what went wrong ("File name
 * too long"), which cutting the end off lost. No character is cut in two.
 */
static void shorten_into(fg_error *err, const char *full, size_t length)
{
	size_t head = sizeof(err->message) / 4;
	while (head > 0 && continues(full[head]))
		head--;
	size_t tail = length - (sizeof(err->message) - 1 - head - 3);
	while (tail < length && continues(full[tail]))
		tail++;
	memcpy(err->message, full, head);
	memcpy(err->message + head, "...", 3);
	memcpy(err->message + head + 3, full + tail, length - tail + 1);
}

int fg_fail(fg_error *err, int code, const char *format, ...)
{
	if (err != NULL) {
		char full[8192], *text = full;
		va_list args, again;
		va_start(args, format);
		va_copy(again, args);
		int n = vsnprintf(full, sizeof(full), format, args);
		va_end(args);
		if (n < 0) {
			n = 0;
			full[0] = '\0';
		}
		size_t length = (size_t)n;
		/* Longer than 8 KB (a path past PATH_MAX given as an argument):
		 * formatted whole, so that its end, the reason, is kept too. */
		if (length >= sizeof(full) && (text = malloc(length + 1)) != NULL &&
		    vsnprintf(text, length + 1, format, again) != n) {
			free(text);
			text = NULL;
		}
		va_end(again);
		if (text == NULL) {
			/* (no memory: the first 8 KB, its last character whole) */
			text = full;
			length = sizeof(full) - 1;
			size_t last = length;
			while (last > length - 4 && continues(full[last - 1]))
				last--;
			unsigned char lead = (unsigned char)full[last - 1];
			size_t need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
			if (last - 1 + need > length)
				length = last - 1;
			full[length] = '\0';
		}
		if (length < sizeof(err->message))
			memcpy(err->message, text, length + 1);
		else
			shorten_into(err, text, length);
		if (text != full)
			free(text);
		err->code = code;
	}
	return code;
}

void fg_warn(const fg_warner *warner, const char *file, uint64_t line, const char *message)
{
	if (warner != NULL && warner->warn != NULL)
		warner->warn(warner->context, file, line, message);
}

#define RESERVE_FROM ((size_t)4 << 20)
#define RESERVE ((size_t)512 << 20)

/*
 * Whether address space is there to reserve: not under a limit on it
 * (ulimit -v, -d). There the reservations of a few arrays (512 MB each)
 * would take the space the rest of the program allocates from, and a
 * small malloc elsewhere, which has no fallback, would fail. Nor where
 * Linux counts every byte asked for against a limit (strict overcommit,
 * vm.overcommit_memory = 2), for the same reason. Asked rarely: only when
 * a large array outgrows its room.
 */
static bool may_reserve(void)
{
	struct rlimit limit;
	if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
		return false;
	if (getrlimit(RLIMIT_DATA, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
		return false;
	FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
	if (f == NULL)
		return false; /* not Linux, or not known: no reservation */
	int mode = fgetc(f);
	fclose(f);
	return mode == '0' || mode == '1';
}

int fg_grow_to(void **array, size_t *capacity, size_t needed, size_t size)
{
	if (needed <= *capacity)
		return 0;
	size_t want = *capacity ? *capacity : 16;
	while (want < needed) {
		if (want > SIZE_MAX / 2 / size)
			return FG_ENOMEM;
		want *= 2;
	}
	/* Past a few MB, room for far more at once: untouched pages cost no
	 * memory, and each move of a large block faults all of it in again
	 * (see fg_advise_huge). Where the system refuses so much address
	 * space, or limits it (may_reserve), the doubling goes on. */
	void *grown = NULL;
	if (want * size >= RESERVE_FROM && want < RESERVE / size && may_reserve()) {
		grown = realloc(*array, RESERVE / size * size);
		if (grown != NULL)
			want = RESERVE / size;
	}
	if (grown == NULL)
		grown = realloc(*array, want * size);
	if (grown == NULL)
		return FG_ENOMEM;
	fg_advise_huge(grown, want * size);
	*array = grown;
	*capacity = want;
	return 0;
}

#define HUGE_PAGE ((size_t)2 << 20)

/*
 * Large arrays (a million-node tree: tens of MB) are filled page by page,
 * and on a virtual machine a page fault costs microseconds: 4 KiB pages
 * made a quarter of fg-render's time. Asking for transparent huge pages
 * where the system offers them on request ("madvise" mode) takes 512
 * times fewer faults. Only a hint: where it is not supported nothing
 * changes.
 */
void fg_advise_huge(void *memory, size_t size)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = HUGE_PAGE;
	if (size < 2 * huge)
		return;
	uintptr_t start = ((uintptr_t)memory + huge - 1) & ~(huge - 1);
	uintptr_t end = ((uintptr_t)memory + size) & ~(huge - 1);
	if (end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
	(void)memory;
	(void)size;
#endif
}

void fg_give_back(void *memory, size_t from, size_t to)
{
#ifdef MADV_DONTNEED
	long size = sysconf(_SC_PAGESIZE); /* (no system call) */
	uintptr_t page = size > 0 ? (uintptr_t)size : 4096;
	uintptr_t start = ((uintptr_t)memory + from + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)memory + to) & ~(page - 1);
	if (memory != NULL && end > start)
		madvise((void *)start, end - start, MADV_DONTNEED);
#else
	(void)memory;
	(void)from;
	(void)to;
#endif
}

/*
 * A hash table is touched all over at once, so each of its 4 KiB pages
 * faults separately (a 16 MB child table: 4,000 faults, tens of ms on a
 * virtual machine), and calloc's block is not aligned to take huge pages.
 * Mapped on its own and aligned, the kernel backs it with a few huge pages
 * instead. Below 2 MiB, or where mmap is not the way (no MADV_HUGEPAGE),
 * calloc as before.
 */
static size_t table_mapping(size_t size)
{
#ifdef MADV_HUGEPAGE
	if (size >= HUGE_PAGE && size <= SIZE_MAX - 2 * HUGE_PAGE)
		return (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
#endif
	(void)size;
	return 0;
}

/*
 * Writes a byte of each page of a new table, from its start: a table is
 * read before it is written (a probe looks for an empty slot), and a page
 * first read is mapped to the kernel's shared page of zeros, then copied
 * on the first write, which flushes its old mapping from every CPU that
 * runs one of our threads. A page first written is simply given.
 */
static void *touch_pages(void *table, size_t size)
{
	volatile unsigned char *bytes = table;
	if (bytes != NULL)
		for (size_t at = 0; at < size; at += 4096)
			bytes[at] = 0;
	return table;
}

void *fg_table_alloc(size_t size)
{
	size_t length = table_mapping(size);
	if (length == 0)
		return touch_pages(calloc(size ? size : 1, 1), size);
#ifdef MADV_HUGEPAGE
	char *p = mmap(NULL, length + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	char *aligned = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	if (aligned > p)
		munmap(p, (size_t)(aligned - p));
	if (aligned + length < p + length + HUGE_PAGE)
		munmap(aligned + length, (size_t)(p + length + HUGE_PAGE - (aligned + length)));
	madvise(aligned, length, MADV_HUGEPAGE);
	return touch_pages(aligned, length);
#else
	return NULL;
#endif
}

void fg_table_free(void *table, size_t size)
{
	size_t length = table_mapping(size);
	if (table == NULL)
		return;
	if (length == 0)
		free(table);
	else
		munmap(table, length);
}

static inline uint64_t read64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* (internal.h) The constant it was, until fg_hash_seed_ready draws it. */
uint64_t fg_hash_seed = 0x8ebc6af09c88c6e3ull;

/* A random seed from getrandom; where that fails (an old kernel, a
 * sandbox), the clock, the process id and where ASLR put the stack and
 * this library, mixed: not secret then, but not known before the run. */
static void draw_hash_seed(void)
{
	uint64_t seed = 0;
	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != (ssize_t)sizeof(seed)) {
		struct timespec now = {0, 0};
		clock_gettime(CLOCK_MONOTONIC, &now);
		uint64_t where = (uint64_t)(uintptr_t)&now ^ (uint64_t)(uintptr_t)&fg_hash_seed << 17;
		seed = fg_hash_mix((uint64_t)now.tv_nsec ^ (uint64_t)now.tv_sec << 30 ^ FG_HASH_K0,
				   where ^ (uint64_t)getpid() << 40 ^ FG_HASH_K1);
	}
	fg_hash_seed ^= seed;
}

static pthread_once_t hash_seed_once = PTHREAD_ONCE_INIT;

/* (internal.h) Draws the seed once, before the first table is made: the
 * constructor below is not always first (in a static link a program's own
 * constructors run before the library's, and one that made a table of
 * stacks found its keys no more once the seed changed under them). */
void fg_hash_seed_ready(void)
{
	pthread_once(&hash_seed_once, draw_hash_seed);
}

__attribute__((constructor)) static void draw_hash_seed_early(void)
{
	fg_hash_seed_ready();
}

uint64_t fg_hash_bytes(const void *bytes, size_t length)
{
	const unsigned char *p = bytes;
	const uint64_t k0 = FG_HASH_K0, k1 = FG_HASH_K1;
	uint64_t h = length * k0 ^ fg_hash_seed;
	while (length >= 16) {
		h = fg_hash_mix(read64(p) ^ k1 ^ h, read64(p + 8) ^ k0);
		p += 16;
		length -= 16;
	}
	uint64_t a = 0, b = 0;
	if (length >= 8) {
		a = read64(p);
		b = read64(p + length - 8);
	} else if (length > 0) {
		unsigned char tail[8] = {0};
		memcpy(tail, p, length);
		a = read64(tail);
	}
	return fg_hash_mix(h ^ a ^ k1, b ^ k0 ^ length);
}

struct fg_arena_block {
	fg_arena_block *previous;
};

void fg_arena_init(fg_arena *arena)
{
	arena->head = NULL;
	arena->next = arena->end = NULL;
	arena->block_size = 16384;
}

void fg_arena_free(fg_arena *arena)
{
	fg_arena_block *b = arena->head;
	while (b != NULL) {
		fg_arena_block *previous = b->previous;
		free(b);
		b = previous;
	}
	fg_arena_init(arena);
}

void *fg_arena_alloc(fg_arena *arena, size_t length, size_t align)
{
	uintptr_t at = ((uintptr_t)arena->next + align - 1) & ~(uintptr_t)(align - 1);
	if (arena->next == NULL || length > (size_t)((uintptr_t)arena->end - at)) {
		/* Blocks grow from 16 KB to 1 MB: small inputs stay small. */
		size_t size = arena->block_size;
		if (arena->block_size < (1u << 20))
			arena->block_size *= 2;
		if (length + align > size - sizeof(fg_arena_block))
			size = length + align + sizeof(fg_arena_block);
		fg_arena_block *b = malloc(size);
		if (b == NULL)
			return NULL;
		b->previous = arena->head;
		arena->head = b;
		arena->next = (char *)(b + 1);
		arena->end = (char *)b + size;
		at = ((uintptr_t)arena->next + align - 1) & ~(uintptr_t)(align - 1);
	}
	arena->next = (char *)at + length;
	return (void *)at;
}

void fg_arena_adopt(fg_arena *into, fg_arena *from)
{
	if (from->head == NULL)
		return;
	/* Chain from's blocks below into's current block; allocation goes on
	 * in into's current block, and freeing walks the whole chain. */
	fg_arena_block *oldest = from->head;
	while (oldest->previous != NULL)
		oldest = oldest->previous;
	if (into->head == NULL) {
		*into = *from;
	} else {
		oldest->previous = into->head->previous;
		into->head->previous = from->head;
	}
	fg_arena_init(from);
}

char *fg_arena_copy(fg_arena *arena, const void *bytes, size_t length)
{
	char *p = fg_arena_alloc(arena, length ? length : 1, 1);
	if (p != NULL && length)
		memcpy(p, bytes, length);
	return p;
}

unsigned fg_usable_cpus(void)
{
#ifdef CPU_COUNT
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
#endif
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > UINT32_MAX ? UINT32_MAX : (unsigned)n;
}
