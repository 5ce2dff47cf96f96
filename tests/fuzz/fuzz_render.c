/*
 * fuzz_render.c - libFuzzer harness: any bytes as folded input (and, by
 * the first byte's bits, as options: --inverted, --reverse, --flamechart,
 * --minwidth 0, --diff-union, palettes, a title and count name taken from
 * the input) through fg_graph into an SVG, which must pass xml_check: well-
 * formed, only contract elements, no event handlers, exactly one script.
 * More bits: the input is also the --nameattr file (its lines with tabs
 * are attribute lines; no link may then be anything but http:, https: or
 * relative; xml_check refuses any style= attribute), the palette.map of --cp, and the
 * source of the numeric options (anywhere in their documented ranges,
 * fg-render(1), which fg_graph_options_check enforces).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "folded.h"
#include "xmlcheck.h"

static void ignore(void *context, const char *file, uint64_t line, const char *message) {}

extern const char fg_viewer_js[];
extern const unsigned long fg_viewer_js_length;

/*
 * The viewer script is the same constant in every SVG (src/tools/embed.c
 * checks it at build time); to spend the fuzzer's time on what the input
 * changes, it is compared with memcmp and cut out before xml_check.
 */
static const char *without_script(const char *svg, size_t *length)
{
	static char *copy;
	static size_t capacity;
	const char *open = memmem(svg, *length, "<![CDATA[\n", 10);
	if (open == NULL)
		return svg;
	size_t at = (size_t)(open - svg) + 10;
	if (*length - at < fg_viewer_js_length || memcmp(svg + at, fg_viewer_js, fg_viewer_js_length) != 0)
		return svg; /* not the script: check all of it */
	if (capacity < *length) {
		free(copy);
		capacity = *length;
		copy = malloc(capacity);
	}
	memcpy(copy, svg, at);
	memcpy(copy + at, svg + at + fg_viewer_js_length, *length - at - fg_viewer_js_length);
	*length -= fg_viewer_js_length;
	return copy;
}

/* Whether p is inside a comment (--notes may hold any markup-like text). */
static bool in_comment(const char *svg, size_t length, const char *p)
{
	for (const char *c = svg; (c = memmem(c, length - (size_t)(c - svg), "<!--", 4)) != NULL && c < p;) {
		const char *end = memmem(c, length - (size_t)(c - svg), "-->", 3);
		if (end == NULL || p < end)
			return true;
		c = end;
	}
	return false;
}

/* Every link is http:, https: or relative (xml_check refuses style=). */
static const char *unsafe_markup(const char *svg, size_t length)
{
	/* Links are <a xlink:href="...">; a comment (--notes) may hold href=". */
	for (const char *p = svg; (p = memmem(p, length - (size_t)(p - svg), "<a xlink:href=\"", 15)) != NULL;) {
		bool comment = in_comment(svg, length, p);
		p += 15;
		if (comment)
			continue;
		size_t end = 0;
		while (p + end < svg + length && strchr(":/?#\"", p[end]) == NULL)
			end++;
		if (p + end < svg + length && p[end] == ':' && !(end == 4 && strncasecmp(p, "http", 4) == 0) &&
		    !(end == 5 && strncasecmp(p, "https", 5) == 0))
			return "a link that is not http:, https: or relative";
	}
	return NULL;
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");
	if (f != NULL) {
		fwrite(data, 1, size, f);
		fclose(f);
	}
}

/* A value in [low, high] from two bytes of the input. */
static double in_range(const uint8_t *data, size_t size, size_t at, double low, double high)
{
	unsigned v = size > at + 1 ? (unsigned)data[at] | (unsigned)data[at + 1] << 8 : 0;
	return low + (high - low) * (v / 65535.0) * (v / 65535.0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	unsigned bits = data[0] | (unsigned)data[1] << 8;
	data += 2;
	size -= 2;
	static const char *const palettes[] = {"hot", "java", "js", "chain", "perl", "mem", "nope", "wakeup"};
	fg_graph_options o;
	fg_graph_options_init(&o);
	o.inverted = bits & 1;
	o.reverse = bits & 2;
	o.flamechart = bits & 4;
	if (bits & 8)
		o.min_width = 0;
	o.diff_union = bits & 16;
	o.colors = palettes[(bits >> 5) & 7];
	o.hash = bits & 256;
	o.negate = bits & 512;
	char title[64] = "", count_name[64] = "";
	if (bits & 1024) {
		/* Hostile option values: the first bytes of the input. */
		size_t n = size < 40 ? size : 40;
		memcpy(title, data, n);
		title[n] = '\0';
		o.title = title;
		o.subtitle = title;
		o.name_type = title;
		o.notes = title;
		memcpy(count_name, data + size - n, n);
		count_name[n] = '\0';
		o.count_name = count_name;
		o.font_type = count_name;
	}
	static char attributes[64], palette[64];
	if (attributes[0] == '\0') {
		snprintf(attributes, sizeof(attributes), "/tmp/fuzz_render.%d.nameattr", (int)getpid());
		snprintf(palette, sizeof(palette), "/tmp/fuzz_render.%d.palette", (int)getpid());
	}
	if (bits & 2048) {
		write_file(attributes, data, size);
		o.name_attr_path = attributes;
	}
	if (bits & 4096) {
		write_file(palette, data, size);
		o.consistent_palette = true;
		o.palette_map_path = palette;
	}
	if (bits & 8192) {
		o.width = (int)in_range(data, size, 0, 21, 1000000);
		o.frame_height = (int)in_range(data, size, 2, 2, 10000);
		o.font_size = in_range(data, size, 4, 0.1, 1000);
		o.font_width = in_range(data, size, 6, 0.01, 10);
		o.factor = in_range(data, size, 8, 1e-9, 1e9);
		o.diff_threshold = in_range(data, size, 10, 0, 100);
		o.min_width_percent = bits & 16384;
		o.min_width = in_range(data, size, 12, 0, o.min_width_percent ? 100 : 1000000);
	}
	fg_graph *g = fg_graph_new(&o);
	fg_warner w = {ignore, NULL};
	fg_error err;
	const char *p = (const char *)data, *end = p + size;
	uint64_t line = 0;
	int rc = 0;
	while (p < end && rc == 0) {
		const char *newline = memchr(p, '\n', (size_t)(end - p));
		const char *stop = newline ? newline : end;
		rc = fg_graph_add_line(g, p, (size_t)(stop - p), "fuzz", ++line, &w, &err);
		p = stop + 1;
	}
	if (rc == 0) {
		fg_output *out = fg_output_open_memory();
		rc = fg_graph_write_svg(g, out, &w, &err);
		size_t length;
		const char *svg = without_script(fg_output_data(out, &length), &length);
		int scripts = 0;
		const char *problem = (rc == 0 || rc == FG_EEMPTY) ? xml_check(svg, length, &scripts) : NULL;
		if (problem == NULL && rc == 0)
			problem = unsafe_markup(svg, length);
		if (problem != NULL || (rc == 0 && scripts != 1)) {
			fprintf(stderr, "fuzz_render: %s (%d scripts)\n", problem ? problem : "script count",
				scripts);
			fwrite(svg, 1, length, stderr);
			abort();
		}
		fg_output_abort(out);
	}
	fg_graph_free(g);
	return 0;
}
