/*
 * xmlcheck.h - a strict checker for the XML that fg-render writes, for the
 * fuzz harnesses and tests: well-formedness (balanced tags, quoted
 * attributes, valid references to declared entities, only XML 1.0
 * characters in valid UTF-8, no "]]>" in text, one root) plus fg's own
 * rules: only the element names of docs/svg-contract.md, no event-handler
 * attributes, and at most one <script>.
 */
#ifndef FG_XMLCHECK_H
#define FG_XMLCHECK_H

#include <stddef.h>

/* Returns NULL when xml passes, else a static message saying why not;
 * *scripts is the number of <script> elements. */
const char *xml_check(const char *xml, size_t length, int *scripts);

#endif
