/*
 * failalloc.c - allocation-failure injection for tests/oom.sh, linked
 * into the programs with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,
 * --wrap=strdup, so that every allocation fg itself makes goes through here
 * (libc's own, in getline or fopen, do not).
 *
 * FG_FAIL_ALLOC=N makes the Nth allocation fail (once, as SQLite's
 * malloc tests do); FG_COUNT_ALLOC=FILE writes the number of allocations
 * made to FILE at exit, so the script knows how far to go.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
char *__wrap_strdup(const char *s);

static atomic_ulong calls;
static unsigned long fail_at;
static const char *count_file;

static void report(void)
{
	FILE *f = fopen(count_file, "w");
	if (f != NULL) {
		fprintf(f, "%lu\n", (unsigned long)atomic_load(&calls));
		fclose(f);
	}
}

__attribute__((constructor)) static void start(void)
{
	const char *n = getenv("FG_FAIL_ALLOC");
	fail_at = n != NULL ? strtoul(n, NULL, 10) : 0;
	count_file = getenv("FG_COUNT_ALLOC");
	if (count_file != NULL)
		atexit(report);
}

/* Whether this allocation is the one to fail. */
static int fails(void)
{
	return atomic_fetch_add(&calls, 1) + 1 == fail_at;
}

void *__wrap_malloc(size_t size) { return fails() ? NULL : __real_malloc(size); }
void *__wrap_calloc(size_t count, size_t size)
{
	return fails() ? NULL : __real_calloc(count, size);
}
void *__wrap_realloc(void *p, size_t size) { return fails() ? NULL : __real_realloc(p, size); }
char *__wrap_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *copy = __wrap_malloc(n);
	return copy != NULL ? memcpy(copy, s, n) : NULL;
}
