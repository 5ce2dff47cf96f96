#!/usr/bin/env bash
# fg-collapse: the format told from the first lines (-v says which, and from
# which line), --format, refusals, and output byte for byte that of the
# format's own collapser, on every reference input and on fixtures
# (tests/fixtures/detect and the other collapsers' fixtures).
. "$(dirname "$0")/lib.sh"

AUTO=$BIN/fg-collapse
D=$FIXTURES/detect

# same_as NAME FORMAT PROGRAM FILE: fg-collapse -v detects FORMAT in FILE and
# writes what PROGRAM writes (stdout, and the exit status).
same_as() {
	local name=$1 format=$2 prog=$3 file=$4
	"$BIN/$prog" "$file" >"$TMP/want" 2>/dev/null
	local want_status=$?
	"$AUTO" -v "$file" >"$TMP/out" 2>"$TMP/err"
	local status=$?
	check_same "$name: the same bytes as $prog" "$TMP/want" "$TMP/out"
	check_eq "$name: the same exit status as $prog" "$want_status" "$status"
	if grep -q "^fg-collapse: $file:[0-9]*: $format (detected from this line)$" "$TMP/err"; then
		pass "$name: -v says $format"
	else
		fail "$name: -v says $format" "$(head -n 3 "$TMP/err")"
	fi
}

# --- every reference input and fixture of the four collapsers -----------------
if have_reference; then
	for f in "$REFERENCE"/collapse-perf/*.txt; do
		[ -e "$f" ] && same_as "reference $(basename "$f")" perf fg-collapse-perf "$f"
	done
	for f in "$REFERENCE"/collapse-perf/*.gz; do
		if "$BIN/fg-collapse-perf" --version >/dev/null && ! "$BIN/fg-collapse-perf" "$f" 2>&1 >/dev/null | grep -q zlib; then
			same_as "reference $(basename "$f")" perf fg-collapse-perf "$f"
		else
			skip "reference $(basename "$f")" "built without zlib"
		fi
	done
	same_as "reference example-dtrace-stacks" dtrace fg-collapse-dtrace \
		"$REFERENCE/collapse-dtrace/example-dtrace-stacks.txt"
	same_as "reference cxx-stap-stacks" stap fg-collapse-stap "$REFERENCE/collapse-stap/cxx-stap-stacks.txt"
	for f in "$REFERENCE"/collapse-bpftrace/*.txt; do
		same_as "reference $(basename "$f")" bpftrace fg-collapse-bpftrace "$f"
	done
else
	skip_reference "fg-collapse on the reference inputs"
fi
for f in "$FIXTURES"/perf/*.perf; do
	same_as "fixture perf/$(basename "$f")" perf fg-collapse-perf "$f"
done
for f in "$FIXTURES"/dtrace/rules.txt "$FIXTURES"/dtrace/quiet.txt "$FIXTURES"/dtrace/malformed.txt \
	"$D"/dtrace-terminal.txt; do
	same_as "fixture ${f#"$FIXTURES"/}" dtrace fg-collapse-dtrace "$f"
done
same_as "fixture stap/rules.txt" stap fg-collapse-stap "$FIXTURES/stap/rules.txt"
same_as "fixture detect/stap.txt (a WARNING line first)" stap fg-collapse-stap "$D/stap.txt"
for f in "$FIXTURES"/bpftrace/rules.txt "$FIXTURES"/bpftrace/malformed.txt "$D"/bpftrace-prompt.txt; do
	same_as "fixture ${f#"$FIXTURES"/}" bpftrace fg-collapse-bpftrace "$f"
done
same_as "fixture detect/perf-oneline.txt (right-aligned comm, one-line stacks)" perf \
	fg-collapse-perf "$D/perf-oneline.txt"
# perf record without -g, perf script -F comm,tid,period,event,ip,sym,dso:
# one-line samples without a time field.
same_as "fixture detect/perf-oneline-notime.txt (one-line stacks, no time)" perf \
	fg-collapse-perf "$D/perf-oneline-notime.txt"
same_as "fixture detect/perf-old.txt (no time, unindented frames)" perf fg-collapse-perf "$D/perf-old.txt"
# perf script -F comm,tid,ip,sym,dso: "prog 123 " is a folded line too, but
# an indented perf frame follows it.
same_as "fixture detect/perf-comm-tid.txt (a header of comm and tid only)" perf \
	fg-collapse-perf "$D/perf-comm-tid.txt"

# The deciding line, as -v reports it.
"$AUTO" -v "$D/bpftrace-prompt.txt" 2>&1 >/dev/null | grep -q 'bpftrace-prompt.txt:2: bpftrace' &&
	pass "-v: a shell prompt decides nothing; 'Attaching 1 probe...' (line 2) does" ||
	fail "-v: the bpftrace banner decides"
"$AUTO" -v "$D/dtrace-terminal.txt" 2>&1 >/dev/null | grep -q 'dtrace-terminal.txt:1: dtrace' &&
	pass "-v: 'dtrace: description ...' (line 1) decides" || fail "-v: the dtrace: line decides"

# DTrace frames without a module: only the shape tells (indented frames, then a count).
"$AUTO" -v "$D/dtrace-addresses.txt" >"$TMP/out" 2>"$TMP/err"
"$BIN/fg-collapse-dtrace" "$D/dtrace-addresses.txt" >"$TMP/want"
check_same "bare addresses and counts: read as DTrace" "$TMP/want" "$TMP/out"
check "bare addresses and counts: -v names the first count line" \
	grep -q 'dtrace-addresses.txt:4: dtrace' "$TMP/err"

# --- folded input: summed and sorted ----------------------------------------
printf ' 5\nmain;idle 1\nmain;work 2.5\nmain;work;compute 7\n' >"$TMP/want"
"$AUTO" -v "$D/folded-empty-first.txt" >"$TMP/out" 2>"$TMP/err"
check_same "folded: equal stacks summed (decimals too), sorted, the empty stack kept" "$TMP/want" "$TMP/out"
check "folded: ' 5' decides nothing, the next line does" grep -q 'folded-empty-first.txt:2: folded' "$TMP/err"
# Only empty stacks: no line tells, but folded or a trace capture of empty
# stacks give the same stacks: read as folded, each count an empty stack
# however far it is indented (not a frame of spaces), and such a file
# goes with other folded files.
printf ' 5\n\n 3\n              12\n' >"$TMP/empty-only.folded"
"$AUTO" -v "$TMP/empty-only.folded" >"$TMP/out" 2>"$TMP/err"
check_eq "counts alone: summed as empty stacks" " 20" "$(cat "$TMP/out")"
check "counts alone: -v names the first count line" grep -q 'empty-only.folded:1: folded' "$TMP/err"
printf 'main;foo 3\n' >"$TMP/one-stack.folded"
check_eq "counts alone, then a folded file: both read" " 20
main;foo 3" "$("$AUTO" "$TMP/empty-only.folded" "$TMP/one-stack.folded" 2>&1)"
if have_reference; then
	# A collapser's output, shuffled and doubled: fg-collapse gives it back summed.
	exp=$REFERENCE/collapse-perf/expected
	f=$(ls "$exp"/*.txt 2>/dev/null | head -n 1)
	if [ -n "$f" ]; then
		{ cat "$f"; cat "$f"; } | awk 'BEGIN { srand(7) } { print rand() "\t" $0 }' | sort | cut -f2- >"$TMP/shuffled"
		awk '{ n = $NF; sub(/[0-9]+$/, ""); print $0 (2 * n) }' "$f" | LC_ALL=C sort >"$TMP/want"
		"$AUTO" "$TMP/shuffled" >"$TMP/out"
		check_same "folded: a collapser's output shuffled and doubled comes back summed and sorted" \
			"$TMP/want" "$TMP/out"
	fi
fi
printf 'a;b 1 2\na;b 3\nnot folded\n' >"$TMP/diff.folded"
"$AUTO" "$TMP/diff.folded" >"$TMP/out" 2>"$TMP/err"
check_eq "folded: a differential line is skipped" "a;b 3" "$(cat "$TMP/out")"
check "folded: with a warning naming file:line" grep -q 'diff.folded:1: two counts' "$TMP/err"
check "folded: an invalid line is skipped with file:line" grep -q 'diff.folded:3: no valid count' "$TMP/err"

# --- --format --------------------------------------------------------------
"$BIN/fg-collapse-stap" "$D/dtrace-addresses.txt" >"$TMP/want" 2>/dev/null
"$AUTO" --format stap -v "$D/dtrace-addresses.txt" >"$TMP/out" 2>"$TMP/err"
check_same "--format stap: the stap collapser, whatever the lines look like" "$TMP/want" "$TMP/out"
check "--format: -v says it was forced" grep -q 'stap (--format)' "$TMP/err"
"$BIN/fg-collapse-perf" "$D/prose.txt" >"$TMP/want" 2>/dev/null
"$AUTO" --format=PERF "$D/prose.txt" >"$TMP/out" 2>/dev/null
check_same "--format=PERF (any case) reads even prose as perf" "$TMP/want" "$TMP/out"
check_status "--format bogus is a usage error (1)" 1 "$AUTO" --format bogus "$D/stap.txt"
"$AUTO" --format bogus 2>"$TMP/err" </dev/null
check "--format bogus: the message lists the formats" grep -q "unknown format 'bogus' (perf, dtrace, stap, bpftrace, folded)" "$TMP/err"

# --- refusals -----------------------------------------------------------------
"$AUTO" "$D/prose.txt" >"$TMP/out" 2>"$TMP/err"
check_eq "prose: refused (exit 2), nothing written" "2 0" "$? $(wc -c <"$TMP/out")"
check "prose: the message names the file and the way out" \
	grep -q "^fg-collapse: .*prose.txt: cannot tell the format: .*--format NAME" "$TMP/err"
echo old >"$TMP/result.folded"
"$AUTO" -o "$TMP/result.folded" "$D/prose.txt" 2>/dev/null
check_eq "prose with -o: the old file is kept" old "$(cat "$TMP/result.folded")"
"$AUTO" "$D/stap.txt" "$D/bpftrace-prompt.txt" >"$TMP/out" 2>"$TMP/err"
check_eq "two inputs of different formats: refused (exit 2), nothing written" "2 0" "$? $(wc -c <"$TMP/out")"
check "two inputs of different formats: the message says which is which" \
	grep -q "bpftrace-prompt.txt:2: bpftrace output, but .*stap.txt holds stap output" "$TMP/err"
check_status "empty input: no stacks (2)" 2 "$AUTO" /dev/null
"$BIN/fg-collapse-stap" "$D/stap.txt" >"$TMP/want" 2>/dev/null
"$AUTO" -v /dev/null "$D/stap.txt" /dev/null >"$TMP/out" 2>"$TMP/err"
check_same "empty inputs before and after a stap input: no format of their own, the stap output" \
	"$TMP/want" "$TMP/out"
check "empty inputs: -v says so" grep -q '^fg-collapse: /dev/null: unknown (empty or blank input)$' "$TMP/err"
printf '\n \n' | "$AUTO" -v >/dev/null 2>"$TMP/err"
check "blank input: -v says so" grep -q '^fg-collapse: <stdin>: unknown (empty or blank input)$' "$TMP/err"
check_status "a missing file is an I/O error (2)" 2 "$AUTO" "$TMP/missing"
check_status "-j -1 is a usage error (1)" 1 "$AUTO" -j -1 "$D/stap.txt"

# A MB of text that tells nothing: refused after the first MB.
awk 'BEGIN { for (i = 0; i < 40000; i++) print "just some words, line", i, "of them" }' >"$TMP/words.txt"
"$AUTO" "$TMP/words.txt" >/dev/null 2>"$TMP/err"
check "a MB of words: refused, saying it looked at the first MB" grep -q 'from the first MB' "$TMP/err"
# The deciding line may come late: 200 KB of prose, then bpftrace.
{ awk 'BEGIN { for (i = 0; i < 6000; i++) print "some words here, nothing more", i, "x" }'
  cat "$D/bpftrace-prompt.txt"; } >"$TMP/late.txt"
"$AUTO" -v "$TMP/late.txt" >"$TMP/out" 2>"$TMP/err"
"$BIN/fg-collapse-bpftrace" "$D/bpftrace-prompt.txt" >"$TMP/want"
check_same "a deciding line after 200 KB of prose is found" "$TMP/want" "$TMP/out"
check "its line number is reported" grep -q 'late.txt:6002: bpftrace' "$TMP/err"

# --- stdin, gzip, several inputs, -j, -o ---------------------------------------
"$AUTO" <"$D/bpftrace-prompt.txt" >"$TMP/out"
"$BIN/fg-collapse-bpftrace" "$D/bpftrace-prompt.txt" >"$TMP/want"
check_same "stdin: detected and read in full" "$TMP/want" "$TMP/out"
if gzip -c "$D/dtrace-terminal.txt" >"$TMP/d.gz" && "$BIN/fg-collapse-dtrace" "$TMP/d.gz" >"$TMP/want" 2>/dev/null; then
	"$AUTO" -v <"$TMP/d.gz" >"$TMP/out" 2>"$TMP/err"
	check_same "gzip on stdin: detected after inflating" "$TMP/want" "$TMP/out"
	check "gzip on stdin: -v says dtrace" grep -q '<stdin>:1: dtrace' "$TMP/err"
else
	skip "fg-collapse gzip" "built without zlib"
fi
"$BIN/fg-collapse-bpftrace" "$FIXTURES/bpftrace/rules.txt" "$D/bpftrace-prompt.txt" >"$TMP/want"
"$AUTO" "$FIXTURES/bpftrace/rules.txt" - <"$D/bpftrace-prompt.txt" >"$TMP/out"
check_same "two bpftrace inputs (a file and stdin): as fg-collapse-bpftrace" "$TMP/want" "$TMP/out"
for _ in $(seq 1 2000); do cat "$FIXTURES/bpftrace/rules.txt"; done >"$TMP/big.txt"
"$BIN/fg-collapse-bpftrace" -j 1 "$TMP/big.txt" >"$TMP/want"
for j in 1 3 0; do
	"$AUTO" -j "$j" "$TMP/big.txt" >"$TMP/out"
	check_same "-j $j: the same bytes as fg-collapse-bpftrace" "$TMP/want" "$TMP/out"
done
"$AUTO" -o "$TMP/result.folded" "$D/stap.txt" 2>/dev/null
"$BIN/fg-collapse-stap" "$D/stap.txt" >"$TMP/want" 2>/dev/null
check_same "-o FILE" "$TMP/want" "$TMP/result.folded"
check_status "--help (0)" 0 "$AUTO" --help
check "--help shows the synopsis" sh -c "'$AUTO' --help | grep -q '^Usage: fg-collapse \\[-v\\] \\[--format NAME\\]'"
check_eq "--version" "fg-collapse $("$AUTO" --version | awk '{print $2}')" "$("$AUTO" --version)"
head -c 100000 /dev/urandom >"$TMP/random.bin"
"$AUTO" "$TMP/random.bin" >/dev/null 2>&1
status=$?
check "random bytes do not crash" test "$status" -lt 3

# The hint about other events names the program that has the option:
# fg-collapse has no --event-filter.
"$AUTO" "$FIXTURES/perf/real-tracepoint.perf" 2>"$TMP/hint.err" >/dev/null
check "fg-collapse: the event hint names fg-collapse-perf --event-filter" \
	grep -q 'is collapsed (see fg-collapse-perf --event-filter)$' "$TMP/hint.err"

# An input of blank lines only holds nothing, as an empty one: skipped,
# not a format that cannot be told.
printf 'a;b 3\n' >"$TMP/one.folded"
printf '\n  \n\t\r\n' >"$TMP/blank.txt"
check_eq "fg-collapse: blank lines only are an empty input, skipped" "a;b 3" \
	"$("$AUTO" "$TMP/one.folded" "$TMP/blank.txt" 2>&1)"
# Counts alone over the whole first MB, more input after: nothing told,
# refused (a capture may begin with a MB of empty stacks: read as folded,
# its stacks after would be lost).
awk 'BEGIN { for (i = 0; i < 300000; i++) print "      5"; print "      m`f"; print "      3" }' >"$TMP/counts-first.txt"
check_failure "counts alone for the whole first MB: refused, not guessed" 2 \
	'counts-first.txt: cannot tell the format from the first MB' "$AUTO" "$TMP/counts-first.txt"
# The first MB ends inside a perf header: the piece before the edge,
# "java 24636", would pass for a folded line. Only whole lines are judged
# (refused here, from a file and from a pipe); 66 blank lines fewer and the
# header is whole inside the MB: perf.
for lines in 1048566 1048500; do
	{ head -c $lines /dev/zero | tr '\0' '\n'
	  printf 'java 24636/25607 [000] 4794564.109216:    10101010 cycles:\n\tffffffff8103d0ca bar ([kernel.kallsyms])\n\n'; } >"$TMP/edge-$lines.txt"
done
check_failure "a line cut at the first MB's edge is not judged (a file)" 2 \
	'edge-1048566.txt: cannot tell the format from the first MB' "$AUTO" "$TMP/edge-1048566.txt"
check_failure "a line cut at the first MB's edge is not judged (a pipe)" 2 \
	'<stdin>: cannot tell the format from the first MB' sh -c '"$1" < "$2"' sh "$AUTO" "$TMP/edge-1048566.txt"
check_eq "a header whole inside the first MB decides perf" "java;bar 10101010" \
	"$("$AUTO" "$TMP/edge-1048500.txt" 2>/dev/null)"
# ... the same from a pipe, where the header is the last whole line of the
# first 64 KB looked at (the line after decides: read on for it); and with
# no blank after the TID, which fg-collapse-perf does not take for a
# header, it stays folded.
python3 -c "import sys; sys.stdout.write('x y\\n' * 16381 + 'x\\n' + 'prog 123 \\n\\t55d4 main (/bin/x)\\n\\t55d0 _start (/bin/x)\\n\\n')" >"$TMP/edge64k.txt"
cat "$TMP/edge64k.txt" | "$AUTO" -v >/dev/null 2>"$TMP/err"
check "a comm TID header at the end of the first 64 KB of a pipe: perf" \
	grep -q '^fg-collapse: <stdin>:16383: perf (detected from this line)$' "$TMP/err"
printf 'prog 123\n\t55d4 main (/bin/x)\n\n' | "$AUTO" -v >/dev/null 2>"$TMP/err"
check "'prog 123' with no blank after it: folded, as fg-collapse-perf takes no such header" \
	grep -q '^fg-collapse: <stdin>:1: folded (detected from this line)$' "$TMP/err"
