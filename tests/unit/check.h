/*
 * check.h - a tiny test harness for the C unit tests (tests/unit/test_*.c).
 * CHECK(cond, name...) prints "ok - name" or "not ok - name" with the
 * failing expression and location; main returns check_exit().
 */
#ifndef FG_CHECK_H
#define FG_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "folded.h"

static int check_failures;

#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (cond) {                                                \
			printf("ok - ");                                   \
			printf(__VA_ARGS__);                               \
			printf("\n");                                      \
		} else {                                                   \
			check_failures++;                                  \
			printf("not ok - ");                               \
			printf(__VA_ARGS__);                               \
			printf("\n    %s:%d: %s\n", __FILE__, __LINE__, #cond); \
		}                                                          \
	} while (0)

#define CHECK_STR(actual, expected, ...)                                   \
	do {                                                               \
		const char *a_ = (actual), *e_ = (expected);               \
		CHECK(a_ != NULL && strcmp(a_, e_) == 0, __VA_ARGS__);     \
		if (!(a_ != NULL && strcmp(a_, e_) == 0))                  \
			printf("    expected \"%s\"\n    actual   \"%s\"\n", e_, a_ ? a_ : "(null)"); \
	} while (0)

/* Warnings collected by check_collect (an fg_warn_fn) as
 * "FILE:LINE: message\n" lines; clear with check_warnings()[0] = '\0'. */
static inline char *check_warnings(void)
{
	static char text[8192];
	return text;
}

static inline void check_collect(void *context, const char *file, uint64_t line, const char *message)
{
	(void)context;
	char *warnings = check_warnings();
	size_t used = strlen(warnings);
	snprintf(warnings + used, 8192 - used, "%s:%llu: %s\n", file ? file : "-",
		 (unsigned long long)line, message);
}

static inline int check_exit(void) { return check_failures ? 1 : 0; }

/* The stack b holds, joined root first, as text; NULL when rc (the result
 * of pushing onto b) or the join failed. Frees b. For the tests of the
 * frame cleaners (fg_*_clean_frame). */
static inline const char *check_joined(fg_stack_builder *b, int rc)
{
	static char text[4096];
	const char *stack;
	size_t length;
	const char *result = NULL;
	if (rc == 0 && fg_stack_builder_join(b, NULL, 0, &stack, &length) == 0) {
		snprintf(text, sizeof(text), "%.*s", (int)length, stack);
		result = text;
	}
	fg_stack_builder_free(b);
	return result;
}

#endif
