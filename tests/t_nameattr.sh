#!/usr/bin/env bash
# tests/t_nameattr.sh - hostile --nameattr files (issue 13 items 1 and 2):
# no crash, no script, no restyling, well-formed XML; every refusal is a
# warning naming the file and line.
. "$(dirname "$0")/lib.sh"
R=$BIN/fg-render
printf 'main;work 5\nmain;idle 3\n' >"$TMP/in"

# attrs LINE: renders with a one-line nameattr file; leaves svg and err.
attrs() {
	printf '%b\n' "$1" >"$TMP/attrs"
	"$R" --nameattr "$TMP/attrs" "$TMP/in" >"$TMP/svg" 2>"$TMP/err"
	echo $? >"$TMP/status"
}
# refused NAME LINE PATTERN: exit 0, PATTERN absent from the SVG, a warning
# "attrs:1:", well-formed XML.
refused() {
	attrs "$2"
	local status
	status=$(cat "$TMP/status")
	if [ "$status" = 0 ] && ! grep -q -- "$3" "$TMP/svg" && grep -q "attrs:1: " "$TMP/err" &&
		python3 -c 'import sys,xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$TMP/svg" 2>/dev/null; then
		pass "--nameattr refuses $1"
	else
		fail "--nameattr refuses $1" "status $status" "$(cat "$TMP/err")" "$(grep -o -- "$3.\{0,40\}" "$TMP/svg" | head -3)"
	fi
}

# Item 1: a NUL byte in an extra used to cut the stored tag (segfault).
attrs 'work\tg_extra=data-x="a\0b"'
check_eq "--nameattr extra with a NUL byte: no crash" 0 "$(cat "$TMP/status")"
check "--nameattr extra with a NUL byte: a warning with file and line" grep -q 'attrs:1: g_extra dropped: a control byte' "$TMP/err"
check_xml "--nameattr extra with a NUL byte: well-formed XML" "$TMP/svg"
attrs 'work\ttitle=a\0b\tid=x\0y'
check_eq "--nameattr title/id with a NUL byte: no crash" 0 "$(cat "$TMP/status")"
check_xml "--nameattr title/id with a NUL byte: well-formed XML" "$TMP/svg"

# Item 2: links and extras that could run script or restyle the page.
refused "a javascript: link" 'work\thref=javascript:alert(1)' 'javascript'
refused "a JavaScript: link in capitals" 'work\thref=JaVaScRiPt:alert(1)' 'alert'
refused "a data: link" 'work\thref=data:text/html,<script>' 'data:text'
refused "a link with a tab in its scheme" 'work\thref=java\x01script:alert(1)' 'script:alert'
refused "an a_extra href" 'work\thref=https://ok.example/\ta_extra=href="javascript:alert(1)"' 'javascript'
refused "an a_extra xlink:href" 'work\thref=https://ok.example/\ta_extra=xlink:href="javascript:alert(1)"' 'javascript'
refused "a style extra" 'work\tg_extra=style="display:none"' 'style="display'
refused "an event handler in capitals" 'work\tg_extra=ONclick="alert(1)"' 'alert'
refused "xml:base" 'work\tg_extra=xml:base="javascript:/"' 'xml:base'
refused "xmlns" 'work\tg_extra=xmlns="http://evil.example/"' 'evil'
refused "an undeclared prefix" 'work\tg_extra=foo:bar="1"' 'foo:bar'
refused "a duplicated attribute" 'work\tclass=c1\tg_extra=class="c2"' 'c2'
refused "the same attribute twice in an extra" 'work\tg_extra=data-a="1" data-a="2"' 'data-a="2"'
refused "attributes with no space between them" 'work\tg_extra=data-a="1"data-b="2"' 'data-b'
# Presentation attributes are CSS: url() and image-set() load from any
# host when the graph is opened, ping on a click.
refused "a url() in an extra" 'work\tg_extra=fill="url(http://evil.example/p.svg#p)"' 'evil'
refused "a url() in capitals" 'work\tg_extra=mask="URL(//evil.example/m.svg#m)"' 'evil'
refused "a url() spelt with a CSS escape" 'work\tg_extra=filter="\\75 rl(//evil.example/f.svg#f)"' 'evil'
refused "an image-set() cursor" "work\\tg_extra=cursor=\"-webkit-image-set('//evil.example/c.png' 1x), auto\"" 'evil'
refused "a ping" 'work\thref=https://example.com/\ta_extra=ping="https://evil.example/p"' 'evil'
refused "target twice" 'work\thref=https://ok.example/\ta_extra=target="_blank"' '_blank'
refused "invalid UTF-8" 'work\tg_extra=data-x="\xff\xfe"' 'data-x="'

refused "an id the viewer's elements use (fg-data)" 'work\tid=fg-data' 'id="fg-data"[^>]*><title>work'
refused "an id the viewer's elements use (details)" 'work\tid=details' 'id="details"[^>]*><title>work'
for id in prev-match next-match clear-search; do
	refused "an id of a button the viewer adds ($id)" "work\tid=$id" "id=\"$id\"[^>]*><title>work"
done
refused "an id in an extra" 'work\tg_extra=id="frames"' 'id="frames"[^>]*><title>work'

# What stays allowed.
attrs 'work\thref=https://example.com/a?b=1\ttarget=_blank\tclass=c\tg_extra=data-x="1" xlink:title="t"'
check "--nameattr https links and plain extras stay" grep -q '<a xlink:href="https://example.com/a?b=1" target="_blank" class="c" data-x="1" xlink:title="t">' "$TMP/svg"
attrs 'work\thref=../docs/work.html#top'
check "--nameattr relative links stay" grep -q '<a xlink:href="../docs/work.html#top"' "$TMP/svg"
attrs 'work\thref=//cdn.example/x'
check "--nameattr scheme-relative links stay" grep -q '<a xlink:href="//cdn.example/x"' "$TMP/svg"

# A --nameattr file that cannot be read: said with the option's name, and
# before the inputs are read (here a FIFO no one writes to, which would
# block the run: it must not even be opened).
rm -f "$TMP/never"
mkfifo "$TMP/never"
check_failure "--nameattr missing: named, exit 2" 2 "^fg-render: --nameattr $TMP/missing: No such file" \
	timeout 10 "$BIN/fg-render" --nameattr "$TMP/missing" "$TMP/never"
mkdir -p "$TMP/attrdir"
check_failure "--nameattr a directory: named, exit 2" 2 "^fg-render: --nameattr $TMP/attrdir: Is a directory" \
	timeout 10 "$BIN/fg-render" --nameattr "$TMP/attrdir" "$TMP/never"

# Blank lines in a --nameattr file are no lines to warn about; others are.
printf 'work\ttitle=T\n\n   \nnotab\n' >"$TMP/blanks"
printf 'main;work 3\n' | "$BIN/fg-render" --nameattr "$TMP/blanks" >/dev/null 2>"$TMP/err"
check_eq "--nameattr: blank lines are skipped silently, a line without a tab is not" \
	"fg-render: $TMP/blanks:4: no tab after the function name; line ignored" "$(grep -v 'Stack count is low' "$TMP/err")"

# A --nameattr file that is a pipe (<(...), /dev/stdin) is read once, by the
# real read: the check before the inputs must not take its bytes.
out=$(printf 'main;work 3\n' >"$TMP/pipe-in"; "$BIN/fg-render" --nameattr <(printf 'work\ttitle=from a pipe\n') "$TMP/pipe-in" 2>/dev/null)
check "--nameattr <(...): the attributes arrive" grep -q '<title>from a pipe</title>' <<<"$out"
out=$(printf 'work\ttitle=from stdin\n' | "$BIN/fg-render" --nameattr /dev/stdin "$TMP/pipe-in" 2>/dev/null)
check "--nameattr /dev/stdin: the attributes arrive" grep -q '<title>from stdin</title>' <<<"$out"

# A socket is no file to read: refused before the inputs (here the FIFO no
# one writes to, which would block the run), as open() refuses it.
if python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$TMP/attrsock" 2>/dev/null; then
	check_failure "--nameattr a socket: refused at once, exit 2" 2 "^fg-render: --nameattr $TMP/attrsock: No such device or address" \
		timeout 10 "$BIN/fg-render" --nameattr "$TMP/attrsock" "$TMP/never"
fi
