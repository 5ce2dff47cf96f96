#!/usr/bin/env bash
# tests/t_embed.sh - the build tool that embeds the viewer (src/tools/embed.c):
# what its light minifying keeps and drops, on lines made for each rule.
. "$(dirname "$0")/lib.sh"

EMBED=$BIN/tools/embed
if [ ! -x "$EMBED" ]; then
	skip "embed" "no $EMBED (make builds it)"
	exit 0
fi
# The constant's text, one line per embedded line.
embedded() { "$EMBED" -n x "$1" | sed -n 's/^"\(.*\)\\n"$/\1/p'; }

cat >"$TMP/in.js" <<'JS'
	var a = b + c;   
// a line comment
/* a one-line block comment */
/*
 * a block comment
 */
x = y - -z; w = v + ++u; k = j-- - 1;
if (p in q && typeof r === s) { t(); } /* a trailing comment */
var s = 'a = b', re = /a b/; // quotes or a slash: left as they are
n = m[o[i]] > 0;
var f = 1 .toFixed(2);
if (x < ! --y) z();
-- > x;
JS
want='var a=b+c;
x=y- -z;w=v+ ++u;k=j-- -1;
if(p in q&&typeof r===s){t();}
var s = '"'"'a = b'"'"', re = /a b/; // quotes or a slash: left as they are
n = m[o[i]] > 0;
var f=1 .toFixed(2);
if (x < ! --y) z();
-- > x;'
check_eq "embed: spaces next to punctuation go, words and + - pairs keep theirs; comments go" \
	"$want" "$(embedded "$TMP/in.js")"
# CSS keeps every space (".a .b" is not ".a.b").
printf '.a .b { color : red }\n' >"$TMP/in.css"
check_eq "embed: CSS is not squeezed" ".a .b { color : red }" "$(embedded "$TMP/in.css")"
printf 'x = "]]>";\n' >"$TMP/bad.js"
check_failure "embed: ]]> is refused" 1 "would end the CDATA section" "$EMBED" -n x "$TMP/bad.js"

# A '?' is escaped: "??(" in a C string is a trigraph ('[') in C11, which
# silently changed a regular expression of the viewer.
printf 'var r = /a??(?=b)/;\n' >"$TMP/tri.js"
"$EMBED" -n embedded_text "$TMP/tri.js" >"$TMP/tri.c"
printf '#include <stdio.h>\nextern const char embedded_text[];\nint main(void) { fputs(embedded_text, stdout); return 0; }\n' >"$TMP/tri-main.c"
if ${CC:-cc} -std=c11 -o "$TMP/tri" "$TMP/tri.c" "$TMP/tri-main.c" 2>"$TMP/tri.err"; then
	check_eq "embed: '??(' survives the C compiler" 'var r = /a??(?=b)/;' "$("$TMP/tri")"
else
	fail "embed: '??(' survives the C compiler" "$(cat "$TMP/tri.err")"
fi
