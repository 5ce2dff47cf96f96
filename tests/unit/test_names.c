/*
 * test_names.c - unit tests of names.c: the name table, and palette.map
 * read back after a write (sorted by name, names holding "->" kept whole,
 * a missing file an empty table).
 */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "folded.h"
#include "names.h"

static char *slurp(const char *path)
{
	static char text[4096];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	text[n] = '\0';
	if (f)
		fclose(f);
	return text;
}

int main(void)
{
	fg_name_table *t = fg_name_table_new();
	CHECK(t != NULL && fg_name_table_get(t, "a", 1) == NULL, "names: an empty table");
	CHECK(fg_name_table_put(t, "a", 1, "rgb(1,2,3)") == 0, "names: put");
	CHECK(fg_name_table_put(t, "a", 1, "rgb(4,5,6)") == 0, "names: put again");
	CHECK_STR(fg_name_table_get(t, "a", 1), "rgb(4,5,6)", "names: the last value wins");
	CHECK(fg_name_table_put(t, "a\0b", 3, "rgb(7,7,7)") == 0 && fg_name_table_get(t, "a", 1) != NULL &&
	      strcmp(fg_name_table_get(t, "a\0b", 3), "rgb(7,7,7)") == 0, "names: names are bytes (NUL inside)");
	for (int i = 0; i < 5000; i++) {
		char name[16], value[32];
		snprintf(name, sizeof(name), "f%d", i);
		snprintf(value, sizeof(value), "rgb(%d,0,0)", i % 256);
		fg_name_table_put(t, name, strlen(name), value);
	}
	CHECK_STR(fg_name_table_get(t, "f4321", 5), "rgb(225,0,0)", "names: 5,000 names, each found");
	fg_name_table_free(t);

	char dir[] = "/tmp/fg-test-names.XXXXXX";
	if (mkdtemp(dir) == NULL)
		return 1;
	char path[300];
	snprintf(path, sizeof(path), "%s/palette.map", dir);
	fg_error err = {0};
	t = fg_name_table_new();
	CHECK(fg_palette_map_read(t, path, NULL, &err) == 0 && fg_name_table_get(t, "x", 1) == NULL,
	      "palette.map: a missing file is an empty table");
	fg_name_table_put(t, "zeta", 4, "rgb(1,1,1)");
	fg_name_table_put(t, "c->d", 4, "rgb(2,2,2)");
	fg_name_table_put(t, "alpha", 5, "rgb(3,3,3)");
	CHECK(fg_palette_map_write(t, path, &err) == 0, "palette.map: written");
	CHECK_STR(slurp(path), "alpha->rgb(3,3,3)\nc->d->rgb(2,2,2)\nzeta->rgb(1,1,1)\n",
		  "palette.map: NAME->COLOUR lines sorted by name");
	fg_name_table_free(t);
	t = fg_name_table_new();
	CHECK(fg_palette_map_read(t, path, NULL, &err) == 0, "palette.map: read back");
	CHECK_STR(fg_name_table_get(t, "c->d", 4), "rgb(2,2,2)", "palette.map: a name holding -> reads back whole");
	CHECK_STR(fg_name_table_get(t, "zeta", 4), "rgb(1,1,1)", "palette.map: every entry reads back");
	fg_name_table_free(t);
	unlink(path);
	rmdir(dir);
	return check_exit();
}
