/*
 * diff.c - two folded profiles into one differential profile (fg-diff).
 *
 * Both profiles go into one fg_stacks, BEFORE in column 0 and AFTER in
 * column 1, so the union of their stacks and the output order come from
 * the stack table. Counts stay exact; -n scales with 128-bit arithmetic.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "text.h"

/* "0x1f3a" -> "0x..." for every 0x followed by hex digits. */
static int strip_hex(fg_buffer *out, const char *stack, size_t length)
{
	out->length = 0;
	size_t run = 0;
	for (size_t i = 0; i + 2 < length; i++) {
		if (stack[i] != '0' || stack[i + 1] != 'x' || !isxdigit((unsigned char)stack[i + 2]))
			continue;
		size_t end = i + 2;
		while (end < length && isxdigit((unsigned char)stack[end]))
			end++;
		if (fg_buffer_append(out, stack + run, i + 2 - run) != 0 ||
		    fg_buffer_append(out, "...", 3) != 0)
			return FG_ENOMEM;
		run = end;
		i = end - 1;
	}
	return fg_buffer_append(out, stack + run, length - run);
}

int fg_diff_read(fg_stacks *stacks, int column, fg_input *in, const fg_diff_options *options,
		 const fg_warner *warner, fg_error *err)
{
	fg_buffer stripped = {0, 0, 0};
	const char *line;
	size_t length;
	uint64_t invalid = 0;
	int rc;
	while ((rc = fg_input_read_line(in, &line, &length, err)) > 0) {
		if (fg_is_blank(line, length))
			continue;
		fg_folded_line parsed;
		rc = fg_folded_parse(line, length, &parsed);
		if (rc != 0) {
			if (invalid++ < FG_REPORT_INVALID_LINES)
				fg_warn(warner, fg_input_name(in), fg_input_line_number(in),
					fg_folded_problem(rc));
			continue;
		}
		/* One count per profile: a first count stays part of the stack. */
		const char *stack = parsed.stack;
		size_t stack_length = parsed.stack_length;
		if (parsed.differential) {
			size_t end = length;
			if (end > 0 && line[end - 1] == '\r')
				end--;
			while (end > 0 && (fg_is_digit((unsigned char)line[end - 1]) || line[end - 1] == '.'))
				end--;
			stack_length = end - 1; /* the parser checked one whitespace is there */
		}
		if (options->strip_hex) {
			if (strip_hex(&stripped, stack, stack_length) != 0) {
				rc = fg_fail(err, FG_ENOMEM, "out of memory");
				break;
			}
			stack = stripped.data ? stripped.data : "";
			stack_length = stripped.length;
		}
		rc = fg_stacks_add(stacks, stack, stack_length, column, parsed.count);
		if (rc == FG_ERANGE) {
			rc = fg_fail(err, rc, "%s:%llu: the sum of counts exceeds 2^64-1", fg_input_name(in),
				     (unsigned long long)fg_input_line_number(in));
			break;
		}
		if (rc != 0) {
			rc = fg_fail(err, rc, "out of memory");
			break;
		}
	}
	if (rc == 0 && invalid > 0) {
		char message[96];
		snprintf(message, sizeof(message), "ignored %llu lines with invalid format",
			 (unsigned long long)invalid);
		fg_warn(warner, fg_input_name(in), 0, message);
	}
	fg_buffer_free(&stripped);
	return rc < 0 ? rc : 0;
}

typedef unsigned __int128 u128;

static u128 to_units(fg_count c) { return (u128)c.whole * FG_COUNT_FRAC_ONE + c.frac; }

/*
 * floor(a * b / c) for a <= c, exactly: the product takes up to 256 bits
 * (counts are 128-bit units), so it is formed as two halves and divided
 * bit by bit. The quotient is at most b.
 */
static u128 scale_exact(u128 a, u128 b, u128 c)
{
	u128 product;
	if (!__builtin_mul_overflow(a, b, &product))
		return product / c;
	const u128 low64 = ((u128)1 << 64) - 1;
	u128 a0 = a & low64, a1 = a >> 64, b0 = b & low64, b1 = b >> 64;
	u128 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	u128 middle = (p00 >> 64) + (p01 & low64) + (p10 & low64);
	u128 low = (p00 & low64) | (middle << 64);
	u128 high = p11 + (p01 >> 64) + (p10 >> 64) + (middle >> 64);
	u128 quotient = 0, remainder = 0;
	for (int bit = 255; bit >= 0; bit--) {
		bool carry = remainder >> 127;
		remainder = remainder << 1 | ((bit >= 128 ? high >> (bit - 128) : low >> bit) & 1);
		quotient <<= 1;
		if (carry || remainder >= c) {
			remainder -= c;
			quotient |= 1;
		}
	}
	return quotient;
}

int fg_diff_normalize(fg_stacks *stacks, const fg_diff_options *options, fg_error *err)
{
	if (!options->normalize)
		return 0;
	fg_count totals[2];
	int rc = fg_stacks_total(stacks, 0, &totals[0]);
	if (rc == 0)
		rc = fg_stacks_total(stacks, 1, &totals[1]);
	if (rc != 0)
		return fg_fail(err, rc, "the sum of counts exceeds 2^64-1");
	if (fg_count_is_zero(totals[0]) || fg_count_compare(totals[0], totals[1]) == 0)
		return 0;
	const fg_stack_entry **entries = fg_stacks_sorted(stacks);
	if (entries == NULL)
		return fg_fail(err, FG_ENOMEM, "out of memory");
	u128 from = to_units(totals[0]), to = to_units(totals[1]);
	for (size_t i = 0; i < fg_stacks_size(stacks); i++) {
		fg_count *c = &((fg_stack_entry *)entries[i])->count[0];
		uint64_t whole = (uint64_t)(scale_exact(to_units(*c), to, from) / FG_COUNT_FRAC_ONE);
		c->whole = whole;
		c->frac = 0;
	}
	free(entries);
	return 0;
}

int fg_diff_run(const char *before, const char *after, const char *output,
		const fg_diff_options *options, const fg_warner *warner, fg_error *err)
{
	fg_error local = {0};
	if (err == NULL)
		err = &local;
	err->code = 0;
	fg_stacks *stacks = fg_stacks_new();
	if (stacks == NULL)
		return fg_fail(err, FG_ENOMEM, "out of memory");
	const char *paths[2] = {before, after};
	int rc = 0;
	for (int column = 0; column < 2 && rc == 0; column++) {
		fg_input *in = fg_input_open(paths[column], err);
		rc = in ? fg_diff_read(stacks, column, in, options, warner, err) : err->code;
		fg_input_close(in);
	}
	if (rc == 0)
		rc = fg_diff_normalize(stacks, options, err);
	if (rc == 0 && fg_stacks_size(stacks) == 0)
		rc = fg_fail(err, FG_EEMPTY, "no valid input in %s or %s",
			     strcmp(before, "-") == 0 ? "<stdin>" : before,
			     strcmp(after, "-") == 0 ? "<stdin>" : after);
	if (rc == 0)
		rc = fg_stacks_save(stacks, 2, output, err);
	fg_stacks_free(stacks);
	return rc;
}
