# fg-render: options, exit codes, messages, determinism, exactness, hostile
# input, atomic output. Frame geometry against flamegraph.pl is in
# t_render_reference.sh; these tests need nothing outside the repository.
. "$(dirname "$0")/lib.sh"

R=$BIN/fg-render
F=$FIXTURES/render
SVGCHECK="python3 $FG_ROOT/tests/tools/svgcheck.py"

frames() { $SVGCHECK "$1"; }

# --- golden frame listings of the committed fixtures -------------------
for spec in "basic:" "basic:--inverted" "basic:--reverse" "basic:--flamechart" \
	"basic:--minwidth=50" "basic:--width=600 --height=20 --fontsize=10" \
	"tricky:" "tricky:--inverted --minwidth 0" "diff:" "diff:--negate"; do
	name=${spec%%:*} options=${spec#*:}
	golden=$F/$name${options:+.$(echo "$options" | tr -c 'a-z0-9\n' '_')}.frames
	# shellcheck disable=SC2086
	"$R" $options "$F/$name.folded" >"$TMP/g.svg" 2>/dev/null
	if ! frames "$TMP/g.svg" >"$TMP/g.frames"; then
		fail "golden $name $options: contract" "$(cat "$TMP/g.frames")"
	elif [ -n "${FG_UPDATE_GOLDEN:-}" ]; then
		cp "$TMP/g.frames" "$golden"; skip "golden $name $options" "updated $golden"
	else
		check_same "golden $name $options: frames" "$golden" "$TMP/g.frames"
	fi
done

# --- the layout against an independent model of flamegraph.pl's -------
# (tests/tools/flame_model.py: sorted stacks walked with a sample clock,
# so each frame's own samples sit at its left edge, the root's too).
MODEL="python3 $FG_ROOT/tests/tools/flame_model.py"
for spec in "basic:" "basic:--inverted" "basic:--reverse" "basic:--minwidth 50" \
	"basic:--width 600 --height 20 --fontsize 10" "tricky:--minwidth 0" \
	"own:" "own:--reverse" "own:--inverted --minwidth 30%" "basic:--subtitle s" \
	"basic:--inverted --subtitle s"; do
	name=${spec%%:*} options=${spec#*:}
	# shellcheck disable=SC2086
	"$R" $options "$F/$name.folded" >"$TMP/m.svg" 2>/dev/null
	frames "$TMP/m.svg" >"$TMP/m.drawn"
	# shellcheck disable=SC2086
	$MODEL $options "$F/$name.folded" >"$TMP/m.model"
	check "layout $name $options: same frames as the model" $MODEL --compare "$TMP/m.model" "$TMP/m.drawn"
done
printf ' 5\na 3\n' | "$R" >"$TMP/root.svg" 2>/dev/null
check "the root's own samples come first (' 5' then 'a 3': a starts at 5/8)" \
	grep -q '<title>a (3&s;37.50%)</title><rect x="747.5"' "$TMP/root.svg"

# Within a colour, frames come in the order of a walk with a stack: a
# frame, then its children's subtrees from the rightmost to the leftmost
# (tests/tools/frame_order.py rebuilds the tree from the geometry; the
# layout finds frames breadth first, then puts them in that order).
awk 'BEGIN { srand(21)
	for (i = 0; i < 3000; i++) {
		s = "r" int(rand() * 3); d = int(rand() * 9)
		for (k = 0; k < d; k++) s = s ";f" int(rand() * 4)
		print s, 1 + int(rand() * 5)
	} }' >"$TMP/order.folded"
for options in "" "--flamechart" "--colors chain" "--minwidth 0"; do
	# shellcheck disable=SC2086
	"$R" --width 120000 $options "$TMP/order.folded" >"$TMP/order.svg" 2>/dev/null
	check "frames in the walk's order within a colour $options" \
		python3 "$FG_ROOT/tests/tools/frame_order.py" "$TMP/order.svg"
done

# Empty stacks (' 5': samples with an empty backtrace) are the root's own
# samples in every option: counted in the root, first, never a nameless frame.
printf ' 5\na 3\na;b 2\n' >"$TMP/empty.folded"
for options in "" "--reverse" "--inverted" "--flamechart" "--colors chain" "--minwidth 0" "--cp"; do
	# shellcheck disable=SC2086
	(cd "$TMP" && "$R" $options empty.folded >"$TMP/empty.svg" 2>/dev/null)
	frames "$TMP/empty.svg" >"$TMP/empty.frames"
	check "empty stack $options: the root counts it (10)" grep -q '	10	all$' "$TMP/empty.frames"
	check "empty stack $options: a starts after it (x=600)" grep -q '	600	[0-9.]*	[0-9]*	a$' "$TMP/empty.frames"
	check "empty stack $options: no nameless frame" sh -c "! grep -q '	\$' '$TMP/empty.frames'"
done
rm -f "$TMP/palette.map"
printf ' 5 7\na 3 1\na;b 2 0\nc 0 2\n' | "$R" --diff-union >"$TMP/empty.svg" 2>/dev/null
check "empty stack --diff-union: the root's own width is max(5, 7)" \
	grep -q '<title>a (5&s;[^<]*</title><rect x="600"' "$TMP/empty.svg"

# --- basics ------------------------------------------------------------
check "--help prints the synopsis" sh -c "'$R' --help | grep -q '^Usage: fg-render'"
check "--version" sh -c "'$R' --version | grep -q '^fg-render [0-9]'"
check_status "unknown option is a usage error (1)" 1 "$R" --no-such-option
check_status "ambiguous prefix is a usage error (1)" 1 "$R" --f "$F/basic.folded"
check_status "bad --minwidth is a usage error (1)" 1 "$R" --minwidth=abc "$F/basic.folded"
check_status "bad --bgcolors is a usage error (1)" 1 "$R" --bgcolors=pink "$F/basic.folded"
check_status "missing input file exits 2" 2 "$R" "$TMP/does-not-exist"
"$R" "$TMP/does-not-exist" 2>"$TMP/err" >/dev/null
check "missing file message names the file" grep -q "^fg-render: $TMP/does-not-exist: No such file" "$TMP/err"
"$R" --inv --color=java "$F/basic.folded" >"$TMP/prefix.svg"
check "unique prefixes and = values work (--inv --color=java)" grep -q 'data-inverted="1"' "$TMP/prefix.svg"
"$R" < "$F/basic.folded" >"$TMP/stdin.svg"
"$R" - < "$F/basic.folded" >"$TMP/dash.svg"
"$R" "$F/basic.folded" >"$TMP/file.svg"
check "stdin, - and a file give the same bytes" sh -c "cmp -s '$TMP/stdin.svg' '$TMP/file.svg' && cmp -s '$TMP/dash.svg' '$TMP/file.svg'"

# --- determinism -------------------------------------------------------
"$R" "$F/basic.folded" >"$TMP/a.svg"
sort -r "$F/basic.folded" | "$R" >"$TMP/b.svg"
check "output does not depend on input order (without --flamechart)" cmp "$TMP/a.svg" "$TMP/b.svg"
cat "$F/basic.folded" "$F/basic.folded" | "$R" >"$TMP/twice.svg"
frames "$TMP/twice.svg" | awk -F'\t' '$5 == "all"' >"$TMP/root"
check "repeated lines add up (2 x 102)" grep -q "	204	all" "$TMP/root"
sed 's/$/\r/' "$F/basic.folded" | "$R" >"$TMP/crlf.svg"
check "CRLF input gives the same SVG as LF" cmp "$TMP/a.svg" "$TMP/crlf.svg"
if command -v gzip >/dev/null && "$R" --version >/dev/null; then
	gzip -c "$F/basic.folded" >"$TMP/basic.folded.gz"
	if "$R" "$TMP/basic.folded.gz" >"$TMP/gz.svg" 2>"$TMP/gz.err"; then
		check "gzip input (file) gives the same SVG" cmp "$TMP/a.svg" "$TMP/gz.svg"
		"$R" <"$TMP/basic.folded.gz" >"$TMP/gz2.svg"
		check "gzip input (stdin) gives the same SVG" cmp "$TMP/a.svg" "$TMP/gz2.svg"
	else
		check "gzip input without zlib is refused clearly" grep -q "built without zlib" "$TMP/gz.err"
	fi
fi

# --- messages and exit codes ---------------------------------------------
printf 'a;b 5\nno count here\n\na;c 3\nbad 1x\n' >"$TMP/bad.folded"
"$R" "$TMP/bad.folded" >"$TMP/bad.svg" 2>"$TMP/bad.err"
check_eq "invalid lines do not fail the run" 0 $?
check "invalid line reported with file:line" grep -q "^fg-render: $TMP/bad.folded:2: " "$TMP/bad.err"
check "second invalid line reported with its line number" grep -q "bad.folded:5: " "$TMP/bad.err"
check "summary of ignored lines" grep -q "ignored 2 lines with invalid format" "$TMP/bad.err"
check "valid lines still count" sh -c "$SVGCHECK '$TMP/bad.svg' | grep -q '	8	all'"
check "low sample count warning" grep -q "Stack count is low (8)" "$TMP/bad.err"
: >"$TMP/empty"
"$R" "$TMP/empty" >"$TMP/empty.svg" 2>"$TMP/empty.err"
check_eq "empty input exits 2" 2 $?
check "empty input still gives an SVG saying so" grep -q "No valid input" "$TMP/empty.svg"
check_xml "empty input SVG is well-formed" "$TMP/empty.svg"
printf 'a 0\n' | "$R" >/dev/null 2>&1
check_eq "all-zero counts exit 2" 2 $?

# --- exactness -----------------------------------------------------------
awk 'BEGIN { for (i = 0; i < 100000; i++) print "a;b 0.1"; print "a;c 9007199254740993" }' |
	"$R" --minwidth 0 >"$TMP/exact.svg"
check "root of 100,000 x 0.1 + 9007199254740993 is exact" \
	grep -q '<title>all (9,007,199,254,750,993&s;100%)</title>' "$TMP/exact.svg"
check "decimal sum of b is exactly 10,000" grep -q '(10,000&s;' "$TMP/exact.svg"
printf 'a 18446744073709551615\nb 1\n' | "$R" >"$TMP/over.svg" 2>"$TMP/over.err"
check_eq "count overflow is an error (exit 2)" 2 $?
check "count overflow message names the line" grep -q "<stdin>:2: the sum of counts exceeds" "$TMP/over.err"
printf 'a 2.5\nb 3.5\n' | "$R" --minwidth 0 >"$TMP/half.svg" 2>/dev/null
check "tooltip counts round half to even (2.5 -> 2)" grep -q '>a (2&s;' "$TMP/half.svg"
check "tooltip counts round half to even (3.5 -> 4)" grep -q '>b (4&s;' "$TMP/half.svg"
printf 'a;b 1000\n' | "$R" --factor 0.001 --countname ms >"$TMP/factor.svg" 2>/dev/null
check "--factor scales displayed counts only" sh -c "grep -q '<title>all (1&s;100%)' '$TMP/factor.svg' && grep -q 'ENTITY s \" ms, \"' '$TMP/factor.svg'"
# Near 2^64: the displayed count is exact to 2^64 itself (2^64 - 1 and .9
# rounds up), and with --factor it is the double's digits, as Perl prints
# them: not cut at 2^64 - 1 (and so not 92.23% of a total it equals).
printf 'a 18446744073709551615.9\n' | "$R" >"$TMP/top.svg" 2>/dev/null
check "a count of 2^64 - 0.1 shows 18,446,744,073,709,551,616" \
	grep -q '>a (18,446,744,073,709,551,616&s;100.00%)' "$TMP/top.svg"
printf 'a;b 10000000000000000\na;c 10000000000000000\n' | "$R" --factor 1000 >"$TMP/top.svg" 2>/dev/null
check "--factor past 2^64: 20,000,000,000,000,000,000, 100%" \
	grep -q '>a (20,000,000,000,000,000,000&s;100.00%)' "$TMP/top.svg"
printf 'a;b 50\n' | "$R" --total 200 >"$TMP/total.svg" 2>/dev/null
check "--total scales the root" sh -c "grep -q '<title>all (200&s;100%)' '$TMP/total.svg' && grep -q '(50&s;25.00%)' '$TMP/total.svg'"

# --- hostile input -----------------------------------------------------------
{
	printf 'main;</title><script>alert(1)</script>;x 10\n'
	printf 'main;]]>;<![CDATA[;x 3\n'
	printf 'main;"quoted" '"'"'single'"'"' &amp; &#x26;;x 4\n'
	printf 'main;ctl\001\002\033[31m;x 2\n'
	printf 'main;nul\000byte;x 2\n'
	printf 'main;bad\377\376utf8;\355\240\200surrogate;\357\277\276nonchar 2\n'
	printf 'main;%%s%%d%%n;x 1\n'
	printf 'main;cr\rin name;x 1\r\n'
	printf 'main;onload="alert(1)" x="1;y 1\n'
	printf 'main;--;-->;<!--;x 1\n'
	printf 'main;%%param;&ent; 1\n'
} >"$TMP/hostile.folded"
"$R" --title '</text><script>x</script>' --subtitle ']]>' --nametype '"><x' \
	--countname '"%<&' --notes 'a -- b --> c' --fonttype 'x}</style><script>' \
	"$TMP/hostile.folded" >"$TMP/hostile.svg" 2>/dev/null
out=$($SVGCHECK "$TMP/hostile.svg" 2>&1)
if [ $? = 0 ]; then pass "hostile names and options: well-formed, one script, no injected markup"
else fail "hostile names and options: contract" "$out"; fi
check "hostile names: the script name is text" sh -c "echo \"\$1\" | grep -q '</title><script>alert(1)</script>'" _ "$out"
# A long name shared by many frames: no entity bomb for expat-based
# parsers (Python's, svgcheck's; Firefox's), which refuse entities that
# expand past 100 times the document (here 1,200 x 30 KB in 36 MB).
python3 -c "
import sys
name = 'std::' + 'T' * 30000
sys.stdout.writelines('r%05d;%s 1\n' % (i, name) for i in range(1200))" >"$TMP/amplified.folded"
"$R" "$TMP/amplified.folded" >"$TMP/amplified.svg" 2>/dev/null
check "a 30 KB name in 1,200 frames: parsed by expat (no entity amplification)" $SVGCHECK "$TMP/amplified.svg"
rm -f "$TMP/amplified.folded" "$TMP/amplified.svg"

# An empty --title or --subtitle is none (flamegraph.pl: eq ""): the same
# SVG as without them (the default title, no subtitle band).
"$R" "$F/basic.folded" >"$TMP/plain.svg" 2>/dev/null
"$R" --title '' --subtitle '' "$F/basic.folded" >"$TMP/empty-titles.svg" 2>/dev/null
check_same "--title '' --subtitle '': as if left out" "$TMP/plain.svg" "$TMP/empty-titles.svg"
# --fonttype as CSS: every name kept valid (names that are no identifiers
# quoted, empty ones dropped), sans-serif after a single font or for none.
for spec in "|sans-serif" "Verdana|Verdana,sans-serif" '"|sans-serif' "Times New Roman, serif|Times New Roman,serif" \
	"3D,,mono|\"3D\",mono" " , x ,|x,sans-serif" "inherit|\"inherit\",sans-serif" "Font 1.0|\"Font 1.0\",sans-serif" \
	"-apple-system, BlinkMacSystemFont, Segoe UI, sans-serif|-apple-system,BlinkMacSystemFont,Segoe UI,sans-serif" \
	"-x, -1a|-x,\"-1a\"" "revert-layer|\"revert-layer\",sans-serif" \
	"Initial Sans, Foo UNSET|\"Initial Sans\",\"Foo UNSET\"" "Uninitialized Sans|Uninitialized Sans,sans-serif"; do
	font=${spec%%|*} want=${spec#*|}
	got=$("$R" --fonttype "$font" "$F/basic.folded" 2>/dev/null | sed -n 's/^text{font-family:\([^;]*\);.*/\1/p')
	check_eq "--fonttype '$font': font-family:$want" "$want" "$got"
done
"$R" --inverted --minwidth 0 "$TMP/hostile.folded" >"$TMP/hostile2.svg" 2>/dev/null
check "hostile names inverted: contract" $SVGCHECK "$TMP/hostile2.svg"
head -c 200000 /dev/urandom | tr '\n' ';' | fold -w 900 | sed 's/$/ 1/' | "$R" --minwidth 0 >"$TMP/random.svg" 2>/dev/null
check "random bytes: contract" $SVGCHECK "$TMP/random.svg"
awk 'BEGIN { s = "root"; for (i = 0; i < 100000; i++) s = s ";f" i; print s " 1" }' >"$TMP/deep.folded"
"$R" --minwidth 0 "$TMP/deep.folded" >"$TMP/deep.svg" 2>/dev/null
check_eq "100,000-frame stack renders (exit 0)" 0 $?
check "100,000-frame stack: every frame drawn" sh -c "[ \$(grep -c '<rect x=' '$TMP/deep.svg') = 100002 ]"
python3 -c "print('a;' + 'x' * 1000000 + ' 5')" | "$R" >"$TMP/long.svg" 2>/dev/null
check "1 MB frame name renders" $SVGCHECK "$TMP/long.svg"

# --- atomic output -------------------------------------------------------------
echo "old" >"$TMP/out.svg"
"$R" -o "$TMP/out.svg" "$F/basic.folded"
check "-o writes the file" cmp "$TMP/out.svg" "$TMP/a.svg"
echo "old" >"$TMP/out.svg"
"$R" -o "$TMP/out.svg" "$TMP/does-not-exist" 2>/dev/null
check_eq "-o with a failing input exits 2" 2 $?
check_eq "-o keeps the old file when the run fails" old "$(cat "$TMP/out.svg")"
check_eq "-o leaves no temporary file" "" "$(ls -A "$TMP" | grep '^\.out\.svg\.' || true)"
chmod 0644 "$TMP/out.svg"
"$R" -o "$TMP/out.svg" "$F/basic.folded"
check_eq "-o keeps the mode of the file it replaces" 644 "$(stat -c %a "$TMP/out.svg")"
if [ -w /dev/full ]; then
	"$R" "$F/basic.folded" >/dev/full 2>"$TMP/full.err"
	check_eq "write error (disk full) exits 2" 2 $?
	check "write error is reported" grep -q "No space left" "$TMP/full.err"
fi
awk 'BEGIN { for (i = 0; i < 20000; i++) print "a;f" i " 1" }' >"$TMP/big.folded"
( "$R" --minwidth 0 "$TMP/big.folded" | head -c 100 >/dev/null ) 2>"$TMP/pipe.err"
check_eq "SIGPIPE ends quietly" "" "$(cat "$TMP/pipe.err")"

# --- palettes, nameattr, --cp ----------------------------------------------------
"$R" "$F/basic.folded" >"$TMP/c1.svg"
check "default colours are seeded by name (root is rgb(213,39,9))" grep -q '<g fill="#d52709">' "$TMP/c1.svg"
"$R" --random "$F/basic.folded" >"$TMP/r1.svg"
check "--random still draws a valid graph" $SVGCHECK "$TMP/r1.svg"
"$R" --colors=mem --bgcolors='#102030' "$F/basic.folded" >"$TMP/bg.svg"
check "--bgcolors #rrggbb" grep -q 'stop-color="#102030"' "$TMP/bg.svg"
printf 'main\thref=https://example.com/?a=1&b=2\ttitle=Main <entry>\tclass=c1\tg_extra=onclick="alert(1)"\n' >"$TMP/attrs"
"$R" --nameattr "$TMP/attrs" "$F/basic.folded" >"$TMP/attrs.svg" 2>"$TMP/attrs.err"
check "--nameattr href makes the frame a link" grep -q '<a xlink:href="https://example.com/?a=1&amp;b=2" target="_top" class="c1">' "$TMP/attrs.svg"
check "--nameattr event handlers are refused" sh -c "! grep -q onclick '$TMP/attrs.svg' && grep -q 'g_extra dropped: an event handler' '$TMP/attrs.err'"
( cd "$TMP" && printf 'main->rgb(1,2,3)\n' >palette.map && "$R" --cp "$F/basic.folded" >cp.svg )
check "--cp uses palette.map colours" grep -q '<g fill="rgb(1,2,3)">' "$TMP/cp.svg"
check "--cp adds new names to palette.map, sorted" sh -c "grep -q '^parse->rgb(' '$TMP/palette.map' && sort -c '$TMP/palette.map'"
# A palette.map colour that loads from elsewhere (fill="url(http://...)"
# fetches when the graph is opened) is not used: the name gets a new one.
( cd "$TMP" && printf 'main->url(http://evil.example/p.svg#p)\nparse->URL(//evil.example/q)\n' >palette.map &&
	"$R" --cp "$F/basic.folded" >cp.svg 2>cp.err )
check "--cp: no palette.map colour that fetches from elsewhere" sh -c "! grep -q evil '$TMP/cp.svg' && grep -q '^main->rgb(' '$TMP/palette.map'"
# Lines palette.map leaves out are gone once it is rewritten: each is
# named, with its line (a blank line is passed over quietly).
check_eq "--cp: a colour that fetches is named, by its line" \
	"fg-render: palette.map:1: a colour that loads from elsewhere (url(), a backslash...); line ignored
fg-render: palette.map:2: a colour that loads from elsewhere (url(), a backslash...); line ignored" "$(cat "$TMP/cp.err")"
( cd "$TMP" && printf 'main->rgb(1,2,3)\n\nmain rgb(9,9,9)\nparse->rgb(4,5,6)\n' >palette.map &&
	"$R" --cp "$F/basic.folded" >cp.svg 2>cp.err )
check_eq "--cp: a palette.map line without -> is named, by its line" \
	"fg-render: palette.map:3: no '->' (NAME->COLOUR); line ignored" "$(cat "$TMP/cp.err")"
check "--cp: the lines around it are used" grep -q '<g fill="rgb(4,5,6)">' "$TMP/cp.svg"

# --- property: a frame's colour is its name's, wherever it is drawn ----------------
# (svg.c works each name's colour out once; the palettes that look at the
# name's annotation, language or module are among those checked.)
python3 - >"$TMP/names.folded" <<'PY'
import random
r = random.Random(7)
pool = ["main", "foo_[k]", "bar_[j]", "java/lang/String.hash", "Lcom/x/Y;.run_[j]",
        "node::Start", "v8::internal::Run", "x.js:12", "sys_read_[k]", "caf\u00e9", "a&b<c>",
        "[unknown]", "perl", "libc.so.6`write", "-", "--"] + ["f%d" % i for i in range(40)]
for _ in range(3000):
    print(";".join(r.choice(pool) for _ in range(r.randint(1, 9))), r.randint(1, 50))
PY
for colors in hot java js perl mem; do
	for hash in "" --hash; do
		"$R" --colors $colors $hash --minwidth 0 "$TMP/names.folded" >"$TMP/names.svg" 2>/dev/null
		check "--colors $colors $hash: every frame of a name has one colour" python3 - "$TMP/names.svg" <<'PY'
import sys, collections
import xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
fills = collections.defaultdict(set)
frames = 0
for group in ET.parse(sys.argv[1]).getroot().iter(ns + "g"):
    for frame in group.findall(ns + "g"):
        title = frame.find(ns + "title")
        if title is not None and group.get("fill"):
            fills[title.text.rsplit(" (", 1)[0]].add(group.get("fill"))
            frames += 1
split = {name: colours for name, colours in fills.items() if len(colours) > 1}
sys.exit(0 if frames > 1000 and len(fills) > 50 and not split else "%d frames, %d names, split: %s" % (frames, len(fills), split))
PY
	done
done

# --- property: any input order gives the same graph ------------------------------
# Names that are prefixes of each other ("f", "f2", "f.c") are what makes
# bytewise line order differ from frame order (flamegraph.pl sorts whole
# lines, fg sorts frames; README, "Differences").
awk 'BEGIN {
	srand(7); split("f f2 f.c f_x g f; f  f0 (f) f:1", names, " ")
	for (i = 0; i < 3000; i++) {
		depth = 1 + int(rand() * 5); s = ""
		for (d = 0; d < depth; d++) s = s (d ? ";" : "") names[1 + int(rand() * 9)]
		print s, 1 + int(rand() * 20)
	}
}' >"$TMP/prop.folded"
"$R" --minwidth 0 "$TMP/prop.folded" >"$TMP/p0.svg" 2>/dev/null
LC_ALL=C sort "$TMP/prop.folded" | "$R" --minwidth 0 >"$TMP/p1.svg" 2>/dev/null
LC_ALL=C sort -r "$TMP/prop.folded" | "$R" --minwidth 0 >"$TMP/p2.svg" 2>/dev/null
shuf --random-source=<(yes) "$TMP/prop.folded" | "$R" --minwidth 0 >"$TMP/p3.svg" 2>/dev/null
check "same graph for input as generated and bytewise sorted" cmp "$TMP/p0.svg" "$TMP/p1.svg"
check "same graph for reverse-sorted input" cmp "$TMP/p0.svg" "$TMP/p2.svg"
check "same graph for shuffled input" cmp "$TMP/p0.svg" "$TMP/p3.svg"
# Each frame's count is the sum over the lines whose stack starts with its path.
python3 - "$TMP/prop.folded" "$TMP/p0.svg" <<'PY' >"$TMP/prop.out" 2>&1
import collections, re, sys, xml.etree.ElementTree as ET
want = collections.Counter()
for line in open(sys.argv[1]):
    stack, count = line.rstrip("\n").rsplit(" ", 1)
    frames = stack.split(";")
    while frames and frames[-1] == "":
        frames.pop()
    for d in range(1, len(frames) + 1):
        want[(d, frames[d - 1])] += int(count)
got = collections.Counter()
for t in ET.parse(sys.argv[2]).getroot().iter("{http://www.w3.org/2000/svg}title"):
    m = re.match(r"^(.*) \(([0-9,]+) ", t.text, re.S)
    if m and m.group(1) != "all":
        got[m.group(1)] += int(m.group(2).replace(",", ""))
per_name = collections.Counter()
for (d, name), c in want.items():
    per_name[name] += c
bad = [(n, per_name[n], got[n]) for n in per_name if per_name[n] != got[n]]
print("mismatches:", bad[:5]) if bad else print("ok")
PY
check_eq "frame counts equal the sums over the input lines" ok "$(tail -n 1 "$TMP/prop.out")"

# --- property: the child table of out-of-order input (issue 12) ------------------
# Enough frames that the table is built and grown several times, names that
# are prefixes of each other, fractional counts that first appear late (the
# fraction array is made mid-way), and the same lines as a differential
# file: every order (sorted, concatenated sorted blocks, shuffled, reversed)
# and every -j gives the same bytes, and each path's count is exact.
python3 - "$TMP/order" <<'PY'
import random, sys
rng = random.Random(12)
names = ["f", "f2", "f.c", "f_", "g", "main", "a b", "x" * 40] + ["n%d" % i for i in range(400)]
lines = {}
while len(lines) < 6000:
    depth = 1 + rng.randrange(9)
    stack = ";".join(rng.choice(names) for _ in range(depth))
    lines[stack] = (rng.randrange(1, 50), rng.randrange(0, 50))
out = sorted(lines.items(), key=lambda kv: kv[0].encode())
def count(i, c):  # fractions only in the second half of the file's lines
    return "%d.%03d" % (c, i % 1000) if i > 4000 and i % 3 == 0 else str(c)
with open(sys.argv[1] + ".folded", "w") as f, open(sys.argv[1] + ".diff", "w") as d:
    for i, (stack, (a, b)) in enumerate(out):
        f.write("%s %s\n" % (stack, count(i, a)))
        d.write("%s %d %s\n" % (stack, b, count(i, a)))
for name in ("folded", "diff"):
    text = open(sys.argv[1] + "." + name).read().splitlines(True)
    blocks = [[] for _ in range(5)]
    for line in text:
        blocks[rng.randrange(5)].append(line)
    open(sys.argv[1] + ".blocks." + name, "w").write("".join("".join(sorted(b, key=str.encode)) for b in blocks))
    shuffled = text[:]
    rng.shuffle(shuffled)
    open(sys.argv[1] + ".shuffled." + name, "w").write("".join(shuffled))
    open(sys.argv[1] + ".reversed." + name, "w").write("".join(reversed(text)))
PY
for kind in folded diff; do
	for options in "--minwidth 0" "--minwidth 0 --reverse" "--diff-union --minwidth 0"; do
		[ $kind = folded ] && [ "${options#--diff}" != "$options" ] && continue
		# shellcheck disable=SC2086
		"$R" $options "$TMP/order.$kind" >"$TMP/o0.svg" 2>/dev/null
		for order in blocks shuffled reversed; do
			for j in 1 2 3; do
				# shellcheck disable=SC2086
				"$R" -j$j $options "$TMP/order.$order.$kind" >"$TMP/o1.svg" 2>/dev/null
				check "order: $kind, $order, -j$j $options: the sorted input's SVG" cmp "$TMP/o0.svg" "$TMP/o1.svg"
			done
		done
	done
done
"$R" --minwidth 0 "$TMP/order.shuffled.folded" >"$TMP/o2.svg" 2>/dev/null
python3 - "$TMP/order.folded" "$TMP/o2.svg" <<'PY' >"$TMP/order.out" 2>&1
import collections, fractions, re, sys, xml.etree.ElementTree as ET
want = collections.Counter()
for line in open(sys.argv[1]):
    stack, count = line.rstrip("\n").rsplit(" ", 1)
    frames = stack.split(";")
    for d in range(1, len(frames) + 1):
        want[frames[d - 1]] += fractions.Fraction(count)
got = collections.Counter()
for t in ET.parse(sys.argv[2]).getroot().iter("{http://www.w3.org/2000/svg}title"):
    m = re.match(r"^(.*) \(([0-9,]+) ", t.text, re.S)
    if m and m.group(1) != "all":
        got[m.group(1)] += int(m.group(2).replace(",", ""))
# Titles show each frame rounded: compare within half a unit per frame.
frames = collections.Counter(re.match(r"^(.*) \(", t.text, re.S).group(1)
                             for t in ET.parse(sys.argv[2]).getroot().iter("{http://www.w3.org/2000/svg}title"))
bad = [(n, float(want[n]), got[n]) for n in want if abs(want[n] - got[n]) > frames[n] / 2]
print("mismatches:", bad[:5]) if bad else print("ok")
PY
check_eq "order: shuffled input with fractions, counts equal the sums of the lines" ok "$(tail -n 1 "$TMP/order.out")"

# Found by fuzz_render: an empty stack through --reverse and the chain palette.
printf 'a;b 1\n 2\n' | "$R" --reverse --colors chain >"$TMP/chain.svg" 2>/dev/null
check "--reverse --colors chain with an empty stack" $SVGCHECK "$TMP/chain.svg"

# --- threads: the same SVG and the same messages for any -j -----------------------
# Twice: with short lines (each thread finds its own lines in every block)
# and with long ones (the reading thread lists each thread's lines: graph_read.c,
# split_lines).
lengthen() {
	[ "$width" = long ] || return 0
	sed 's/^/ns::lengthened::name::/; s/;/;ns::lengthened::name::/g' "$1" >"$1.long" && mv "$1.long" "$1"
}
for width in short long; do
	awk 'BEGIN { srand(11); split("f f2 f.c g h10 h1", names, " ")
		for (i = 1; i <= 40000; i++) {
			if (i % 9973 == 0) { print "invalid line " i "x"; continue }
			# invalid lines under many prefixes (so in the shares of every thread)
			if (i % 997 == 0) { print "main;" names[1 + int(rand() * 6)] int(rand() * 30) ";oops"; continue }
			d = 1 + int(rand() * 6); s = "main"
			for (j = 0; j < d; j++) s = s ";" names[1 + int(rand() * 6)] int(rand() * 30)
			print s, 1 + int(rand() * 9)
		} }' | LC_ALL=C sort >"$TMP/threads.folded"
	lengthen "$TMP/threads.folded" && LC_ALL=C sort -o "$TMP/threads.folded" "$TMP/threads.folded"
	check "threads ($width lines): the input is large enough to be split (> 256 KB)" test "$(stat -c %s "$TMP/threads.folded")" -gt 300000
	for options in "" "--reverse" "--minwidth 0 --inverted" "--colors chain"; do
		# shellcheck disable=SC2086
		"$R" -j1 $options "$TMP/threads.folded" >"$TMP/t1.svg" 2>"$TMP/t1.err"
		for j in 2 3 7; do
			# shellcheck disable=SC2086
			"$R" -j$j $options "$TMP/threads.folded" >"$TMP/tj.svg" 2>"$TMP/tj.err"
			check "threads ($width lines): -j$j $options gives the SVG of -j1" cmp "$TMP/t1.svg" "$TMP/tj.svg"
			check "threads ($width lines): -j$j $options gives the messages of -j1" cmp "$TMP/t1.err" "$TMP/tj.err"
		done
	done
	check "threads ($width lines): more invalid lines than are listed (the first five, in input order, whatever thread met them)" \
		grep -q "ignored 44 lines with invalid format" "$TMP/t1.err"
	check "threads ($width lines): invalid lines are reported with their own line numbers" \
		grep -q "threads.folded:$(grep -n 'invalid line 9973x$' "$TMP/threads.folded" | cut -d: -f1): " "$TMP/t1.err"
	"$R" -j1 "$TMP/threads.folded" >"$TMP/plain-j1.svg" 2>/dev/null
	shuf --random-source=<(yes) "$TMP/threads.folded" | "$R" -j3 >"$TMP/shuffled-j3.svg" 2>/dev/null
	check "threads ($width lines): shuffled input, -j3, same graph" cmp "$TMP/plain-j1.svg" "$TMP/shuffled-j3.svg"
	# Differential lines under one prefix only: a thread whose tree has none is
	# merged into one that has BEFORE counts, with room past its nodes that
	# realloc did not zero (MALLOC_PERTURB_ fills it): its nodes' BEFORE is 0.
	for k in 0 1 2 3 4 5; do
		awk -v k=$k 'BEGIN { srand(k)
			for (i = 0; i < 30000; i++) {
				p = int(rand() * 41)
				if (p == 0) print "D" k ";x" int(rand() * 50), int(rand() * 10), 1 + int(rand() * 9)
				else print "p" p ";q" int(rand() * 300), 1 + int(rand() * 9)
			} }' >"$TMP/mixed.folded"
	lengthen "$TMP/mixed.folded"
		MALLOC_PERTURB_=165 "$R" -j1 "$TMP/mixed.folded" >"$TMP/m1.svg" 2>/dev/null
		for j in 2 3; do
			MALLOC_PERTURB_=165 "$R" -j$j "$TMP/mixed.folded" >"$TMP/mj.svg" 2>/dev/null
			check "threads ($width lines): differential lines under prefix D$k only, -j$j gives the SVG of -j1" \
				cmp "$TMP/m1.svg" "$TMP/mj.svg"
		done
	done
	# Two counts of 2^63 under different prefixes: no thread's own sum overflows,
	# the whole input's does, at the second one; the invalid line after it is
	# not reached by -j1, so is not reported by any -j either.
	awk 'BEGIN { srand(5)
		for (i = 1; i <= 40000; i++) {
			if (i == 11) { print "bad line"; continue }
			if (i == 30001) { print "p1;big 9223372036854775808"; continue }
			if (i == 35001) { print "p2;big 9223372036854775808"; continue }
			if (i == 36001) { print "another bad"; continue }
			print "p" int(rand() * 51) ";q" int(rand() * 21) ";r 1"
		} }' >"$TMP/overflow.folded"
	lengthen "$TMP/overflow.folded"
	"$R" -j1 "$TMP/overflow.folded" >/dev/null 2>"$TMP/o1.err"
	check "threads ($width lines): overflow at line 35001 with -j1" grep -q "overflow.folded:35001: the sum of counts exceeds" "$TMP/o1.err"
	for j in 2 3 4 7; do
		"$R" -j$j "$TMP/overflow.folded" >/dev/null 2>"$TMP/oj.err"
		check "threads ($width lines): -j$j reports the overflow of -j1 (its line, nothing after it)" cmp "$TMP/o1.err" "$TMP/oj.err"
	done

	# Many blocks through the threads' ring of buffers (graph_read.c): invalid
	# lines in several blocks, a line of 5 MB (parsed on the main thread once
	# the ring is empty), then an overflow in a late block; and the same file
	# without the overflow. The SVG and the messages are those of -j1.
	awk 'BEGIN { srand(9)
		for (i = 1; i <= 400000; i++) {
			if (i % 61231 == 0) { print "bad line " i "x"; continue }
			if (i == 200000) { printf "p1;"; for (k = 0; k < 500000; k++) printf "long_frame"; print " 3"; continue }
			print "p" int(rand() * 300) ";q" int(rand() * 40) ";r" int(rand() * 9), 1 + int(rand() * 5)
		} }' >"$TMP/ring.folded"
	lengthen "$TMP/ring.folded"
	{ cat "$TMP/ring.folded"; echo "p2;big 18446744073709551000"; echo "tail bad"; echo "p3;ok 1"; } >"$TMP/ring-overflow.folded"
	check "threads ($width lines): the ring input spans many blocks (> 8 MB)" test "$(stat -c %s "$TMP/ring.folded")" -gt 8000000
	for f in ring ring-overflow; do
		"$R" -j1 "$TMP/$f.folded" >"$TMP/r1.svg" 2>"$TMP/r1.err"
		echo "exit $?" >>"$TMP/r1.err"
		for j in 2 3 4; do
			"$R" -j$j "$TMP/$f.folded" >"$TMP/rj.svg" 2>"$TMP/rj.err"
			echo "exit $?" >>"$TMP/rj.err"
			check "threads ($width lines): $f, -j$j gives the SVG of -j1" cmp "$TMP/r1.svg" "$TMP/rj.svg"
			check "threads ($width lines): $f, -j$j gives the messages and exit status of -j1" cmp "$TMP/r1.err" "$TMP/rj.err"
		done
	done
	# A truncated gzip file: the lines before the cut are parsed (their
	# messages given) whatever the block size, then the error.
	gzip -1 -c "$TMP/ring.folded" >"$TMP/ring.gz"
	if "$R" "$TMP/ring.gz" 2>&1 >/dev/null | grep -q "built without zlib"; then
		skip "threads ($width lines): a truncated gzip file" "built without zlib"
	else
		head -c $(($(stat -c %s "$TMP/ring.gz") * 7 / 10)) "$TMP/ring.gz" >"$TMP/ring-cut.gz"
		"$R" -j1 "$TMP/ring-cut.gz" >/dev/null 2>"$TMP/c1.err"
		check "threads ($width lines): a truncated gzip file: its lines' messages, then the error" \
			sh -c "grep -q 'ring-cut.gz:61231: ' '$TMP/c1.err' && tail -n 1 '$TMP/c1.err' | grep -q 'truncated gzip data'"
		for j in 2 3; do
			"$R" -j$j "$TMP/ring-cut.gz" >/dev/null 2>"$TMP/cj.err"
			check "threads ($width lines): a truncated gzip file, -j$j gives the messages of -j1" cmp "$TMP/c1.err" "$TMP/cj.err"
		done
	fi
	check "threads ($width lines): ring-overflow reports its overflow line" \
		grep -q "ring-overflow.folded:400001: the sum of counts exceeds" "$TMP/r1.err"
	check "threads ($width lines): ring-overflow reports its invalid lines before the overflow" \
		grep -q "ring-overflow.folded:306155: " "$TMP/r1.err"
done

# --- view data (docs/svg-contract.md, "View data") -------------------------------
printf 'main;a;b 5\nmain;a 3\nmain;c 2\n 4\n' >"$TMP/view.folded"
view_data() { sed -n '/<metadata id="fg-data">/,/<\/metadata>/p' "$1" | sed 's/<[^>]*>//g'; }
"$R" "$TMP/view.folded" >"$TMP/view.svg" 2>/dev/null
check_eq "view data: the tree in pre-order, own samples, climbs; drawn frames' names left out" \
	"0:4,,:3,:5)):2" "$(view_data "$TMP/view.svg" | sed -n '3p')"
check "view data: the header" sh -c "view=\$(sed -n 's/.*<metadata id=\"fg-data\">//p' '$TMP/view.svg'); \
	echo \"\$view\" | grep -q '^fg-data 1 nodes=5 names=1 total=14 minwidth=[0-9.e-]* factor=1 other=0 named=[0-9.e-]*\$'"
"$R" --minwidth 50% "$TMP/view.folded" >"$TMP/view50.svg" 2>/dev/null
check_eq "view data: names of frames not drawn, most used first, then in byte order" "all b c" \
	"$(view_data "$TMP/view50.svg" | sed -n '2,4p' | tr '\n' ' ' | sed 's/ $//')"
check_eq "view data: their numbers in the tree" "0:4,,:3,1:5))2:2" "$(view_data "$TMP/view50.svg" | sed -n '5p')"
printf 'main\tx\n' >"$TMP/view.attr"
"$R" --nameattr "$TMP/view.attr" "$TMP/view.folded" >"$TMP/viewattr.svg" 2>/dev/null
check_eq "view data: every name written with --nameattr (titles may be replaced)" "0:4,4,1:3,2:5))3:2" \
	"$(view_data "$TMP/viewattr.svg" | sed -n '7p')"
"$R" --view-nodes 3 "$TMP/view.folded" >"$TMP/view3.svg" 2>/dev/null
check_eq "view data: past the budget, left-out subtrees are their parent's exact other" "0:4,2!2,1:3!5" \
	"$(view_data "$TMP/view3.svg" | tail -n 2 | head -n 1)"
check "view data: names all written when drawn frames were left out" sh -c "! grep -q 'named=' '$TMP/view3.svg'"
check "view data: the header counts what was left out" grep -q 'nodes=3 names=3 total=14 .* other=7$' "$TMP/view3.svg"
"$R" --view-nodes 0 "$TMP/view.folded" >"$TMP/view0.svg" 2>/dev/null
check "view data: --view-nodes 0 writes none" sh -c "! grep -q 'id=\"fg-data\"' '$TMP/view0.svg'"
"$R" --flamechart "$TMP/view.folded" >"$TMP/viewfc.svg" 2>/dev/null
check "view data: none for flame charts" sh -c "! grep -q 'id=\"fg-data\"' '$TMP/viewfc.svg'"
"$R" --view-nodes -1 "$TMP/view.folded" >/dev/null 2>&1
check_eq "view data: a negative --view-nodes is a usage error" 1 $?
printf 'a;x\\y<&>z 1\nb 100000\n' | "$R" >"$TMP/viewesc.svg" 2>/dev/null
printf '%s\n' 'x\\y&lt;&amp;&gt;z' >"$TMP/viewesc.expected"
check "view data: names escaped (backslash, then XML)" grep -qxF -f "$TMP/viewesc.expected" "$TMP/viewesc.svg"
check_xml "view data: escaped names keep the SVG well-formed" "$TMP/viewesc.svg"

# --- a limited address space (ulimit -v) ------------------------------------------
# 700,000 nodes take tens of MB; their arrays must not reserve 512 MB each
# (fg_grow) under a limit, or a small malloc elsewhere, with no fallback,
# fails: without may_reserve these gave "out of memory" from 1.2 to 2 GB.
awk 'BEGIN { for (i = 0; i < 700000; i++) print "m" i " 1"; print "z 1 2" }' >"$TMP/wide-diff.folded"
awk 'BEGIN { for (i = 0; i < 700000; i++) print "m" i " 1"; print "z 0.5" }' >"$TMP/wide-frac.folded"
if [ -n "${ASAN_OPTIONS:-}" ]; then
	skip "ulimit -v" "a sanitizer build reserves terabytes of shadow memory"
else
	for kb in 1400000 1800000; do
		for input in wide-diff wide-frac; do
			check "ulimit -v $kb: $input renders" sh -c "ulimit -v $kb && '$R' '$TMP/$input.folded' >/dev/null"
		done
	done
fi
