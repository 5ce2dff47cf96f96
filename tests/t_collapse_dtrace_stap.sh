#!/usr/bin/env bash
# fg-collapse-dtrace and fg-collapse-stap: reference parity, the frame rules
# and fixes of issue 4 (tests/fixtures/dtrace, tests/fixtures/stap), several
# inputs, gzip, CRLF, -j, -o, malformed input and exit statuses.
. "$(dirname "$0")/lib.sh"

DTRACE=$BIN/fg-collapse-dtrace
STAP=$BIN/fg-collapse-stap
D=$FIXTURES/dtrace
S=$FIXTURES/stap

# --- reference outputs of the original (with the issue's fixes) -----------
if have_reference; then
	for prog in dtrace stap; do
		case $prog in
		dtrace) exe=$DTRACE in=$REFERENCE/collapse-dtrace/example-dtrace-stacks ;;
		stap) exe=$STAP in=$REFERENCE/collapse-stap/cxx-stap-stacks ;;
		esac
		"$exe" "$in.txt" >"$TMP/ref.out" 2>"$TMP/ref.err"
		check_eq "$prog reference: exit status 0" 0 $?
		check_same "$prog reference: byte-identical" "$in.expected.txt" "$TMP/ref.out"
		check_eq "$prog reference: no warnings" "" "$(cat "$TMP/ref.err")"
		for j in 1 2 3 8; do
			"$exe" -j "$j" "$in.txt" >"$TMP/ref-j.out"
			check_same "$prog reference: -j $j gives the same output" "$in.expected.txt" "$TMP/ref-j.out"
		done
		"$exe" <"$in.txt" >"$TMP/ref-stdin.out"
		check_same "$prog reference: from stdin" "$in.expected.txt" "$TMP/ref-stdin.out"
	done
else
	skip_reference "dtrace/stap reference"
fi

# --- frame rules, from committed fixtures ----------------------------------
# expect NAME EXPECTED_STDOUT EXPECTED_STDERR(or -) COMMAND...: runs in the
# fixture's directory so that messages name the file as given.
expect() {
	local name=$1 out=$2 err=$3; shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"
	local status=$?
	check_eq "$name: exit status 0" 0 "$status"
	check_same "$name: output" "$out" "$TMP/out"
	if [ "$err" = - ]; then
		check_eq "$name: no warnings" "" "$(cat "$TMP/err")"
	else
		check_same "$name: warnings" "$err" "$TMP/err"
	fi
}

cd "$D" || exit 1
expect "dtrace rules (offsets, +, C++, ->, ;, L, empty)" rules.expected.txt - "$DTRACE" rules.txt
expect "dtrace --includeoffset" rules.includeoffset.expected.txt - "$DTRACE" --includeoffset rules.txt
expect "dtrace without a banner (dtrace -q)" quiet.expected.txt - "$DTRACE" quiet.txt
expect "dtrace malformed input: warnings with file:line, the rest kept" \
	malformed.expected.txt malformed.expected.err "$DTRACE" malformed.txt
expect "dtrace terminal capture: dtrace's messages, banners, ^C are not frames" \
	terminal.expected.txt terminal.expected.err "$DTRACE" terminal.txt
for j in 2 3; do
	"$DTRACE" -j "$j" terminal.txt >"$TMP/out" 2>"$TMP/err"
	check_same "dtrace terminal capture: -j $j, same output" terminal.expected.txt "$TMP/out"
	check_same "dtrace terminal capture: -j $j, same warnings" terminal.expected.err "$TMP/err"
done
printf '              a`f\n   3\n 4\n' >"$TMP/empty-dtrace.txt"
check_eq "dtrace: a count with no frames is an empty stack, kept" "$(printf ' 4\na`f 3')" \
	"$("$DTRACE" "$TMP/empty-dtrace.txt" 2>&1)"
# A script that prints its aggregation every interval ("tick-1s { printa(@);
# trunc(@); }") prints the probe line again before each printout: it is
# DTrace's line, not the leaf frame of the next stack.
{
	printf 'CPU     ID                    FUNCTION:NAME\n'
	for cpu in 0 1; do
		printf '  %s  64091                         :tick-1s \n\n' "$cpu"
		printf '              unix`i86_mwait+0xd\n              unix`idle+0x114\n               16\n\n'
	done
} >"$TMP/interval-dtrace.txt"
for j in 1 2; do
	check_eq "dtrace: probe lines between printouts are not frames (-j $j)" 'unix`idle;unix`i86_mwait 32' \
		"$("$DTRACE" -j "$j" "$TMP/interval-dtrace.txt" 2>&1)"
done
# The leading 'L' goes from JVM class names ("Lcom/foo/Bar;"), not from a
# Java frame of jstack whose class starts with 'L' and whose arguments hold
# a '/', nor from a C frame with a '/' in its arguments.
printf '              LoadTest.run(Ljava/lang/Object;)V\n              Launcher.main([Ljava/lang/String;)V\n              Lcom/foo/Bar;.baz(I)V\n              Logger`log(char const*, /*path*/ int)+0x1\n                5\n' \
	>"$TMP/jvm-l-dtrace.txt"
check_eq "dtrace: 'L' goes from JVM class names only" \
	'Logger`log(char const*, /*path*/ int);com/foo/Bar:.baz(I)V;Launcher.main([Ljava/lang/String:)V;LoadTest.run(Ljava/lang/Object:)V 5' \
	"$("$DTRACE" "$TMP/jvm-l-dtrace.txt" 2>&1)"
cd "$S" || exit 1
expect "stap: an empty backtrace is kept as an empty stack (' 251')" empty.expected.txt - "$STAP" empty.txt
for j in 2 3; do
	"$STAP" -j "$j" empty.txt >"$TMP/out"
	check_same "stap empty backtrace: -j $j, same output" empty.expected.txt "$TMP/out"
done
"$STAP" empty.txt | "$BIN/fg-render" >"$TMP/empty.svg" 2>/dev/null
check "stap empty backtrace: fg-render counts it in the root (300 samples)" \
	grep -q '<title>all (300&s;100%)</title>' "$TMP/empty.svg"
expect "stap rules (address, offset, module, +, %, ;, empty)" rules.expected.txt rules.expected.err "$STAP" rules.txt
cd "$FG_ROOT" || exit 1

# --- several inputs ----------------------------------------------------------
# Each input is its own stream: counts add up, every DTrace banner is skipped.
doubled() { awk '{ $NF = 2 * $NF; print }' "$1"; }
doubled "$D/rules.expected.txt" >"$TMP/double.expected"
"$DTRACE" "$D/rules.txt" "$D/rules.txt" >"$TMP/double.out" 2>"$TMP/double.err"
check_same "dtrace: two files, each with its banner" "$TMP/double.expected" "$TMP/double.out"
check_eq "dtrace: two files, no warnings" "" "$(cat "$TMP/double.err")"
cat "$D/rules.txt" "$D/rules.txt" | "$DTRACE" >"$TMP/cat.out" 2>"$TMP/cat.err"
check_same "dtrace: concatenated inputs (banner mid-stream)" "$TMP/double.expected" "$TMP/cat.out"
"$DTRACE" "$D/rules.txt" - <"$D/rules.txt" >"$TMP/dash.out"
check_same "dtrace: a file and - (stdin)" "$TMP/double.expected" "$TMP/dash.out"
"$STAP" "$S/rules.txt" "$S/rules.txt" >"$TMP/sdouble.out" 2>"$TMP/sdouble.err"
doubled "$S/rules.expected.txt" >"$TMP/sdouble.expected"
check_same "stap: two files" "$TMP/sdouble.expected" "$TMP/sdouble.out"
check_eq "stap: frames left at the end of each file are reported per file" 2 \
	"$(grep -c 'rules.txt:18: 1 frame line at the end' "$TMP/sdouble.err")"

# --- CRLF and gzip -------------------------------------------------------------
sed 's/$/\r/' "$D/rules.txt" >"$TMP/crlf.txt"
"$DTRACE" "$TMP/crlf.txt" >"$TMP/crlf.out"
check_same "dtrace: CRLF input" "$D/rules.expected.txt" "$TMP/crlf.out"
sed 's/$/\r/' "$S/rules.txt" >"$TMP/scrlf.txt"
"$STAP" "$TMP/scrlf.txt" >"$TMP/scrlf.out" 2>/dev/null
check_same "stap: CRLF input" "$S/rules.expected.txt" "$TMP/scrlf.out"

gzip -c "$D/rules.txt" >"$TMP/rules.txt.gz"
if "$DTRACE" "$TMP/rules.txt.gz" >"$TMP/gz.out" 2>"$TMP/gz.err"; then
	check_same "dtrace: gzip input" "$D/rules.expected.txt" "$TMP/gz.out"
	"$DTRACE" <"$TMP/rules.txt.gz" >"$TMP/gzstdin.out"
	check_same "dtrace: gzip on stdin" "$D/rules.expected.txt" "$TMP/gzstdin.out"
	gzip -c "$S/rules.txt" | "$STAP" >"$TMP/sgz.out" 2>/dev/null
	check_same "stap: gzip input" "$S/rules.expected.txt" "$TMP/sgz.out"
elif grep -q zlib "$TMP/gz.err"; then
	skip "gzip input" "built without zlib"
else
	fail "dtrace: gzip input" "$(cat "$TMP/gz.err")"
fi

# --- -j: any number of threads, the same bytes -------------------------------
# A larger input with many blocks: the fixtures and the reference repeated.
for _ in $(seq 1 200); do cat "$D/rules.txt" "$D/quiet.txt"; done >"$TMP/many.txt"
if have_reference; then
	for _ in 1 2 3; do cat "$REFERENCE/collapse-dtrace/example-dtrace-stacks.txt"; done >>"$TMP/many.txt"
fi
"$DTRACE" -j 1 "$TMP/many.txt" >"$TMP/j1.out"
for j in 2 4 7 16 0; do
	"$DTRACE" -j "$j" "$TMP/many.txt" >"$TMP/jn.out"
	check_same "dtrace: -j $j output equals -j 1" "$TMP/j1.out" "$TMP/jn.out"
done
for _ in $(seq 1 300); do cat "$S/rules.txt"; echo "	1"; done >"$TMP/smany.txt"
"$STAP" -j 1 "$TMP/smany.txt" >"$TMP/sj1.out"
"$STAP" -j 5 "$TMP/smany.txt" >"$TMP/sj5.out"
check_same "stap: -j 5 output equals -j 1" "$TMP/sj1.out" "$TMP/sj5.out"

# --- -o: written atomically, the old file kept on failure -------------------
echo old >"$TMP/result.folded"
"$DTRACE" -o "$TMP/result.folded" "$D/rules.txt"
check_same "dtrace -o FILE" "$D/rules.expected.txt" "$TMP/result.folded"
"$STAP" --output="$TMP/sresult.folded" "$S/rules.txt" 2>/dev/null
check_same "stap --output=FILE" "$S/rules.expected.txt" "$TMP/sresult.folded"
"$DTRACE" -o "$TMP/result.folded" "$TMP/missing.txt" 2>/dev/null
check_same "dtrace -o: an unreadable input leaves the old file" "$D/rules.expected.txt" "$TMP/result.folded"
check_eq "dtrace -o: no temporary files left" "result.folded" \
	"$(cd "$TMP" && ls -a | grep "^\.*result")"

# --- exit statuses and messages ------------------------------------------------
check_status "dtrace: unknown option is a usage error (1)" 1 "$DTRACE" --bogus
check_status "stap: --includeoffset is dtrace's only (1)" 1 "$STAP" --includeoffset
check_status "dtrace: -j -1 is a usage error (1)" 1 "$DTRACE" -j -1 "$D/rules.txt"
check_status "dtrace: a missing file is an I/O error (2)" 2 "$DTRACE" "$TMP/missing.txt"
check_status "stap: empty input is no valid input (2)" 2 "$STAP" /dev/null
check_status "dtrace: malformed lines alone do not fail (0)" 0 "$DTRACE" "$D/malformed.txt"
check_status "dtrace --help (0)" 0 "$DTRACE" --help
"$DTRACE" "$TMP/missing.txt" 2>"$TMP/missing.err"
check "dtrace: I/O errors name the program and file" \
	grep -q "^fg-collapse-dtrace: .*missing.txt: No such file" "$TMP/missing.err"
check_eq "stap --version" "fg-collapse-stap $("$STAP" --version | awk '{print $2}')" "$("$STAP" --version)"
check "dtrace --help shows the synopsis" sh -c "'$DTRACE' --help | grep -q '^Usage: fg-collapse-dtrace \\[--includeoffset\\]'"

for _ in $(seq 1 15); do printf '  a\n 1\n  b\n 1.5\n\n'; done | "$DTRACE" >"$TMP/many.out" 2>"$TMP/many.err"
check_eq "dtrace: only the first 10 warnings are printed" 10 "$(grep -c 'not a whole count' "$TMP/many.err")"
check "dtrace: then how many more" grep -q '^fg-collapse-dtrace: <stdin>: 5 more warnings not shown$' "$TMP/many.err"
check_eq "dtrace: the stacks around them are kept" "a 15" "$(cat "$TMP/many.out")"

# --- hostile input -----------------------------------------------------------
# A 100,000-frame stack: no recursion, no quadratic work.
awk 'BEGIN { for (i = 100000; i > 0; i--) printf "  m`f%d+0x1\n", i; print "  1" }' >"$TMP/deep.txt"
"$DTRACE" "$TMP/deep.txt" >"$TMP/deep.out"
check_eq "dtrace: a 100,000-frame stack" "100000" "$(tr ';' '\n' <"$TMP/deep.out" | wc -l)"
# Binary garbage: warnings, never a crash, and the output stays folded lines.
head -c 200000 /dev/urandom >"$TMP/random.bin"
"$DTRACE" "$TMP/random.bin" >"$TMP/random.out" 2>/dev/null
status=$?
check "dtrace: random bytes do not crash" test "$status" -lt 3
"$STAP" "$TMP/random.bin" >"$TMP/random.out" 2>/dev/null
status=$?
check "stap: random bytes do not crash" test "$status" -lt 3

# Issue 13 item 8: a sum beyond 2^64 - 1 gives the same output, stderr and
# exit status for every -j (it was ignored with -j1, fatal with -j2).
python3 -c '
import sys
w = sys.stdout.write
for i in range(60000):
    w(" m`a\n 1\n m`b\n 1.5x\n")
w(" m`a\n 18446744073709551615\n")
' >"$TMP/overflow.txt"
for p in fg-collapse-stap fg-collapse-dtrace; do
	ref=
	for j in 1 2 3 4; do
		"$BIN/$p" -j$j "$TMP/overflow.txt" >"$TMP/ov.out" 2>"$TMP/ov.err"
		echo "status $?" >>"$TMP/ov.err"
		got=$(cat "$TMP/ov.out" "$TMP/ov.err" | md5sum)
		[ $j = 1 ] && { ref=$got; cp "$TMP/ov.err" "$TMP/ov1.err"; }
		check_eq "$p -j$j: overflowing counts: the same output, stderr and status as -j1" "$ref" "$got"
	done
	check "$p: overflowing counts exit 2 with a message" grep -q 'status 2' "$TMP/ov1.err"
done
