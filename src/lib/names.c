/*
 * names.c - palette.map and --nameattr: per-name tables read from files.
 *
 * Both are small maps from a frame name to a string, kept in an fg_stacks
 * (whose count holds an index into the values).
 */
#include <errno.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>

#include "names.h"

struct fg_name_table {
	fg_stacks *keys;
	char **values;
	size_t size, capacity;
};

fg_name_table *fg_name_table_new(void)
{
	fg_name_table *t = calloc(1, sizeof(*t));
	if (t == NULL)
		return NULL;
	t->keys = fg_stacks_new();
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
	fg_stacks_free(t->keys);
	free(t);
}

const char *fg_name_table_get(const fg_name_table *t, const char *name, size_t length)
{
	const fg_stack_entry *e = fg_stacks_find(t->keys, name, length);
	return e != NULL ? t->values[e->count[0].whole] : NULL;
}

int fg_name_table_put(fg_name_table *t, const char *name, size_t length, const char *value)
{
	char *copy = strdup(value);
	if (copy == NULL)
		return FG_ENOMEM;
	const fg_stack_entry *e = fg_stacks_find(t->keys, name, length);
	if (e != NULL) {
		free(t->values[e->count[0].whole]);
		t->values[e->count[0].whole] = copy;
		return 0;
	}
	if (fg_grow((void **)&t->values, &t->capacity, t->size + 1, sizeof(*t->values)) != 0 ||
	    fg_stacks_add(t->keys, name, length, 0, fg_count_of(t->size)) != 0) {
		free(copy);
		return FG_ENOMEM;
	}
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
	}
	if (rc == 0 && ferror(f))
		rc = fg_fail(err, FG_EIO, "%s: %s", path, strerror(errno));
	free(line);
	fclose(f);
	return rc;
}

static int palette_line(void *context, char *line, size_t length, uint64_t number)
{
	fg_name_table *t = context;
	char *arrow = NULL;
	for (char *p = line; (p = strstr(p, "->")) != NULL; p++)
		arrow = p;
	if (arrow == NULL)
		return 0;
	*arrow = '\0';
	return fg_name_table_put(t, line, (size_t)(arrow - line), arrow + 2);
}

int fg_palette_map_read(fg_name_table *t, const char *path, fg_error *err)
{
	return each_line(path, true, err, palette_line, t);
}

int fg_palette_map_write(const fg_name_table *t, const char *path, fg_error *err)
{
	fg_output *out = fg_output_open(path, err);
	if (out == NULL)
		return err ? err->code : FG_EIO;
	const fg_stack_entry **sorted = fg_stacks_sorted(t->keys);
	if (sorted == NULL) {
		fg_output_abort(out);
		return fg_fail(err, FG_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < t->size; i++) {
		fg_output_write(out, sorted[i]->stack, sorted[i]->stack_length);
		fg_output_printf(out, "->%s\n", t->values[sorted[i]->count[0].whole]);
	}
	free(sorted);
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

static void attribute(fg_buffer *b, const char *key, const char *value, size_t length)
{
	fg_buffer_append_str(b, " ");
	fg_buffer_append_str(b, key);
	fg_buffer_append_str(b, "=\"");
	fg_buffer clean = {0, 0, 0};
	fg_text_clean(&clean, value, length);
	fg_text_escape(b, clean.data ? clean.data : "", clean.length);
	fg_buffer_free(&clean);
	fg_buffer_append_str(b, "\"");
}

/*
 * g_extra / a_extra are raw attribute text in the original. Accept only a
 * list of name="value" pairs with plain names and no event handlers, so a
 * nameattr file cannot inject markup or script.
 */
static bool safe_extra(const char *text, size_t length)
{
	size_t i = 0;
	while (i < length) {
		while (i < length && text[i] == ' ')
			i++;
		if (i == length)
			break;
		size_t name = i;
		while (i < length && (isalnum((unsigned char)text[i]) || text[i] == '-' ||
				      text[i] == '_' || text[i] == ':'))
			i++;
		if (i == name || i + 1 >= length || text[i] != '=' || text[i + 1] != '"')
			return false;
		if ((text[name] == 'o' || text[name] == 'O') &&
		    (text[name + 1] == 'n' || text[name + 1] == 'N'))
			return false;
		i += 2;
		while (i < length && text[i] != '"') {
			if (text[i] == '<' || text[i] == '&')
				return false;
			i++;
		}
		if (i == length)
			return false;
		i++;
	}
	return true;
}

static int attribute_line(void *context, char *line, size_t length, uint64_t number)
{
	attribute_reader *r = context;
	char *tab = memchr(line, '\t', length);
	if (tab == NULL) {
		warn_at(r, number, "no tab after the function name; line ignored");
		return 0;
	}
	const char *href = NULL, *target = "_top";
	size_t href_length = 0, target_length = 4;
	r->tag.length = r->extra_g.length = r->extra_a.length = r->title.length = 0;
	fg_buffer g_attributes = {0, 0, 0};
	for (char *field = tab + 1; field < line + length;) {
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
				fg_text_clean(&r->title, value, value_length);
			} else if (KEY("href")) {
				href = value;
				href_length = value_length;
			} else if (KEY("target")) {
				target = value;
				target_length = value_length;
			} else if (KEY("id") || KEY("class")) {
				char key[8];
				memcpy(key, field, key_length);
				key[key_length] = '\0';
				attribute(&g_attributes, key, value, value_length);
			} else if (KEY("g_extra") || KEY("a_extra")) {
				fg_buffer *into = KEY("g_extra") ? &r->extra_g : &r->extra_a;
				if (safe_extra(value, value_length)) {
					fg_buffer_append_str(into, " ");
					fg_buffer_append(into, value, value_length);
				} else {
					warn_at(r, number, "unsafe or malformed extra attributes dropped");
				}
			} else {
				warn_at(r, number, "unknown attribute key ignored");
			}
#undef KEY
		}
		field = end + 1;
	}
	/* Attribute order as the original: href, target, a_extra, id, class, g_extra. */
	fg_buffer *tag = &r->tag;
	if (href != NULL) {
		fg_buffer_append_str(tag, "a\t<a");
		attribute(tag, "xlink:href", href, href_length);
		attribute(tag, "target", target, target_length);
		fg_buffer_append(tag, r->extra_a.data, r->extra_a.length);
	} else {
		fg_buffer_append_str(tag, "g\t<g");
	}
	fg_buffer_append(tag, g_attributes.data, g_attributes.length);
	fg_buffer_append(tag, r->extra_g.data, r->extra_g.length);
	fg_buffer_append_str(tag, ">\t");
	fg_text_escape(tag, r->title.data ? r->title.data : "", r->title.length);
	fg_buffer_append(tag, "", 1);
	fg_buffer_free(&g_attributes);
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
