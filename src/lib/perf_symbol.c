/*
 * perf_symbol.c - a perf symbol tidied as stackcollapse-perf.pl tidies it
 * (';' to ':', the argument list and quotes gone, C++'s "(anonymous
 * namespace)" and Go methods kept), and what a module says about its
 * frames (kernel, JIT). Text in, text out: no state.
 */
#include "perf.h"

/* The bytes that make a symbol need more than a copy. */
static const unsigned char symbol_class[256] = {
	['-'] = FG_PERF_SYMBOL_DASH, ['('] = FG_PERF_SYMBOL_OPEN, [';'] = FG_PERF_SYMBOL_EDIT,
	['"'] = FG_PERF_SYMBOL_EDIT, ['\''] = FG_PERF_SYMBOL_EDIT,
};

unsigned fg_perf_symbol_class(const char *text, size_t n)
{
	unsigned found = 0;
	for (size_t i = 0; i < n; i++)
		found |= symbol_class[(unsigned char)text[i]];
	return found;
}

/* Whether s holds ".(" and, after it, ")." (a Go method: no argument list). */
static bool is_go_method(const char *s, size_t n)
{
	const char *open = memmem(s, n, ".(", 2);
	if (open == NULL)
		return false;
	size_t after = (size_t)(open - s) + 2;
	return memmem(s + after, n - after, ").", 2) != NULL;
}

/*
 * Appends the tidied text of one piece to out: ';' becomes ':',
 * the argument list goes from the first '(' that does not open
 * "(anonymous namespace)" (unless a Go method), quotes go. `found` is
 * fg_perf_symbol_class of the text (or more): most symbols need only a copy.
 */
int fg_perf_tidy(fg_buffer *out, const char *text, size_t n, unsigned found)
{
	if (!(found & (FG_PERF_SYMBOL_OPEN | FG_PERF_SYMBOL_EDIT)))
		return fg_buffer_append(out, text, n);
	size_t cut = n;
	const char *open = memchr(text, '(', n);
	if (open != NULL && !is_go_method(text, n)) {
		static const char anonymous[] = "anonymous namespace)";
		for (; open != NULL; open = memchr(open + 1, '(', n - (size_t)(open + 1 - text))) {
			size_t after = (size_t)(open + 1 - text);
			if (!(n - after >= sizeof(anonymous) - 1 &&
			      memcmp(text + after, anonymous, sizeof(anonymous) - 1) == 0)) {
				cut = (size_t)(open - text);
				break;
			}
		}
	}
	if (fg_buffer_reserve(out, cut) != 0)
		return FG_ENOMEM;
	char *to = out->data + out->length;
	for (size_t i = 0; i < cut; i++) {
		char c = text[i];
		if (c == '"' || c == '\'')
			continue;
		*to++ = c == ';' ? ':' : c;
	}
	out->length = (size_t)(to - out->data);
	return 0;
}

/* Whether module names a perf map of JIT code: /tmp/perf-DIGITS.map. */
bool fg_perf_is_jit_module(const char *m, size_t n)
{
	static const char prefix[] = "/tmp/perf-";
	for (const char *p = m; (p = memchr(p, '/', n - (size_t)(p - m))) != NULL; p++) {
		size_t at = (size_t)(p - m);
		if (n - at < sizeof(prefix) - 1 || memcmp(p, prefix, sizeof(prefix) - 1) != 0)
			continue;
		at += sizeof(prefix) - 1;
		size_t digits = fg_skip_digits(m, at, n);
		if (digits > at && n - digits >= 4 && memcmp(m + digits, ".map", 4) == 0)
			return true;
	}
	return false;
}

bool fg_perf_is_kernel_module(const char *m, size_t n)
{
	return (fg_has_prefix(m, n, "[") || fg_has_suffix(m, n, "vmlinux")) && !fg_contains(m, n, "unknown");
}

