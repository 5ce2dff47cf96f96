/*
 * xmlcheck.c - see xmlcheck.h. A small hand-written tokenizer: it accepts
 * the subset of XML that fg-render produces and rejects everything else,
 * so a fuzzer finding any input that makes fg-render leave that subset
 * reports it as a crash.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "xmlcheck.h"

#define MAX_DEPTH 64
#define MAX_ENTITIES 100000

typedef struct checker {
	const unsigned char *p, *end;
	const char *names[MAX_DEPTH];
	size_t name_lengths[MAX_DEPTH];
	int depth;
	int scripts;
	bool root_done;
	/* declared entity names, as offsets into the document */
	const unsigned char *entity[MAX_ENTITIES];
	size_t entity_length[MAX_ENTITIES];
	size_t entities;
} checker;

static const char *const allowed[] = {"svg", "style", "defs", "linearGradient", "stop", "rect",
				      "text", "g", "a", "title", "script", "metadata", NULL};

static bool name_char(unsigned char c, bool first)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':')
		return true;
	return !first && ((c >= '0' && c <= '9') || c == '-' || c == '.');
}

/* Length of a valid UTF-8 XML character at p, or 0. */
static size_t xml_char(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0];
	if (c < 0x80)
		return (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') ? 1 : 0;
	size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
	if (n == 0 || c > 0xf4 || (size_t)(end - p) < n)
		return 0;
	uint32_t cp = c & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	if ((cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

static size_t name_length(const unsigned char *p, const unsigned char *end)
{
	size_t n = 0;
	while (p + n < end && name_char(p[n], n == 0))
		n++;
	return n;
}

static bool declared(const checker *c, const unsigned char *name, size_t length)
{
	static const char *const predefined[] = {"lt", "gt", "amp", "quot", "apos"};
	for (size_t i = 0; i < 5; i++)
		if (strlen(predefined[i]) == length && memcmp(predefined[i], name, length) == 0)
			return true;
	for (size_t i = 0; i < c->entities; i++)
		if (c->entity_length[i] == length && memcmp(c->entity[i], name, length) == 0)
			return true;
	return false;
}

/* A reference at p ("&...;"); returns its length or 0. */
static size_t reference(const checker *c, const unsigned char *p)
{
	const unsigned char *q = p + 1;
	if (q < c->end && *q == '#') {
		q++;
		bool hex = q < c->end && *q == 'x';
		if (hex)
			q++;
		const unsigned char *digits = q;
		while (q < c->end && (hex ? (strchr("0123456789abcdefABCDEF", *q) != NULL && *q)
					  : (*q >= '0' && *q <= '9')))
			q++;
		if (q == digits || q >= c->end || *q != ';')
			return 0;
		return (size_t)(q - p) + 1;
	}
	size_t n = name_length(q, c->end);
	if (n == 0 || q + n >= c->end || q[n] != ';' || !declared(c, q, n))
		return 0;
	return n + 2;
}

/* Character data up to '<' (or the end); "]]>" is not allowed in it. */
static const char *text(checker *c)
{
	while (c->p < c->end && *c->p != '<') {
		if (*c->p == '&') {
			size_t n = reference(c, c->p);
			if (n == 0)
				return "bad reference in text";
			c->p += n;
			continue;
		}
		if (*c->p == ']' && c->end - c->p >= 3 && memcmp(c->p, "]]>", 3) == 0)
			return "]]> in text";
		size_t n = xml_char(c->p, c->end);
		if (n == 0)
			return "invalid character in text";
		if (c->depth == 0 && !(*c->p == ' ' || *c->p == '\n' || *c->p == '\t' || *c->p == '\r'))
			return "text outside the root element";
		c->p += n;
	}
	return NULL;
}

static const char *skip_until(checker *c, const char *terminator, const char *what)
{
	size_t n = strlen(terminator);
	const unsigned char *stop = memmem(c->p, (size_t)(c->end - c->p), terminator, n);
	if (stop == NULL)
		return what;
	while (c->p < stop) {
		if (*c->p >= 0x20 && *c->p < 0x80) { /* the common case, quickly */
			c->p++;
			continue;
		}
		size_t k = xml_char(c->p, c->end);
		if (k == 0)
			return "invalid character";
		c->p += k;
	}
	c->p = stop + n;
	return NULL;
}

static void spaces(checker *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

/* <!DOCTYPE svg [ <!ENTITY name "value"> ... ]> */
static const char *doctype(checker *c)
{
	c->p += 9;
	spaces(c);
	size_t n = name_length(c->p, c->end);
	if (n == 0)
		return "DOCTYPE without a name";
	c->p += n;
	spaces(c);
	if (c->p < c->end && *c->p == '[') {
		c->p++;
		for (;;) {
			spaces(c);
			if (c->p < c->end && *c->p == ']')
				break;
			if (c->end - c->p < 9 || memcmp(c->p, "<!ENTITY ", 9) != 0)
				return "unexpected declaration in the DOCTYPE";
			c->p += 9;
			spaces(c);
			n = name_length(c->p, c->end);
			if (n == 0 || c->entities == MAX_ENTITIES)
				return "bad entity name";
			c->entity[c->entities] = c->p;
			c->entity_length[c->entities++] = n;
			c->p += n;
			spaces(c);
			if (c->p >= c->end || *c->p != '"')
				return "entity value not quoted";
			c->p++;
			/* The replacement text is checked as text (no markup, valid
			 * references, no %) as it will be parsed where it is used. */
			while (c->p < c->end && *c->p != '"') {
				if (*c->p == '%' || *c->p == '<')
					return "% or < in an entity value";
				if (*c->p == '&') {
					size_t r = reference(c, c->p);
					if (r == 0)
						return "bad reference in an entity value";
					c->p += r;
					continue;
				}
				size_t k = xml_char(c->p, c->end);
				if (k == 0)
					return "invalid character in an entity value";
				c->p += k;
			}
			if (c->p >= c->end)
				return "unterminated entity value";
			c->p++;
			spaces(c);
			if (c->p >= c->end || *c->p != '>')
				return "unterminated entity declaration";
			c->p++;
		}
		c->p++;
		spaces(c);
	}
	if (c->p >= c->end || *c->p != '>')
		return "unterminated DOCTYPE";
	c->p++;
	return NULL;
}

static bool allowed_element(const unsigned char *name, size_t length)
{
	for (size_t i = 0; allowed[i] != NULL; i++)
		if (strlen(allowed[i]) == length && memcmp(allowed[i], name, length) == 0)
			return true;
	return false;
}

static const char *start_tag(checker *c)
{
	c->p++;
	size_t n = name_length(c->p, c->end);
	if (n == 0)
		return "bad element name";
	if (!allowed_element(c->p, n))
		return "element not in the SVG contract";
	if (c->root_done)
		return "second root element";
	const unsigned char *name = c->p;
	bool is_script = n == 6 && memcmp(name, "script", 6) == 0;
	c->scripts += is_script;
	c->p += n;
	const unsigned char *seen[64];
	size_t seen_length[64], attributes = 0;
	for (;;) {
		bool had_space = c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\t');
		spaces(c);
		if (c->p >= c->end)
			return "unterminated start tag";
		if (*c->p == '/' || *c->p == '>')
			break;
		if (!had_space)
			return "attributes not separated by space";
		size_t k = name_length(c->p, c->end);
		if (k == 0)
			return "bad attribute name";
		if (k >= 2 && (c->p[0] | 0x20) == 'o' && (c->p[1] | 0x20) == 'n')
			return "event handler attribute";
		if (k == 5 && memcmp(c->p, "style", 5) == 0)
			return "a style attribute";
		for (size_t i = 0; i < attributes; i++)
			if (seen_length[i] == k && memcmp(seen[i], c->p, k) == 0)
				return "repeated attribute";
		if (attributes < 64) {
			seen[attributes] = c->p;
			seen_length[attributes++] = k;
		}
		c->p += k;
		if (c->p >= c->end || *c->p != '=')
			return "attribute without value";
		c->p++;
		if (c->p >= c->end || (*c->p != '"' && *c->p != '\''))
			return "attribute value not quoted";
		unsigned char quote = *c->p++;
		while (c->p < c->end && *c->p != quote) {
			if (*c->p == '<')
				return "< in an attribute value";
			if (*c->p == '&') {
				size_t r = reference(c, c->p);
				if (r == 0)
					return "bad reference in an attribute value";
				c->p += r;
				continue;
			}
			size_t w = xml_char(c->p, c->end);
			if (w == 0)
				return "invalid character in an attribute value";
			c->p += w;
		}
		if (c->p >= c->end)
			return "unterminated attribute value";
		c->p++;
	}
	if (*c->p == '/') {
		c->p++;
		if (c->p >= c->end || *c->p != '>')
			return "bad empty-element tag";
		c->p++;
		if (c->depth == 0)
			c->root_done = true;
		return NULL;
	}
	c->p++;
	if (c->depth == MAX_DEPTH)
		return "elements nested too deep";
	c->names[c->depth] = (const char *)name;
	c->name_lengths[c->depth++] = n;
	return NULL;
}

static const char *end_tag(checker *c)
{
	c->p += 2;
	size_t n = name_length(c->p, c->end);
	if (c->depth == 0 || n != c->name_lengths[c->depth - 1] ||
	    memcmp(c->p, c->names[c->depth - 1], n) != 0)
		return "end tag does not match";
	c->p += n;
	spaces(c);
	if (c->p >= c->end || *c->p != '>')
		return "unterminated end tag";
	c->p++;
	if (--c->depth == 0)
		c->root_done = true;
	return NULL;
}

const char *xml_check(const char *xml, size_t length, int *scripts)
{
	static checker c; /* large: static, and only its counters reset */
	c.depth = c.scripts = 0;
	c.root_done = false;
	c.entities = 0;
	c.p = (const unsigned char *)xml;
	c.end = c.p + length;
	const char *problem;
	if (length < 5 || memcmp(xml, "<?xml", 5) != 0)
		return "no XML declaration";
	if ((problem = skip_until(&c, "?>", "unterminated XML declaration")) != NULL)
		return problem;
	while (c.p < c.end) {
		if ((problem = text(&c)) != NULL)
			return problem;
		if (c.p >= c.end)
			break;
		size_t left = (size_t)(c.end - c.p);
		if (left >= 4 && memcmp(c.p, "<!--", 4) == 0) {
			c.p += 4;
			/* "--" may only end a comment. */
			while (c.p < c.end && !(c.end - c.p >= 2 && memcmp(c.p, "--", 2) == 0)) {
				size_t k = xml_char(c.p, c.end);
				if (k == 0)
					return "invalid character in a comment";
				c.p += k;
			}
			if (c.end - c.p < 3 || memcmp(c.p, "-->", 3) != 0)
				return "-- inside a comment";
			c.p += 3;
		} else if (left >= 9 && memcmp(c.p, "<![CDATA[", 9) == 0) {
			if (c.depth == 0)
				return "CDATA outside the root";
			c.p += 9;
			if ((problem = skip_until(&c, "]]>", "unterminated CDATA")) != NULL)
				return problem;
		} else if (left >= 9 && memcmp(c.p, "<!DOCTYPE", 9) == 0) {
			if (c.depth != 0 || c.root_done)
				return "misplaced DOCTYPE";
			if ((problem = doctype(&c)) != NULL)
				return problem;
		} else if (left >= 2 && c.p[1] == '/') {
			if ((problem = end_tag(&c)) != NULL)
				return problem;
		} else if ((problem = start_tag(&c)) != NULL) {
			return problem;
		}
	}
	if (c.depth != 0 || !c.root_done)
		return "unterminated document";
	*scripts = c.scripts;
	if (c.scripts > 1)
		return "more than one script element";
	return NULL;
}
