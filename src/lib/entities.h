/*
 * entities.h - the SVG's entity dictionary: names that several frames
 * share are declared once as XML entities (<!ENTITY a "name">) and written
 * as &a; in titles, labels and the view data. A standard XML mechanism
 * every parser and browser expands, and most of the size of a large graph.
 * Internal to libfolded.
 *
 * Use: fg_entities_use for every name a frame shows, once per frame; then
 * fg_entities_choose once, which gives an entity to exactly the names that
 * save bytes and writes their declarations; then fg_entities_ref.
 */
#ifndef FG_ENTITIES_H
#define FG_ENTITIES_H

#include "text.h"

typedef struct fg_entities fg_entities;

/* An empty dictionary; NULL when out of memory. */
fg_entities *fg_entities_new(void);
void fg_entities_free(fg_entities *d);

/* Counts one more use of a name (names of 2 bytes or less never gain from
 * an entity and are not counted). *entry, when entry is not NULL, is set
 * to the name's entry for fg_entities_ref_entry (0: not counted). 0 or
 * FG_ENOMEM. */
int fg_entities_use(fg_entities *d, const char *name, size_t length, uint32_t *entry);
/* Counts one more use of the name of an entry from fg_entities_use (0:
 * nothing is counted): no lookup. */
void fg_entities_use_entry(fg_entities *d, uint32_t entry);

/*
 * Gives entities to the names used at least twice whose declaration costs
 * less than it saves, most used first (ties in byte order), named a, b,
 * ..., aa, ... skipping the names XML predefines, and appends their
 * declarations to dtd. 0 or FG_ENOMEM.
 */
int fg_entities_choose(fg_entities *d, fg_buffer *dtd);

/* Appends "&id;" for a name that has an entity and returns true; false
 * (out untouched) when it has none, or before fg_entities_choose. *failed
 * is set when out of memory. */
bool fg_entities_ref(const fg_entities *d, fg_buffer *out, const char *name, size_t length,
		     bool *failed);
/* The same, for a name by its entry from fg_entities_use: no lookup. */
bool fg_entities_ref_entry(const fg_entities *d, fg_buffer *out, uint32_t entry, bool *failed);

/* Appends text as an entity value (or any DTD literal): cleaned, escaped,
 * and % as a character reference (a raw % would start a parameter entity).
 * scratch is working space. 0 or FG_ENOMEM. */
int fg_entity_value(fg_buffer *out, fg_buffer *scratch, const char *text, size_t length);

#endif
