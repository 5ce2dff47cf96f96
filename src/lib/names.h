/*
 * names.h - tables keyed by frame name that come from files: the
 * consistent palette (--cp, palette.map) and --nameattr. Internal.
 */
#ifndef FG_NAMES_H
#define FG_NAMES_H

#include "text.h"

typedef struct fg_name_table fg_name_table;

/* An empty table. */
fg_name_table *fg_name_table_new(void);
void fg_name_table_free(fg_name_table *t);

/* The value stored for name, or NULL. */
const char *fg_name_table_get(const fg_name_table *t, const char *name, size_t length);

/* Stores (a copy of) value for name, replacing any earlier one. */
int fg_name_table_put(fg_name_table *t, const char *name, size_t length, const char *value);

/*
 * palette.map: "NAME->COLOUR" lines. Reading splits at the last "->" (the
 * original split at the first, which broke names like "a->b"); a missing
 * file is an empty table. Lines without "->", or with a colour that would
 * load from elsewhere, are left out, each with a warning. Writing rewrites
 * the file sorted by name.
 */
int fg_palette_map_read(fg_name_table *t, const char *path, const fg_warner *warner, fg_error *err);
int fg_palette_map_write(fg_name_table *t, const char *path, fg_error *err);
/* The file written but not yet in place: fg_output_commit puts it there
 * (no allocation left to fail), fg_output_abort drops it. NULL on error. */
fg_output *fg_palette_map_prepare(fg_name_table *t, const char *path, fg_error *err);

/*
 * --nameattr FILE: "NAME<TAB>key=value<TAB>..." lines. Each name's value is
 * stored pre-rendered as "TAG\tOPEN-TAG\tTITLE": TAG "g" or "a" (with an
 * href), the opening tag with escaped attributes, and a replacement
 * tooltip (may be empty). Unknown keys and unsafe extras are warned about
 * and dropped.
 */
int fg_name_attributes_read(fg_name_table *t, const char *path, const fg_warner *warner,
			    fg_error *err);

#endif
