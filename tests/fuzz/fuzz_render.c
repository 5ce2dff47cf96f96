/*
 * fuzz_render.c - libFuzzer harness: any bytes as folded input (and, by
 * the first byte's bits, as options: --inverted, --reverse, --flamechart,
 * --minwidth 0, --diff-union, palettes, a title and count name taken from
 * the input) through fg_graph into an SVG, which must pass xml_check: well-
 * formed, only contract elements, no event handlers, exactly one script.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
