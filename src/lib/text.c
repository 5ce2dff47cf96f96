/*
 * text.c - UTF-8 cleaning, XML escaping and character counting for names
 * (text.h); the buffer they write into is buffer.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "text.h"

/*
 * Length of the well-formed UTF-8 sequence at p (1..4) holding a character
 * XML allows, or 0 when the byte at p must be replaced (also for the bidi
 * controls that would reorder the text after a name).
 */
static size_t valid_sequence(const unsigned char *p, size_t left)
{
	unsigned char c = p[0];
	if (c < 0x80)
		return (c >= 0x20 || c == '\t') ? 1 : 0;
	if (c < 0xc2)
		return 0; /* continuation byte, or overlong 2-byte lead */
	if (c < 0xe0)
		return left >= 2 && (p[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c < 0xf0) {
		if (left < 3 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && p[1] < 0xa0)
			return 0; /* overlong */
		if (c == 0xed && p[1] >= 0xa0)
			return 0; /* UTF-16 surrogate */
		if (c == 0xef && p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf))
			return 0; /* U+FFFE, U+FFFF */
		if (c == 0xe2 && ((p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) ||
				  (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)))
			return 0; /* bidi embeddings, overrides, isolates (U+202A-202E,
				   * U+2066-2069): "f\u202e" would show the rest of
				   * its title, "(1 samples, 0.11%)", reversed */
		return 3;
	}
	if (c < 0xf5) {
		if (left < 4 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 ||
		    (p[3] & 0xc0) != 0x80)
			return 0;
		if (c == 0xf0 && p[1] < 0x90)
			return 0; /* overlong */
		if (c == 0xf4 && p[1] >= 0x90)
			return 0; /* beyond U+10FFFF */
		return 4;
	}
	return 0;
}

/*
 * Length of the sequence at p shaped as UTF-8, a lead byte 0xc2-0xf4 and
 * as many continuation bytes as it announces, whether or not it holds a
 * character XML allows (valid_sequence decides that); 0 if none.
 */
static size_t shaped_sequence(const unsigned char *p, size_t left)
{
	unsigned char c = p[0];
	size_t n = c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0;
	if (n > left)
		return 0;
	for (size_t k = 1; k < n; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	return n;
}

/*
 * The bytes one U+FFFD replaces at p, where valid_sequence refused it: a
 * whole sequence that is well-formed but not allowed (a surrogate, U+FFFE,
 * U+FFFF, a bidi control, a code point past U+10FFFF), which flamegraph.pl
 * decodes as one character, so that labels are cut after as many
 * characters as there; else the one byte (invalid UTF-8, a control, an
 * overlong form, which perl refuses).
 */
static size_t replaced_bytes(const unsigned char *p, size_t left)
{
	size_t n = shaped_sequence(p, left);
	if (n == 0 || (p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xf0 && p[1] < 0x90))
		return 1;
	return n;
}

bool fg_text_is_clean(const char *bytes, size_t length)
{
	const unsigned char *p = (const unsigned char *)bytes;
	for (size_t i = 0; i < length;) {
		if (p[i] >= 0x20 && p[i] < 0x80) {
			i++;
			continue;
		}
		size_t n = valid_sequence(p + i, length - i);
		if (n == 0)
			return false;
		i += n;
	}
	return true;
}

int fg_text_clean(fg_buffer *out, const char *bytes, size_t length)
{
	static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */
	const unsigned char *p = (const unsigned char *)bytes;
	if (fg_buffer_reserve(out, length + 8) != 0)
		return FG_ENOMEM;
	size_t run = 0; /* start of the pending run of good bytes */
	for (size_t i = 0; i < length;) {
		if (p[i] >= 0x20 && p[i] < 0x80) {
			i++;
			continue;
		}
		size_t n = valid_sequence(p + i, length - i);
		if (n > 0) {
			i += n;
			continue;
		}
		if (fg_buffer_append(out, bytes + run, i - run) != 0 ||
		    fg_buffer_append(out, replacement, 3) != 0)
			return FG_ENOMEM;
		i += replaced_bytes(p + i, length - i);
		run = i;
	}
	return fg_buffer_append(out, bytes + run, length - run);
}

static int escape(fg_buffer *out, const char *clean, size_t length, bool attribute)
{
	size_t run = 0;
	for (size_t i = 0; i < length; i++) {
		const char *entity;
		switch (clean[i]) {
		case '&': entity = "&amp;"; break;
		case '<': entity = "&lt;"; break;
		case '>': entity = "&gt;"; break;
		case '"': entity = "&quot;"; break;
		case '\t':
			if (!attribute)
				continue;
			entity = "&#9;";
			break;
		default: continue;
		}
		if (fg_buffer_append(out, clean + run, i - run) != 0 ||
		    fg_buffer_append_str(out, entity) != 0)
			return FG_ENOMEM;
		run = i + 1;
	}
	return fg_buffer_append(out, clean + run, length - run);
}

int fg_text_escape(fg_buffer *out, const char *clean, size_t length)
{
	return escape(out, clean, length, false);
}

int fg_text_escape_attribute(fg_buffer *out, const char *clean, size_t length)
{
	return escape(out, clean, length, true);
}

size_t fg_text_characters(const char *clean, size_t length)
{
	size_t n = 0;
	for (size_t i = 0; i < length; i++)
		n += ((unsigned char)clean[i] & 0xc0) != 0x80;
	return n;
}

size_t fg_text_prefix_bytes(const char *clean, size_t length, size_t n)
{
	size_t i = 0;
	while (i < length) {
		if (((unsigned char)clean[i] & 0xc0) != 0x80) {
			if (n == 0)
				break;
			n--;
		}
		i++;
	}
	return i;
}

uint32_t fg_text_next_code_point(const char *bytes, size_t length, size_t *at)
{
	const unsigned char *p = (const unsigned char *)bytes + *at;
	size_t left = length - *at;
	unsigned char c = p[0];
	size_t n = c < 0x80 ? 1 : valid_sequence(p, left);
	if (n == 0) /* well-formed but not allowed in XML (e.g. U+FFFE): still decoded */
		n = shaped_sequence(p, left);
	if (n <= 1) {
		*at += 1;
		return c;
	}
	*at += n;
	uint32_t cp = c & (0x7f >> n);
	for (size_t k = 1; k < n; k++)
		cp = (cp << 6) | (p[k] & 0x3f);
	return cp;
}

size_t fg_name_without_annotation(const char *name, size_t length)
{
	if (length >= 4 && name[length - 4] == '_' && name[length - 3] == '[' &&
	    name[length - 1] == ']') {
		char kind = name[length - 2];
		if (kind == 'k' || kind == 'j' || kind == 'i' || kind == 'w')
			return length - 4;
	}
	return length;
}

size_t fg_format_decimal(char *out, unsigned long long v)
{
	char digits[24];
	int k = 0;
	do {
		digits[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (int i = 0; i < k; i++)
		out[i] = digits[k - 1 - i];
	return (size_t)k;
}

/*
 * printf rounds the exact value * 100 to an integer. The computed product
 * is that value rounded to a double, and below 2^52 every tie (k + 0.5) is
 * a double: rounding is monotonic, so the computed product lies on the
 * same side of a tie as the exact one, or on it. Its nearest integer is
 * then printf's, except on (or, to be safe, within a millionth of) a tie.
 * Ties, values past 1e13 and those not finite go to snprintf.
 */
size_t fg_format_fixed2(char *out, double value)
{
	double scaled = value * 100.0, rounded = nearbyint(scaled);
	if (!(fabs(scaled) < 1e13) || !(fabs(fabs(scaled - rounded) - 0.5) > 1e-6))
		return (size_t)snprintf(out, FG_FIXED2_MAX, "%.2f", value);
	long long n = llrint(rounded);
	char *p = out;
	if (signbit(value))
		*p++ = '-'; /* (as printf: "-0.00" for a small negative value) */
	unsigned long long v = (unsigned long long)(n < 0 ? -n : n);
	p += fg_format_decimal(p, v / 100);
	*p++ = '.';
	*p++ = (char)('0' + v / 10 % 10);
	*p++ = (char)('0' + v % 10);
	return (size_t)(p - out);
}
