/*
 * test_color.c - unit tests of color.c: every base palette and the
 * multi-palettes against an independent model written from flamegraph.pl's
 * documented rules (libc's srand48/drand48 for the name seed, the formula
 * table of the palettes), --hash, backgrounds and the differential scale.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "color.h"
#include "folded.h"

/* The name seed: the sum of the name's code points (UTF-8 decoded). */
static double model_seeded(const char *name)
{
	uint32_t sum = 0;
	const unsigned char *p = (const unsigned char *)name;
	while (*p) {
		uint32_t c = *p++;
		int more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
		if (more)
			c &= 0x3fu >> more;
		while (more-- > 0 && (*p & 0xc0) == 0x80)
			c = c << 6 | (*p++ & 0x3f);
		sum += c;
	}
	srand48(sum);
	return drand48();
}

static fg_rgb model_base(const char *palette, double v1, double v2, double v3)
{
	fg_rgb c = {0, 0, 0};
	if (!strcmp(palette, "hot"))
		c = (fg_rgb){205 + (int)(50 * v3), (int)(230 * v1), (int)(55 * v2)};
	else if (!strcmp(palette, "mem"))
		c = (fg_rgb){0, 190 + (int)(50 * v2), (int)(210 * v1)};
	else if (!strcmp(palette, "io"))
		c = (fg_rgb){80 + (int)(60 * v1), 80 + (int)(60 * v1), 190 + (int)(55 * v2)};
	else if (!strcmp(palette, "red"))
		c = (fg_rgb){200 + (int)(55 * v1), 50 + (int)(80 * v1), 50 + (int)(80 * v1)};
	else if (!strcmp(palette, "green"))
		c = (fg_rgb){50 + (int)(60 * v1), 200 + (int)(55 * v1), 50 + (int)(60 * v1)};
	else if (!strcmp(palette, "blue"))
		c = (fg_rgb){80 + (int)(60 * v1), 80 + (int)(60 * v1), 205 + (int)(50 * v1)};
	else if (!strcmp(palette, "yellow"))
		c = (fg_rgb){175 + (int)(55 * v1), 175 + (int)(55 * v1), 50 + (int)(20 * v1)};
	else if (!strcmp(palette, "purple"))
		c = (fg_rgb){190 + (int)(65 * v1), 80 + (int)(60 * v1), 190 + (int)(65 * v1)};
	else if (!strcmp(palette, "aqua"))
		c = (fg_rgb){50 + (int)(60 * v1), 165 + (int)(55 * v1), 165 + (int)(55 * v1)};
	else if (!strcmp(palette, "orange"))
		c = (fg_rgb){190 + (int)(65 * v1), 90 + (int)(65 * v1), 0};
	return c;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && memcmp(s + n - m, tail, m) == 0;
}

/* The multi-palettes: which base palette a name gets. */
static const char *model_pick(const char *palette, const char *name)
{
	if (!strcmp(palette, "java")) {
		const char *n = name[0] == 'L' ? name + 1 : name;
		static const char *const prefixes[] = {"java/", "javax/", "jdk/", "net/", "org/", "com/", "io/", "sun/"};
		if (ends_with(name, "_[j]"))
			return "green";
		if (ends_with(name, "_[i]"))
			return "aqua";
		for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++)
			if (strncmp(n, prefixes[i], strlen(prefixes[i])) == 0)
				return "green";
		if (strstr(name, ":::"))
			return "green";
		if (strstr(name, "::"))
			return "yellow";
		return ends_with(name, "_[k]") ? "orange" : "red";
	}
	if (!strcmp(palette, "perl")) {
		if (strstr(name, "::"))
			return "yellow";
		if (strstr(name, "Perl") || strstr(name, ".pl"))
			return "green";
		return ends_with(name, "_[k]") ? "orange" : "red";
	}
	if (!strcmp(palette, "js")) {
		/* flamegraph.pl: m:_\[j\]$:, /::/, m:/.*\.js:, m/:/, m/^ $/, m:_\[k\]: */
		const char *slash = strchr(name, '/');
		if (ends_with(name, "_[j]"))
			return slash ? "green" : "aqua";
		if (strstr(name, "::"))
			return "yellow";
		if (slash && strstr(slash, ".js"))
			return "green";
		if (strchr(name, ':'))
			return "aqua";
		if (!strcmp(name, " "))
			return "green";
		return strstr(name, "_[k]") ? "orange" : "red";
	}
	if (!strcmp(palette, "chain"))
		return strstr(name, "_[w]") ? "aqua" : "blue";
	if (!strcmp(palette, "wakeup"))
		return "aqua";
	return palette;
}

static const char *const names[] = {
	"", "main", "java/lang/Thread.run", "Ljava/util/HashMap.get", "Foo::bar", "a:::b",
	"vfs_read_[k]", "Compiled_[j]", "inl_[i]", "waker_[w]", "Perl_pp_entersub", "x.pl",
	"module::sub", "é", "日本語", "org/apache/X", "sun/misc/Unsafe", "com/x", "libc.so.1`malloc",
	"foo.json", "x.js/y", "foo.js:1", "/srv/app.js", "LazyCompile:~f /a/b.js:3", "b.js", " ",
	"a/b_[j]", "ab_[j]", "do_sys_[k]x",
};

static void test_palettes(void)
{
	static const char *const palettes[] = {
		"hot", "mem", "io", "red", "green", "blue", "yellow", "purple", "aqua", "orange",
		"java", "perl", "js", "chain", "wakeup",
	};
	for (size_t p = 0; p < sizeof(palettes) / sizeof(*palettes); p++) {
		fg_palette palette = fg_palette_by_name(palettes[p]);
		int wrong = 0;
		for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
			double v = model_seeded(names[i]);
			fg_rgb want = model_base(model_pick(palettes[p], names[i]), v, v, v);
			fg_rgb got = fg_color_of(palette, FG_COLOR_NAME_SEEDED, names[i], strlen(names[i]), NULL);
			if (want.r != got.r || want.g != got.g || want.b != got.b) {
				if (wrong++ == 0)
					printf("    %s %s: want rgb(%d,%d,%d), got rgb(%d,%d,%d)\n", palettes[p], names[i],
					       want.r, want.g, want.b, got.r, got.g, got.b);
			}
		}
		CHECK(wrong == 0, "color: %s, name-seeded, as the model for %zu names", palettes[p],
		      sizeof(names) / sizeof(*names));
	}
	fg_rgb root = fg_color_of(FG_PALETTE_HOT, FG_COLOR_NAME_SEEDED, "", 0, NULL);
	CHECK(root.r == 213 && root.g == 39 && root.b == 9, "color: the root under hot is rgb(213,39,9)");
	fg_rgb black = fg_color_of(fg_palette_by_name("Java"), FG_COLOR_NAME_SEEDED, "x", 1, NULL);
	CHECK(black.r == 0 && black.g == 0 && black.b == 0, "color: an unknown palette (Java) is black");
}

/* --hash: 1 - weighted sum over the first three characters, module prefix cut. */
static double model_hash(const char *name)
{
	const char *tick = strchr(name + (name[0] != '\0'), '`');
	if (tick != NULL)
		name = tick + 1;
	double vector = 0, weight = 1, max = 1;
	int modulo = 10;
	for (int i = 0; i < 3 && name[i]; i++) {
		vector += ((unsigned char)name[i] % modulo) / (double)(modulo - 1) * weight;
		modulo++;
		max += weight; /* 1 + the weights of the characters used */
		weight *= 0.7;
	}
	return 1 - vector / max;
}

static void test_hash(void)
{
	static const char *const ascii[] = {"main", "ab", "x", "q", "libc.so.1`malloc", "`lead", "zzzz", "a`b`c"};
	int wrong = 0;
	for (size_t i = 0; i < sizeof(ascii) / sizeof(*ascii); i++) {
		char reversed[64];
		size_t n = strlen(ascii[i]);
		for (size_t k = 0; k < n; k++)
			reversed[k] = ascii[i][n - 1 - k];
		reversed[n] = '\0';
		fg_rgb want = model_base("hot", model_hash(ascii[i]), model_hash(reversed), model_hash(reversed));
		fg_rgb got = fg_color_of(FG_PALETTE_HOT, FG_COLOR_HASH, ascii[i], n, NULL);
		if (want.r != got.r || want.g != got.g || want.b != got.b) {
			if (wrong++ == 0)
				printf("    %s: want rgb(%d,%d,%d), got rgb(%d,%d,%d)\n", ascii[i],
				       want.r, want.g, want.b, got.r, got.g, got.b);
		}
	}
	CHECK(wrong == 0, "color: --hash as the model (module prefix cut, three characters)");
	uint64_t state = 1;
	fg_rgb a = fg_color_of(FG_PALETTE_HOT, FG_COLOR_RANDOM, "same", 4, &state);
	int differs = 0;
	for (int i = 0; i < 20; i++) {
		fg_rgb b = fg_color_of(FG_PALETTE_HOT, FG_COLOR_RANDOM, "same", 4, &state);
		differs += a.r != b.r || a.g != b.g || a.b != b.b;
		CHECK(b.r >= 205 && b.r <= 254 && b.g <= 229 && b.b <= 54, "color: --random stays in hot's range (%d)", i);
	}
	CHECK(differs > 0, "color: --random draws new colours for one name");
}

static void test_backgrounds(void)
{
	const char *top, *bottom;
	char custom[8];
	CHECK(fg_background_stops("yellow", &top, &bottom, custom), "background: yellow");
	CHECK(fg_background_stops("grey", &top, &bottom, custom), "background: grey");
	CHECK(!fg_background_stops("gray", &top, &bottom, custom), "background: gray is not a name");
	CHECK(fg_background_stops("#123abc", &top, &bottom, custom) && strcmp(top, bottom) == 0,
	      "background: #rrggbb is flat");
	CHECK(!fg_background_stops("#12345", &top, &bottom, custom), "background: # needs six characters");
	CHECK_STR(fg_palette_background(FG_PALETTE_MEM), "green", "background: mem defaults to green");
	CHECK_STR(fg_palette_background(FG_PALETTE_IO), "blue", "background: io defaults to blue");
	CHECK_STR(fg_palette_background(FG_PALETTE_HOT), "yellow", "background: hot defaults to yellow");
}

static void test_delta(void)
{
	fg_rgb c = fg_color_of_delta(10, 10);
	CHECK(c.r == 255 && c.g == 0 && c.b == 0, "delta: +max is rgb(255,0,0)");
	c = fg_color_of_delta(-4, 10);
	CHECK(c.r == 126 && c.g == 126 && c.b == 255, "delta: -4 of 10 is rgb(126,126,255)");
	c = fg_color_of_delta(0, 10);
	CHECK(c.r == 255 && c.g == 255 && c.b == 255, "delta: none is white");
}

/* The policy: which rule colours which frame (fg_frame_color). */
static void test_policy(void)
{
	fg_graph_options o;
	fg_graph_options_init(&o);
	fg_frame_colors c;
	fg_frame_colors_init(&c, &o, NULL, 1);
	uint32_t color = 0;
	char hex[8];
	CHECK(fg_frame_color(&c, "--", 2, false, NULL, &color) == 0 && color == 0xa0a0a0,
	      "policy: \"--\" is grey");
	CHECK(fg_frame_color(&c, "-", 1, false, NULL, &color) == 0 && color == 0xc8c8c8,
	      "policy: \"-\" is light grey");
	fg_rgb hot = fg_color_of(FG_PALETTE_HOT, FG_COLOR_NAME_SEEDED, "main", 4, NULL);
	CHECK(fg_frame_color(&c, "main", 4, false, NULL, &color) == 0 &&
	      color == ((uint32_t)hot.r << 16 | (uint32_t)hot.g << 8 | hot.b), "policy: the palette");
	fg_frame_change change = {0, 10, -1};
	CHECK(fg_frame_color(&c, "main", 4, false, &change, &color) == 0 && color == 0xb4b4d2,
	      "policy: only before is lavender");
	change = (fg_frame_change){10, 10, 0};
	CHECK(fg_frame_color(&c, "--", 2, true, &change, &color) == 0 && color == 0xff0000,
	      "policy: the root is never a separator; a change is red");
	CHECK_STR(fg_frame_color_text(&c, 0x0a0b0c, hex), "#0a0b0c", "policy: hex text");
	fg_frame_colors_free(&c);

	fg_name_table *map = fg_name_table_new();
	fg_name_table_put(map, "a", 1, "rgb(1,2,3)");
	fg_frame_colors_init(&c, &o, map, 1);
	uint32_t a = 0, b = 0, again = 0;
	CHECK(fg_frame_color(&c, "a", 1, false, NULL, &a) == 0 && (a & FG_COLOR_FROM_MAP) &&
	      strcmp(fg_frame_color_text(&c, a, hex), "rgb(1,2,3)") == 0, "policy: --cp takes the map's");
	CHECK(fg_frame_color(&c, "main", 4, false, NULL, &b) == 0 && b != a &&
	      fg_name_table_get(map, "main", 4) != NULL, "policy: --cp adds a new name to the map");
	CHECK(fg_frame_color(&c, "a", 1, false, NULL, &again) == 0 && again == a,
	      "policy: one colour per distinct map value");
	fg_frame_colors_free(&c);
	fg_name_table_free(map);

	/* Many distinct values (found by their text, not a list searched per
	 * name): 20,000 names, two to a value, each gets its own value's text,
	 * and the two names of a value one colour. */
	map = fg_name_table_new();
	fg_frame_colors_init(&c, &o, map, 1);
	bool each = map != NULL;
	for (int i = 0; each && i < 20000; i++) {
		char name[32], value[32];
		snprintf(name, sizeof(name), "f%d", i);
		snprintf(value, sizeof(value), "rgb(%d,%d,%d)", (i / 2) % 256, (i / 512) % 256, 7);
		each = fg_name_table_put(map, name, strlen(name), value) == 0;
	}
	uint32_t first = 0, second = 0;
	for (int i = 0; each && i < 20000; i += 2) {
		char name[32], value[32];
		snprintf(value, sizeof(value), "rgb(%d,%d,%d)", (i / 2) % 256, (i / 512) % 256, 7);
		snprintf(name, sizeof(name), "f%d", i);
		each = fg_frame_color(&c, name, strlen(name), false, NULL, &first) == 0 &&
		       strcmp(fg_frame_color_text(&c, first, hex), value) == 0;
		snprintf(name, sizeof(name), "f%d", i + 1);
		each = each && fg_frame_color(&c, name, strlen(name), false, NULL, &second) == 0 &&
		       second == first;
	}
	CHECK(each && fg_string_map_size(c.map_value_index) == 10000,
	      "policy: --cp, 20,000 names of 10,000 values: each its value, one colour a value");
	fg_frame_colors_free(&c);
	fg_name_table_free(map);
}

/* The chain palette's stacks (fg_palette_stack). */
static void test_chain(void)
{
	fg_buffer scratch = {0, 0, 0};
	const char *stack = "a;b;--;c;d";
	size_t length;
	length = strlen(stack);
	fg_palette_stack("chain", &scratch, &stack, &length);
	CHECK(length == 18 && memcmp(stack, "a;b;--;c_[w];d_[w]", 18) == 0,
	      "chain: the frames after \";--;\" are annotated _[w]");
	stack = "a;b";
	length = 3;
	fg_palette_stack("chain", &scratch, &stack, &length);
	CHECK(length == 3 && memcmp(stack, "a;b", 3) == 0,
	      "chain: a stack with no \";--;\" stays as it is (no grey \"--\" on top, as the original's)");
	stack = "a;b";
	length = 3;
	CHECK(fg_palette_stack("hot", &scratch, &stack, &length) == 0 && length == 3 &&
	      strcmp(stack, "a;b") == 0, "chain: other palettes keep the stack");
	fg_buffer_free(&scratch);
}

int main(void)
{
	test_policy();
	test_chain();
	test_palettes();
	test_hash();
	test_backgrounds();
	test_delta();
	return check_exit();
}
