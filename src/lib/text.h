/*
 * text.h - names made safe for XML, and the character-level operations
 * (counting, truncating, hashing) done on them. Internal to libfolded.
 *
 * Names arrive as arbitrary bytes. fg_text_clean turns them into valid
 * UTF-8 holding only characters XML 1.0 allows: every byte that does not
 * start a well-formed UTF-8 sequence and every C0 control other than tab
 * become U+FFFD, and so does each whole sequence that is well-formed but
 * not allowed (surrogates, U+FFFE/U+FFFF, bidi controls, past U+10FFFF):
 * one character, as flamegraph.pl counts it. Escaping then happens on
 * clean text only.
 */
#ifndef FG_TEXT_H
#define FG_TEXT_H

#include "buffer.h"
#include "internal.h"


/* Appends the cleaned form of bytes to out (see above). */
int fg_text_clean(fg_buffer *out, const char *bytes, size_t length);

/* True when bytes are already clean (no copy needed). */
bool fg_text_is_clean(const char *bytes, size_t length);

/* Appends clean text escaped for XML element content and attribute
 * values: & < > " become entities. */
int fg_text_escape(fg_buffer *out, const char *clean, size_t length);

/* The same for an attribute value, where a parser turns a raw tab into a
 * space (XML attribute-value normalization): a tab becomes &#9;. */
int fg_text_escape_attribute(fg_buffer *out, const char *clean, size_t length);

/* Number of characters (code points) in clean text. */
size_t fg_text_characters(const char *clean, size_t length);

/* Byte length of the first n characters of clean text. */
size_t fg_text_prefix_bytes(const char *clean, size_t length, size_t n);

/*
 * Decodes the next code point of raw bytes at *at, advancing *at. Bytes
 * that are not well-formed UTF-8 decode as their own value (Latin-1), the
 * way flamegraph.pl's colour hashes saw them.
 */
uint32_t fg_text_next_code_point(const char *bytes, size_t length, size_t *at);

/* Writes v in decimal digits (not NUL-terminated); returns the length. */
size_t fg_format_decimal(char *out, unsigned long long v);

/* Room for any double in fg_format_fixed2 (DBL_MAX has 309 digits). */
#define FG_FIXED2_MAX 320

/* Writes value as printf's "%.2f" would (not NUL-terminated); returns
 * the length. Faster where printf's exact arithmetic is not needed. */
size_t fg_format_fixed2(char *out, double value);

/* Length of a name without one trailing annotation (_[k] _[j] _[i] _[w]). */
size_t fg_name_without_annotation(const char *name, size_t length);

#endif
