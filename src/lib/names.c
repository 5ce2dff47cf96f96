/*
 * names.c - palette.map and --nameattr: per-name tables read from files.
 *
 * Both are small maps from a frame name to a string: a string map
 * (strmap.h) whose values are indexes into an array of strings.
 */
#include <errno.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

#include "names.h"
#include "strmap.h"

struct fg_name_table {
	fg_string_map *keys;    /* name -> index into values */
	char **values;          /* owned copies */
	size_t size, capacity;
};

fg_name_table *fg_name_table_new(void)
{
	fg_name_table *t = calloc(1, sizeof(*t));
	if (t == NULL)
		return NULL;
	t->keys = fg_string_map_new();
	if (t->keys == NULL) {
		free(t);
		return NULL;
	}
	return t;
}

void fg_name_table_free(fg_name_table *t)
{
	if (t == NULL)
		return;
	for (size_t i = 0; i < t->size; i++)
		free(t->values[i]);
	free(t->values);
	fg_string_map_free(t->keys);
	free(t);
}

const char *fg_name_table_get(const fg_name_table *t, const char *name, size_t length)
{
	const fg_string_entry *e = fg_string_map_find(t->keys, name, length);
	return e != NULL ? t->values[e->value] : NULL;
}

int fg_name_table_put(fg_name_table *t, const char *name, size_t length, const char *value)
{
	char *copy = strdup(value);
	if (copy == NULL)
		return FG_ENOMEM;
	bool added;
	fg_string_entry *e;
	if (fg_grow((void **)&t->values, &t->capacity, t->size + 1, sizeof(*t->values)) != 0 ||
	    (e = fg_string_map_add(t->keys, name, length, &added)) == NULL) {
		free(copy);
		return FG_ENOMEM;
	}
	if (!added) {
		free(t->values[e->value]);
		t->values[e->value] = copy;
		return 0;
	}
	e->value = t->size;
	t->values[t->size++] = copy;
	return 0;
}

/* Reads every line of path into handle(line); a missing file is fine when
 * missing_ok. */
static int each_line(const char *path, bool missing_ok, fg_error *err,
		     int (*handle)(void *context, char *line, size_t length, uint64_t number),
		     void *context)
{
	FILE *f = fopen(path, "r");
	if (f == NULL) {
		if (missing_ok && errno == ENOENT)
			return 0;
		return fg_fail(err, FG_EIO, "%s: %s", path, strerror(errno));
	}
	char *line = NULL;
	size_t capacity = 0;
	ssize_t n;
	uint64_t number = 0;
	int rc = 0;
	while (rc == 0 && (n = getline(&line, &capacity, f)) >= 0) {
		number++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		rc = handle(context, line, (size_t)n, number);
		if (rc != 0)
			rc = fg_fail(err, rc, "%s: out of memory", path); /* handlers fail only so */
	}
	if (rc == 0 && ferror(f))
		rc = fg_fail(err, FG_EIO, "%s: %s", path, strerror(errno));
	free(line);
	fclose(f);
	return rc;
}

/*
 * Whether a value could make the browser fetch something: presentation
 * attributes are CSS, and fill, stroke, filter, clip-path, mask and
 * marker-* load url(...) from any host, cursor an image-set(...), when the
 * graph is opened (a beacon in a graph served from one's own site). CSS
 * escapes could spell these names, so a backslash is refused too.
 */
static bool fetches(const char *value, size_t length)
{
	static const char *const functions[] = {"url(", "image(", "image-set(", "cross-fade(",
						"src("};
	for (size_t i = 0; i < length; i++) {
		if (value[i] == '\\')
			return true;
		for (size_t k = 0; k < sizeof(functions) / sizeof(*functions); k++) {
			size_t n = strlen(functions[k]);
			if (n <= length - i && strncasecmp(value + i, functions[k], n) == 0)
				return true;
		}
	}
	return false;
}

typedef struct palette_reader {
	fg_name_table *table;
	const char *path;
	const fg_warner *warner;
} palette_reader;

/* A line that is not NAME->COLOUR, or whose colour loads from elsewhere,
 * is left out, and so it is gone from the file once rewritten: said, with
 * its line number. Blank lines are passed over. */
static int palette_line(void *context, char *line, size_t length, uint64_t number)
{
	palette_reader *r = context;
	char *arrow = NULL;
	for (char *p = line; (p = strstr(p, "->")) != NULL; p++)
		arrow = p;
	if (arrow == NULL) {
		if (!fg_is_blank(line, length))
			fg_warn(r->warner, r->path, number, "no '->' (NAME->COLOUR); line ignored");
		return 0;
	}
	*arrow = '\0';
	if (fetches(arrow + 2, length - (size_t)(arrow + 2 - line))) {
		fg_warn(r->warner, r->path, number,
			"a colour that loads from elsewhere (url(), a backslash...); line ignored");
		return 0; /* (the name gets a new colour) */
	}
	return fg_name_table_put(r->table, line, (size_t)(arrow - line), arrow + 2);
}

int fg_palette_map_read(fg_name_table *t, const char *path, const fg_warner *warner, fg_error *err)
{
	palette_reader r = {t, path, warner};
	return each_line(path, true, err, palette_line, &r);
}

fg_output *fg_palette_map_prepare(fg_name_table *t, const char *path, fg_error *err)
{
	fg_output *out = fg_output_open(path, err);
	if (out == NULL)
		return NULL;
	fg_string_entry **sorted = fg_string_map_sorted(t->keys);
	if (sorted == NULL) {
		fg_output_abort(out);
		fg_fail(err, FG_ENOMEM, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < t->size; i++) {
		fg_output_write(out, sorted[i]->key, sorted[i]->length);
		fg_output_printf(out, "->%s\n", t->values[sorted[i]->value]);
	}
	free(sorted);
	if (fg_output_check(out, err) != 0) {
		fg_output_abort(out);
		return NULL;
	}
	return out;
}

int fg_palette_map_write(fg_name_table *t, const char *path, fg_error *err)
{
	fg_output *out = fg_palette_map_prepare(t, path, err);
	if (out == NULL)
		return err ? err->code : FG_EIO;
	return fg_output_commit(out, err);
}

typedef struct attribute_reader {
	fg_name_table *table;
	const char *path;
	const fg_warner *warner;
	fg_buffer tag, extra_g, extra_a, title;
} attribute_reader;

static void warn_at(attribute_reader *r, uint64_t number, const char *message)
{
	fg_warn(r->warner, r->path, number, message);
}

static int attribute(fg_buffer *b, const char *key, const char *value, size_t length)
{
	int failed = fg_buffer_append_str(b, " ");
	failed |= fg_buffer_append_str(b, key);
	failed |= fg_buffer_append_str(b, "=\"");
	fg_buffer clean = {0, 0, 0};
	failed |= fg_text_clean(&clean, value, length);
	failed |= fg_text_escape_attribute(b, clean.data ? clean.data : "", clean.length);
	fg_buffer_free(&clean);
	failed |= fg_buffer_append_str(b, "\"");
	return failed ? FG_ENOMEM : 0;
}

/*
 * g_extra / a_extra are raw attribute text in the original. Accept only a
 * list of name="value" pairs that cannot run script, restyle the page or
 * break the XML: names are plain XML names, unprefixed or with the one
 * prefix the SVG declares (xlink:); no href (links come from href= and are
 * checked), style, on* handlers, xml* or xmlns* names; no name twice on
 * the tag; values hold no markup (< &), no control bytes and valid UTF-8.
 * Returns NULL when the text is safe, else why it is not.
 */
#define NAMES_PER_TAG 32

typedef struct tag_names {
	const char *name[NAMES_PER_TAG];
	size_t length[NAMES_PER_TAG];
	size_t count;
} tag_names;

static bool name_is(const char *name, size_t length, const char *word)
{
	return strlen(word) == length && strncasecmp(name, word, length) == 0;
}

static bool name_starts(const char *name, size_t length, const char *prefix)
{
	return length >= strlen(prefix) && strncasecmp(name, prefix, strlen(prefix)) == 0;
}

/* Adds name to the tag's names; false if it is there already. */
static bool add_name(tag_names *names, const char *name, size_t length)
{
	for (size_t i = 0; i < names->count; i++)
		if (names->length[i] == length && memcmp(names->name[i], name, length) == 0)
			return false;
	if (names->count == NAMES_PER_TAG)
		return false;
	names->name[names->count] = name;
	names->length[names->count++] = length;
	return true;
}

static bool name_character(unsigned char c, bool first)
{
	return isalpha(c) || c == '_' || (!first && (isdigit(c) || c == '-' || c == '.'));
}

static const char *unsafe_extra(const char *text, size_t length, tag_names *names)
{
	size_t i = 0;
	while (i < length) {
		while (i < length && text[i] == ' ')
			i++;
		if (i == length)
			break;
		size_t name = i;
		size_t colon = 0;
		for (bool first = true; i < length; i++, first = false) {
			unsigned char c = (unsigned char)text[i];
			if (c == ':' && colon == 0 && !first) {
				colon = i;
				first = true;
				continue;
			}
			if (!name_character(c, first))
				break;
		}
		size_t name_length = i - name;
		if (name_length == 0 || i + 1 >= length || text[i] != '=' || text[i + 1] != '"' ||
		    (colon != 0 && colon + 1 == i))
			return "not a list of name=\"value\" pairs";
		const char *n = text + name;
		const char *local = colon ? text + colon + 1 : n;
		size_t local_length = colon ? i - colon - 1 : name_length;
		if (colon != 0 && !name_is(n, colon - name, "xlink"))
			return "an attribute with an undeclared prefix";
		if (name_is(local, local_length, "href"))
			return "href (use the href= key)";
		if (name_is(n, name_length, "style"))
			return "a style attribute";
		if (name_is(n, name_length, "id"))
			return "id (use the id= key)";
		if (name_starts(n, name_length, "on"))
			return "an event handler";
		if (name_is(n, name_length, "ping"))
			return "ping (a link's click would be reported elsewhere)";
		if (name_starts(n, name_length, "xml"))
			return "an xml or xmlns attribute";
		if (!add_name(names, n, name_length))
			return "an attribute the tag already has";
		i += 2;
		size_t value = i;
		while (i < length && text[i] != '"') {
			unsigned char c = (unsigned char)text[i];
			if (c == '<' || c == '&')
				return "markup in a value";
			if (c < 0x20 || c == 0x7f)
				return "a control byte in a value";
			i++;
		}
		if (i == length)
			return "an unterminated value";
		if (!fg_text_is_clean(text + value, i - value))
			return "invalid UTF-8 in a value";
		if (fetches(text + value, i - value))
			return "a value that loads from elsewhere (url(), image-set() or a CSS escape)";
		i++;
		/* (XML wants white space between attributes: a="1"b="2" is
		 * no tag) */
		if (i < length && text[i] != ' ')
			return "not a list of name=\"value\" pairs";
	}
	return NULL;
}

/*
 * Only links a browser opens as pages: http:, https: and relative ones
 * (no scheme). No bytes a browser would strip before reading the scheme
 * ("java\tscript:"), so what is checked is what the browser sees.
 */
/* Whether an id is one the writer or the viewer gives its own elements
 * (a frame holding it would hijack them): the fixed ones and any "fg-". */
static bool viewer_id(const char *value, size_t length)
{
	static const char *const own[] = {
		"background", "bg", "clear-search", "details", "frames", "ignorecase",
		"matched", "next-match", "prev-match", "search", "subtitle", "title", "unzoom",
	};
	if (length >= 3 && memcmp(value, "fg-", 3) == 0)
		return true;
	for (size_t i = 0; i < sizeof(own) / sizeof(*own); i++)
		if (length == strlen(own[i]) && memcmp(value, own[i], length) == 0)
			return true;
	return false;
}

static bool safe_link(const char *href, size_t length)
{
	if (length == 0 || !fg_text_is_clean(href, length))
		return false;
	for (size_t i = 0; i < length; i++) {
		unsigned char c = (unsigned char)href[i];
		if (c <= 0x20 || c == 0x7f || c == '\\')
			return false;
	}
	size_t end = strcspn(href, ":/?#");
	if (end >= length || href[end] != ':')
		return true; /* relative */
	return name_is(href, end, "http") || name_is(href, end, "https");
}

static int attribute_line(void *context, char *line, size_t length, uint64_t number)
{
	attribute_reader *r = context;
	if (fg_is_blank(line, length))
		return 0; /* (a blank line says nothing: no warning) */
	char *tab = memchr(line, '\t', length);
	if (tab == NULL) {
		warn_at(r, number, "no tab after the function name; line ignored");
		return 0;
	}
	const char *href = NULL, *target = "_top";
	size_t href_length = 0, target_length = 4;
	const char *extra[2] = {NULL, NULL}; /* g_extra, a_extra */
	size_t extra_length[2] = {0, 0};
	r->tag.length = r->extra_g.length = r->extra_a.length = r->title.length = 0;
	fg_buffer g_attributes = {0, 0, 0};
	tag_names names = {.count = 0};
	int rc = 0;
	for (char *field = tab + 1; field < line + length && rc == 0;) {
		char *end = memchr(field, '\t', (size_t)(line + length - field));
		if (end == NULL)
			end = line + length;
		char *eq = memchr(field, '=', (size_t)(end - field));
		if (eq != NULL) {
			size_t key_length = (size_t)(eq - field);
			const char *value = eq + 1;
			size_t value_length = (size_t)(end - value);
#define KEY(k) (key_length == strlen(k) && memcmp(field, k, key_length) == 0)
			if (KEY("title")) {
				r->title.length = 0;
				rc = fg_text_clean(&r->title, value, value_length);
			} else if (KEY("href")) {
				href = value;
				href_length = value_length;
			} else if (KEY("target")) {
				target = value;
				target_length = value_length;
			} else if (KEY("id") && viewer_id(value, value_length)) {
				warn_at(r, number, "an id the SVG's own elements use; the id is dropped");
			} else if (KEY("id") || KEY("class")) {
				char key[8];
				memcpy(key, field, key_length);
				key[key_length] = '\0';
				if (add_name(&names, KEY("id") ? "id" : "class", key_length))
					rc = attribute(&g_attributes, key, value, value_length);
				else
					warn_at(r, number, "the attribute is given twice; the second ignored");
			} else if (KEY("g_extra") || KEY("a_extra")) {
				int which = KEY("g_extra") ? 0 : 1;
				extra[which] = value;
				extra_length[which] = value_length;
			} else {
				warn_at(r, number, "unknown attribute key ignored");
			}
#undef KEY
		}
		field = end + 1;
	}
	if (href != NULL && !safe_link(href, href_length)) {
		warn_at(r, number, "href is not an http:, https: or relative link; the link is dropped");
		href = NULL;
	}
	if (href != NULL) {
		add_name(&names, "xlink:href", 10);
		add_name(&names, "target", 6);
	}
	/* Both extras end up on one tag (the <a> when there is a link). */
	for (int which = 0; which < 2 && rc == 0; which++) {
		if (extra[which] == NULL)
			continue;
		tag_names before = names;
		const char *why = unsafe_extra(extra[which], extra_length[which], &names);
		if (why != NULL) {
			char message[160];
			snprintf(message, sizeof(message), "%s dropped: %s", which ? "a_extra" : "g_extra",
				 why);
			warn_at(r, number, message);
			names = before;
			continue;
		}
		fg_buffer *into = which ? &r->extra_a : &r->extra_g;
		if (fg_buffer_append_str(into, " ") != 0 ||
		    fg_buffer_append(into, extra[which], extra_length[which]) != 0)
			rc = FG_ENOMEM;
	}
	/* Attribute order as the original: href, target, a_extra, id, class, g_extra. */
	fg_buffer *tag = &r->tag;
	int failed = rc;
	if (href != NULL) {
		failed |= fg_buffer_append_str(tag, "a\t<a");
		failed |= attribute(tag, "xlink:href", href, href_length);
		failed |= attribute(tag, "target", target, target_length);
		failed |= fg_buffer_append(tag, r->extra_a.data, r->extra_a.length);
	} else {
		failed |= fg_buffer_append_str(tag, "g\t<g");
	}
	failed |= fg_buffer_append(tag, g_attributes.data, g_attributes.length);
	failed |= fg_buffer_append(tag, r->extra_g.data, r->extra_g.length);
	failed |= fg_buffer_append_str(tag, ">\t");
	failed |= fg_text_escape(tag, r->title.data ? r->title.data : "", r->title.length);
	failed |= fg_buffer_append(tag, "", 1);
	fg_buffer_free(&g_attributes);
	if (failed != 0)
		return FG_ENOMEM;
	return fg_name_table_put(r->table, line, (size_t)(tab - line), tag->data);
}

int fg_name_attributes_read(fg_name_table *t, const char *path, const fg_warner *warner,
			    fg_error *err)
{
	attribute_reader r = {.table = t, .path = path, .warner = warner};
	int rc = each_line(path, false, err, attribute_line, &r);
	fg_buffer_free(&r.tag);
	fg_buffer_free(&r.extra_g);
	fg_buffer_free(&r.extra_a);
	fg_buffer_free(&r.title);
	return rc;
}
