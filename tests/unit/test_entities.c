/*
 * test_entities.c - unit tests of entities.c: only names used twice or
 * more that save bytes get an entity, the most used the shortest id, the
 * names XML predefines are skipped, and values are escaped for a DTD.
 */
#include <stdlib.h>

#include "check.h"
#include "entities.h"

static bool ref(const fg_entities *d, const char *name, char *out)
{
	fg_buffer b = {0, 0, 0};
	bool failed = false;
	bool found = fg_entities_ref(d, &b, name, strlen(name), &failed);
	snprintf(out, 32, "%.*s", (int)b.length, b.data ? b.data : "");
	fg_buffer_free(&b);
	return found && !failed;
}

int main(void)
{
	fg_entities *d = fg_entities_new();
	fg_buffer dtd = {0, 0, 0};
	for (int i = 0; i < 5; i++)
		fg_entities_use(d, "a_long_function_name", 20, NULL);
	for (int i = 0; i < 3; i++)
		fg_entities_use(d, "second_function", 15, NULL);
	fg_entities_use(d, "used_once_only", 14, NULL);
	for (int i = 0; i < 9; i++)
		fg_entities_use(d, "ab", 2, NULL);
	CHECK(fg_entities_choose(d, &dtd) == 0, "entities: choose");
	char text[32];
	CHECK(ref(d, "a_long_function_name", text) && strcmp(text, "&a;") == 0,
	      "entities: the most used name gets &a;");
	CHECK(ref(d, "second_function", text) && strcmp(text, "&b;") == 0, "entities: the next &b;");
	CHECK(!ref(d, "used_once_only", text), "entities: a name used once has none");
	CHECK(!ref(d, "ab", text), "entities: a two-byte name has none");
	CHECK(dtd.length > 0 && memcmp(dtd.data, "<!ENTITY a \"a_long_function_name\">\n", 35) == 0,
	      "entities: the declarations");
	fg_entities_free(d);
	fg_buffer_free(&dtd);

	/* Long names: up to 1024 bytes (escaped: '&' is 5) an entity, past it
	 * none, however often used (expat's limit on entity expansion). */
	d = fg_entities_new();
	dtd = (fg_buffer){0, 0, 0};
	static char names[4][1100];
	const size_t lengths[4] = {1024, 1025, 1020, 1020};
	for (int n = 0; n < 4; n++) {
		memset(names[n], 'a' + n, lengths[n]);
		names[n][lengths[n]] = '\0';
	}
	memset(names[3], '&', 2); /* 1020 bytes, 1028 escaped */
	for (int i = 0; i < 1000; i++)
		for (int n = 0; n < 4; n++)
			fg_entities_use(d, names[n], lengths[n], NULL);
	CHECK(fg_entities_choose(d, &dtd) == 0, "entities: choose long names");
	CHECK(ref(d, names[0], text) && ref(d, names[2], text), "entities: names of 1024 bytes or fewer have one");
	CHECK(!ref(d, names[1], text), "entities: a name of 1025 bytes has none");
	CHECK(!ref(d, names[3], text), "entities: nor one of 1020 bytes, 1028 escaped");
	fg_entities_free(d);
	fg_buffer_free(&dtd);

	/* Enough names to reach the ids XML predefines: lt, gt are skipped.
	 * (Some names are used too little for an entity.) */
	d = fg_entities_new();
	static uint32_t entries[60 * 30];
	for (int i = 0; i < 60 * 30; i++) {
		char name[32];
		snprintf(name, sizeof(name), i % 7 ? "function_%04d" : "f%d", i);
		for (int k = 0; k < (i % 11 ? 2 + (60 * 30 - i) : 1); k++)
			fg_entities_use(d, name, strlen(name), &entries[i]);
	}
	CHECK(fg_entities_choose(d, &dtd) == 0 && memmem(dtd.data, dtd.length, "<!ENTITY lt ", 12) == NULL &&
	      memmem(dtd.data, dtd.length, "<!ENTITY gt ", 12) == NULL &&
	      memmem(dtd.data, dtd.length, "<!ENTITY s", 10) == NULL, "entities: lt, gt and s are never ids");
	int same = 0, with = 0;
	for (int i = 0; i < 60 * 30; i++) {
		char name[32];
		snprintf(name, sizeof(name), i % 7 ? "function_%04d" : "f%d", i);
		fg_buffer by_name = {0, 0, 0}, by_entry = {0, 0, 0};
		bool failed = false;
		bool a = fg_entities_ref(d, &by_name, name, strlen(name), &failed);
		bool b = fg_entities_ref_entry(d, &by_entry, entries[i], &failed);
		same += a == b && !failed && by_name.length == by_entry.length &&
			(by_name.length == 0 || memcmp(by_name.data, by_entry.data, by_name.length) == 0);
		with += a;
		fg_buffer_free(&by_name);
		fg_buffer_free(&by_entry);
	}
	CHECK(same == 60 * 30 && with > 1000 && with < 60 * 30,
	      "entities: a name's entry from fg_entities_use gives its reference (%d of %d, %d with one)",
	      same, 60 * 30, with);
	bool failed = false;
	fg_buffer none = {0, 0, 0};
	CHECK(!fg_entities_ref_entry(d, &none, 0, &failed) && none.length == 0 && !failed,
	      "entities: entry 0 (a name not counted) has no reference");
	fg_entities_free(d);
	fg_buffer_free(&dtd);

	fg_buffer value = {0, 0, 0}, scratch = {0, 0, 0};
	CHECK(fg_entity_value(&value, &scratch, "a<b>&\"50%\"", 10) == 0 && value.length == 34 &&
	      memcmp(value.data, "a&lt;b&gt;&amp;&quot;50&#37;&quot;", 34) == 0,
	      "entities: a value is escaped, %% as &#37;");
	fg_buffer_free(&value);
	fg_buffer_free(&scratch);
	fg_entities_free(NULL);
	return check_exit();
}
